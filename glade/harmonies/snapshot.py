"""A typed, read-only snapshot of a Harmonies game, for code outside the rules package that
reads a game's state (the same convention as Living Forest's ``snapshot``).

``HarmoniesGame.snapshot()`` makes one: immutable records (tuples all the way down) that share
nothing with the game, so a reader can keep one, compare it with a later one, or hand it to
another thread. Colours, stack states, cards and cells are the engine's integers (``data.py``
names them). The hidden parts appear only as what a seat may know of them: the pouch as its
colour counts, the animal draw pile as its size, the spirit offers face down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .game import Board, HarmoniesGame


class BoardSnapshot(NamedTuple):
    """One personal board."""

    cells: tuple[int, ...]  # stack state per cell index (``data.STACKS``)
    cubes: tuple[int, ...]  # the cell indices holding a cube, ascending
    cards: tuple[tuple[int, int], ...]  # held, unfinished: (card index, cubes placed)
    done: tuple[tuple[int, int], ...]  # completed cards
    spirit: int  # the chosen Nature's Spirit's card index, -1 if none
    spirit_placed: bool
    choosing_spirit: bool  # two spirits were dealt face down and none is chosen yet
    animal_cubes: int  # animal cubes on the board (the tie-break)
    held: int  # cards counted against the limit of 4
    empty_cells: int
    score: tuple[int, ...]  # points by category (``scoring.CATEGORIES``)


class HarmoniesSnapshot(NamedTuple):
    """The whole game as everyone may see it."""

    players: int
    side: str
    spirits: bool
    solo: bool
    current: int
    over: bool
    turn: int  # turns completed
    central: tuple[tuple[int, ...], ...]  # the tokens of each central space
    pouch: tuple[int, ...]  # tokens left in the pouch per colour (its order is hidden)
    deck: int  # cards left in the animal draw pile (its order is hidden)
    row: tuple[int, ...]  # face-up animal cards by slot, -1 = empty slot
    hand: tuple[int, ...]  # tokens taken this turn and not yet placed
    took_tokens: bool
    took_card: bool
    discarded: bool
    end_triggered: bool
    out: int  # tokens that left the game (solo)
    discards: tuple[int, ...]  # animal cards discarded (solo)
    boards: tuple[BoardSnapshot, ...]


def board_snapshot(b: Board) -> BoardSnapshot:
    layout = b.layout
    cubes = tuple(i for i, bit in enumerate(layout.bits) if b.cubes >> bit & 1)
    return BoardSnapshot(
        tuple(b.cells),
        cubes,
        tuple(b.cards),
        tuple(b.done),
        b.spirit,
        b.spirit_placed,
        bool(b.offer),
        b.placed,
        b.held(),
        b.empty_cells(),
        b.score_parts(),
    )


def snapshot(g: HarmoniesGame) -> HarmoniesSnapshot:
    pouch = [0] * 6
    for color in g.pouch:
        pouch[color] += 1
    return HarmoniesSnapshot(
        g.players,
        g.side,
        g.spirits,
        g.solo,
        g.current,
        g.over,
        g.turn,
        tuple(g.central),
        tuple(pouch),
        len(g.deck),
        tuple(g.row),
        tuple(g.hand),
        g.took,
        g.took_card,
        g.discarded,
        g.end_triggered,
        g.out,
        tuple(g.discards),
        tuple(board_snapshot(b) for b in g.boards),
    )


__all__ = ["BoardSnapshot", "HarmoniesSnapshot", "board_snapshot", "snapshot"]
