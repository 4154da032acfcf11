"""A typed, read-only snapshot of a Living Forest game, for everything outside the rules
package that reads a game's state: encoders, bots, the terminal, the server.

``LivingForestGame.snapshot()`` makes one of the whole game (``ForestSnapshot``);
``table_snapshot()`` one of the turn and the table without the spirits (``TableSnapshot``) and
``spirit_snapshot(seat)`` one of a spirit (``SpiritSnapshot``), for a reader that wants only
those (the RL encoder re-reads just what a move changed). They are read-only records: their
fields are ints, bools and tuples (of ints, tuples or snapshots), setting one raises
``AttributeError``, and they share nothing with the game, so a reader can keep one, compare it
with a later one (``==``), or hand it to another thread. Seats, cards, trees and elements are
the engine's integers (``data.py`` names them). Two parts are hidden information that a
player's code must only count, never read in order: ``SpiritSnapshot.draw_stack`` and
``TableSnapshot.animal_stacks``.

The records are compiled classes (``docs/speed.md``): a whole snapshot costs about what a
``copy()`` of the game does, a table or a spirit alone a fraction of that, so a reader may take
one per position.
"""

from __future__ import annotations

from typing import Any, Final

from .score import counts
from .space import DRAW
from .state import ForestState


class Snapshot:
    """What the three records share: read-only fields, equality and a readable ``repr``."""

    def names(self) -> tuple[str, ...]:
        """Every field's name, in the order of ``values`` (each record names its own; this base
        record has none)."""
        return ()

    def values(self) -> tuple[Any, ...]:
        """Every field's value, in the order of ``names``."""
        return tuple([getattr(self, name) for name in self.names()])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a {type(self).__name__} is read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is read-only: {name} cannot be deleted")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Snapshot)
            and type(other) is type(self)
            and other.values() == self.values()
        )

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self.names(), self.values(), strict=True))
        return f"{type(self).__name__}({fields})"


SPIRIT_FIELDS: Final[tuple[str, ...]] = (
    "seat",
    "draw_stack",
    "help_line",
    "discard",
    "help_elements",
    "forest_elements",
    "elements",
    "solitary",
    "drawing",
    "just_drawn",
    "shuffles_dealt",
    "fragments",
    "rock",
    "forest",
    "fires_kept",
    "victory_tiles",
    "progress",
)


class SpiritSnapshot(Snapshot):
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

    def __init__(self, s: ForestState, p: int) -> None:
        """Spirit ``p`` of the state ``s`` (the engine makes these)."""
        help_elements = s.help_elements[p]
        forest_elements = s.forest_elements[p]
        object.__setattr__(self, "seat", p)
        object.__setattr__(self, "draw_stack", tuple(s.draw_stacks[p]))
        object.__setattr__(self, "help_line", tuple(s.help_lines[p]))
        object.__setattr__(self, "discard", tuple(s.discards[p]))
        object.__setattr__(self, "help_elements", tuple(help_elements))
        object.__setattr__(self, "forest_elements", tuple(forest_elements))
        object.__setattr__(
            self,
            "elements",
            (
                help_elements[0] + forest_elements[0],
                help_elements[1] + forest_elements[1],
                help_elements[2] + forest_elements[2],
                help_elements[3] + forest_elements[3],
                help_elements[4] + forest_elements[4],
            ),
        )
        object.__setattr__(self, "solitary", s.solitary[p])
        object.__setattr__(self, "drawing", s.drawing[p])
        object.__setattr__(self, "just_drawn", s.just_drawn[p])
        object.__setattr__(self, "shuffles_dealt", s.shuffles_dealt[p])
        object.__setattr__(self, "fragments", s.fragments[p])
        object.__setattr__(self, "rock", s.rocks[p])
        object.__setattr__(self, "forest", tuple(s.forests[p]))
        object.__setattr__(self, "fires_kept", tuple(s.fires_kept[p]))
        object.__setattr__(self, "victory_tiles", tuple(s.victory_tiles[p]))
        object.__setattr__(self, "progress", counts(s, p))

    def names(self) -> tuple[str, ...]:
        return SPIRIT_FIELDS


