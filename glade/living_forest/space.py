"""The names every part of the engine shares: phases, steps, action kinds, bonuses, the forest's
geometry, and the fixed integer action space (``docs/living-forest.md`` lays out the ids).

Nothing here decides a rule; these are the words and numbers the rules are written in.
"""

from __future__ import annotations

from typing import Any, Final

from glade.core.actions import Action
from glade.core.errors import IllegalAction, Refusal
from glade.core.refusals import CORE

from .data import BOARD, CENTRE_CAP, COLUMNS, ROCK_BONUS, ROWS, START_CELL, TREES, VICTORY_KINDS
from .refusals import REFUSALS

# ---------------------------------------------------------------------------- phases and steps
DRAW: Final = 0
ACTIONS: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("draw", "actions", "over")

# the sub-step the current spirit is in inside its action phase
S_CHOOSE: Final = 0
S_ATTRACT: Final = 1
S_EXTINGUISH: Final = 2
S_MOVE: Final = 3
S_PLANT: Final = 4
S_STEAL: Final = 5
STEP_NAMES: Final = ("choose", "attract", "extinguish", "move", "plant", "steal")

# the five actions
K_FRAGMENT: Final = 0
K_ATTRACT: Final = 1
K_EXTINGUISH: Final = 2
K_MOVE: Final = 3
K_PLANT: Final = 4
KIND_NAMES: Final = ("fragment", "attract", "extinguish", "move", "plant")

# ---------------------------------------------------------------------------- action ids
# move and plant ids depend on the player count
A_DRAW: Final = 0
A_STOP: Final = 1
A_USE: Final = 2
A_DONE: Final = 3
A_END: Final = 4
A_CHOOSE: Final = 5  # 5..9, one per KIND
A_PICK: Final = 10  # 10..21: level 1..3 x slot 0..3
A_FIRE: Final = 22  # 22..28: centre fire index 0..6
A_STEAL: Final = 29  # 29..31: fire / flower / tree victory tile
A_MOVE: Final = 32  # 32..32+M-1: 1..M steps, M = 12 - players
TREE_TYPES: Final = 12
SPACES: Final = 14  # plantable spaces of a forest: every cell but the centre


def most_steps(players: int) -> int:
    """The longest move on the circle: one lap without the other spirits' rocks."""
    return 12 - players


def plant_base(players: int) -> int:
    """The first plant id: ``plant_base + SPACES * tree + space``."""
    return A_MOVE + most_steps(players)


# ---------------------------------------------------------------------------- the forest
CELLS: Final = ROWS * COLUMNS
PLANT_CELLS: Final[tuple[int, ...]] = tuple(c for c in range(CELLS) if c != START_CELL)
CELL_SLOT: Final[dict[int, int]] = {c: i for i, c in enumerate(PLANT_CELLS)}
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        r2 * COLUMNS + c2
        for r2, c2 in (
            (c // COLUMNS - 1, c % COLUMNS),
            (c // COLUMNS + 1, c % COLUMNS),
            (c // COLUMNS, c % COLUMNS - 1),
            (c // COLUMNS, c % COLUMNS + 1),
        )
        if 0 <= r2 < ROWS and 0 <= c2 < COLUMNS
    )
    for c in range(CELLS)
)
# permanent line bonuses (data file): (cells of the line, element, amount)
LINE_BONUSES: Final[tuple[tuple[tuple[int, ...], int, int], ...]] = tuple(BOARD.lines)
CELL_LINES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, (cells, _, _) in enumerate(LINE_BONUSES) if c in cells) for c in range(CELLS)
)


def cell_name(cell: int) -> str:
    """A forest cell as the explained score names it: ``"row,column"`` (0-based)."""
    return f"{cell // COLUMNS},{cell % COLUMNS}"


# ---------------------------------------------------------------------------- bonuses
# pending bonuses: (B_*, extra); the kinds are the data file's rock and corner bonus names
B_FRAGMENTS: Final = 0
B_ATTRACT: Final = 1
B_EXTINGUISH: Final = 2
B_PLANT: Final = 3
BONUS_NAMES: Final = ("fragments", "attract", "extinguish", "plant")
BONUS_OF: Final[dict[str, int]] = {
    "take_fragment": B_FRAGMENTS,
    "attract": B_ATTRACT,
    "extinguish": B_EXTINGUISH,
    "plant": B_PLANT,
}
# corner bonuses (data file): cell -> pending bonus (B_*, extra)
CORNER_BONUS: Final[dict[int, tuple[int, int]]] = {
    cell: (BONUS_OF[kind], extra) for cell, (kind, extra) in BOARD.corners.items()
}
# the landing rock's bonus: a rock's fragment bonus is 1 tile, its actions have no extra
ROCK_PENDING: Final[tuple[tuple[int, int], ...]] = tuple(
    (BONUS_OF[b], 1 if b == "take_fragment" else 0) for b in ROCK_BONUS
)


