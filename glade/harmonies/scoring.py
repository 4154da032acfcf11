"""End-of-game scoring of a Harmonies board (facts §2, §5, §6) and ``score_board`` for JSON boards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glade.core import BadInput

from .data import (
    BUILDINGS,
    CARD_INDEX,
    CARDS,
    COLOR_INDEX,
    COLORS,
    EMPTY,
    LAYOUTS,
    M1,
    M2,
    M3,
    MOUNTAIN_HEIGHT,
    SCORING,
    SOLO_SUNS,
    STACKS,
    STATE_OF,
    TOP,
    TREE_HEIGHT,
    F,
    Layout,
    W,
)

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")
LANDSCAPE_POINTS = {1: 1, 2: 3, 3: 7}
_RIVER = {int(k): int(v) for k, v in SCORING["river_side_A"]["points_by_length"].items()}
_RIVER_BEYOND = int(SCORING["river_side_A"]["per_token_beyond_6"])
_BUILDING_STATES = frozenset(BUILDINGS)
_MOUNTAINS = frozenset((M1, M2, M3))


def river_points(length: int) -> int:
    """Points of a side-A river of ``length`` tokens on its shortest end-to-end path."""
    if length <= 6:
        return _RIVER[length]
    return _RIVER[6] + _RIVER_BEYOND * (length - 6)


def groups(layout: Layout, cells: Sequence[int], member: frozenset[int]) -> list[list[int]]:
    """Connected groups of cells whose state is in ``member``."""
    seen = [False] * len(cells)
    out: list[list[int]] = []
    neigh = layout.neighbours
    for start, state in enumerate(cells):
        if seen[start] or state not in member:
            continue
        seen[start] = True
        group = [start]
        stack = [start]
        while stack:
            i = stack.pop()
            for j in neigh[i]:
                if not seen[j] and cells[j] in member:
                    seen[j] = True
                    group.append(j)
                    stack.append(j)
        out.append(group)
    return out


def river_length(layout: Layout, group: list[int]) -> int:
    """Tokens on the longest shortest path inside a connected blue group (its diameter + 1)."""
    inside = set(group)
    neigh = layout.neighbours
    best = 0
    for start in group:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for i in frontier:
                d = dist[i] + 1
                for j in neigh[i]:
                    if j in inside and j not in dist:
                        dist[j] = d
                        nxt.append(j)
            frontier = nxt
        far = max(dist.values())
        if far > best:
            best = far
    return best + 1


_W_SET = frozenset((W,))
_F_SET = frozenset((F,))
_NOT_W = frozenset(s for s in range(15) if s != W)


def landscape_scores(layout: Layout, cells: Sequence[int]) -> dict[str, int]:
    """Trees, mountains, fields, buildings and water (side A river / side B islands)."""
    neigh = layout.neighbours
    trees = mountains = buildings = 0
    for i, state in enumerate(cells):
        if state in TREE_HEIGHT:
            trees += LANDSCAPE_POINTS[TREE_HEIGHT[state]]
        elif state in _MOUNTAINS:
            if any(cells[j] in _MOUNTAINS for j in neigh[i]):
                mountains += LANDSCAPE_POINTS[MOUNTAIN_HEIGHT[state]]
        elif state in _BUILDING_STATES:
            colours = {TOP[cells[j]] for j in neigh[i] if cells[j] != EMPTY}
            if len(colours) >= 3:
                buildings += 5
    fields = 5 * sum(1 for g in groups(layout, cells, _F_SET) if len(g) >= 2)
    if layout.side == "A":
        water = max(
            (river_points(river_length(layout, g)) for g in groups(layout, cells, _W_SET)),
            default=0,
        )
    else:
        water = 5 * max(1, len(groups(layout, cells, _NOT_W)))
    return {
        "trees": trees,
        "mountains": mountains,
        "fields": fields,
        "buildings": buildings,
        "water": water,
    }


def animal_points(card_index: int, placed: int) -> int:
    """Points shown by the topmost uncovered slot after ``placed`` cubes left the card."""
    return CARDS[card_index].points[placed - 1] if placed > 0 else 0


def spirit_points(layout: Layout, cells: Sequence[int], card_index: int) -> int:
    """A placed Nature's Spirit's end-game points from its formula in the data file."""
    formula = CARDS[card_index].formula
    assert formula is not None
    kind = formula["kind"]
    if kind == "per_token":
        colour = COLOR_INDEX[formula["color"]]
        count = sum(STACKS[s].count(colour) for s in cells)
        return int(formula["points"]) * count
    if kind == "per_landscape":
        heights = TREE_HEIGHT if formula["landscape"] == "tree" else MOUNTAIN_HEIGHT
        table = {int(k): int(v) for k, v in formula["points_by_height"].items()}
        return sum(table.get(heights[s], 0) for s in cells if s in heights)
    if kind == "per_group":
        if "landscape" in formula:
            member = _BUILDING_STATES
        else:
            member = frozenset((W,)) if formula["color"] == "blue" else frozenset((F,))
        sizes = [len(g) for g in groups(layout, cells, member)]
        if "points_by_size" in formula:  # Lion: "1", "2", ..., then "N+" for every larger group
            table = formula["points_by_size"]
            top = max(int(k.rstrip("+")) for k in table)
            return sum(int(table[str(n)] if n < top else table[f"{top}+"]) for n in sizes)
        minimum = int(formula.get("min_size", 1))
        return int(formula["points"]) * sum(1 for n in sizes if n >= minimum)
    raise ValueError(f"unknown spirit formula kind {kind!r}")


def board_breakdown(
    layout: Layout,
    cells: Sequence[int],
    cards: Sequence[tuple[int, int]],
    spirit: int,
    spirit_placed: bool,
) -> dict[str, int]:
    """The full breakdown of one board; ``cards`` = (card index, cubes placed) of every card."""
    out = landscape_scores(layout, cells)
    out["animals"] = sum(animal_points(c, p) for c, p in cards)
    out["spirit"] = spirit_points(layout, cells, spirit) if spirit >= 0 and spirit_placed else 0
    out["total"] = sum(out[k] for k in CATEGORIES)
    return out


def solo_suns(total: int, side: str, spirit: int) -> int:
    """Suns of a solo game (facts §6): score thresholds + side + Nature's Spirit modifier."""
    suns = 0
    for threshold, value in SOLO_SUNS["score_thresholds"]:
        if total >= threshold:
            suns = int(value)
    suns += int(SOLO_SUNS["side_modifier"][side])
    category = CARDS[spirit].category if spirit >= 0 else "none"
    suns += int(SOLO_SUNS["spirit_modifier"][category or "none"])
    return suns


