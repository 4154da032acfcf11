"""The Living Forest side of the tree search: one-click moves, greedy play-outs, evaluated leaves.

Every engine step is a move of the tree (Living Forest's steps are small and few). Play-outs run
the greedy bot for every spirit until the end of the next round, then the leaf is scored by the
greedy bot's evaluation, as a win chance from the gap to the best other spirit.
"""

from __future__ import annotations

import math
import random

from glade.core import Game
from glade.living_forest.game import LivingForestGame

from .determinize import determinize
from .living_forest_greedy import LivingForestGreedy, evaluate
from .mcts import Move, Outcome, outcome_values

ROUNDS_AHEAD = 1  # play-outs stop when this many rounds after the current one are done
SCALE = 6.0  # evaluation points that make a clear lead
MAX_STEPS = 2000
ANCHOR_MARGIN = 0.03  # mean value by which a move must beat the greedy choice to replace it


def leaf_values(game: LivingForestGame) -> Outcome:
    """Each spirit's value of an unfinished game, and its current total as its score."""
    evals = [evaluate(game, s, game.round) for s in range(game.n)]
    out = []
    for s, e in enumerate(evals):
        best_other = max(evals[o] for o in range(game.n) if o != s)
        out.append(1 / (1 + math.exp(-(e - best_other) / SCALE)))
    scores = [float(sum(game.counts(s))) for s in range(game.n)]
    return out, scores


class LivingForestAdapter:
    """Moves are the engine's steps; play-outs are greedy for a round or so."""

    tree_depth = 12
    root_halving = False
    anchor_margin = ANCHOR_MARGIN

    def __init__(self) -> None:
        self.policy = LivingForestGreedy(seed=0)

    def moves(self, state: Game, seat: int, root: bool) -> list[Move]:
        """Every legal step; at the root the greedy bot's choice comes first (the anchor)."""
        out: list[Move] = [(c,) for c in state.legal_action_ids(seat)]
        if root and len(out) > 1:
            rng = random.Random(0)
            self.policy.rng = rng
            sample = determinize(state, seat, rng)  # the policy never sees the true order
            first = (state.action_id(self.policy.choose(sample, seat)[0]),)
            out.remove(first)
            out.insert(0, first)
        return out

    def rollout(self, state: Game, seat: int, rng: random.Random) -> Outcome:
        assert isinstance(state, LivingForestGame)
        self.policy.rng = rng
        stop = state.round + ROUNDS_AHEAD + 1
        for _ in range(MAX_STEPS):
            if state.is_over or state.round >= stop:
                break
            mover = state.to_act[0]
            for action in self.policy.choose(state, mover):
                state.apply_action_id(mover, state.action_id(action), checked=True)
        if state.is_over:
            return outcome_values(state)
        return leaf_values(state)


__all__ = ["LivingForestAdapter", "leaf_values"]
