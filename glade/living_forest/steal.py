"""Taking a victory tile from each spirit a move jumped (that holds one), in the order jumped."""

from __future__ import annotations

from typing import Final

from .data import VICTORY_KINDS
from .space import A_MOVE, A_STEAL, S_CHOOSE, Why
from .state import ForestState

CANDIDATES: Final = tuple(range(A_STEAL, A_MOVE))


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of a move while stealing: None if allowed."""
    victim = s.steal_from[0]
    if not A_STEAL <= code < A_MOVE:
        return ("steal.choose", {"spirit": victim})
    kind = code - A_STEAL
    if not s.victory_tiles[victim][kind]:
        return ("steal.no_tile", {"spirit": victim, "tile": VICTORY_KINDS[kind]})
    return None


def legal(s: ForestState, seat: int) -> list[int]:
    return [c for c in CANDIDATES if why(s, seat, c) is None]


def play(s: ForestState, seat: int, code: int) -> None:
    kind = code - A_STEAL
    victim = s.steal_from.pop(0)
    s.victory_tiles[victim][kind] -= 1
    s.victory_tiles[seat][kind] += 1
    if not s.steal_from:
        s.step = S_CHOOSE
