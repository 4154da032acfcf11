"""The score that explains itself: a spirit's progress toward 12 as the parts that make it up.

A spirit counts three things: **trees** (the starting tree, one per different protective tree
type planted, tree victory tiles), **fires** (fire tiles kept, fire victory tiles) and **flowers**
(the sacred flowers of its trees, of its completed flower line and of its help line, flower
victory tiles). ``parts`` lists them, one entry per thing that scores (or, for a repeated tree
type or a line that gives another element, that does not); ``counts`` is the sum of their points
per category, so the two can never disagree. The parts of a forest alone depend only on its
trees: they are worked out once per forest layout.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, NamedTuple

from .data import CARDS, ELEMENTS, EMPTY, FLOWER, START_TREE, TARGET, TREES, VICTORY_KINDS
from .space import LINE_BONUSES, cell_name
from .state import ForestState

CATEGORIES: Final = ("trees", "fires", "flowers")
TREES_: Final = 0
FIRES: Final = 1
FLOWERS: Final = 2
# the category a victory tile counts in, by tile (fire, flower, tree)
TILE_CATEGORY: Final = (FIRES, FLOWERS, TREES_)
T_ELEMS: Final = TREES.elements
T_FLOWERS: Final[tuple[int, ...]] = tuple(e[FLOWER] for e in TREES.elements)
C_FLOWER: Final = tuple(e[FLOWER] for e in CARDS.elements)
# the victory tiles by kind, as the data file lists them (fire, flower, tree)
TILE_FIRE: Final = VICTORY_KINDS.index("fire")
TILE_FLOWER: Final = VICTORY_KINDS.index("flower")
TILE_TREE: Final = VICTORY_KINDS.index("tree")


class Part(NamedTuple):
    """One thing that counts toward a category (see ``docs/living-forest.md``)."""

    category: int  # TREES_, FIRES or FLOWERS
    points: int
    cells: tuple[int, ...]  # forest cells (row-major 0..14) it stands on; () off the forest
    what: str
    params: dict[str, Any]  # language-neutral: names as the data file spells them, counts

    def to_json(self) -> dict[str, Any]:
        return {
            "category": CATEGORIES[self.category],
            "points": self.points,
            "cells": [cell_name(c) for c in self.cells],
            "what": self.what,
            "params": self.params,
        }


class ForestParts(NamedTuple):
    """The parts of a forest's trees and lines, and their points (trees, flowers)."""

    parts: tuple[Part, ...]
    trees: int
    flowers: int


@lru_cache(maxsize=8192)
def forest_parts(forest: tuple[int, ...]) -> ForestParts:
    """The parts a forest layout earns by itself: the starting tree; each protective tree (a
    point for the first of its type in reading order, none for a repeat) with the elements it
    gives, and its sacred flowers; each completed line with its bonus (points for flowers)."""
    tree_parts: list[Part] = []
    flower_parts: list[Part] = []
    seen: set[int] = set()
    for cell, t in enumerate(forest):
        if t == START_TREE:
            tree_parts.append(Part(TREES_, 1, (cell,), "start_tree", {}))
        elif t != EMPTY:
            gives = {ELEMENTS[e]: v for e, v in enumerate(T_ELEMS[t]) if v}
            tree: dict[str, Any] = {"tree": TREES.ids[t], "elements": gives}
            if t in seen:
                tree_parts.append(Part(TREES_, 0, (cell,), "tree_again", tree))
            else:
                seen.add(t)
                tree_parts.append(Part(TREES_, 1, (cell,), "tree", tree))
            if T_ELEMS[t][FLOWER]:
                named: dict[str, Any] = {"tree": TREES.ids[t]}
                flowers = T_ELEMS[t][FLOWER]
                flower_parts.append(Part(FLOWERS, flowers, (cell,), "tree_flowers", named))
    for cells, e, amount in LINE_BONUSES:
        if all(forest[c] != EMPTY for c in cells):
            points = amount if e == FLOWER else 0
            params: dict[str, Any] = {"element": ELEMENTS[e], "amount": amount}
            flower_parts.append(Part(FLOWERS, points, cells, "line", params))
    parts = (*tree_parts, *flower_parts)
    return ForestParts(
        parts,
        sum(p.points for p in parts if p.category == TREES_),
        sum(p.points for p in parts if p.category == FLOWERS),
    )


@lru_cache(maxsize=8192)
def forest_parts_json(
    forest: tuple[int, ...],
) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    """``forest_parts`` in JSON form, its tree parts and its flower parts, made once per layout
    (shared: read, never change)."""
    parts = forest_parts(forest).parts
    return (
        tuple(p.to_json() for p in parts if p.category == TREES_),
        tuple(p.to_json() for p in parts if p.category == FLOWERS),
    )


