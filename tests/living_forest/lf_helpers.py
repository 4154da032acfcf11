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

STARTSET = frozenset(range(NUM_STARTING))
COIN = CARDS.coin


def fresh(players: int = 2, seed: int = 1) -> LivingForestGame:
    game = glade.new_game("living-forest", players=players, seed=seed)
    assert isinstance(game, LivingForestGame)
    return game


def check_invariants(game: Game) -> None:
    """Conservation of every component and the limits of the board (cheap: runs every action)."""
    assert isinstance(game, LivingForestGame)
    g = game
    n = g.n
    animals = {c for c in g.display if c >= 0}
    count = len(animals)
    for st in g.stacks:
        animals.update(st)
        count += len(st)
    varans = 0
    coin = COIN.__getitem__
    for s in range(n):
        deck, help_line, discard = g.decks[s], g.helps[s], g.discards[s]
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
        assert g.net[s] == sum(map(coin, help_line)) <= 3, "stale solitary count"
    # every guardian animal is in exactly one place
    assert count == 51 == len(animals), "a guardian animal was lost or doubled"
    assert varans + g.varan_supply == VARAN_COUNT and g.varan_supply >= 0
    assert len(g.centre) <= CENTRE_CAP
    assert sum(map(sum, g.vts)) == 3 * n and min(map(min, g.vts)) >= 0
    planted = [0] * 13
    for f in g.forests:
        assert f[7] == START_TREE
        for t in f:
            if t >= 0:
                planted[t] += 1
    assert planted[START_TREE] == n
    copies = TREES.copies[n]
    supply = g.tree_supply
    for t in range(12):
        assert planted[t] + supply[t] == copies[t], f"tree {t} is not conserved"
    assert g.frag_supply + sum(g.frags) == FRAGMENT_COUNT and g.frag_supply >= 0
    assert min(g.frags) >= 0
    centre = g.centre
    for v in range(3):
        held = sum(f[v] for f in g.fires) + centre.count(v + 2)
        assert held + g.fire_supply[v] == FIRES_PER_VALUE
    if g.phase == DRAW:
        assert g.to_act, "nobody can act in the draw phase"


def card(name: str) -> int:
    from glade.living_forest.data import CARD_BY_NAME

    return CARD_BY_NAME[name]


def set_help(g: LivingForestGame, seat: int, names: list[str]) -> None:
    """Put these cards on ``seat``'s help line (taken out of its deck/discard, or the display)."""
    from glade.living_forest.data import ELEMENTS

    ids = [card(x) for x in names]
    for c in g.helps[seat]:
        g.decks[seat].append(c)
    g.helps[seat] = []
    for c in ids:
        for pile in (g.decks[seat], g.discards[seat]):
            if c in pile:
                pile.remove(c)
                break
        else:
            if c == VARAN:
                g.varan_supply -= 1
            elif c in g.display:
                g.display[g.display.index(c)] = -1
            else:
                for st in g.stacks:
                    if c in st:
                        st.remove(c)
        g.helps[seat].append(c)
    g.hel[seat] = [sum(CARDS.elements[c][e] for c in ids) for e in range(len(ELEMENTS))]
    g.net[seat] = sum(COIN[c] for c in ids)


def start_actions(g: LivingForestGame, helps: dict[int, list[str]] | None = None) -> None:
    """Give the spirits these help lines and stop everyone: the action phase begins."""
    for s, names in (helps or {}).items():
        set_help(g, s, names)
    for s in range(g.n):
        if g.drawing[s]:
            g.apply(s, {"type": "stop"})
    assert g.phase == 1


def plant_direct(g: LivingForestGame, seat: int, tree: str, row: int, column: int) -> None:
    """Place a tree without playing (for constructed states), with its elements and bonuses."""
    from glade.living_forest.data import TREE_BY_ID

    g._plant(seat, TREE_BY_ID[tree], row * 5 + column)
    g.pending.clear()
