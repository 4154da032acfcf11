"""The order of turns: the action phase starts after the last spirit stops drawing; a spirit's
pending bonuses start after the step that earned them; its turn ends when it has nothing left to
do, and after the last turn of a round the round ends (``round_end.py``, run by ``rules.play``)."""

from __future__ import annotations

from . import attract, extinguish, plant
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


def settle(s: ForestState) -> bool:
    """Start pending bonuses, then end the spirit's turn when it has nothing left to do; returns
    True when that was the round's last turn (the end of round, ``round_end.end_round``, is
    then due: ``rules.play`` runs it).

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
            return False
        return end_turn(s)
    return False


def end_turn(s: ForestState) -> bool:
    """The acting spirit's turn ends: the next spirit's begins, or (True) the round is over."""
    s.turns_done += 1
    if s.turns_done < s.players:
        s.current_spirit = (s.current_spirit + 1) % s.players
        start_turn(s)
        return False
    return True
