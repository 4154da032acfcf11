"""Harmonies boards and cards, loaded once from ``data/harmonies-cards.json`` and validated.

Everything the engine needs is precomputed here: the stack table, the board geometry, and every
habitat compiled to bit offsets in all distinct rotations.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLORS: tuple[str, ...] = ("blue", "gray", "brown", "green", "yellow", "red")
BLUE, GRAY, BROWN, GREEN, YELLOW, RED = range(6)
COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}

# ---------------------------------------------------------------- stack states
# Every stack that can exist on a cell, bottom to top. The state code is what a cell stores.
STACKS: tuple[tuple[int, ...], ...] = (
    (),  # 0 empty
    (BLUE,),  # 1 water
    (YELLOW,),  # 2 field
    (GRAY,),  # 3 mountain 1
    (GRAY, GRAY),  # 4 mountain 2
    (GRAY, GRAY, GRAY),  # 5 mountain 3
    (GREEN,),  # 6 tree 1
    (BROWN,),  # 7 trunk
    (BROWN, GREEN),  # 8 tree 2
    (BROWN, BROWN),  # 9 trunk 2
    (BROWN, BROWN, GREEN),  # 10 tree 3
    (RED,),  # 11 lone red
    (GRAY, RED),  # 12 building
    (BROWN, RED),  # 13 building
    (RED, RED),  # 14 building
)
EMPTY, W, F, M1, M2, M3, T1, B1, T2, B2, T3, R1, BG, BB, BR = range(15)
NSTATES = len(STACKS)
STATE_OF: dict[tuple[int, ...], int] = {s: i for i, s in enumerate(STACKS)}
BUILDINGS = (BG, BB, BR)
TOP: tuple[int, ...] = tuple(s[-1] if s else -1 for s in STACKS)
HEIGHT: tuple[int, ...] = tuple(len(s) for s in STACKS)
TREE_HEIGHT = {T1: 1, T2: 2, T3: 3}
MOUNTAIN_HEIGHT = {M1: 1, M2: 2, M3: 3}

# NEXT[state * 6 + color] = the state after placing that colour on top, or -1 if not allowed
# (facts §3: gray-gray, gray-red, red-red, brown-red, brown-brown, brown-green; gray x3; brown-brown-green).
NEXT: list[int] = [-1] * (NSTATES * 6)
for _state, _stack in enumerate(STACKS):
    for _color in range(6):
        _new = STATE_OF.get(_stack + (_color,), -1)
        NEXT[_state * 6 + _color] = _new
# UNDER[color] = states on which that colour may be placed
UNDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(NSTATES) if NEXT[s * 6 + c] >= 0) for c in range(6)
)

# ---------------------------------------------------------------- habitat cell classes
# A pattern cell requires one of these; each maps to the stack states that satisfy it.
CLASS_STATES: dict[str, tuple[int, ...]] = {
    "W": (W,),
    "F": (F,),
    "M1": (M1,),
    "M2": (M2,),
    "M3": (M3,),
    "T1": (T1,),
    "T2": (T2,),
    "T3": (T3,),
    "BLD": BUILDINGS,
}
CLASS_NAMES = tuple(CLASS_STATES)
CLASS_INDEX = {name: i for i, name in enumerate(CLASS_NAMES)}


def _class_of_stack(stack: list[str]) -> str:
    if stack == ["*", "red"]:
        return "BLD"
    colors = tuple(COLOR_INDEX[c] for c in stack)
    state = STATE_OF.get(colors)
    for name, states in CLASS_STATES.items():
        if state is not None and states == (state,):
            return name
    raise ValueError(f"card stack {stack} is not a habitat landscape")


# ---------------------------------------------------------------- boards
NEIGHBOUR_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class Layout:
    """One side of the personal board: its cells, neighbours and bit layout.

    Cells are numbered 0..n-1 in the data file's order. For habitat matching each cell also has a
    bit in a padded column-major grid, so that a hex step is a fixed shift of a Python int.
    """

    side: str
    cells: tuple[tuple[int, int], ...]
    index: dict[tuple[int, int], int]
    names: tuple[str, ...]  # "q,r"
    neighbours: tuple[tuple[int, ...], ...]
    stride: int
    rmin: int
    bits: tuple[int, ...]  # cell index -> bit position
    bit_cell: dict[int, int]  # bit position -> cell index
    full: int  # mask of all cells
    around: dict[int, int]  # single-cell mask -> mask of its neighbours

    def delta(self, dq: int, dr: int) -> int:
        return dq * self.stride + dr

    # The six hex steps are the bit shifts +-1, +-stride and +-(stride - 1) (NEIGHBOUR_STEPS).
    def spread(self, m: int) -> int:
        """Cells adjacent to some cell of ``m`` (a cell of ``m`` only if another one is next to it)."""
        a = self.stride
        b = a - 1
        return (m << a | m << b | m << 1 | m >> 1 | m >> a | m >> b) & self.full

    def components(self, m: int) -> list[int]:
        """The connected groups of the cells of mask ``m``, each as a mask."""
        a = self.stride
        b = a - 1
        out = []
        while m:
            comp = m & -m
            while True:
                grown = (
                    comp | comp << a | comp << b | comp << 1 | comp >> 1 | comp >> a | comp >> b
                ) & m
                if grown == comp:
                    break
                comp = grown
            out.append(comp)
            m ^= comp
        return out

    def masks_of(self, cells: Sequence[int]) -> list[int]:
        """Per stack state, the mask of the cells holding it (``cells``: state per cell index)."""
        masks = [0] * NSTATES
        for i, state in enumerate(cells):
            masks[state] |= 1 << self.bits[i]
        return masks


def _layout(side: str, cells: list[list[int]]) -> Layout:
    coords = tuple((int(q), int(r)) for q, r in cells)
    index = {c: i for i, c in enumerate(coords)}
    rmin = min(r for _, r in coords)
    rmax = max(r for _, r in coords)
    stride = rmax - rmin + 1 + 4
    neighbours = tuple(
        tuple(index[(q + dq, r + dr)] for dq, dr in NEIGHBOUR_STEPS if (q + dq, r + dr) in index)
        for q, r in coords
    )
    bits = tuple((q + 2) * stride + (r - rmin + 2) for q, r in coords)
    full = 0
    for b in bits:
        full |= 1 << b
    steps = tuple(dq * stride + dr for dq, dr in NEIGHBOUR_STEPS)
    if sorted(steps) != sorted((1, -1, stride, -stride, stride - 1, 1 - stride)):
        raise ValueError("harmonies data: the hex steps are not the layout's bit shifts")

    def around(b: int) -> int:
        out = 0
        for d in steps:
            out |= (1 << (b + d)) if b + d >= 0 else 0
        return out & full

    return Layout(
        side=side,
        cells=coords,
        index=index,
        names=tuple(f"{q},{r}" for q, r in coords),
        neighbours=neighbours,
        stride=stride,
        rmin=rmin,
        bits=bits,
        bit_cell={b: i for i, b in enumerate(bits)},
        full=full,
        around={1 << b: around(b) for b in bits},
    )


# ---------------------------------------------------------------- cards
@dataclass(frozen=True)
class Card:
    """An animal card or a Nature's Spirit, with its habitat in every distinct rotation."""

    index: int  # 0..31 animals, 32..41 spirits (Board Game Arena order)
    id: str
    name: str
    spirit: bool
    points: tuple[int, ...]  # animal points bottom slot first; () for spirits
    cubes: int  # cubes a card carries (1 for a spirit)
    cube_class: int  # class index required under the cube
    # rotations: each a tuple of (dq, dr, class index) for the non-cube cells, in axial steps
    rotations: tuple[tuple[tuple[int, int, int], ...], ...]
    category: str | None  # spirits: connected_groups / landscape_count
    formula: dict[str, Any] | None
    data: dict[str, Any]


