"""The greedy Harmonies bot: plans a whole turn for the best immediate evaluation.

For every central space it searches the placements of the three tokens (a beam over orders and
cells, on board copies), then places every cube it can and takes the animal card that adds most
to the evaluation of ``glade.bots.harmonies_eval``. The turn comes back as a list of actions that
the caller applies in order; each one is checked against the engine before it is returned.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from glade.core import Action, BadInput, Game
from glade.harmonies.data import MAX_HELD
from glade.harmonies.game import Board, HarmoniesGame

from . import Budget
from .harmonies_eval import card_progress, evaluate, need_masks, turns_left

BEAM: Final = 6  # boards kept per step of the token search, per central space
FINALISTS: Final = 3  # token plans per central space whose cubes and card are worked out


@dataclass
class _Node:
    board: Board
    hand: tuple[int, ...]
    codes: tuple[int, ...]
    value: float


def token_plans(
    game: HarmoniesGame,
    seat: int,
    hand: tuple[int, ...],
    left: float,
    beam: int = BEAM,
    keep: int = FINALISTS,
) -> list[_Node]:
    """The best few ways to place ``hand`` on ``seat``'s board, best first (beam search)."""
    sp = game.space
    start = game.boards[seat]
    nodes = [_Node(start, hand, (), evaluate(game, start, left))]
    while nodes and nodes[0].hand:
        children: dict[tuple[tuple[int, ...], tuple[int, ...]], _Node] = {}
        for node in nodes:
            for color, cell in node.board.placements(node.hand):
                b = node.board.copy()
                b.place(color, cell)
                rest = list(node.hand)
                rest.remove(color)
                key = (tuple(b.cells), tuple(rest))
                if key in children:
                    continue
                code = sp.PLACE + color * sp.n + cell
                children[key] = _Node(b, tuple(rest), node.codes + (code,), evaluate(game, b, left))
        if not children:  # no cell takes any token of the hand: the turn cannot go on
            break
        nodes = sorted(children.values(), key=lambda n: -n.value)[:beam]
    return nodes[:keep]


def place_cubes(game: HarmoniesGame, seat: int, left: float) -> list[int]:
    """Put every cube that fits on ``game`` (mutated), best cell first; returns the codes."""
    sp = game.space
    codes: list[int] = []
    while True:
        options = [c for c in game.legal_action_ids(seat) if sp.CUBE <= c < sp.SPIRIT]
        if not options:
            return codes
        best, best_value = options[0], float("-inf")
        for code in options:
            trial = game.copy()
            trial.apply_action_id(seat, code, checked=True)
            value = evaluate(trial, trial.boards[seat], left)
            if value > best_value:
                best, best_value = code, value
        game.apply_action_id(seat, best)
        codes.append(best)


def card_value(game: HarmoniesGame, seat: int, card: int, left: float) -> float:
    """What holding ``card`` (no cube yet) adds to ``seat``'s evaluation."""
    b = game.boards[seat]
    need = need_masks(b)
    return card_progress(card, 0, need, b.cubes, left, game.space.rotations[card], b.layout.below)


def finish_turn(game: HarmoniesGame, seat: int, left: float) -> tuple[list[int], float]:
    """Cubes, the best card and its cubes, on ``game`` (mutated); returns codes and final value."""
    sp = game.space
    codes = place_cubes(game, seat, left)
    b = game.boards[seat]
    if not game.took_card and not game.discarded and b.held() < MAX_HELD:
        best_slot, best_gain = -1, 0.0
        for slot, card in enumerate(game.row):
            if card < 0:
                continue
            gain = card_value(game, seat, card, left)
            if gain > best_gain:
                best_slot, best_gain = slot, gain
        if best_slot >= 0:
            game.apply_action_id(seat, sp.CARD + best_slot)
            codes.append(sp.CARD + best_slot)
            codes += place_cubes(game, seat, left)
    return codes, evaluate(game, game.boards[seat], left)


def turn_candidates(
    state: HarmoniesGame,
    seat: int,
    rng: random.Random,
    beam: int = BEAM,
    per_space: int = FINALISTS,
    spaces: int | None = None,
) -> list[tuple[float, list[int]]]:
    """Whole-turn plans (value, action ids ending with ``end_turn``), best first.

    ``spaces`` limits the central spaces tried to that many, picked at random (rollouts).
    Works from any point of the turn; [] when ``seat`` has a spirit to choose first.
    """
    sp = state.space
    b = state.boards[seat]
    if b.offer:
        return []
    left = turns_left(state, b)
    starts: list[tuple[tuple[int, ...], HarmoniesGame]] = []
    if not state.took:
        choices = [s for s, tokens in enumerate(state.central) if tokens]
        if spaces is not None and len(choices) > spaces:
            choices = rng.sample(choices, spaces)
        for space in choices:
            g = state.copy()
            g.apply_action_id(seat, sp.TAKE + space, checked=True)
            starts.append(((sp.TAKE + space,), g))
    else:
        starts.append(((), state.copy()))
    out: list[tuple[float, list[int]]] = []
    for prefix, g in starts:
        for node in token_plans(g, seat, tuple(g.hand), left, beam, per_space):
            trial = g.copy()
            for code in node.codes:
                trial.apply_action_id(seat, code, checked=True)
            if trial.hand:  # tokens that fit nowhere: the turn cannot be completed
                continue
            rest, value = finish_turn(trial, seat, left)
            value += rng.random() * 1e-6  # seeded tie-break
            out.append((value, [*prefix, *node.codes, *rest, sp.END]))
    out.sort(key=lambda item: -item[0])
    return out


class HarmoniesGreedy:
    """Best whole turn under the hand-written evaluation (score + held cards' habitats)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def plan(self, state: HarmoniesGame, seat: int) -> list[int]:
        """The action ids of the rest of ``seat``'s turn."""
        if not isinstance(state, HarmoniesGame):
            raise BadInput("the Harmonies greedy bot only plays Harmonies")
        if state.is_over or seat not in state.to_act:
            raise BadInput(f"seat {seat} has no move to make")
        b = state.boards[seat]
        if b.offer:
            return [state.space.SPIRIT + self.rng.choice(b.offer) - 32]
        found = turn_candidates(state, seat, self.rng)
        if not found:
            # no complete plan (a hand that fits nowhere); play any legal move instead
            return [self.rng.choice(state.legal_action_ids(seat))]
        return found[0][1]

    def choose(self, state: Game, seat: int, budget: Budget | None = None) -> list[Action]:
        if not isinstance(state, HarmoniesGame):
            raise BadInput("the Harmonies greedy bot only plays Harmonies")
        table = state.action_table()
        return [table[c] for c in self.plan(state, seat)]


__all__ = [
    "HarmoniesGreedy",
    "card_value",
    "finish_turn",
    "place_cubes",
    "token_plans",
    "turn_candidates",
]
