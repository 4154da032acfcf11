"""Choosing an action (or ending one's actions): each of the five kinds once a turn (twice with
the cost-11 tree), and only when it can do something. Taking a fragment is done at once."""

from __future__ import annotations

from typing import Final

from . import attract, extinguish, move, plant
from .data import CARDS, SPIRAL, SUN, T11, WATER
from .space import (
    A_CHOOSE,
    A_DONE,
    A_END,
    K_ATTRACT,
    K_EXTINGUISH,
    K_FRAGMENT,
    K_MOVE,
    K_PLANT,
    KIND_NAMES,
    S_ATTRACT,
    S_EXTINGUISH,
    S_MOVE,
    S_PLANT,
    Why,
)
from .state import ForestState

C_COST: Final = CARDS.cost
CANDIDATES: Final = (*range(A_CHOOSE, A_CHOOSE + 5), A_END)


def fragment_why(s: ForestState) -> Why | None:
    """Whether a fragment can be taken: None if one is left in the supply."""
    if s.fragment_supply <= 0:
        return ("fragment.none_left", {})
    return None


def kind_why(s: ForestState, seat: int, kind: int) -> Why | None:
    """Whether an action of ``kind`` can do something now: None if it can."""
    if kind == K_FRAGMENT:
        return fragment_why(s)
    if kind == K_ATTRACT:
        return attract.start_why(s, s.element(seat, SUN))
    if kind == K_EXTINGUISH:
        return extinguish.start_why(s, s.element(seat, WATER))
    if kind == K_MOVE:
        return move.start_why(s, seat)
    return plant.start_why(s, seat)


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of a move while choosing: None if allowed."""
    if code == A_END:
        return None
    if not A_CHOOSE <= code < A_CHOOSE + 5:
        if code == A_DONE:
            return ("actions.nothing_to_finish", {})
        return ("actions.choose_first", {})
    kind = code - A_CHOOSE
    return again_why(s, seat, kind) or kind_why(s, seat, kind)


def again_why(s: ForestState, seat: int, kind: int) -> Why | None:
    """Whether ``kind`` may be chosen this turn: once, or again with the cost-11 tree."""
    if s.actions_used >> kind & 1 and not has_t11(s.forests[seat]):
        return ("actions.same_action", {"action": KIND_NAMES[kind]})
    return None


def has_t11(forest: list[int]) -> bool:
    """Whether a forest holds the cost-11 tree (which lets an action be chosen twice)."""
    return any(t == T11 for t in forest)


def legal_plain(s: ForestState, seat: int) -> list[int]:
    """The moves ``why`` allows while choosing: the definition of ``legal``."""
    return [c for c in CANDIDATES if why(s, seat, c) is None]


def legal(s: ForestState, seat: int) -> list[int]:
    """``legal_plain`` fused into one pass (random play and the bots ask for it at every
    choice; the chain of checks with their refusals costs several times the answer).
    ``test_lf_one_check`` compares the two at every position of random games."""
    used = s.actions_used
    twice = used != 0 and has_t11(s.forests[seat])
    helps = s.help_elements[seat]
    trees = s.forest_elements[seat]
    sun = helps[SUN] + trees[SUN]
    water = helps[WATER] + trees[WATER]
    out = []
    if (twice or not used & 1) and s.fragment_supply > 0:
        out.append(A_CHOOSE + K_FRAGMENT)
    if twice or not used & 2:
        for c in s.display:
            if c >= 0 and C_COST[c] <= sun:
                out.append(A_CHOOSE + K_ATTRACT)
                break
    if twice or not used & 4:
        for v in s.centre_fires:
            if v <= water:
                out.append(A_CHOOSE + K_EXTINGUISH)
                break
    if (twice or not used & 8) and helps[SPIRAL] + trees[SPIRAL] >= 1:
        out.append(A_CHOOSE + K_MOVE)
    if (twice or not used & 16) and plant.start_why(s, seat) is None:
        out.append(A_CHOOSE + K_PLANT)
    out.append(A_END)
    return out


def play(s: ForestState, seat: int, code: int) -> None:
    if code == A_END:
        s.actions_left = 0
        return
    kind = code - A_CHOOSE
    s.actions_left -= 1
    s.actions_used |= 1 << kind
    s.bonus_step = False
    s.taken_in_step = 0
    if kind == K_FRAGMENT:
        s.fragment_supply -= 1
        s.fragments[seat] += 1
    elif kind == K_ATTRACT:
        s.step = S_ATTRACT
        s.spend_left = max(0, s.element(seat, SUN))
    elif kind == K_EXTINGUISH:
        s.step = S_EXTINGUISH
        s.spend_left = max(0, s.element(seat, WATER))
    elif kind == K_MOVE:
        s.step = S_MOVE
    else:
        s.step = S_PLANT
