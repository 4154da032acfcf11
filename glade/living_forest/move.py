"""Moving on the circle of spirits: rocks held by other spirits are jumped and not counted; each
spirit jumped that holds a victory tile is robbed of one (``steal.py``); the landing rock's bonus
follows."""

from __future__ import annotations

from typing import Any

from .data import ROCK_BONUS, SPIRAL
from .space import A_MOVE, ROCK_PENDING, S_CHOOSE, S_STEAL, Why, most_steps, plant_base
from .state import ForestState


def start_why(s: ForestState, seat: int) -> Why | None:
    """Whether the spirit can move at all: None if it can."""
    if s.element(seat, SPIRAL) < 1:
        return ("move.no_spiral", {})
    return None


def candidates(s: ForestState) -> range:
    return range(A_MOVE, plant_base(s.players))


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of a move while moving: None if allowed."""
    if not A_MOVE <= code < plant_base(s.players):
        return ("move.steps", {})
    spiral = s.element(seat, SPIRAL)
    if code - A_MOVE + 1 > spiral:
        return ("move.too_far", {"spiral": spiral})
    return None


def legal(s: ForestState, seat: int) -> list[int]:
    return [c for c in candidates(s) if why(s, seat, c) is None]


def walk(s: ForestState, seat: int, steps: int) -> tuple[int, list[int]]:
    """The rock ``steps`` rocks clockwise of ``seat``'s spirit and the spirits jumped on the way."""
    rocks = s.rocks
    others = {rocks[o]: o for o in range(s.players) if o != seat}
    p = rocks[seat]
    jumped = []
    while steps:
        p = (p + 1) % 12
        if p in others:
            jumped.append(others[p])  # occupied rocks are jumped and not counted
        else:
            steps -= 1
    return p, jumped


def robbed(s: ForestState, jumped: list[int]) -> list[int]:
    """The spirits jumped that hold a victory tile: each is robbed of one, in order."""
    return [o for o in jumped if any(s.victory_tiles[o])]


def play(s: ForestState, seat: int, code: int) -> None:
    p, jumped = walk(s, seat, code - A_MOVE + 1)
    s.rocks[seat] = p
    s.steal_from = robbed(s, jumped)
    s.bonuses_pending.append(ROCK_PENDING[p])
    s.step = S_STEAL if s.steal_from else S_CHOOSE


def preview(s: ForestState, seat: int, steps: int) -> dict[str, Any]:
    """Where a move of ``steps`` rocks would take ``seat``'s spirit (``play``'s own walk)."""
    p, jumped = walk(s, seat, steps)
    return {"rock": p, "bonus": ROCK_BONUS[p], "jumped": jumped, "steal_from": robbed(s, jumped)}


def previews(s: ForestState, seat: int) -> list[dict[str, Any]]:
    """``preview`` of every move ``seat`` may make now, by steps."""
    top = min(s.element(seat, SPIRAL), most_steps(s.players))
    return [{"steps": k, **preview(s, seat, k)} for k in range(1, top + 1)]