def _rotate(q: int, r: int) -> tuple[int, int]:
    return -r, q + r


def _compile_card(index: int, raw: dict[str, Any], spirit: bool) -> Card:
    cube_cells = [c for c in raw["cells"] if c["cube"]]
    if len(cube_cells) != 1 or (cube_cells[0]["q"], cube_cells[0]["r"]) != (0, 0):
        raise ValueError(f"card {raw['id']}: the cube cell must be the single cell at (0,0)")
    others = [
        (int(c["q"]), int(c["r"]), CLASS_INDEX[_class_of_stack(c["stack"])])
        for c in raw["cells"]
        if not c["cube"]
    ]
    rotations: list[tuple[tuple[int, int, int], ...]] = []
    seen: set[frozenset[tuple[int, int, int]]] = set()
    current = others
    for _ in range(6):
        key = frozenset(current)
        if key not in seen:
            seen.add(key)
            rotations.append(tuple(sorted(current)))
        current = [(*_rotate(q, r), k) for q, r, k in current]
    points = tuple(int(p) for p in raw.get("points", ()))
    cubes = 1 if spirit else int(raw["cubes"])
    if not spirit and len(points) != cubes:
        raise ValueError(f"card {raw['id']}: {cubes} cubes but {len(points)} point slots")
    return Card(
        index=index,
        id=raw["id"],
        name=raw["name"],
        spirit=spirit,
        points=points,
        cubes=cubes,
        cube_class=CLASS_INDEX[_class_of_stack(cube_cells[0]["stack"])],
        rotations=tuple(rotations),
        category=raw.get("category"),
        formula=raw.get("formula"),
        data=raw,
    )


