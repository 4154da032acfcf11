"""A typed, read-only snapshot of a Living Forest game, for everything outside the rules
package that reads a game's state: encoders, bots, the terminal, the server.

``LivingForestGame.snapshot()`` makes one: immutable records (tuples all the way down) that
share nothing with the game, so a reader can keep one, compare it with a later one, or hand it
to another thread. Seats, cards, trees and elements are the engine's integers (``data.py``
names them). Two parts are hidden information that a player's code must only count, never
read in order: ``SpiritSnapshot.draw_stack`` and ``ForestSnapshot.animal_stacks``.
"""

from __future__ import annotations

from typing import NamedTuple

from .score import counts
from .space import DRAW
from .state import ForestState


class SpiritSnapshot(NamedTuple):
    """One spirit: its cards, its forest and what it holds."""

    seat: int
    draw_stack: tuple[int, ...]  # bottom to top; the order is hidden information
    help_line: tuple[int, ...]
    discard: tuple[int, ...]
    help_elements: tuple[int, ...]  # sun, water, plant, spiral, flower on the help line
    forest_elements: tuple[int, ...]  # the same, of its trees and completed lines
    elements: tuple[int, ...]  # the totals (help line + forest)
    solitary: int  # solitary minus gregarious symbols on the help line
    drawing: bool  # still drawing in this draw phase
    just_drawn: bool  # its last help-line card was just drawn (a fragment may send it away)
    shuffles_dealt: int
    fragments: int
    rock: int  # the rock of the circle of spirits it stands on
    forest: tuple[int, ...]  # 15 cells row-major: EMPTY (-1), START_TREE (12) or a tree type
    fires_kept: tuple[int, ...]  # fire tiles kept per value 2, 3, 4
    victory_tiles: tuple[int, ...]  # fire, flower, tree
    progress: tuple[int, int, int]  # toward 12: trees, fires, flowers (``score.counts``)


class ForestSnapshot(NamedTuple):
    """The whole game: the turn, the table and every spirit."""

    players: int
    round: int
    phase: int  # DRAW, ACTIONS or OVER
    to_act: tuple[int, ...]
    acting_together: tuple[int, ...]
    sacred_tree: int
    current_spirit: int
    turns_done: int
    actions_left: int
    actions_used: int  # bit mask of the action kinds (K_*) chosen this turn
    step: int  # S_*
    bonus_step: bool
    spend_left: int
    taken_in_step: int
    bonuses_pending: tuple[tuple[int, int], ...]  # (B_* kind, extra)
    steal_from: tuple[int, ...]
    display: tuple[int, ...]  # 12 slots, level-major; EMPTY (-1) when empty
    animal_stacks: tuple[tuple[int, ...], ...]  # per level, bottom to top; order hidden
    centre_fires: tuple[int, ...]
    fire_supply: tuple[int, ...]  # per value 2, 3, 4
    tree_supply: tuple[int, ...]  # per tree type
    fragment_supply: int
    varan_supply: int
    taken_this_round: tuple[int, ...]  # animals attracted this round per level
    winners: tuple[int, ...]
    spirits: tuple[SpiritSnapshot, ...]


def acting_together(s: ForestState) -> tuple[int, ...]:
    """The spirits whose moves now may be made together (see ``LivingForestGame``)."""
    if s.phase == DRAW:  # the spirits still drawing come first in to_act
        return s.to_act[: s.drawing.count(True)]
    return s.to_act


def spirit_snapshot(s: ForestState, p: int) -> SpiritSnapshot:
    help_elements = tuple(s.help_elements[p])
    forest_elements = tuple(s.forest_elements[p])
    return SpiritSnapshot(
        p,
        tuple(s.draw_stacks[p]),
        tuple(s.help_lines[p]),
        tuple(s.discards[p]),
        help_elements,
        forest_elements,
        tuple(a + b for a, b in zip(help_elements, forest_elements, strict=True)),
        s.solitary[p],
        s.drawing[p],
        s.just_drawn[p],
        s.shuffles_dealt[p],
        s.fragments[p],
        s.rocks[p],
        tuple(s.forests[p]),
        tuple(s.fires_kept[p]),
        tuple(s.victory_tiles[p]),
        counts(s, p),
    )


def snapshot(s: ForestState) -> ForestSnapshot:
    return ForestSnapshot(
        s.players,
        s.round,
        s.phase,
        s.to_act,
        acting_together(s),
        s.sacred_tree,
        s.current_spirit,
        s.turns_done,
        s.actions_left,
        s.actions_used,
        s.step,
        s.bonus_step,
        s.spend_left,
        s.taken_in_step,
        tuple(s.bonuses_pending),
        tuple(s.steal_from),
        tuple(s.display),
        tuple(tuple(st) for st in s.animal_stacks),
        tuple(s.centre_fires),
        tuple(s.fire_supply),
        tuple(s.tree_supply),
        s.fragment_supply,
        s.varan_supply,
        tuple(s.taken_this_round),
        tuple(s.winners),
        tuple(spirit_snapshot(s, p) for p in range(s.players)),
    )
