"""Harmonies boards and cards, loaded once from ``data/harmonies-cards.json`` and validated.

Everything the engine needs is precomputed here: the stack table, the board geometry, and every
habitat compiled to bit offsets in all distinct rotations.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

COLORS: Final[tuple[str, ...]] = ("blue", "gray", "brown", "green", "yellow", "red")
BLUE: Final = 0
GRAY: Final = 1
BROWN: Final = 2
GREEN: Final = 3
YELLOW: Final = 4
RED: Final = 5
COLOR_INDEX: Final = {c: i for i, c in enumerate(COLORS)}

# ---------------------------------------------------------------- stack states
# Every stack that can exist on a cell, bottom to top. The state code is what a cell stores.
STACKS: Final[tuple[tuple[int, ...], ...]] = (
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
# the state codes (indices of STACKS)
EMPTY: Final = 0
W: Final = 1
F: Final = 2
M1: Final = 3
M2: Final = 4
M3: Final = 5
T1: Final = 6
B1: Final = 7
T2: Final = 8
B2: Final = 9
T3: Final = 10
R1: Final = 11
BG: Final = 12
BB: Final = 13
BR: Final = 14
NSTATES: Final = len(STACKS)
STATE_OF: Final[dict[tuple[int, ...], int]] = {s: i for i, s in enumerate(STACKS)}
BUILDINGS: Final = (BG, BB, BR)
TOP: Final[tuple[int, ...]] = tuple(s[-1] if s else -1 for s in STACKS)
HEIGHT: Final[tuple[int, ...]] = tuple(len(s) for s in STACKS)
TREE_HEIGHT: Final = {T1: 1, T2: 2, T3: 3}
MOUNTAIN_HEIGHT: Final = {M1: 1, M2: 2, M3: 3}

# NEXT[state * 6 + color] = the state after placing that colour on top, or -1 if not allowed
# (facts §3: gray-gray, gray-red, red-red, brown-red, brown-brown, brown-green; gray x3; brown-brown-green).
NEXT: Final[tuple[int, ...]] = tuple(
    STATE_OF.get(stack + (color,), -1) for stack in STACKS for color in range(6)
)
# UNDER[color] = states on which that colour may be placed
UNDER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s for s in range(NSTATES) if NEXT[s * 6 + c] >= 0) for c in range(6)
)

# ---------------------------------------------------------------- habitat cell classes
# A pattern cell requires one of these; each maps to the stack states that satisfy it.
CLASS_STATES: Final[dict[str, tuple[int, ...]]] = {
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
CLASS_NAMES: Final = tuple(CLASS_STATES)
CLASS_INDEX: Final = {name: i for i, name in enumerate(CLASS_NAMES)}


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
NEIGHBOUR_STEPS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# Rows of padding between two columns of the bit grid: a habitat reaches 2 cells from its cube
# cell, so a pattern cell off the board never lands on another column's cell.
PAD: Final = 2


@dataclass(frozen=True)
class Layout:
    """One side of the personal board: its cells, neighbours and bit layout.

    Cells are numbered 0..n-1 in the data file's order. For habitat matching each cell also has a
    bit in a column-major grid whose columns are the board's rows plus ``PAD`` rows of padding, so
    that a hex step is a fixed shift of an int. Both sides fit in 61 bits, which keeps every mask
    (and every shifted mask, see ``shift``) a machine-sized int in the compiled engine.
    """

    side: str
    cells: tuple[tuple[int, int], ...]
    index: dict[tuple[int, int], int]
    names: tuple[str, ...]  # "q,r"
    neighbours: tuple[tuple[int, ...], ...]
    stride: int
    rmin: int
    bits: tuple[int, ...]  # cell index -> bit position
    bit_cell: tuple[int, ...]  # bit position -> cell index (-1: no cell)
    full: int  # mask of all cells
    around: tuple[int, ...]  # bit position -> mask of the neighbours of that cell (0: no cell)
    below: tuple[int, ...]  # below[d] = full >> d: the cells that stay on the grid moved up by d
    save_bits: tuple[int, ...]  # cell index -> its bit in the masks of saved games (format 1)

    def delta(self, dq: int, dr: int) -> int:
        return dq * self.stride + dr

    def shift(self, m: int, d: int) -> int:
        """The cells of ``m`` moved by ``d`` bits (a step of ``delta``), as far as they can stay
        in the grid's range: bit x of the result is bit x - d of ``m``."""
        if d <= 0:
            return m >> -d
        return (m & self.below[d]) << d

    # The six hex steps are the bit shifts +-1, +-stride and +-(stride - 1) (NEIGHBOUR_STEPS).
    def spread(self, m: int) -> int:
        """Cells adjacent to some cell of ``m`` (a cell of ``m`` only if another one is next to it)."""
        a = self.stride
        b = a - 1
        below = self.below
        up = (m & below[a]) << a | (m & below[b]) << b | (m & below[1]) << 1
        return (up | m >> 1 | m >> a | m >> b) & self.full

    def components(self, m: int) -> list[int]:
        """The connected groups of the cells of mask ``m``, each as a mask."""
        a = self.stride
        b = a - 1
        below = self.below
        out = []
        while m:
            comp = m & -m
            while True:
                up = (comp & below[a]) << a | (comp & below[b]) << b | (comp & below[1]) << 1
                grown = (comp | up | comp >> 1 | comp >> a | comp >> b) & m
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

    def to_save_mask(self, m: int) -> int:
        """A mask of this layout's bits in the numbering of saved games."""
        out = 0
        for i, bit in enumerate(self.bits):
            if m >> bit & 1:
                out |= 1 << self.save_bits[i]
        return out

    def from_save_mask(self, m: int) -> int:
        """A mask of a saved game in this layout's bits (``ValueError`` for a bit of no cell)."""
        out = 0
        for i, bit in enumerate(self.save_bits):
            if m >> bit & 1:
                out |= 1 << self.bits[i]
                m ^= 1 << bit
        if m:
            raise ValueError(f"a cube mask names no cell of side {self.side}")
        return out