# ------------------------------------------------------------------ JSON boards
def _parse_cell(layout: Layout, name: Any) -> int:
    if isinstance(name, str):
        parts = name.split(",")
        if len(parts) == 2:
            try:
                q, r = int(parts[0]), int(parts[1])
            except ValueError:
                pass
            else:
                if (q, r) in layout.index:
                    return layout.index[(q, r)]
                raise BadInput(f"the cell {name} is not on side {layout.side} of the board")
    raise BadInput(f'{name!r} is not a cell; cells are written "q,r"')


def parse_board(data: Any) -> tuple[Layout, list[int], list[tuple[int, int]], int, bool, int]:
    """Validate a board in the contract format; returns layout, cells, cards, spirit, placed, cubes.

    A board that could not occur is refused with a sentence naming the cell or card.
    """
    if not isinstance(data, dict):
        raise BadInput("a board must be a JSON object")
    side = data.get("side", "A")
    if side not in LAYOUTS:
        raise BadInput(f'the side must be "A" or "B", not {side!r}')
    layout = LAYOUTS[side]
    cells = [EMPTY] * len(layout.cells)
    stacks = data.get("stacks", {})
    if not isinstance(stacks, dict):
        raise BadInput('"stacks" must map cells to lists of colours')
    for name, stack in stacks.items():
        i = _parse_cell(layout, name)
        if not isinstance(stack, list) or not all(isinstance(c, str) for c in stack):
            raise BadInput(f"the stack at {name} must be a list of colour names")
        for c in stack:
            if c not in COLOR_INDEX:
                raise BadInput(
                    f"the stack at {name} has an unknown colour {c!r}; "
                    f"colours are {', '.join(COLORS)}"
                )
        state = STATE_OF.get(tuple(COLOR_INDEX[c] for c in stack))
        if state is None:
            raise BadInput(
                f"the stack at {name} ({', '.join(stack)}, bottom first) cannot be built"
            )
        cells[i] = state
    cube_list = data.get("cubes", [])
    if not isinstance(cube_list, list):
        raise BadInput('"cubes" must be a list of cells')
    cube_cells: set[int] = set()
    for name in cube_list:
        i = _parse_cell(layout, name)
        if i in cube_cells:
            raise BadInput(f"the cell {name} holds two cubes")
        if cells[i] == EMPTY:
            raise BadInput(f"the cell {name} holds a cube but no token")
        cube_cells.add(i)
    cards: list[tuple[int, int]] = []
    raw_cards = data.get("cards", [])
    if not isinstance(raw_cards, list):
        raise BadInput('"cards" must be a list')
    seen: set[int] = set()
    for entry in raw_cards:
        if not isinstance(entry, dict) or not isinstance(entry.get("card"), str):
            raise BadInput('each card must be {"card": id, "placed": n}')
        cid = entry["card"]
        idx = CARD_INDEX.get(cid)
        if idx is None or CARDS[idx].spirit:
            raise BadInput(f"there is no animal card {cid!r}")
        if idx in seen:
            raise BadInput(f"the card {cid} appears twice")
        seen.add(idx)
        placed = entry.get("placed", 0)
        if isinstance(placed, bool) or not isinstance(placed, int) or placed < 0:
            raise BadInput(f"the card {cid} needs a whole number of placed cubes")
        if placed > CARDS[idx].cubes:
            raise BadInput(f"the card {cid} has only {CARDS[idx].cubes} cubes, not {placed}")
        cards.append((idx, placed))
    spirit, spirit_placed = -1, False
    raw_spirit = data.get("spirit")
    if raw_spirit is not None:
        if not isinstance(raw_spirit, dict) or not isinstance(raw_spirit.get("card"), str):
            raise BadInput('"spirit" must be {"card": id, "placed": true|false}')
        idx = CARD_INDEX.get(raw_spirit["card"])
        if idx is None or not CARDS[idx].spirit:
            raise BadInput(f"there is no Nature's Spirit {raw_spirit['card']!r}")
        spirit, spirit_placed = idx, bool(raw_spirit.get("placed", False))
    expected = sum(p for _, p in cards) + (1 if spirit_placed else 0)
    if expected != len(cube_cells):
        raise BadInput(
            f'the cards account for {expected} cubes on the board but "cubes" lists {len(cube_cells)}'
        )
    return layout, cells, cards, spirit, spirit_placed, len(cube_cells)


def score_board(data: Any, solo: bool = False) -> dict[str, int]:
    """Score a board given in the contract's JSON format (``glade harmonies score``)."""
    layout, cells, cards, spirit, placed, _ = parse_board(data)
    out = board_breakdown(layout, cells, cards, spirit, placed)
    if solo:
        out["suns"] = solo_suns(out["total"], layout.side, spirit)
    return out


__all__ = [
    "CATEGORIES",
    "board_breakdown",
    "landscape_scores",
    "parse_board",
    "river_points",
    "score_board",
    "solo_suns",
    "spirit_points",
]
