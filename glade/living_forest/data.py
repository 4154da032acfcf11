"""Living Forest card, tree and board data, loaded from ``data/living-forest-cards.json`` and
validated once at import.

Everything the engine needs is turned into small integer tables here so the rules never touch
JSON on the hot path. Card type ids:

* ``0..13``  the 14 starting cards (every spirit owns one copy of each);
* ``14..36`` the 23 level-1 guardian animals, ``37..52`` the 16 level-2, ``53..64`` the 12 level-3;
* ``65``     the Fire Varan (23 copies in the supply).

Tree type ids ``0..11`` are T3a..T11; the starting tree is ``START_TREE`` (12) on the forest board.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

from glade.core.errors import BadInput

from .refusals import REFUSALS

ELEMENTS: Final[tuple[str, ...]] = ("sun", "water", "plant", "spiral", "flower")
SUN: Final = 0
WATER: Final = 1
PLANT: Final = 2
SPIRAL: Final = 3
FLOWER: Final = 4

NUM_STARTING: Final = 14
LEVEL_COUNTS: Final[tuple[int, int, int]] = (23, 16, 12)
VARAN_COUNT: Final = 23
FRAGMENT_COUNT: Final = 20
FIRE_VALUES: Final[tuple[int, int, int]] = (2, 3, 4)
FIRES_PER_VALUE: Final = 20  # Game Park's supply; the box split of its 58 tiles is unknown
CENTRE_CAP: Final = 7
VICTORY_KINDS: Final[tuple[str, ...]] = ("fire", "flower", "tree")
TARGET: Final = 12
ROWS: Final = 3
COLUMNS: Final = 5
START_CELL: Final = 7  # row 1, column 2 (0-based): the centre of the forest
START_TREE: Final = 12
EMPTY: Final = -1


class CardData:
    """Integer tables of the 66 card types (see the module docstring for the id ranges)."""

    __slots__ = ("names", "level", "cost", "coin", "elements", "symbol")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.level: list[int] = []  # 0 starting card or varan, 1..3 guardian animal level
        self.cost: list[int] = []
        self.coin: list[int] = []  # +1 solitary, -1 gregarious, 0 none
        self.symbol: list[str] = []
        self.elements: list[tuple[int, int, int, int, int]] = []


def _fail(what: str) -> BadInput:
    return REFUSALS.bad_input("lf_data.malformed", what=what)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{what} must be a whole number, not {value!r}")
    return value


COIN_OF: Final = {"solitary": 1, "gregarious": -1, "none": 0}


def _add_card(cards: CardData, entry: Any, level: int, where: str) -> None:
    if not isinstance(entry, dict):
        raise _fail(f"{where} must be an object")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(f"{where} has no name")
    if name in cards.names:
        raise _fail(f"the card name {name!r} appears twice")
    symbol = entry.get("symbol")
    if symbol not in COIN_OF:
        raise _fail(f"{name} has an unknown symbol {symbol!r}")
    elems = tuple(_int(entry.get(e, 0), f"{name}.{e}") for e in ELEMENTS)
    cost = 0 if level == 0 else _int(entry.get("cost"), f"{name}.cost")
    if level and not 1 <= cost <= 20:
        raise _fail(f"{name} costs {cost}")
    cards.names.append(name)
    cards.level.append(level)
    cards.cost.append(cost)
    cards.coin.append(COIN_OF[symbol])
    cards.symbol.append(symbol)
    cards.elements.append(elems)  # type: ignore[arg-type]


class TreeData:
    """The 12 protective tree types: id, cost (in plant), elements given, copies per count."""

    __slots__ = ("ids", "cost", "elements", "copies")

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.cost: list[int] = []
        self.elements: list[tuple[int, int, int, int, int]] = []
        self.copies: dict[int, list[int]] = {2: [], 3: [], 4: []}


BONUS_KINDS: Final[tuple[str, ...]] = ("take_fragment", "attract", "extinguish", "plant")
# the element a bonus action's printed extra may add to (take_fragment counts tiles instead)
BONUS_PLUS: Final[dict[str, str | None]] = {
    "take_fragment": None,
    "attract": "sun",
    "extinguish": "water",
    "plant": None,
}


class BoardData:
    """The forest board's bonuses, as 0-based cells of the row-major 3 x 5 grid.

    ``lines``: (cells of the line, element index, amount), permanent once every cell holds a tree.
    ``corners``: cell -> (bonus kind, extra): the extra sun or water of an attract or extinguish,
    the number of tiles of a take_fragment.
    """

    __slots__ = ("lines", "corners")

    def __init__(self) -> None:
        self.lines: list[tuple[tuple[int, ...], int, int]] = []
        self.corners: dict[int, tuple[str, int]] = {}


def _cell_of(entry: dict[str, Any], what: str) -> tuple[int, int]:
    row = _int(entry.get("row"), f"{what} row")
    column = _int(entry.get("column"), f"{what} column")
    if not (1 <= row <= ROWS and 1 <= column <= COLUMNS):
        raise _fail(f"{what} must lie on the board (rows 1 to {ROWS}, columns 1 to {COLUMNS})")
    return row - 1, column - 1


def _board(raw: Any) -> BoardData:
    """The ``forest_board`` entry: its line bonuses and corner bonuses, checked."""
    if not isinstance(raw, dict) or raw.get("rows") != ROWS or raw.get("columns") != COLUMNS:
        raise _fail(f"the forest board must have {ROWS} rows and {COLUMNS} columns")
    start = raw.get("starting_tree")
    if not isinstance(start, dict) or _cell_of(start, "the starting tree") != divmod(
        START_CELL, COLUMNS
    ):
        raise _fail("the starting tree must stand in row 2, column 3")
    board = BoardData()
    lines = raw.get("line_bonuses")
    if not isinstance(lines, list) or not lines:
        raise _fail("the forest board must list its line bonuses")
    seen: set[tuple[int, ...]] = set()
    for i, entry in enumerate(lines):
        what = f"line bonus {i + 1}"
        if not isinstance(entry, dict) or ("row" in entry) == ("column" in entry):
            raise _fail(f"{what} must name exactly one row or one column")
        if "row" in entry:
            r = _int(entry["row"], f"{what} row") - 1
            if not 0 <= r < ROWS:
                raise _fail(f"{what} must be a row from 1 to {ROWS}")
            cells = tuple(r * COLUMNS + c for c in range(COLUMNS))
        else:
            c = _int(entry["column"], f"{what} column") - 1
            if not 0 <= c < COLUMNS:
                raise _fail(f"{what} must be a column from 1 to {COLUMNS}")
            cells = tuple(r * COLUMNS + c for r in range(ROWS))
        if cells in seen:
            raise _fail(f"{what} names a line twice")
        seen.add(cells)
        plantable = sum(1 for cell in cells if cell != START_CELL)
        if _int(entry.get("trees_needed"), f"{what} trees_needed") != plantable:
            raise _fail(f"{what} needs {plantable} trees planted, as its spaces say")
        gives = entry.get("gives")
        if not isinstance(gives, dict) or len(gives) != 1 or next(iter(gives)) not in ELEMENTS:
            raise _fail(f"{what} must give exactly one element")
        ((element, amount),) = gives.items()
        if _int(amount, f"{what} {element}") < 1:
            raise _fail(f"{what} must give at least 1 {element}")
        board.lines.append((cells, ELEMENTS.index(element), amount))
    corners = raw.get("corner_bonuses")
    if not isinstance(corners, list):
        raise _fail("the forest board must list its corner bonuses")
    for i, entry in enumerate(corners):
        what = f"corner bonus {i + 1}"
        if not isinstance(entry, dict):
            raise _fail(f"{what} must be an object")
        r, c = _cell_of(entry, what)
        if r not in (0, ROWS - 1) or c not in (0, COLUMNS - 1):
            raise _fail(f"{what} must lie on a corner of the forest")
        cell = r * COLUMNS + c
        if cell in board.corners:
            raise _fail(f"{what} names a corner twice")
        kind = entry.get("bonus")
        if kind not in BONUS_KINDS:
            raise _fail(f"{what} has an unknown bonus {kind!r}")
        plus = entry.get("plus", {})
        element = BONUS_PLUS[kind]
        if kind == "take_fragment":
            extra = _int(entry.get("count"), f"{what} count")
            if extra < 1 or plus:
                raise _fail(f"{what} must take at least 1 fragment and add no element")
        else:
            if "count" in entry or not isinstance(plus, dict) or set(plus) - {element}:
                allowed = f"only {element}" if element else "no element"
                raise _fail(f"{what} ({kind}) may add {allowed}")
            extra = _int(plus.get(element, 0), f"{what} plus") if element else 0
            if extra < 0:
                raise _fail(f"{what} must not add a negative amount")
        board.corners[cell] = (kind, extra)
    return board


def load(raw: Any) -> tuple[CardData, TreeData, list[str], dict[int, list[int]], BoardData]:
    """Validate the parsed data file; return cards, trees, rock bonuses, start rocks and the
    forest board's bonuses."""
    if not isinstance(raw, dict) or raw.get("schema") != "living-forest-data/1":
        raise _fail("unknown schema (expected living-forest-data/1)")
    if tuple(raw.get("elements", ())) != ELEMENTS:
        raise _fail(f"elements must be {list(ELEMENTS)}")
    cards = CardData()
    deck = raw.get("starting_deck", {})
    start = deck.get("cards") if isinstance(deck, dict) else None
    if not isinstance(start, list) or len(start) != NUM_STARTING:
        raise _fail(f"the starting deck must list {NUM_STARTING} cards")
    for i, entry in enumerate(start):
        _add_card(cards, entry, 0, f"starting card {i + 1}")
    animals = raw.get("guardian_animals", {})
    for level, count in enumerate(LEVEL_COUNTS, start=1):
        row = animals.get(f"level{level}") if isinstance(animals, dict) else None
        if not isinstance(row, list) or len(row) != count:
            raise _fail(f"level {level} must hold {count} guardian animals")
        for i, entry in enumerate(row):
            _add_card(cards, entry, level, f"level-{level} animal {i + 1}")
    varan = raw.get("fire_varan", {})
    if not isinstance(varan, dict) or varan.get("count") != VARAN_COUNT:
        raise _fail(f"there must be {VARAN_COUNT} fire varans")
    _add_card(cards, {"name": "Fire Varan", "symbol": "solitary"}, 0, "the fire varan")
    totals = [sum(cards.elements[c][e] for c in range(NUM_STARTING)) for e in range(5)]
    if totals != [9, 6, 9, 2, 1] or sum(cards.coin[:NUM_STARTING]) != 5:
        raise _fail("the starting deck totals are not sun 9, water 6, plant 9, spiral 2, flower 1")

    trees = TreeData()
    tiles = raw.get("protective_trees", {}).get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 12:
        raise _fail("there must be 12 protective tree types")
    for entry in tiles:
        tid = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(tid, str):
            raise _fail("a protective tree has no id")
        gives = entry.get("gives", {})
        if not isinstance(gives, dict) or any(k not in ELEMENTS for k in gives):
            raise _fail(f"tree {tid} gives an unknown element")
        trees.ids.append(tid)
        trees.cost.append(_int(entry.get("cost"), f"{tid}.cost"))
        trees.elements.append(tuple(_int(gives.get(e, 0), f"{tid}.{e}") for e in ELEMENTS))  # type: ignore[arg-type]
        copies = entry.get("copies", {})
        for n in (2, 3, 4):
            trees.copies[n].append(_int(copies.get(f"{n}p"), f"{tid} copies for {n}p"))
    for n, total in ((2, 24), (3, 33), (4, 39)):
        if sum(trees.copies[n]) != total:
            raise _fail(f"the {n}-player tree supply must hold {total} tiles")
    if trees.ids[-1] != "T11" or trees.cost != sorted(trees.cost):
        raise _fail("trees must be listed by cost, ending with T11")

    circle = raw.get("circle_of_spirits", {})
    rocks = circle.get("rock_bonuses_clockwise") if isinstance(circle, dict) else None
    if not isinstance(rocks, list) or len(rocks) != 12:
        raise _fail("the circle of spirits must have 12 rocks")
    bonuses: list[str] = []
    for i, rock in enumerate(rocks):
        if not isinstance(rock, dict) or rock.get("index") != i:
            raise _fail(f"rock {i} is out of order")
        bonus = rock.get("bonus")
        if bonus not in BONUS_KINDS:
            raise _fail(f"rock {i} has an unknown bonus {bonus!r}")
        bonuses.append(bonus)
    starts: dict[int, list[int]] = {}
    for n in (2, 3, 4):
        got = circle.get("start_rocks", {}).get(f"{n}p")
        if not isinstance(got, list) or len(got) != n or len(set(got)) != n:
            raise _fail(f"the {n}-player start rocks must be {n} different rocks")
        starts[n] = [_int(r, "start rock") for r in got]
        if not all(0 <= r < 12 for r in starts[n]):
            raise _fail(f"the {n}-player start rocks must be rocks 0 to 11")
    if raw.get("fragment_tiles", {}).get("count") != FRAGMENT_COUNT:
        raise _fail(f"there must be {FRAGMENT_COUNT} fragment tiles")
    if raw.get("victory_tiles", {}).get("total") != 12:
        raise _fail("there must be 12 victory tiles")
    if raw.get("circle_of_spirits", {}).get("centre_fire_capacity") != CENTRE_CAP:
        raise _fail(f"the centre must hold at most {CENTRE_CAP} fires")
    board = _board(raw.get("forest_board"))
    return cards, trees, bonuses, starts, board


def _read() -> Any:
    text = resources.files("glade.living_forest").joinpath("data/living-forest-cards.json")
    return json.loads(text.read_text(encoding="utf-8"))


_LOADED: Final = load(_read())
CARDS: Final = _LOADED[0]
TREES: Final = _LOADED[1]
ROCK_BONUS: Final = _LOADED[2]
START_ROCKS: Final = _LOADED[3]
BOARD: Final = _LOADED[4]

NUM_CARDS: Final = len(CARDS.names)  # 66
VARAN: Final = NUM_CARDS - 1
LEVEL_RANGES: Final[tuple[range, range, range]] = (
    range(NUM_STARTING, NUM_STARTING + 23),
    range(NUM_STARTING + 23, NUM_STARTING + 39),
    range(NUM_STARTING + 39, NUM_STARTING + 51),
)
CARD_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(CARDS.names)}
TREE_BY_ID: Final[dict[str, int]] = {tid: i for i, tid in enumerate(TREES.ids)}
T11: Final = TREE_BY_ID["T11"]
FIRE_LEVEL_VALUE: Final[tuple[int, int, int]] = (2, 3, 4)  # fire added per animal of level 1/2/3
