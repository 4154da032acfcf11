"""Shared helpers for the Harmonies tests: invariants and constructed boards."""

from __future__ import annotations

from glade.harmonies.data import CARDS, COLOR_INDEX, EMPTY, NEXT, NSTATES, STATE_OF
from glade.harmonies.game import MAX_HELD, HarmoniesGame

TOTAL_TOKENS = 120


def token_count(g: HarmoniesGame) -> int:
    on_boards = sum(len_stack(s) for b in g.boards for s in b.cells)
    return len(g.pouch) + sum(len(t) for t in g.central) + len(g.hand) + on_boards + g.out


def len_stack(state: int) -> int:
    from glade.harmonies.data import HEIGHT

    return HEIGHT[state]


def check_invariants(g: HarmoniesGame) -> None:
    """Everything that must hold after every action of every Harmonies game."""
    assert token_count(g) == TOTAL_TOKENS, "tokens were created or lost"
    layout = g.space.layout
    seen_cards: list[int] = [c for c in g.row if c >= 0] + g.deck + g.discards
    for b in g.boards:
        assert b.held() <= MAX_HELD, "a player holds more than 4 unfinished cards"
        # masks agree with the cells, every stack is a legal one
        for state in range(NSTATES):
            mask = 0
            for i, s in enumerate(b.cells):
                if s == state:
                    mask |= 1 << layout.bits[i]
            assert b.masks[state] == mask
        # cubes sit on tokens, and match the cubes the cards gave up
        cube_cells = [i for i, bit in enumerate(layout.bits) if b.cubes >> bit & 1]
        assert all(b.cells[i] != EMPTY for i in cube_cells)
        placed = sum(p for _, p in b.cards + b.done)
        assert placed == b.placed
        assert len(cube_cells) == placed + (1 if b.spirit_placed else 0)
        for c, p in b.cards:
            assert 0 <= p < CARDS[c].cubes
        for c, p in b.done:
            assert p == CARDS[c].cubes
        seen_cards += [c for c, _ in b.cards + b.done]
    assert sorted(seen_cards) == list(range(32)), "an animal card was duplicated or lost"
    assert len(g.hand) <= 3


def stack_state(*colors: str) -> int:
    return STATE_OF[tuple(COLOR_INDEX[c] for c in colors)]


def set_cell(g: HarmoniesGame, seat: int, cell: str, *colors: str) -> None:
    """Put a stack on a cell of a player's board, keeping the masks consistent."""
    b = g.boards[seat]
    layout = g.space.layout
    i = layout.names.index(cell)
    bit = 1 << layout.bits[i]
    b.masks[b.cells[i]] &= ~bit
    state = stack_state(*colors)
    b.cells[i] = state
    b.masks[state] |= bit


__all__ = ["NEXT", "check_invariants", "set_cell", "stack_state", "token_count"]
