"""The rules in one place: which moves are allowed now and why the others are not, and what a
move does. ``why`` is the one check; ``legal`` keeps exactly the moves it allows.

A move is refused first for what is true whatever it is (the phase, whose turn), then by the
check of the step in progress (``draw``, ``choose``, ``attract``, ``extinguish``, ``move``,
``steal``, ``plant``). Each step's module lists the moves that belong to it (its
``CANDIDATES``, or ``candidates``), refuses every other move, and its ``legal`` keeps the
candidates its ``why`` allows; so ``legal`` is, by construction, the set of moves ``why``
allows (``tests/living_forest/test_lf_one_check.py`` also compares them on random games).
"""

from __future__ import annotations

from typing import Final

from glade.core.game import LogEntry

from . import attract, choose, draw, extinguish, move, plant, round_end, steal, turn
from .space import (
    A_DRAW,
    A_STOP,
    A_USE,
    ACTIONS,
    DRAW,
    OVER,
    S_ATTRACT,
    S_CHOOSE,
    S_EXTINGUISH,
    S_MOVE,
    S_STEAL,
    Why,
)
from .state import ForestState


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """None if ``seat`` (a seat of the game) may play move ``code`` (an id of the action
    space) now, else the refusal's code and params."""
    phase = s.phase
    if phase == DRAW:
        if code > A_USE:
            return ("round.drawing", {})
        if not s.drawing[seat]:
            return ("draw.stopped", {})
        return draw.why(s, seat, code)
    if phase == OVER:
        return ("game.over", {})
    if seat != s.current_spirit:
        return ("round.other_spirit", {"spirit": s.current_spirit})
    if code <= A_USE:
        return ("round.draw_over", {})
    step = s.step
    if step == S_CHOOSE:
        return choose.why(s, seat, code)
    if step == S_ATTRACT:
        return attract.why(s, seat, code)
    if step == S_EXTINGUISH:
        return extinguish.why(s, seat, code)
    if step == S_MOVE:
        return move.why(s, seat, code)
    if step == S_STEAL:
        return steal.why(s, seat, code)
    return plant.why(s, seat, code)


def legal(s: ForestState, seat: int) -> list[int]:
    """Every move ``why`` allows ``seat`` (any int) now, in id order within each step."""
    phase = s.phase
    if phase == DRAW:
        if not (0 <= seat < s.players and s.drawing[seat]):
            return []
        # draw.legal, inlined: random play asks for it at most moves
        out = []
        if s.solitary[seat] < 3 and (s.draw_stacks[seat] or s.discards[seat]):
            out.append(A_DRAW)
        if s.help_lines[seat]:
            out.append(A_STOP)
        if s.just_drawn[seat] and s.fragments[seat]:
            out.append(A_USE)
        return out
    if phase != ACTIONS or seat != s.current_spirit:
        return []
    step = s.step
    if step == S_CHOOSE:
        return choose.legal(s, seat)
    if step == S_ATTRACT:
        return attract.legal(s, seat)
    if step == S_EXTINGUISH:
        return extinguish.legal(s, seat)
    if step == S_MOVE:
        return move.legal(s, seat)
    if step == S_STEAL:
        return steal.legal(s, seat)
    return plant.legal(s, seat)


def play(s: ForestState, seat: int, code: int) -> tuple[int, ...]:
    """Apply move ``code`` of ``seat``, which ``why`` allows, and log it with its chance;
    returns who acts next (``to_act``)."""
    log = s.log
    if s.phase == DRAW:
        # keep the draw-phase block of the log sorted by seat (stable), so the log does not
        # depend on the order in which simultaneous draws arrive
        at = len(log)
        start = s.draw_start
        while at > start and log[at - 1][0] > seat:
            at -= 1
        chance: tuple[int, ...] | None = None
        if code == A_DRAW:
            chance = draw.draw(s, seat)
        elif code == A_STOP:
            draw.stop(s, seat)
        else:
            draw.use_fragment(s, seat)
        log.insert(at, (seat, code, chance))
        if not any(s.drawing):
            turn.start_action_phase(s)
    else:
        entry: LogEntry = (seat, code, None)
        log.append(entry)
        if act(s, seat, code):
            chance = round_end.end_round(s)
            if chance is not None:
                log[-1] = (seat, code, chance)
    acting = s.to_act = to_act(s)
    return acting


def act(s: ForestState, seat: int, code: int) -> bool:
    """The action-phase part of ``play`` before the end of round: the step of move ``code``
    (which ``why`` allows), then the bonuses it starts and the end of the turn; True when that
    ended the round's last turn (``play`` then runs ``round_end.end_round``)."""
    step = s.step
    if step == S_CHOOSE:
        choose.play(s, seat, code)
    elif step == S_ATTRACT:
        attract.play(s, seat, code)
    elif step == S_EXTINGUISH:
        extinguish.play(s, seat, code)
    elif step == S_MOVE:
        move.play(s, seat, code)
    elif step == S_STEAL:
        steal.play(s, seat, code)
    else:
        plant.play(s, seat, code)
    return turn.settle(s)


ALONE: Final = ((0,), (1,), (2,), (3,))


def _in_order(players: int, first: int, then: int) -> tuple[int, ...]:
    """The seats of bit set ``first`` then those of ``then``, each in seat order."""
    return tuple(
        [p for p in range(players) if first >> p & 1] + [p for p in range(players) if then >> p & 1]
    )


# the draw phase's to_act by player count and (movers | undoers << 4), made once
DRAW_TO_ACT: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_in_order(n, mask & 15, mask >> 4) for mask in range(256)) for n in range(5)
)


def to_act(s: ForestState) -> tuple[int, ...]:
    """Every spirit that may act now: those with a move first (in seat order), then, in the
    draw phase, those that stopped of their own accord and may still undo that stop."""
    if s.phase == ACTIONS:
        return ALONE[s.current_spirit]
    if s.phase == DRAW:
        # a spirit that stopped of its own accord may undo that stop: a forced stop leaves
        # 3 solitary symbols and no fragment, a voluntary one never does
        drawing = s.drawing
        solitary = s.solitary
        fragments = s.fragments
        mask = 0
        for p in range(s.players):
            if drawing[p]:
                mask |= 1 << p
            elif solitary[p] < 3 or fragments[p]:
                mask |= 16 << p
        return DRAW_TO_ACT[s.players][mask]
    return ()
