"""The end of a round, after the last spirit's turn: the victory check, then Onibi's two attacks,
the display refilled, the help lines to the discards, and the Sacred Tree passed on."""

from __future__ import annotations

from typing import Any, Final

from .data import CARDS, CENTRE_CAP, FIRE_LEVEL_VALUE, FIRE_VALUES, TARGET, VARAN, WATER
from .score import counts
from .space import A_DRAW, DRAW, OVER, S_CHOOSE
from .state import ForestState

LEVEL_VALUE: Final[tuple[int, ...]] = FIRE_LEVEL_VALUE
VALUES: Final[tuple[int, ...]] = FIRE_VALUES


def winners(s: ForestState) -> list[int]:
    """The spirits that win if the game ends now: those that reached 12 of something with the
    highest total among them ([] when nobody has)."""
    best = -1
    won: list[int] = []
    for p in range(s.players):
        trees, fires, flowers = counts(s, p)
        if trees < TARGET and fires < TARGET and flowers < TARGET:
            continue
        total = trees + fires + flowers
        if total > best:
            best = total
            won = [p]
        elif total == best:
            won.append(p)
    return won


class RoundRecord:
    """What one end of round did, in public information, as the engine notes it while it works;
    ``to_json`` words it for the view once (every copy of the game that holds the record shares
    it and its words: read them, never change them)."""

    round: int
    fires: list[int]  # Onibi's fires: the centre as the round ended
    water: list[int]  # per spirit
    victims: list[int]  # the spirits Onibi attacked, from the Sacred Tree holder
    varans: list[int]  # per spirit, the Fire Varans it took
    reshuffles: list[int]  # per spirit, the reshuffles of its draws this round
    taken: list[int]  # animals attracted this round per level
    added: list[int]  # fires added to the centre (the Sacred Tree's attack)
    wanted: int  # fires the animals taken called for
    refired: int  # the fire put in an emptied centre, 0 if none
    refilled: list[int]  # the display slots refilled
    cards: list[int]  # the cards they show
    empty_slots: int
    sacred_tree: int  # its holder this round (it passes to the next spirit)
    players: int
    words: dict[str, Any] | None  # to_json's answer, once made

    def to_json(self) -> dict[str, Any]:
        """The record as the view shows it (``docs/living-forest.md``, ``last_round``)."""
        words = self.words
        if words is not None:
            return words
        n = self.players
        victims = self.victims
        words = {
            "round": self.round,
            "onibi": {"fires": list(self.fires), "power": sum(self.fires)},
            "spirits": [
                {
                    "seat": p,
                    "water": self.water[p],
                    "attacked": p in victims,
                    "varans": self.varans[p],
                    "reshuffles": self.reshuffles[p],
                }
                for p in range(n)
            ],
            "varans_short": sum(self.varans) < len(victims) * len(self.fires),
            "taken": list(self.taken),
            "fires_added": list(self.added),
            "fires_capped": len(self.added) < self.wanted,
            "centre_refired": self.refired or None,
            "refilled": [
                {"level": i // 4 + 1, "slot": i % 4, "card": CARDS.names[c]}
                for i, c in zip(self.refilled, self.cards, strict=True)
            ],
            "empty_slots": self.empty_slots,
            "sacred_tree": {"from": self.sacred_tree, "to": (self.sacred_tree + 1) % n},
        }
        self.words = words
        return words


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
    record = RoundRecord()
    record.round = s.round
    record.players = n
    record.sacred_tree = s.sacred_tree
    record.words = None
    centre = s.centre_fires
    record.fires = centre[:]
    # a. Onibi attacks every spirit whose water is strictly below the centre's fire
    power = 0
    for value in centre:
        power += value
    water = [s.element(p, WATER) for p in range(n)]
    victims: list[int] = []
    if centre:
        for i in range(n):
            p = (s.sacred_tree + i) % n
            if water[p] < power:
                victims.append(p)
    varans = [0] * n
    for _ in range(len(centre)):
        for p in victims:
            if s.varan_supply:
                s.varan_supply -= 1
                s.discards[p].append(VARAN)
                varans[p] += 1
    record.water = water
    record.victims = victims
    record.varans = varans
    # b. Onibi attacks the Sacred Tree: one fire per animal taken, level 1 first, cap 7
    before = len(centre)
    taken = s.taken_this_round
    supply = s.fire_supply
    wanted = 0
    for lv in range(3):
        value = LEVEL_VALUE[lv]
        count = taken[lv]
        wanted += count
        for _ in range(count):
            if len(centre) < CENTRE_CAP and supply[value - 2]:
                supply[value - 2] -= 1
                centre.append(value)
    record.added = centre[before:]
    record.wanted = wanted
    record.taken = taken
    record.refired = 0
    if not centre:
        for value in VALUES:  # a value-2 fire (a larger one if the 2s ran out)
            if supply[value - 2]:
                supply[value - 2] -= 1
                centre.append(value)
                record.refired = value
                break
    # c. refill the display; an empty slot stays empty once its level's stack is exhausted
    revealed: list[int] = []
    refilled: list[int] = []
    display = s.display
    empty = 0
    for i in range(12):
        if display[i] < 0:
            stack = s.animal_stacks[i // 4]
            if stack:
                card = stack.pop()
                display[i] = card
                revealed.append(card)
                refilled.append(i)
            else:
                empty += 1
    record.refilled = refilled
    record.cards = revealed
    record.empty_slots = empty
    reshuffles = [0] * n
    log = s.log
    for i in range(s.draw_start, len(log)):
        seat, code, chance = log[i]
        if code == A_DRAW and chance is not None and chance[1]:
            reshuffles[seat] += 1
    record.reshuffles = reshuffles
    s.last_round = record
    # d. help lines to the discard
    for p in range(n):
        s.discards[p].extend(s.help_lines[p])
        s.help_lines[p] = []
        s.help_elements[p] = [0, 0, 0, 0, 0]
        s.solitary[p] = 0
        s.drawing[p] = True
        s.just_drawn[p] = False
    # e. the Sacred Tree passes clockwise; a new round starts
    s.sacred_tree = (s.sacred_tree + 1) % n
    s.round += 1
    s.taken_this_round = [0, 0, 0]
    s.phase = DRAW
    s.step = S_CHOOSE
    s.draw_start = len(log)
    return (-1, *revealed) if revealed else None
