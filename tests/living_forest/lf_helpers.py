"""Shared helpers of the Living Forest tests: invariants and constructed states."""

from __future__ import annotations

import glade
from glade.core.game import Game
from glade.living_forest.data import (
    CARDS,
    CENTRE_CAP,
    FIRES_PER_VALUE,
    FRAGMENT_COUNT,
    NUM_STARTING,
    TREES,
    VARAN,
    VARAN_COUNT,
)
from glade.living_forest.game import DRAW, START_TREE, LivingForestGame
from glade.living_forest.state import ForestState

STARTSET = frozenset(range(NUM_STARTING))
COIN = CARDS.coin


def state_of(g: LivingForestGame) -> ForestState:
    """The game's own state record, for tests of the rules modules (which work on it): read
    it, and change it only to construct a position (as ``edit`` does)."""
    with g.edit() as state:
        return state


def fresh(players: int = 2, seed: int = 1) -> LivingForestGame:
    game = glade.new_game("living-forest", players=players, seed=seed)
    assert isinstance(game, LivingForestGame)
    return game


def check_invariants(game: Game) -> None:
    """Conservation of every component and the limits of the board (cheap: runs every action)."""
    assert isinstance(game, LivingForestGame)
    g = game
    st = state_of(g)
    n = g.num_players
    animals = {c for c in st.display if c >= 0}
    count = len(animals)
    for stack in st.animal_stacks:
        animals.update(stack)
        count += len(stack)
    varans = 0
    coin = COIN.__getitem__
    for s in range(n):
        deck, help_line, discard = (
            st.draw_stacks[s],
            st.help_lines[s],
            st.discards[s],
        )
        size = len(deck) + len(help_line) + len(discard)
        k = deck.count(VARAN) + help_line.count(VARAN) + discard.count(VARAN)
        varans += k
        distinct = set(deck)
        distinct.update(help_line, discard)
        # the 14 starting cards once each, animals at most once, varans any number
        assert distinct >= STARTSET, f"spirit {s} lost a starting card"
        assert len(distinct) == size - k + (1 if k else 0), f"spirit {s} has a double"
        distinct -= STARTSET
        distinct.discard(VARAN)
        animals |= distinct
        count += len(distinct)
        assert st.solitary[s] == sum(map(coin, help_line)) <= 3, "stale solitary count"
    # every guardian animal is in exactly one place
    assert count == 51 == len(animals), "a guardian animal was lost or doubled"
    assert varans + st.varan_supply == VARAN_COUNT and st.varan_supply >= 0
    assert len(st.centre_fires) <= CENTRE_CAP
    assert sum(map(sum, st.victory_tiles)) == 3 * n and min(map(min, st.victory_tiles)) >= 0
    planted = [0] * 13
    for f in st.forests:
        assert f[7] == START_TREE
        for t in f:
            if t >= 0:
                planted[t] += 1
    assert planted[START_TREE] == n
    copies = TREES.copies[n]
    supply = st.tree_supply
    for t in range(12):
        assert planted[t] + supply[t] == copies[t], f"tree {t} is not conserved"
    assert st.fragment_supply + sum(st.fragments) == FRAGMENT_COUNT and st.fragment_supply >= 0
    assert min(st.fragments) >= 0
    centre = st.centre_fires
    for v in range(3):
        held = sum(f[v] for f in st.fires_kept) + centre.count(v + 2)
        assert held + st.fire_supply[v] == FIRES_PER_VALUE
    if g.phase == DRAW:
        assert g.to_act, "nobody can act in the draw phase"


def card(name: str) -> int:
    from glade.living_forest.data import CARD_BY_NAME

    return CARD_BY_NAME[name]


def set_help(g: LivingForestGame, seat: int, names: list[str]) -> None:
    """Put these cards on ``seat``'s help line (taken out of its deck/discard, or the display)."""
    from glade.living_forest.data import ELEMENTS

    ids = [card(x) for x in names]
    with g.edit() as st:
        for c in st.help_lines[seat]:
            st.draw_stacks[seat].append(c)
        st.help_lines[seat] = []
        for c in ids:
            for pile in (st.draw_stacks[seat], st.discards[seat]):
                if c in pile:
                    pile.remove(c)
                    break
            else:
                if c == VARAN:
                    st.varan_supply -= 1
                elif c in st.display:
                    st.display[st.display.index(c)] = -1
                else:
                    for stack in st.animal_stacks:
                        if c in stack:
                            stack.remove(c)
            st.help_lines[seat].append(c)
        st.help_elements[seat] = [
            sum(CARDS.elements[c][e] for c in ids) for e in range(len(ELEMENTS))
        ]
        st.solitary[seat] = sum(COIN[c] for c in ids)


def start_actions(g: LivingForestGame, helps: dict[int, list[str]] | None = None) -> None:
    """Give the spirits these help lines and stop everyone: the action phase begins. A spirit
    given no help line draws one card first (a spirit may not stop with an empty help line)."""
    for s, names in (helps or {}).items():
        set_help(g, s, names)
    st = state_of(g)
    for s in range(g.num_players):
        if st.drawing[s] and not st.help_lines[s]:
            g.apply(s, {"type": "draw"})
        if st.drawing[s]:
            g.apply(s, {"type": "stop"})
    assert g.phase == 1


def poke(g: LivingForestGame, **fields: int) -> None:
    """Set scalar parts of the state by their names (``sacred_tree=1``, ``varan_supply=4``) to
    construct positions, through the engine's position editor."""
    with g.edit() as state:
        for name, value in fields.items():
            assert isinstance(getattr(state, name), int), name
            setattr(state, name, value)


def plant_direct(g: LivingForestGame, seat: int, tree: str, row: int, column: int) -> None:
    """Place a tree without playing (for constructed states), with its elements and completed
    line bonuses (reckoned here from the data file, as an oracle of the engine's), no corner
    bonus."""
    from glade.living_forest.data import BOARD, TREE_BY_ID

    t = TREE_BY_ID[tree]
    st = state_of(g)
    forest = st.forests[seat]
    cell = row * 5 + column
    assert forest[cell] == -1
    before = [cells for cells, _, _ in BOARD.lines if all(forest[c] != -1 for c in cells)]
    forest[cell] = t
    st.tree_supply[t] -= 1
    elements = st.forest_elements[seat]
    for e, v in enumerate(TREES.elements[t]):
        elements[e] += v
    for cells, e, v in BOARD.lines:
        if cells not in before and all(forest[c] != -1 for c in cells):
            elements[e] += v
