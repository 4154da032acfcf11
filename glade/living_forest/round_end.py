"""The end of a round, after the last spirit's turn: the victory check, then Onibi's two attacks,
the display refilled, the help lines to the discards, and the Sacred Tree passed on."""

from __future__ import annotations

from typing import Any

from .data import CARDS, CENTRE_CAP, FIRE_LEVEL_VALUE, FIRE_VALUES, TARGET, VARAN, WATER
from .score import counts
from .space import A_DRAW, DRAW, OVER, S_CHOOSE
from .state import ForestState


def winners(s: ForestState) -> list[int]:
    """The spirits that win if the game ends now: those that reached 12 of something with the
    highest total among them ([] when nobody has)."""
    progress = [counts(s, p) for p in range(s.players)]
    reached = [p for p in range(s.players) if max(progress[p]) >= TARGET]
    if not reached:
        return []
    best = max(sum(progress[p]) for p in reached)
    return [p for p in reached if sum(progress[p]) == best]


def end_round(s: ForestState) -> tuple[int, ...] | None:
    """End the round (or the game); returns ``(-1, *cards revealed by the refill)`` or None."""
    n = s.players
    # victory is checked after a complete action phase, before the end-of-round steps
    won = winners(s)
    if won:
        s.winners = won
        s.phase = OVER
        s.step = S_CHOOSE
        return None
    order = [(s.sacred_tree + i) % n for i in range(n)]
    centre = s.centre_fires
    # what this end of round does, recorded for everyone to read (public information only)
    water = [s.element(p, WATER) for p in range(n)]
    onibi = list(centre)
    varans = [0] * n
    # a. Onibi attacks every spirit whose water is strictly below the centre's fire
    power = sum(centre)
    victims = [p for p in order if water[p] < power] if centre else []
    for _ in range(len(centre)):
        for p in victims:
            if s.varan_supply:
                s.varan_supply -= 1
                s.discards[p].append(VARAN)
                varans[p] += 1
    # b. Onibi attacks the Sacred Tree: one fire per animal taken, level 1 first, cap 7
    before = len(centre)
    wanted = sum(s.taken_this_round)
    for lv in range(3):
        value = FIRE_LEVEL_VALUE[lv]
        for _ in range(s.taken_this_round[lv]):
            if len(centre) < CENTRE_CAP and s.fire_supply[value - 2]:
                s.fire_supply[value - 2] -= 1
                centre.append(value)
    added = centre[before:]
    refire = False
    if not centre:
        for value in FIRE_VALUES:  # a value-2 fire (a larger one if the 2s ran out)
            if s.fire_supply[value - 2]:
                s.fire_supply[value - 2] -= 1
                centre.append(value)
                refire = True
                break
    # c. refill the display; an empty slot stays empty once its level's stack is exhausted
    revealed: list[int] = []
    refilled: list[dict[str, Any]] = []
    display = s.display
    for i, c in enumerate(display):
        if c < 0:
            stack = s.animal_stacks[i // 4]
            if stack:
                display[i] = stack.pop()
                revealed.append(display[i])
                refilled.append(
                    {"level": i // 4 + 1, "slot": i % 4, "card": CARDS.names[display[i]]}
                )
    reshuffles = [0] * n
    for seat, code, chance in s.log[s.draw_start :]:
        if code == A_DRAW and chance is not None and chance[1]:
            reshuffles[seat] += 1
    s.last_round = {
        "round": s.round,
        "onibi": {"fires": onibi, "power": power},
        "spirits": [
            {
                "seat": p,
                "water": water[p],
                "attacked": p in victims,
                "varans": varans[p],
                "reshuffles": reshuffles[p],
            }
            for p in range(n)
        ],
        "varans_short": sum(varans) < len(victims) * len(onibi),
        "taken": list(s.taken_this_round),
        "fires_added": list(added),
        "fires_capped": len(added) < wanted,
        "centre_refired": centre[-1] if refire else None,
        "refilled": refilled,
        "empty_slots": sum(1 for c in display if c < 0),
        "sacred_tree": {"from": s.sacred_tree, "to": (s.sacred_tree + 1) % n},
    }
    # d. help lines to the discard
    for p in range(n):
        s.discards[p].extend(s.help_lines[p])
        s.help_lines[p] = []
        s.help_elements[p] = [0] * 5
        s.solitary[p] = 0
        s.drawing[p] = True
        s.just_drawn[p] = False
    # e. the Sacred Tree passes clockwise; a new round starts
    s.sacred_tree = (s.sacred_tree + 1) % n
    s.round += 1
    s.taken_this_round = [0, 0, 0]
    s.phase = DRAW
    s.step = S_CHOOSE
    s.draw_start = len(s.log)
    return (-1, *revealed) if revealed else None