def _load() -> dict[str, Any]:
    text = (
        resources.files("glade.harmonies").joinpath("data/harmonies-cards.json").read_text("utf-8")
    )
    raw: dict[str, Any] = json.loads(text)
    return raw


RAW = _load()
TOKEN_COUNTS: tuple[int, ...] = tuple(int(RAW["components"]["tokens"][c]) for c in COLORS)
MAX_HELD = int(RAW["components"]["max_cards_above_board"])  # unfinished cards a player may hold
LAYOUTS: dict[str, Layout] = {side: _layout(side, RAW["board"][side]) for side in ("A", "B")}
CARDS: tuple[Card, ...] = tuple(
    [_compile_card(i, raw, False) for i, raw in enumerate(RAW["animals"])]
    + [_compile_card(32 + i, raw, True) for i, raw in enumerate(RAW["spirits"])]
)
CARD_INDEX: dict[str, int] = {c.id: c.index for c in CARDS}
ANIMALS = tuple(range(32))
SPIRITS = tuple(range(32, 42))
SCORING = RAW["scoring"]
SOLO_SUNS = RAW["solo_suns"]


def _validate() -> None:
    """Refuse a data file that does not describe the published game."""
    if sum(TOKEN_COUNTS) != 120 or TOKEN_COUNTS != (23, 23, 21, 19, 19, 15):
        raise ValueError(f"harmonies data: token counts {TOKEN_COUNTS} are not the game's")
    if MAX_HELD != 4:
        raise ValueError(f"harmonies data: a player holds 4 unfinished cards, not {MAX_HELD}")
    if len(LAYOUTS["A"].cells) != 23 or len(LAYOUTS["B"].cells) != 25:
        raise ValueError("harmonies data: board A must have 23 cells and board B 25")
    if len(RAW["animals"]) != 32 or len(RAW["spirits"]) != 10:
        raise ValueError("harmonies data: expected 32 animal cards and 10 spirits")
    if sum(c.cubes for c in CARDS if not c.spirit) != 96:
        raise ValueError("harmonies data: the animal cards must have 96 point slots in all")
    if len(CARD_INDEX) != 42:
        raise ValueError("harmonies data: card ids must be unique")
    for card in CARDS:
        if card.spirit and (card.formula is None or card.category is None):
            raise ValueError(f"harmonies data: spirit {card.id} lacks a formula or category")


_validate()
