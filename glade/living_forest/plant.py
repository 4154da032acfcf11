"""Planting a protective tree: a tree type left in the supply that the spirit's plant pays for, on
an empty space of its forest touching a tree (orthogonally). Completing a line gives its bonus
for good; planting on a corner starts the corner's bonus."""

from __future__ import annotations

from typing import Final

from .data import COLUMNS, EMPTY, PLANT, TREES
from .space import (
    A_DONE,
    CELL_LINES,
    CORNER_BONUS,
    LINE_BONUSES,
    NEIGHBOURS,
    PLANT_CELLS,
    S_CHOOSE,
    SPACES,
    TREE_TYPES,
    Why,
    plant_base,
)
from .state import ForestState

T_COST: Final = TREES.cost
T_ELEMS: Final = TREES.elements


def start_why(s: ForestState, seat: int) -> Why | None:
    """Whether the spirit can plant anything now: None if it can."""
    if all(t != EMPTY for t in s.forests[seat]):
        return ("plant.forest_full", {})
    supply = s.tree_supply
    for t in range(TREE_TYPES):  # trees are listed by cost: the first one left is the cheapest
        if supply[t]:
            plant = s.element(seat, PLANT)
            if T_COST[t] > plant:
                return ("plant.too_dear", {"cost": T_COST[t], "plant": plant})
            return None
    return ("plant.no_tree", {})


def tree_why(s: ForestState, seat: int, t: int) -> Why | None:
    """The rule on the tree of a plant: one left in the supply that the spirit can pay for."""
    if not s.tree_supply[t]:
        return ("plant.none_left", {"tree": TREES.ids[t]})
    plant = s.element(seat, PLANT)
    if T_COST[t] > plant:
        return ("plant.over_budget", {"tree": TREES.ids[t], "cost": T_COST[t], "plant": plant})
    return None


def cell_why(s: ForestState, seat: int, cell: int) -> Why | None:
    """The rule on the space of a plant: empty, and touching a tree of the spirit's forest."""
    forest = s.forests[seat]
    if forest[cell] != EMPTY:
        row, column = divmod(cell, COLUMNS)
        return ("plant.occupied", {"row": row, "column": column})
    for x in NEIGHBOURS[cell]:
        if forest[x] != EMPTY:
            return None
    row, column = divmod(cell, COLUMNS)
    return ("plant.not_adjacent", {"row": row, "column": column})


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of a move while planting: None if allowed. A plant is allowed exactly when its
    tree passes ``tree_why`` and its space ``cell_why``."""
    if code == A_DONE:
        return ("bonus.plant" if s.bonus_step else "plant.plant_one", {})
    base = plant_base(s.players)
    if code < base:
        return ("plant.choose", {})
    t, slot = divmod(code - base, SPACES)
    return tree_why(s, seat, t) or cell_why(s, seat, PLANT_CELLS[slot])


def legal(s: ForestState, seat: int) -> list[int]:
    """Every allowed plant: since ``why`` is the conjunction of the tree's rule and the space's,
    the allowed plants are the allowed trees times the allowed spaces (tree-major, as ids go)."""
    slots = [i for i, cell in enumerate(PLANT_CELLS) if cell_why(s, seat, cell) is None]
    if not slots:
        return []
    base = plant_base(s.players)
    out: list[int] = []
    for t in range(TREE_TYPES):
        if tree_why(s, seat, t) is None:
            row = base + t * SPACES
            out.extend(row + i for i in slots)
    return out


def free_cells(s: ForestState, seat: int) -> list[int]:
    """The spaces a tree may go on now (``cell_why`` allows them)."""
    return [c for c in PLANT_CELLS if cell_why(s, seat, c) is None]


def play(s: ForestState, seat: int, code: int) -> None:
    t, slot = divmod(code - plant_base(s.players), SPACES)
    cell = PLANT_CELLS[slot]
    forest = s.forests[seat]
    forest[cell] = t
    s.tree_supply[t] -= 1
    f = s.forest_elements[seat]
    for e, v in enumerate(T_ELEMS[t]):
        f[e] += v
    for line in CELL_LINES[cell]:
        cells, e, v = LINE_BONUSES[line]
        if all(forest[c] != EMPTY for c in cells):
            f[e] += v
    corner = CORNER_BONUS.get(cell)
    if corner is not None:
        s.bonuses_pending.append(corner)
    s.step = S_CHOOSE
