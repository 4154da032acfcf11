"""A one-step greedy Living Forest bot under a hand-written evaluation.

Draw phase: a push-your-luck rule on the solitary count, the chance that the next card is
solitary (from the multiset of its own draw stack, which a player can work out by counting its
cards; never the order) and the fragments it holds.

Action phase: every legal step is tried on a *blinded* copy of the state (every draw stack and
animal stack reshuffled with the bot's own generator, so nothing hidden can leak in), the action
it starts is completed greedily, and the result is scored by ``evaluate``: progress toward 12 in
each category (the best one counts more), permanent forest elements, the quality of the spirit's
cards, fragments, the Onibi threat this round, and the best opponent's progress.
"""

from __future__ import annotations

import random

from glade.bots import Budget
from glade.core import Action, BadInput, Game
from glade.living_forest.data import CARDS, FLOWER, VARAN, WATER
from glade.living_forest.game import (
    A_DONE,
    A_DRAW,
    A_STOP,
    A_USE,
    ACTIONS,
    DRAW,
    OVER,
    S_CHOOSE,
    LivingForestGame,
)
from glade.living_forest.snapshot import ForestSnapshot

CARD_WEIGHTS = (0.5, 0.6, 0.6, 0.35, 1.2)  # sun, water, plant, spiral, flower on a card
FOREST_WEIGHTS = (0.9, 1.1, 1.0, 0.6, 0.0)  # permanent elements of the forest (flowers: progress)


def card_value(card: int) -> float:
    """How much a card helps when it shows on the help line."""
    if card == VARAN:
        return -2.0
    value = sum(w * v for w, v in zip(CARD_WEIGHTS, CARDS.elements[card], strict=True))
    return value - 1.2 * CARDS.coin[card]


CARD_VALUES = [card_value(c) for c in range(len(CARDS.names))]


def progress(snap: ForestSnapshot, seat: int) -> tuple[int, int, int]:
    """Permanent progress: trees, fires, and flowers without the help line (it goes away)."""
    spirit = snap.spirits[seat]
    trees, fires, flowers = spirit.progress
    return trees, fires, flowers - spirit.help_elements[FLOWER]


def evaluate(snap: ForestSnapshot, seat: int, round_no: int) -> float:
    """Hand-written value of a position (its snapshot) for ``seat`` (higher is better)."""
    if snap.phase == OVER:
        return 1000.0 if seat in snap.winners else -1000.0
    p = progress(snap, seat)
    score = sum(p) + max(p) ** 2 / 8.0
    best_other = max(max(progress(snap, o)) for o in range(snap.players) if o != seat)
    score -= 0.5 * best_other**2 / 8.0
    spirit = snap.spirits[seat]
    score += sum(w * v for w, v in zip(FOREST_WEIGHTS, spirit.forest_elements, strict=True))
    cards = spirit.draw_stack + spirit.help_line + spirit.discard
    score += sum(CARD_VALUES[c] for c in cards) / 3.0
    score += 0.7 * min(spirit.fragments, 4)
    # Onibi's attack at the end of this round
    centre = snap.centre_fires
    if (
        snap.round == round_no
        and snap.phase == ACTIONS
        and centre
        and spirit.elements[WATER] < sum(centre)
    ):
        score -= 1.4 * len(centre)
    return score


class LivingForestGreedy:
    """One-step greedy bot; ``choose`` returns one action."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ----------------------------------------------------------------- entry point
    def choose(self, state: Game, seat: int, budget: Budget | None = None) -> list[Action]:
        if not isinstance(state, LivingForestGame):
            raise BadInput("the Living Forest greedy bot plays only Living Forest")
        ids = state.legal_action_ids(seat)
        if not ids:
            raise BadInput(f"seat {seat} has no move to make")
        table = state.action_table()
        if len(ids) == 1:
            return [table[ids[0]]]
        if state.phase == DRAW:
            return [table[self._draw_choice(state, seat, ids)]]
        return [table[self._action_choice(state, seat, ids)]]

    # ----------------------------------------------------------------- draw phase
    def _draw_choice(self, g: LivingForestGame, seat: int, ids: list[int]) -> int:
        spirit = g.spirit_snapshot(seat)
        help_line = spirit.help_line
        net = spirit.solitary
        if A_USE in ids and help_line:
            last = help_line[-1]
            if last == VARAN:
                return A_USE
            if net >= 3 and CARD_VALUES[last] < 2.5 and spirit.fragments >= 1:
                return A_USE  # send away a weak third solitary card and keep drawing
        if A_DRAW not in ids:
            return A_STOP
        if A_STOP not in ids:  # nothing on the help line yet: a spirit may not stop
            return A_DRAW
        if net <= 1:
            return A_DRAW
        pile = spirit.draw_stack or spirit.discard  # the multiset only, never its order
        solitary = sum(1 for c in pile if CARDS.coin[c] > 0)
        risk = solitary / len(pile) if pile else 1.0
        if spirit.fragments and risk < 0.7:
            return A_DRAW
        return A_DRAW if risk <= 0.3 else A_STOP

    # ----------------------------------------------------------------- action phase
    def _blind(self, g: LivingForestGame, seat: int) -> LivingForestGame:
        """A copy whose hidden orders are re-dealt from what ``seat`` may know (never the true
        order: the piles are sorted before the shuffle, publicly known tops stay)."""
        return g.resample_hidden(seat, self.rng)

    def _action_choice(self, g: LivingForestGame, seat: int, ids: list[int]) -> int:
        round_no = g.round
        base = self._blind(g, seat)
        best, best_val = ids[0], -1e9
        for code in ids:
            sim = base.copy()
            sim.apply_action_id(seat, code, checked=True)
            finish_action(sim, seat, round_no)
            val = evaluate(sim.snapshot(), seat, round_no) + self.rng.random() * 1e-3
            if val > best_val:
                best, best_val = code, val
        return best


def finish_action(sim: LivingForestGame, seat: int, round_no: int) -> None:
    """Complete ``seat``'s action in progress on ``sim`` greedily, one step at a time (each step
    the one ``evaluate`` likes best; declining a bonus only when nothing is better)."""
    for _ in range(40):
        if sim.phase != ACTIONS or sim.current_spirit != seat or sim.step == S_CHOOSE:
            return
        ids = sim.legal_action_ids(seat)
        best, best_val = ids[0], -1e9
        for code in ids:
            trial = sim.copy()
            trial.apply_action_id(seat, code, checked=True)
            val = evaluate(trial.snapshot(), seat, round_no)
            if code == A_DONE:
                val -= 0.01
            if val > best_val:
                best, best_val = code, val
        sim.apply_action_id(seat, best, checked=True)


__all__ = ["LivingForestGreedy", "evaluate", "finish_action"]
