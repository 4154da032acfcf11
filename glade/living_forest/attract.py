"""Attracting guardian animals: pick face-up cards one at a time while the sun left pays for them
(the main action, or the bonus of a rock or a corner with extra sun)."""

from __future__ import annotations

from typing import Final

from .data import CARDS, EMPTY
from .space import A_DONE, A_FIRE, A_PICK, S_CHOOSE, Why
from .state import ForestState

C_COST: Final = CARDS.cost
C_LEVEL: Final = CARDS.level
CANDIDATES: Final = (A_DONE, *range(A_PICK, A_FIRE))


def start_why(s: ForestState, sun: int) -> Why | None:
    """Whether an attract with ``sun`` to spend can take anything: None if it can."""
    cheapest = -1
    for c in s.display:
        if c >= 0 and (cheapest < 0 or C_COST[c] < cheapest):
            cheapest = C_COST[c]
    if cheapest < 0:
        return ("attract.no_animal", {})
    if cheapest > sun:
        return ("attract.too_dear", {"cost": cheapest, "sun": sun})
    return None


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of a move while attracting: None if allowed."""
    if code == A_DONE:
        if s.taken_in_step:
            return None
        if s.bonus_step:
            return ("bonus.attract", {})
        return ("attract.take_one", {})
    if not A_PICK <= code < A_FIRE:
        return ("attract.pick", {})
    card = s.display[code - A_PICK]
    if card < 0:
        lv, slot = divmod(code - A_PICK, 4)
        return ("attract.slot_empty", {"slot": slot, "level": lv + 1})
    if C_COST[card] > s.spend_left:
        return (
            "attract.over_budget",
            {"card": CARDS.names[card], "cost": C_COST[card], "left": s.spend_left},
        )
    return None


def legal(s: ForestState, seat: int) -> list[int]:
    return [c for c in CANDIDATES if why(s, seat, c) is None]


def play(s: ForestState, seat: int, code: int) -> None:
    """Apply an allowed move: ``done``, or take the card of a slot face down onto the spirit's
    own draw stack (the attract ends by itself once nothing more is affordable)."""
    if code == A_DONE:
        s.step = S_CHOOSE
        return
    i = code - A_PICK
    card = s.display[i]
    s.display[i] = EMPTY
    s.draw_stacks[seat].append(card)
    s.taken_this_round[C_LEVEL[card] - 1] += 1
    s.spend_left -= C_COST[card]
    s.taken_in_step += 1
    if start_why(s, s.spend_left) is not None:
        s.step = S_CHOOSE
