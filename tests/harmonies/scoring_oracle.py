"""A second, independent Harmonies scorer for the tests: cell lists and breadth-first search.

The package has one scorer (``glade.harmonies.scoring``, on bit masks). This one walks the cells
and their neighbour lists instead, the slow obvious way; the tests check the two agree on many
boards, so a mistake in the fast scorer's bit tricks cannot pass unseen.
"""

from __future__ import annotations

from collections.abc import Sequence

from glade.harmonies.data import (
    BUILDINGS,
    CARDS,
    COLOR_INDEX,
    EMPTY,
    M1,
    M2,
    M3,
    MOUNTAIN_HEIGHT,
    STACKS,
    TOP,
    TREE_HEIGHT,
    F,
    Layout,
    W,
)

LANDSCAPE_POINTS = {1: 1, 2: 3, 3: 7}
RIVER = {0: 0, 1: 0, 2: 2, 3: 5, 4: 8, 5: 11, 6: 15}
_MOUNTAINS = frozenset((M1, M2, M3))
_BUILDINGS = frozenset(BUILDINGS)


def river_points(length: int) -> int:
    return RIVER[length] if length <= 6 else 15 + 4 * (length - 6)


def groups(layout: Layout, cells: Sequence[int], member: frozenset[int]) -> list[list[int]]:
    seen = [False] * len(cells)
    out: list[list[int]] = []
    for start, state in enumerate(cells):
        if seen[start] or state not in member:
            continue
        seen[start] = True
        group, stack = [start], [start]
        while stack:
            i = stack.pop()
            for j in layout.neighbours[i]:
                if not seen[j] and cells[j] in member:
                    seen[j] = True
                    group.append(j)
                    stack.append(j)
        out.append(group)
    return out


def river_length(layout: Layout, group: list[int]) -> int:
    inside = set(group)
    best = 0
    for start in group:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for i in frontier:
                for j in layout.neighbours[i]:
                    if j in inside and j not in dist:
                        dist[j] = dist[i] + 1
                        nxt.append(j)
            frontier = nxt
        best = max(best, max(dist.values()))
    return best + 1


def spirit_points(layout: Layout, cells: Sequence[int], card: int) -> int:
    formula = CARDS[card].formula
    assert formula is not None
    kind = formula["kind"]
    if kind == "per_token":
        colour = COLOR_INDEX[formula["color"]]
        return int(formula["points"]) * sum(STACKS[s].count(colour) for s in cells)
    if kind == "per_landscape":
        heights = TREE_HEIGHT if formula["landscape"] == "tree" else MOUNTAIN_HEIGHT
        table = {int(k): int(v) for k, v in formula["points_by_height"].items()}
        return sum(table.get(heights[s], 0) for s in cells if s in heights)
    assert kind == "per_group"
    if "landscape" in formula:
        member = _BUILDINGS
    else:
        member = frozenset((W,)) if formula["color"] == "blue" else frozenset((F,))
    sizes = [len(g) for g in groups(layout, cells, member)]
    if "points_by_size" in formula:
        table = formula["points_by_size"]
        top = max(int(k.rstrip("+")) for k in table)
        return sum(int(table[str(n)] if n < top else table[f"{top}+"]) for n in sizes)
    minimum = int(formula.get("min_size", 1))
    return int(formula["points"]) * sum(1 for n in sizes if n >= minimum)


def breakdown(
    layout: Layout,
    cells: Sequence[int],
    cards: Sequence[tuple[int, int]],
    spirit: int,
    spirit_placed: bool,
) -> dict[str, int]:
    trees = mountains = buildings = 0
    for i, state in enumerate(cells):
        if state in TREE_HEIGHT:
            trees += LANDSCAPE_POINTS[TREE_HEIGHT[state]]
        elif state in _MOUNTAINS:
            if any(cells[j] in _MOUNTAINS for j in layout.neighbours[i]):
                mountains += LANDSCAPE_POINTS[MOUNTAIN_HEIGHT[state]]
        elif state in _BUILDINGS:
            colours = {TOP[cells[j]] for j in layout.neighbours[i] if cells[j] != EMPTY}
            if len(colours) >= 3:
                buildings += 5
    fields = 5 * sum(1 for g in groups(layout, cells, frozenset((F,))) if len(g) >= 2)
    if layout.side == "A":
        water = max(
            (river_points(river_length(layout, g)) for g in groups(layout, cells, frozenset((W,)))),
            default=0,
        )
    else:
        not_water = frozenset(s for s in range(len(STACKS)) if s != W)
        water = 5 * max(1, len(groups(layout, cells, not_water)))
    out = {
        "trees": trees,
        "mountains": mountains,
        "fields": fields,
        "buildings": buildings,
        "water": water,
        "animals": sum(CARDS[c].points[p - 1] for c, p in cards if p),
        "spirit": spirit_points(layout, cells, spirit) if spirit >= 0 and spirit_placed else 0,
    }
    out["total"] = sum(out.values())
    return out