def holdings(s: ForestState, seat: int) -> list[tuple[int, int, str, int]]:
    """The parts that are not the forest's, in short: ``(category, points, what, index)`` for
    the fire tiles kept of each value (index: the value), the victory tiles of each kind (index:
    fire 0, flower 1, tree 2) and the sacred flowers showing on the help line (index 0)."""
    out = []
    for i, k in enumerate(s.fires_kept[seat]):
        if k:
            out.append((FIRES, k, "fires", i + 2))
    for i, k in enumerate(s.victory_tiles[seat]):
        if k:
            out.append((TILE_CATEGORY[i], k, "victory_tile", i))
    flowers = s.help_elements[seat][FLOWER]
    if flowers:
        out.append((FLOWERS, flowers, "help_line", 0))
    return out


def other_parts(s: ForestState, seat: int) -> list[Part]:
    """``holdings`` as parts, with their params: a fire value and its count, a victory tile
    and its count, the help-line cards that show sacred flowers."""
    out = []
    for category, points, what, index in holdings(s, seat):
        if what == "fires":
            params: dict[str, Any] = {"value": index, "count": points}
        elif what == "victory_tile":
            params = {"tile": VICTORY_KINDS[index], "count": points}
        else:
            params = {"cards": [CARDS.names[c] for c in s.help_lines[seat] if C_FLOWER[c]]}
        out.append(Part(category, points, (), what, params))
    return out


def parts(s: ForestState, seat: int) -> list[Part]:
    """Every part of a spirit's score, trees first, then fires, then flowers."""
    out = list(forest_parts(tuple(s.forests[seat])).parts)
    out.extend(other_parts(s, seat))
    out.sort(key=lambda p: p.category)  # (stable: each category keeps its own order)
    return out


def counts_plain(s: ForestState, seat: int) -> tuple[int, int, int]:
    """Progress toward 12: (trees, fires, flowers), the points of ``parts`` per category (the
    forest's share summed once per layout by ``forest_parts``): the definition of ``counts``."""
    forest = forest_parts(tuple(s.forests[seat]))
    totals = [forest.trees, 0, forest.flowers]
    for category, points, _, _ in holdings(s, seat):
        totals[category] += points
    return totals[0], totals[1], totals[2]


def counts(s: ForestState, seat: int) -> tuple[int, int, int]:
    """``counts_plain`` fused into one pass over the forest and the holdings, without making
    the parts (the victory check at every end of round, the views and the bots ask for it):
    a point per starting tree and per tree type planted, the flowers of the trees and of the
    completed flower lines, the fire tiles kept, the victory tiles and the help line's flowers.
    ``tests/living_forest/test_lf_parts.py`` compares the two at every position of random
    games of every player count."""
    forest = s.forests[seat]
    trees = 0
    flowers = 0
    seen = 0
    for t in forest:
        if t == START_TREE:
            trees += 1
        elif t != EMPTY:
            flowers += T_FLOWERS[t]
            if not seen >> t & 1:
                seen |= 1 << t
                trees += 1
    for cells, e, amount in LINE_BONUSES:
        if e == FLOWER:
            complete = True
            for c in cells:
                if forest[c] == EMPTY:
                    complete = False
                    break
            if complete:
                flowers += amount
    fires = 0
    for k in s.fires_kept[seat]:
        fires += k
    tiles = s.victory_tiles[seat]
    return (
        trees + tiles[TILE_TREE],
        fires + tiles[TILE_FIRE],
        flowers + tiles[TILE_FLOWER] + s.help_elements[seat][FLOWER],
    )


def parts_json(s: ForestState, seat: int) -> list[dict[str, Any]]:
    """``parts`` in JSON form, in the same order, the forest's share made once per layout."""
    trees, flowers = forest_parts_json(tuple(s.forests[seat]))
    others: tuple[list[dict[str, Any]], ...] = ([], [], [])
    for part in other_parts(s, seat):
        others[part.category].append(part.to_json())
    return [*trees, *others[TREES_], *others[FIRES], *flowers, *others[FLOWERS]]


def breakdown(s: ForestState, seat: int) -> dict[str, Any]:
    """A seat's entry of ``result()["breakdown"]``: its counts, total, whether it reached 12,
    and the parts the counts are the sums of."""
    trees, fires, flowers = counts(s, seat)
    return {
        "trees": trees,
        "fires": fires,
        "flowers": flowers,
        "total": trees + fires + flowers,
        "reached": max(trees, fires, flowers) >= TARGET,
        "parts": parts_json(s, seat),
    }


def result(s: ForestState) -> dict[str, Any]:
    entries = [breakdown(s, p) for p in range(s.players)]
    return {
        "scores": [b["total"] for b in entries],
        "winners": list(s.winners),
        "breakdown": entries,
    }
