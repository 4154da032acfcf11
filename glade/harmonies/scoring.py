"""The Harmonies scorer (facts §2, §5, §6), on a board's bit masks, and ``score_board``.

A board is scored from ``masks``: one int per stack state, the mask of the layout bits holding it
(``Layout.masks_of`` builds them from a list of cell states; the engine's boards keep them). This
is the only scorer: the engine's views and result, ``score_board``, the bots and the RL encoders
(their compiled kernel included, through ``Board.score_parts``) call it, compiled with the engine
(``docs/speed.md``). Every point value comes from the data file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, Final

from .data import (
    B1,
    B2,
    BB,
    BG,
    BR,
    CARD_INDEX,
    CARDS,
    CLASS_STATES,
    COLOR_INDEX,
    COLORS,
    EMPTY,
    LAYOUTS,
    M1,
    M2,
    M3,
    MAX_HELD,
    MOUNTAIN_HEIGHT,
    NSTATES,
    R1,
    SCORING,
    SOLO_SUNS,
    STACKS,
    STATE_OF,
    T1,
    T2,
    T3,
    TOKEN_COUNTS,
    TREE_HEIGHT,
    F,
    Layout,
    W,
)
from .refusals import bad_input

CATEGORIES: Final = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")


def _heights(key: str) -> dict[int, int]:
    return {int(k): int(v) for k, v in SCORING[key]["points_by_height"].items()}


TREE_POINTS: Final = _heights("tree")  # height -> points
MOUNTAIN_POINTS: Final = _heights("mountain")
FIELD_POINTS: Final = int(SCORING["field"]["points_per_group"])
FIELD_MIN: Final = int(SCORING["field"]["min_group_size"])
BUILDING_POINTS: Final = int(SCORING["building"]["points"])
ISLAND_POINTS: Final = int(SCORING["islands_side_B"]["points_per_island"])
_RIVER: Final = {int(k): int(v) for k, v in SCORING["river_side_A"]["points_by_length"].items()}
_RIVER_BEYOND: Final = int(SCORING["river_side_A"]["per_token_beyond_6"])
_T1: Final = TREE_POINTS[TREE_HEIGHT[T1]]
_T2: Final = TREE_POINTS[TREE_HEIGHT[T2]]
_T3: Final = TREE_POINTS[TREE_HEIGHT[T3]]
_M1: Final = MOUNTAIN_POINTS[MOUNTAIN_HEIGHT[M1]]
_M2: Final = MOUNTAIN_POINTS[MOUNTAIN_HEIGHT[M2]]
_M3: Final = MOUNTAIN_POINTS[MOUNTAIN_HEIGHT[M3]]
if FIELD_MIN != 2:  # the field rule below counts the fields that touch another field
    raise ValueError(f"harmonies data: a field is 2 or more yellow tokens, not {FIELD_MIN}")

Masks = Sequence[int]  # per stack state: the layout bits holding it


def river_points(length: int) -> int:
    """Points of a side-A river of ``length`` tokens on its shortest end-to-end path."""
    if length <= 6:
        return _RIVER[length]
    return _RIVER[6] + _RIVER_BEYOND * (length - 6)


@lru_cache(maxsize=65536)
def river_groups(side: str, water: int) -> tuple[tuple[int, int, int], ...]:
    """Every blue group of mask ``water`` as (length, group mask, start bit of a longest path).

    A river's length is the number of tokens on the longest shortest path inside its group; the
    side-A score is that of the longest river (``river_score``).
    """
    layout = LAYOUTS[side]
    spread = layout.spread
    out = []
    for comp in layout.components(water):
        longest = -1
        begin = 0
        m = comp
        while m:
            start = m & -m
            m ^= start
            seen = frontier = start
            far = 0
            while True:
                frontier = spread(frontier) & comp & ~seen
                if not frontier:
                    break
                seen |= frontier
                far += 1
            if far > longest:
                longest, begin = far, start
        out.append((longest + 1, comp, begin))
    return tuple(out)


@lru_cache(maxsize=65536)
def river_score(side: str, water: int) -> int:
    """Points of the best river among the blue groups of mask ``water`` (side A)."""
    return max((river_points(n) for n, _, _ in river_groups(side, water)), default=0)


def river_path(layout: Layout, group: int, start: int) -> int:
    """The cells of one longest shortest path of a blue group from bit ``start`` (a mask)."""
    layers = [start]
    seen = start
    while True:
        frontier = layout.spread(layers[-1]) & group & ~seen
        if not frontier:
            break
        seen |= frontier
        layers.append(frontier)
    here = layers[-1] & -layers[-1]
    path = here
    for layer in reversed(layers[:-1]):
        step = layer & layout.spread(here)
        here = step & -step
        path |= here
    return path


# One part of a score, as the scorer finds it: (category, points, cell mask, what, params).
# ``explain_json`` turns it into the contract's ``{"category", "points", "cells", "what", "params"}``.
Part = tuple[str, int, int, str, dict[str, Any]]
Parts = list[Part] | None  # the scorer adds its parts to a list, or only counts (None)

_TOP_COLORS = ("blue", "gray", "brown", "green", "yellow", "red")  # ``tops`` order below


def _each_bit(m: int) -> Iterable[int]:
    while m:
        low = m & -m
        m ^= low
        yield low


def landscapes(layout: Layout, masks: Masks, parts: Parts = None) -> tuple[int, int, int, int, int]:
    """Trees, mountains, fields, buildings and water (side A river / side B islands).

    With ``parts`` a list, every landscape that counts (or could, and does not yet) is added to it
    with the points this same pass gives it: the parts of a category sum to its points.
    """
    trees = 0
    for state, worth in ((T1, _T1), (T2, _T2), (T3, _T3)):
        trees += worth * masks[state].bit_count()
        if parts is not None:
            height = TREE_HEIGHT[state]
            for bit in _each_bit(masks[state]):
                parts.append(("trees", worth, bit, "tree", {"height": height}))
    mountains = 0
    hills = masks[M1] | masks[M2] | masks[M3]
    if hills:
        near = hills & layout.spread(hills)  # a mountain scores next to another mountain
        if near:
            mountains = (
                _M1 * (masks[M1] & near).bit_count()
                + _M2 * (masks[M2] & near).bit_count()
                + _M3 * (masks[M3] & near).bit_count()
            )
        if parts is not None:
            for state, worth in ((M1, _M1), (M2, _M2), (M3, _M3)):
                for bit in _each_bit(masks[state]):
                    beside = layout.around[bit.bit_length() - 1] & hills
                    points = worth if bit & near else 0
                    what = {"height": MOUNTAIN_HEIGHT[state], "next_to": _names(layout, beside)}
                    parts.append(("mountains", points, bit, "mountain", what))
    fields = 0
    yellow = masks[F]
    if yellow:
        paired = yellow & layout.spread(yellow)  # the yellow cells of groups of 2 or more
        if paired:
            groups = layout.components(paired)
            fields = FIELD_POINTS * len(groups)
            if parts is not None:
                for g in groups:
                    parts.append(("fields", FIELD_POINTS, g, "field", {"size": g.bit_count()}))
        if parts is not None:
            for bit in _each_bit(yellow & ~paired):  # a lone yellow token is not yet a field
                parts.append(("fields", 0, bit, "field", {"size": 1}))
    buildings = 0
    built = masks[BG] | masks[BB] | masks[BR]
    if built:
        # the cells by the colour of their top token: a building scores among 3 colours or more
        tops = (
            masks[W],
            hills,
            masks[B1] | masks[B2],
            masks[T1] | masks[T2] | masks[T3],
            masks[F],
            masks[R1] | built,
        )
        around = layout.around
        for low in _each_bit(built):
            near = around[low.bit_length() - 1]
            colours = sum(1 for t in tops if t & near)
            points = BUILDING_POINTS if colours >= 3 else 0
            buildings += points
            if parts is not None:
                seen = [_TOP_COLORS[k] for k, t in enumerate(tops) if t & near]
                parts.append(("buildings", points, low, "building", {"colors": seen}))
    if layout.side == "A":
        water = river_score("A", masks[W]) if masks[W] else 0
        if parts is not None and masks[W]:
            rivers = river_groups("A", masks[W])
            best = next(i for i, (n, _, _) in enumerate(rivers) if river_points(n) == water)
            for i, (n, group, start) in enumerate(rivers):
                points = water if i == best else 0  # only the longest river scores
                path = river_path(layout, group, start)
                parts.append(("water", points, path, "river", {"length": n}))
    else:
        islands = layout.components(layout.full & ~masks[W])
        water = ISLAND_POINTS * max(1, len(islands))
        if parts is not None:
            for g in islands or [0]:
                parts.append(("water", ISLAND_POINTS, g, "island", {"size": g.bit_count()}))
    return trees, mountains, fields, buildings, water


_NAME_OF: dict[str, dict[int, str]] = {
    side: {1 << bit: layout.names[i] for i, bit in enumerate(layout.bits)}
    for side, layout in LAYOUTS.items()
}


def _names(layout: Layout, m: int) -> list[str]:
    """The cell names of mask ``m``, column by column (the bits' order)."""
    name_of = _NAME_OF[layout.side]
    return [name_of[bit] for bit in _each_bit(m)]


# ---------------------------------------------------------------- Nature's Spirits
# (layout, masks, parts) -> points; with ``parts`` a list, the spirit's one part is added to it
SpiritScorer = Callable[[Layout, Masks, Parts], int]


def _spirit_scorer(card: int, formula: dict[str, Any]) -> SpiritScorer:
    """The end-game points of a placed Nature's Spirit, compiled from its formula."""
    kind = formula["kind"]
    cid = CARDS[card].id
    if kind == "per_token":
        colour = COLOR_INDEX[formula["color"]]
        points = int(formula["points"])
        holding = tuple((s, STACKS[s].count(colour)) for s in range(NSTATES) if colour in STACKS[s])

        def per_token(layout: Layout, masks: Masks, parts: Parts) -> int:
            count = sum(n * masks[s].bit_count() for s, n in holding)
            if parts is not None:
                cells = 0
                for s, _ in holding:
                    cells |= masks[s]
                parts.append(
                    ("spirit", points * count, cells, "spirit", {"card": cid, "count": count})
                )
            return points * count

        return per_token
    if kind == "per_landscape":
        heights = TREE_HEIGHT if formula["landscape"] == "tree" else MOUNTAIN_HEIGHT
        table = {int(k): int(v) for k, v in formula["points_by_height"].items()}
        worth = tuple((s, table.get(h, 0)) for s, h in heights.items())

        def per_landscape(layout: Layout, masks: Masks, parts: Parts) -> int:
            total = sum(v * masks[s].bit_count() for s, v in worth)
            if parts is not None:
                cells = 0
                for s, v in worth:
                    if v:
                        cells |= masks[s]
                what = {"card": cid, "count": cells.bit_count()}
                parts.append(("spirit", total, cells, "spirit", what))
            return total

        return per_landscape
    if kind == "per_group":
        if "landscape" in formula:
            states: tuple[int, ...] = (BG, BB, BR)
        else:
            states = (W,) if formula["color"] == "blue" else (F,)
        if "points_by_size" in formula:  # Lion: "1", "2", ..., then "N+" for every larger group
            raw = formula["points_by_size"]
            top = max(int(k.rstrip("+")) for k in raw)
            by_size = [0] + [int(raw[str(n)]) for n in range(1, top)] + [int(raw[f"{top}+"])]

            def value(n: int) -> int:
                return by_size[min(n, top)]

        else:
            minimum = int(formula.get("min_size", 1))
            points = int(formula["points"])

            def value(n: int) -> int:
                return points if n >= minimum else 0

        def per_group(layout: Layout, masks: Masks, parts: Parts) -> int:
            m = 0
            for s in states:
                m |= masks[s]
            total = 0
            counted = cells = 0
            for g in layout.components(m):
                worth = value(g.bit_count())
                total += worth
                if worth:
                    counted += 1
                    cells |= g
            if parts is not None:
                parts.append(("spirit", total, cells, "spirit", {"card": cid, "count": counted}))
            return total

        return per_group
    raise ValueError(f"unknown spirit formula kind {kind!r}")


SPIRIT_SCORERS: Final[dict[int, SpiritScorer]] = {
    c.index: _spirit_scorer(c.index, c.formula) for c in CARDS if c.spirit and c.formula is not None
}


def spirit_points(layout: Layout, masks: Masks, card_index: int) -> int:
    """A placed Nature's Spirit's end-game points from its formula in the data file."""
    return SPIRIT_SCORERS[card_index](layout, masks, None)


# ---------------------------------------------------------------- animal cards
_CLASSES = tuple(CLASS_STATES.values())  # habitat cell class -> the stack states that fit it


def _habitat_at(layout: Layout, masks: Masks, card: int, bit: int) -> int:
    """The cells of ``card``'s habitat around its cube on ``bit`` as the board shows it now (a
    mask, the cube cell included), or just the cube cell if a later token changed the habitat."""
    q, r = layout.cells[layout.bit_cell[bit.bit_length() - 1]]
    index, bits = layout.index, layout.bits
    for rotation in CARDS[card].rotations:
        found = bit
        for dq, dr, k in rotation:
            i = index.get((q + dq, r + dr))
            if i is None:
                break
            cell_bit = 1 << bits[i]
            if not any(masks[s] & cell_bit for s in _CLASSES[k]):
                break
            found |= cell_bit
        else:
            return found
    return bit


def _cube_owners(
    layout: Layout, masks: Masks, cubes: int, cards: Sequence[tuple[int, int]]
) -> list[int]:
    """Which cubes of mask ``cubes`` are each card's (a mask per card, ``cards`` order).

    A card's cubes sit on its cube cell's landscape, and the landscapes of the classes do not
    overlap; cards of one class share that class's cubes, each taking those its habitat fits first.
    """
    owned = [0] * len(cards)
    free = cubes
    for fit_first in (True, False):
        for n, (c, placed) in enumerate(cards):
            want = placed - owned[n].bit_count()
            k = CARDS[c].cube_class
            pool = 0
            for s in _CLASSES[k]:
                pool |= masks[s]
            for bit in _each_bit(free & pool):
                if want <= 0:
                    break
                if fit_first and _habitat_at(layout, masks, c, bit) == bit:
                    continue
                owned[n] |= bit
                free &= ~bit
                want -= 1
    return owned


def animal_points(
    layout: Layout,
    masks: Masks,
    cards: Iterable[tuple[int, int]],
    cubes: int = 0,
    parts: Parts = None,
) -> int:
    """The points of every animal card: the slot its last cube uncovered (0 with none yet).

    With ``parts`` a list, each card is added with its cubes' cells (``cubes``: the board's cube
    mask) and, in ``params``, the habitat around each cube and the card's point track.
    """
    animals = 0
    if parts is None:
        for c, p in cards:
            if p:
                animals += CARDS[c].points[p - 1]
        return animals
    listed = list(cards)
    for (c, p), mine in zip(listed, _cube_owners(layout, masks, cubes, listed), strict=True):
        points = CARDS[c].points[p - 1] if p else 0
        animals += points
        habitat = 0
        for bit in _each_bit(mine):
            habitat |= _habitat_at(layout, masks, c, bit)
        what = {
            "card": CARDS[c].id,
            "placed": p,
            "track": list(CARDS[c].points),
            "habitat": _names(layout, habitat),
        }
        parts.append(("animals", points, mine, "animal", what))
    return animals


# ---------------------------------------------------------------- a whole board
def score_parts(
    layout: Layout,
    masks: Masks,
    cards: Iterable[tuple[int, int]],
    spirit: int,
    spirit_placed: bool,
    cubes: int = 0,
    parts: Parts = None,
) -> tuple[int, ...]:
    """The points of every category (``CATEGORIES`` order) of one board.

    ``cards``: (card index, cubes placed) of every animal card, complete or not; ``spirit``: the
    chosen spirit's card index (-1: none), scored once its cube is placed. With ``parts`` a list,
    the pieces that make up each category are added to it (``landscapes``, ``animal_points``, the
    spirit's scorer); ``cubes`` (the board's cube mask) then places the animal cards' cubes.
    """
    land = landscapes(layout, masks, parts)  # parts in ``CATEGORIES`` order: landscapes first
    animals = animal_points(layout, masks, cards, cubes, parts)
    spirit_score = 0
    if spirit >= 0 and spirit_placed:
        spirit_score = SPIRIT_SCORERS[spirit](layout, masks, parts)
    return (*land, animals, spirit_score)


def board_total(
    layout: Layout,
    masks: Masks,
    cards: Iterable[tuple[int, int]],
    spirit: int,
    spirit_placed: bool,
) -> int:
    """The board's total score (the sum of ``score_parts``)."""
    return sum(score_parts(layout, masks, cards, spirit, spirit_placed))


def board_breakdown(
    layout: Layout,
    masks: Masks,
    cards: Iterable[tuple[int, int]],
    spirit: int,
    spirit_placed: bool,
    cubes: int = 0,
    explain: bool = False,
) -> dict[str, Any]:
    """``{category: points, ..., "total": sum}`` of one board (see ``score_parts``); with
    ``explain``, also ``"parts"``: the contract's list of the pieces each category sums."""
    found: list[Part] | None = [] if explain else None
    points = score_parts(layout, masks, cards, spirit, spirit_placed, cubes, found)
    out: dict[str, Any] = dict(zip(CATEGORIES, points, strict=True))
    out["total"] = sum(points)
    if found is not None:
        out["parts"] = explain_json(layout, found)
    return out


def explain_json(layout: Layout, parts: Iterable[Part]) -> list[dict[str, Any]]:
    """Parts as JSON: ``{"category", "points", "cells", "what", "params"}``."""
    return [
        {"category": c, "points": n, "cells": _names(layout, m), "what": w, "params": params}
        for c, n, m, w, params in parts
    ]


def solo_sun_parts(total: int, side: str, spirit: int) -> dict[str, int | None]:
    """The parts of a solo game's suns (facts §6): ``score`` (suns from the score's threshold),
    ``side`` and ``spirit`` (the modifiers; ``spirit`` is the no-spirit bonus when ``spirit`` < 0),
    ``next`` (the score of the next threshold, None above the last) and ``suns`` (their sum)."""
    from_score = 0
    upcoming: int | None = None
    for threshold, value in SOLO_SUNS["score_thresholds"]:
        if total >= threshold:
            from_score = int(value)
        elif upcoming is None:
            upcoming = int(threshold)
    side_mod = int(SOLO_SUNS["side_modifier"][side])
    category = CARDS[spirit].category if spirit >= 0 else "none"
    spirit_mod = int(SOLO_SUNS["spirit_modifier"][category or "none"])
    return {
        "score": from_score,
        "side": side_mod,
        "spirit": spirit_mod,
        "next": upcoming,
        "suns": from_score + side_mod + spirit_mod,
    }


def solo_suns(total: int, side: str, spirit: int) -> int:
    """Suns of a solo game (facts §6): score thresholds + side + Nature's Spirit modifier."""
    return int(solo_sun_parts(total, side, spirit)["suns"] or 0)


# ------------------------------------------------------------------ JSON boards
# stack state -> the habitat cell class it satisfies (index into CLASS_STATES), -1: none
STATE_CLASS: Final[tuple[int, ...]] = tuple(
    next((k for k, states in enumerate(CLASS_STATES.values()) if s in states), -1)
    for s in range(NSTATES)
)


def _stack_text(state: int) -> str:
    return ", ".join(COLORS[c] for c in STACKS[state])


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
                raise bad_input("cell.off_board", cell=name, side=layout.side)
    raise bad_input("board.cell_name", cell=name)


def _parse_stacks(layout: Layout, stacks: Any) -> list[int]:
    cells = [EMPTY] * len(layout.cells)
    if not isinstance(stacks, dict):
        raise bad_input("board.stacks")
    for name, stack in stacks.items():
        i = _parse_cell(layout, name)
        if not isinstance(stack, list) or not all(isinstance(c, str) for c in stack):
            raise bad_input("board.stack_list", cell=name)
        for c in stack:
            if c not in COLOR_INDEX:
                raise bad_input("board.stack_color", cell=name, color=c)
        state = STATE_OF.get(tuple(COLOR_INDEX[c] for c in stack))
        if state is None:
            raise bad_input("board.stack_impossible", cell=name, stack=", ".join(stack))
        cells[i] = state
    used = [0] * len(COLORS)
    for state in cells:
        for c in STACKS[state]:
            used[c] += 1
    for c, count in enumerate(used):
        if count > TOKEN_COUNTS[c]:
            raise bad_input(
                "board.too_many_tokens", color=COLORS[c], count=count, box=TOKEN_COUNTS[c]
            )
    return cells


def _parse_cards(raw_cards: Any) -> list[tuple[int, int]]:
    if not isinstance(raw_cards, list):
        raise bad_input("board.cards")
    cards: list[tuple[int, int]] = []
    seen: set[int] = set()
    for entry in raw_cards:
        if not isinstance(entry, dict) or not isinstance(entry.get("card"), str):
            raise bad_input("board.card_entry")
        cid = entry["card"]
        idx = CARD_INDEX.get(cid)
        if idx is None or CARDS[idx].spirit:
            raise bad_input("board.no_animal", card=cid)
        if idx in seen:
            raise bad_input("board.card_twice", card=cid)
        seen.add(idx)
        placed = entry.get("placed", 0)
        if isinstance(placed, bool) or not isinstance(placed, int) or placed < 0:
            raise bad_input("board.placed_not_number", card=cid)
        if placed > CARDS[idx].cubes:
            raise bad_input(
                "board.placed_too_many", card=cid, cubes=CARDS[idx].cubes, placed=placed
            )
        cards.append((idx, placed))
    return cards


def _check_cubes(
    layout: Layout,
    cells: list[int],
    cube_cells: list[int],
    cards: list[tuple[int, int]],
    spirit: int,
    spirit_placed: bool,
) -> None:
    """Refuse cubes that no card could have put where they are.

    A card's cubes all sit on its cube cell's landscape (one class of stacks); the classes do not
    overlap, so the cubes fit the cards exactly when every class holds as many cubes as the cards
    of that class have placed.
    """
    slots = [0] * len(CLASS_STATES)
    for c, p in cards:
        slots[CARDS[c].cube_class] += p
    if spirit >= 0 and spirit_placed:
        slots[CARDS[spirit].cube_class] += 1
    found = [0] * len(CLASS_STATES)
    for i in cube_cells:
        k = STATE_CLASS[cells[i]]
        name = layout.names[i]
        if k < 0:
            raise bad_input("board.cube_no_habitat", cell=name, stack=_stack_text(cells[i]))
        found[k] += 1
        if found[k] > slots[k]:
            raise bad_input(
                "board.cube_unmatched", cell=name, stack=_stack_text(cells[i]), cubes=slots[k]
            )


def parse_board(
    data: Any,
) -> tuple[Layout, list[int], list[tuple[int, int]], int, bool, list[int]]:
    """Validate a board in the contract format; returns layout, cells, cards, spirit, placed and
    the cells (indices) of the cubes.

    A board that could not occur is refused with a sentence naming the cell or card.
    """
    if not isinstance(data, dict):
        raise bad_input("board.not_object")
    side = data.get("side", "A")
    if side not in LAYOUTS:
        raise bad_input("board.side", side=side)
    layout = LAYOUTS[side]
    cells = _parse_stacks(layout, data.get("stacks", {}))
    cube_list = data.get("cubes", [])
    if not isinstance(cube_list, list):
        raise bad_input("board.cubes")
    cube_cells: list[int] = []
    for name in cube_list:
        i = _parse_cell(layout, name)
        if i in cube_cells:
            raise bad_input("board.cube_twice", cell=name)
        if cells[i] == EMPTY:
            raise bad_input("board.cube_no_token", cell=name)
        cube_cells.append(i)
    cards = _parse_cards(data.get("cards", []))
    spirit, spirit_placed = -1, False
    raw_spirit = data.get("spirit")
    if raw_spirit is not None:
        if not isinstance(raw_spirit, dict) or not isinstance(raw_spirit.get("card"), str):
            raise bad_input("board.spirit_entry")
        idx = CARD_INDEX.get(raw_spirit["card"])
        if idx is None or not CARDS[idx].spirit:
            raise bad_input("board.no_spirit", card=raw_spirit["card"])
        spirit, spirit_placed = idx, bool(raw_spirit.get("placed", False))
    unfinished = [CARDS[c].id for c, p in cards if p < CARDS[c].cubes]
    if spirit >= 0 and not spirit_placed:
        unfinished.append(CARDS[spirit].id)
    if len(unfinished) > MAX_HELD:
        raise bad_input(
            "board.too_many_held",
            held=len(unfinished),
            cards=", ".join(unfinished),
            limit=MAX_HELD,
        )
    expected = sum(p for _, p in cards) + (1 if spirit_placed else 0)
    if expected != len(cube_cells):
        raise bad_input("board.cube_count", expected=expected, listed=len(cube_cells))
    _check_cubes(layout, cells, cube_cells, cards, spirit, spirit_placed)
    return layout, cells, cards, spirit, spirit_placed, cube_cells


def score_board(data: Any, solo: Any = False, explain: Any = False) -> dict[str, Any]:
    """Score a board given in the contract's JSON format (``glade harmonies score``); with
    ``explain``, ``"parts"`` lists what makes up each category (``board_breakdown``)."""
    if not isinstance(solo, bool):
        raise bad_input("board.solo_not_bool")
    if not isinstance(explain, bool):
        raise bad_input("board.explain_not_bool")
    layout, cells, cards, spirit, placed, cube_cells = parse_board(data)
    cubes = 0
    for i in cube_cells:
        cubes |= 1 << layout.bits[i]
    out = board_breakdown(layout, layout.masks_of(cells), cards, spirit, placed, cubes, explain)
    if solo:
        out["suns"] = solo_suns(out["total"], layout.side, spirit)
    return out


__all__ = [
    "CATEGORIES",
    "Part",
    "animal_points",
    "explain_json",
    "river_groups",
    "river_path",
    "board_breakdown",
    "board_total",
    "landscapes",
    "parse_board",
    "river_points",
    "river_score",
    "score_board",
    "score_parts",
    "solo_sun_parts",
    "solo_suns",
    "spirit_points",
]