TABLE_FIELDS: Final[tuple[str, ...]] = (
    "players",
    "round",
    "phase",
    "to_act",
    "acting_together",
    "sacred_tree",
    "current_spirit",
    "turns_done",
    "actions_left",
    "actions_used",
    "step",
    "bonus_step",
    "spend_left",
    "taken_in_step",
    "bonuses_pending",
    "steal_from",
    "display",
    "animal_stacks",
    "centre_fires",
    "fire_supply",
    "tree_supply",
    "fragment_supply",
    "varan_supply",
    "taken_this_round",
    "winners",
)


class TableSnapshot(Snapshot):
    """The turn and the table: everything but the spirits."""

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

    def __init__(self, s: ForestState) -> None:
        """The table of the state ``s`` (the engine makes these)."""
        object.__setattr__(self, "players", s.players)
        object.__setattr__(self, "round", s.round)
        object.__setattr__(self, "phase", s.phase)
        object.__setattr__(self, "to_act", s.to_act)
        object.__setattr__(self, "acting_together", acting_together(s))
        object.__setattr__(self, "sacred_tree", s.sacred_tree)
        object.__setattr__(self, "current_spirit", s.current_spirit)
        object.__setattr__(self, "turns_done", s.turns_done)
        object.__setattr__(self, "actions_left", s.actions_left)
        object.__setattr__(self, "actions_used", s.actions_used)
        object.__setattr__(self, "step", s.step)
        object.__setattr__(self, "bonus_step", s.bonus_step)
        object.__setattr__(self, "spend_left", s.spend_left)
        object.__setattr__(self, "taken_in_step", s.taken_in_step)
        object.__setattr__(self, "bonuses_pending", tuple(s.bonuses_pending))
        object.__setattr__(self, "steal_from", tuple(s.steal_from))
        object.__setattr__(self, "display", tuple(s.display))
        stacks = s.animal_stacks
        object.__setattr__(
            self, "animal_stacks", (tuple(stacks[0]), tuple(stacks[1]), tuple(stacks[2]))
        )
        object.__setattr__(self, "centre_fires", tuple(s.centre_fires))
        object.__setattr__(self, "fire_supply", tuple(s.fire_supply))
        object.__setattr__(self, "tree_supply", tuple(s.tree_supply))
        object.__setattr__(self, "fragment_supply", s.fragment_supply)
        object.__setattr__(self, "varan_supply", s.varan_supply)
        object.__setattr__(self, "taken_this_round", tuple(s.taken_this_round))
        object.__setattr__(self, "winners", tuple(s.winners))

    def names(self) -> tuple[str, ...]:
        return TABLE_FIELDS


FOREST_FIELDS: Final[tuple[str, ...]] = (*TABLE_FIELDS, "spirits")


class ForestSnapshot(TableSnapshot):
    """The whole game: the turn, the table and every spirit."""

    spirits: tuple[SpiritSnapshot, ...]

    def __init__(self, s: ForestState) -> None:
        """The whole state ``s`` (the engine makes these)."""
        super().__init__(s)
        object.__setattr__(self, "spirits", tuple([SpiritSnapshot(s, p) for p in range(s.players)]))

    def names(self) -> tuple[str, ...]:
        return FOREST_FIELDS


def acting_together(s: ForestState) -> tuple[int, ...]:
    """The spirits whose moves now may be made together (see ``LivingForestGame``)."""
    if s.phase == DRAW:  # the spirits still drawing come first in to_act
        return s.to_act[: s.drawing.count(True)]
    return s.to_act


def snapshot(s: ForestState) -> ForestSnapshot:
    return ForestSnapshot(s)


__all__ = [
    "FOREST_FIELDS",
    "SPIRIT_FIELDS",
    "TABLE_FIELDS",
    "ForestSnapshot",
    "Snapshot",
    "SpiritSnapshot",
    "TableSnapshot",
    "acting_together",
    "snapshot",
]