def _layout(side: str, cells: list[list[int]]) -> Layout:
    coords = tuple((int(q), int(r)) for q, r in cells)
    index = {c: i for i, c in enumerate(coords)}
    qmin = min(q for q, _ in coords)
    rmin = min(r for _, r in coords)
    rmax = max(r for _, r in coords)
    stride = rmax - rmin + 1 + PAD
    neighbours = tuple(
        tuple(index[(q + dq, r + dr)] for dq, dr in NEIGHBOUR_STEPS if (q + dq, r + dr) in index)
        for q, r in coords
    )
    bits = tuple((q - qmin) * stride + (r - rmin) for q, r in coords)
    full = 0
    for b in bits:
        full |= 1 << b
    if full.bit_length() > 61:
        raise ValueError(f"harmonies data: side {side} does not fit the 61-bit grid")
    steps = tuple(dq * stride + dr for dq, dr in NEIGHBOUR_STEPS)
    if sorted(steps) != sorted((1, -1, stride, -stride, stride - 1, 1 - stride)):
        raise ValueError("harmonies data: the hex steps are not the layout's bit shifts")

    def around(b: int) -> int:
        out = 0
        for d in steps:
            out |= (1 << (b + d)) if b + d >= 0 else 0
        return out & full

    bit_cell = [-1] * full.bit_length()
    for i, b in enumerate(bits):
        bit_cell[b] = i
    # saved games number the bits as the engine once did: two padding columns and rows around
    save_stride = rmax - rmin + 1 + 4
    return Layout(
        side=side,
        cells=coords,
        index=index,
        names=tuple(f"{q},{r}" for q, r in coords),
        neighbours=neighbours,
        stride=stride,
        rmin=rmin,
        bits=bits,
        bit_cell=tuple(bit_cell),
        full=full,
        around=tuple(around(b) if b in bits else 0 for b in range(full.bit_length())),
        below=tuple(full >> d for d in range(4 * stride)),
        save_bits=tuple((q + 2) * save_stride + (r - rmin + 2) for q, r in coords),
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


RAW: Final = _load()
TOKEN_COUNTS: Final[tuple[int, ...]] = tuple(int(RAW["components"]["tokens"][c]) for c in COLORS)
MAX_HELD: Final = int(
    RAW["components"]["max_cards_above_board"]
)  # unfinished cards a player may hold
LAYOUTS: Final[dict[str, Layout]] = {side: _layout(side, RAW["board"][side]) for side in ("A", "B")}
CARDS: Final[tuple[Card, ...]] = tuple(
    [_compile_card(i, raw, False) for i, raw in enumerate(RAW["animals"])]
    + [_compile_card(32 + i, raw, True) for i, raw in enumerate(RAW["spirits"])]
)
CARD_INDEX: Final[dict[str, int]] = {c.id: c.index for c in CARDS}
ANIMALS: Final = tuple(range(32))
SPIRITS: Final = tuple(range(32, 42))
SCORING: Final[dict[str, Any]] = RAW["scoring"]
SOLO_SUNS: Final[dict[str, Any]] = RAW["solo_suns"]


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
