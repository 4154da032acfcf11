"""What the tree search (``mcts.py``) asks of a game: the :class:`Adapter` interface.

The search knows nothing of either game; everything it uses is declared here, and each game's
adapter (``harmonies_search.py``, ``living_forest_search.py``) subclasses :class:`Adapter`.
This module imports no adapter and not the search, so the search and the adapters import it
and never each other.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from mypy_extensions import mypyc_attr

from glade.core import Game

Move = tuple[int, ...]
Ranked = tuple[Move, float, float, int]  # move, mean value, mean projected score, visits
Outcome = tuple[list[float], list[float]]  # (value per seat in [0, 1], projected score per seat)

# search iterations per bot level, unless the adapter says otherwise (``Adapter.levels``)
ITERATIONS: Mapping[str, int] = {"easy": 10, "normal": 40, "hard": 150}


def outcome_values(state: Game) -> Outcome:
    """Values: 1 for a sole winner, shared for ties, 0 otherwise, nudged by the score margin;
    scores: the final scores."""
    result = state.result()
    scores = [float(x) for x in result["scores"]]
    winners = result["winners"]
    n = len(scores)
    if n == 1:
        return [min(1.0, scores[0] / 150)], scores
    out = []
    for s in range(n):
        base = (1.0 / len(winners)) if s in winners else 0.0
        best_other = max(scores[o] for o in range(n) if o != s)
        margin = math.tanh((scores[s] - best_other) / 30)
        out.append(0.9 * base + 0.05 * (1 + margin))
    return out, scores


# compiled, it may still be subclassed by a game's adapter that runs as plain source
@mypyc_attr(allow_interpreted_subclasses=True)
class Adapter(ABC):
    """One game as the search sees it.

    The tree search uses ``tree_depth``, ``levels``, ``root_halving``, ``anchor_margin``,
    ``moves``, ``rollout`` and ``final_values``; an adapter that searches the root itself answers
    ``search_root`` instead (then the tree is not built).
    """

    # how many moves deep the tree grows below the root before the play-out takes over
    # (class variables: each adapter sets its own in its class body)
    tree_depth: ClassVar[int] = 1
    # the default budget (iterations, or the adapter's own samples) of each bot level
    levels: ClassVar[Mapping[str, int]] = ITERATIONS
    # search the root by sequential halving with common random numbers instead of UCB
    root_halving: ClassVar[bool] = False
    # the first root move is the policy's choice: it stays first unless another move's mean
    # value beats it by this much (None: the most visited move wins)
    anchor_margin: ClassVar[float | None] = None

    def __init__(self) -> None:
        # compiled, the class is not refused by ABC alone (mypyc makes no abstract-instance
        # check for a class plain-source code may subclass)
        if type(self) is Adapter:
            raise TypeError("Adapter is abstract: make a game's adapter (a subclass) instead")

    @abstractmethod
    def moves(self, state: Game, seat: int, root: bool) -> list[Move]:
        """Candidate moves of ``seat`` now, most promising first (each a list of action ids)."""

    @abstractmethod
    def rollout(self, state: Game, seat: int, rng: random.Random) -> Outcome:
        """Play on from ``state`` (it may be changed) with a fast policy: each seat's value in
        [0, 1] and its projected final score."""

    def final_values(self, state: Game) -> Outcome:
        """A finished game's values and scores (by default: win, tie or loss and the margin)."""
        return outcome_values(state)

    def search_root(
        self,
        state: Game,
        seat: int,
        iterations: int | None,
        seconds: float | None,
        rng: random.Random,
    ) -> tuple[list[Ranked], int] | None:
        """The adapter's own search of the root: the moves ranked best first and the number of
        samples played; None (the default) lets the tree search run."""
        return None


__all__ = ["Adapter", "ITERATIONS", "Move", "Outcome", "Ranked", "outcome_values"]