# ---------------------------------------------------------------------------- the action table
def _build_table(players: int) -> list[Action]:
    table = [
        Action("draw"),
        Action("stop"),
        Action("use_fragment"),
        Action("done"),
        Action("end_actions"),
    ]
    table += [Action("choose_action", action=k) for k in KIND_NAMES]
    table += [Action("pick_card", level=lv, slot=sl) for lv in (1, 2, 3) for sl in range(4)]
    table += [Action("pick_fire", index=i) for i in range(CENTRE_CAP)]
    table += [Action("steal", tile=k) for k in VICTORY_KINDS]
    table += [Action("move", steps=k) for k in range(1, most_steps(players) + 1)]
    table += [
        Action("plant", tree=tid, row=c // COLUMNS, column=c % COLUMNS)
        for tid in TREES.ids
        for c in PLANT_CELLS
    ]
    assert len(table) == plant_base(players) + TREE_TYPES * SPACES
    return table


TABLES: Final[dict[int, list[Action]]] = {n: _build_table(n) for n in (2, 3, 4)}
INDEXES: Final[dict[int, dict[Action, int]]] = {
    n: {a: i for i, a in enumerate(t)} for n, t in TABLES.items()
}
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "draw": (),
    "stop": (),
    "use_fragment": (),
    "done": (),
    "end_actions": (),
    "choose_action": ("action",),
    "pick_card": ("level", "slot"),
    "pick_fire": ("index",),
    "steal": ("tile",),
    "move": ("steps",),
    "plant": ("column", "row", "tree"),
}


def action_id(players: int, action: Action) -> int:
    """Index of ``action`` in the action space of ``players`` spirits.

    :raises IllegalAction: (``lf_action.*``) when the action names nothing in that space.
    """
    try:
        code = INDEXES[players].get(action)
    except TypeError:  # a field holding an unhashable value names nothing
        code = None
    if code is not None and all(type(v) in (int, str) for _, v in action.args):
        return code  # (True == 1 and 1.0 == 1 in Python: such values name nothing here)
    raise _names_nothing(players, action)


def _names_nothing(players: int, action: Action) -> IllegalAction:
    kind = action.type
    if kind not in FIELDS:
        return REFUSALS.illegal("lf_action.kind", kind=repr(kind), actions=", ".join(FIELDS))
    want = FIELDS[kind]
    have = tuple(k for k, _ in action.args)
    if have != want:
        if not want:
            return REFUSALS.illegal("lf_action.no_fields", kind=kind)
        return REFUSALS.illegal("lf_action.fields", kind=kind, fields=", ".join(want))
    if kind == "choose_action":
        return REFUSALS.illegal("lf_action.choose_action", actions=", ".join(KIND_NAMES))
    if kind == "pick_fire":
        return REFUSALS.illegal("lf_action.pick_fire", last=CENTRE_CAP - 1)
    if kind == "steal":
        return REFUSALS.illegal("lf_action.steal", tiles=", ".join(VICTORY_KINDS))
    if kind == "move":
        return REFUSALS.illegal("lf_action.move", most=most_steps(players))
    if kind == "plant":
        return REFUSALS.illegal(
            "lf_action.plant",
            trees=", ".join(TREES.ids),
            last_row=ROWS - 1,
            last_column=COLUMNS - 1,
            start_row=START_CELL // COLUMNS,
            start_column=START_CELL % COLUMNS,
        )
    return REFUSALS.illegal("lf_action.pick_card")


# a refusal before it is worded: (code, params); the rules return these, ``why_illegal`` words
# them (building the sentence costs more than deciding, and the legal list never needs it)
Why = tuple[str, dict[str, Any]]


def worded(why: Why) -> Refusal:
    """The refusal ``why`` names, worded by its catalogue (the core one for the codes every game
    shares, such as ``game.over``)."""
    code, params = why
    return (CORE if code in CORE else REFUSALS).refuse(code, **params)
