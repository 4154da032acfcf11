"""Extinguishing fires: take centre fires one at a time while the water left covers them (the main
action, or the bonus of a rock or a corner with extra water); the spirit keeps them."""

from __future__ import annotations

from typing import Final

from .space import A_DONE, A_FIRE, A_STEAL, S_CHOOSE, Why
from .state import ForestState

CANDIDATES: Final = (A_DONE, *range(A_FIRE, A_STEAL))


def start_why(s: ForestState, water: int) -> Why | None:
    """Whether an extinguish with ``water`` to spend can take anything: None if it can."""
    centre = s.centre_fires
    if not centre:
        return ("extinguish.no_fire", {})
    smallest = min(centre)
    if smallest > water:
        return ("extinguish.too_big", {"value": smallest, "water": water})
    return None


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of a move while extinguishing: None if allowed."""
    if code == A_DONE:
        if s.taken_in_step:
            return None
        if s.bonus_step:
            return ("bonus.extinguish", {})
        return ("extinguish.take_one", {})
    if not A_FIRE <= code < A_STEAL:
        return ("extinguish.pick", {})
    i = code - A_FIRE
    centre = s.centre_fires
    if i >= len(centre):
        return ("extinguish.no_such_fire", {"index": i, "left": len(centre)})
    if centre[i] > s.spend_left:
        return ("extinguish.over_budget", {"value": centre[i], "left": s.spend_left})
    return None


def legal(s: ForestState, seat: int) -> list[int]:
    return [c for c in CANDIDATES if why(s, seat, c) is None]


def play(s: ForestState, seat: int, code: int) -> None:
    """Apply an allowed move: ``done``, or keep a centre fire (the extinguish ends by itself
    once no fire left fits in the water left)."""
    if code == A_DONE:
        s.step = S_CHOOSE
        return
    value = s.centre_fires.pop(code - A_FIRE)
    s.fires_kept[seat][value - 2] += 1
    s.spend_left -= value
    s.taken_in_step += 1
    if start_why(s, s.spend_left) is not None:
        s.step = S_CHOOSE
