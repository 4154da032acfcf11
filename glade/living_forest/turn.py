"""The order of turns: the action phase starts after the last spirit stops drawing; a spirit's
pending bonuses start after the step that earned them; its turn ends when it has nothing left to
do, and the last turn of a round ends the round (``round_end.py``)."""

from __future__ import annotations

from . import attract, extinguish, plant, round_end
from .data import SUN, WATER
from .space import (
    ACTIONS,
    B_ATTRACT,
    B_EXTINGUISH,
    B_FRAGMENTS,
    S_ATTRACT,
    S_CHOOSE,
    S_EXTINGUISH,
    S_PLANT,
)
from .state import ForestState


def start_action_phase(s: ForestState) -> None:
    s.phase = ACTIONS
    s.turns_done = 0
    s.current_spirit = s.sacred_tree
    start_turn(s)


def start_turn(s: ForestState) -> None:
    s.actions_left = 1 if s.solitary[s.current_spirit] >= 3 else 2
    s.actions_used = 0
    s.step = S_CHOOSE
    s.bonus_step = False
    s.turn_start = len(s.log)


def settle(s: ForestState) -> tuple[int, ...] | None:
    """Start pending bonuses, then end the spirit's turn when it has nothing left to do; returns
    the chance outcome of an end of round (the cards revealed), if one happened.

    A bonus that can do something starts a step that must be carried out; one that can do
    nothing (no affordable card or fire, no tree to plant) is skipped."""
    seat = s.current_spirit
    while s.step == S_CHOOSE:
        if s.bonuses_pending:
            kind, extra = s.bonuses_pending.pop(0)
            s.bonus_step = True
            s.taken_in_step = 0
            if kind == B_FRAGMENTS:
                got = min(extra, s.fragment_supply)
                s.fragment_supply -= got
                s.fragments[seat] += got
            elif kind == B_ATTRACT:
                budget = max(0, s.element(seat, SUN) + extra)
                if attract.start_why(s, budget) is None:
                    s.step, s.spend_left = S_ATTRACT, budget
            elif kind == B_EXTINGUISH:
                budget = max(0, s.element(seat, WATER) + extra)
                if extinguish.start_why(s, budget) is None:
                    s.step, s.spend_left = S_EXTINGUISH, budget
            elif plant.start_why(s, seat) is None:
                s.step = S_PLANT
            continue
        if s.actions_left > 0:
            return None
        return end_turn(s)
    return None


def end_turn(s: ForestState) -> tuple[int, ...] | None:
    s.turns_done += 1
    if s.turns_done < s.players:
        s.current_spirit = (s.current_spirit + 1) % s.players
        start_turn(s)
        return None
    return round_end.end_round(s)
