"""What a seat may see: the view (public information only), the step in progress with the move
previews, who reached 12, and why the moves the page shows are refused now."""

from __future__ import annotations

from typing import Any, Final

from . import move, plant, rules
from .data import (
    CARDS,
    COLUMNS,
    ELEMENTS,
    EMPTY,
    FIRE_VALUES,
    ROCK_BONUS,
    ROWS,
    TARGET,
    TREES,
    VICTORY_KINDS,
)
from .save import tree_name
from .score import counts, parts_json
from .space import (
    A_CHOOSE,
    A_DONE,
    A_DRAW,
    A_FIRE,
    A_MOVE,
    A_PICK,
    A_STEAL,
    A_STOP,
    A_USE,
    ACTIONS,
    BONUS_NAMES,
    CELL_SLOT,
    DRAW,
    KIND_NAMES,
    OVER,
    PHASE_NAMES,
    PLANT_CELLS,
    S_ATTRACT,
    S_CHOOSE,
    S_EXTINGUISH,
    S_MOVE,
    S_PLANT,
    S_STEAL,
    SPACES,
    STEP_NAMES,
    TABLES,
    TREE_TYPES,
    plant_base,
)
from .state import ForestState

C_ELEMS: Final = CARDS.elements
C_COST: Final = CARDS.cost
C_LEVEL: Final = CARDS.level


def card_json(card: int) -> dict[str, Any]:
    """Public description of a card type."""
    out: dict[str, Any] = {"name": CARDS.names[card], "level": C_LEVEL[card]}
    if C_LEVEL[card]:
        out["cost"] = C_COST[card]
    out["symbol"] = CARDS.symbol[card]
    for e, v in zip(ELEMENTS, C_ELEMS[card], strict=True):
        if v:
            out[e] = v
    return out


def reached(s: ForestState) -> list[dict[str, Any]]:
    """The spirits that have reached 12 of something now, with what they reached (the game
    ends after the action phase in which one has; the highest total wins among them)."""
    return reached_of([counts(s, p) for p in range(s.players)])


def reached_of(progress: list[tuple[int, int, int]]) -> list[dict[str, Any]]:
    """``reached`` from every spirit's counts."""
    out = []
    for p, seat_counts in enumerate(progress):
        got = dict(zip(("trees", "fires", "flowers"), seat_counts, strict=True))
        kinds = [k for k, v in got.items() if v >= TARGET]
        if kinds:
            out.append({"seat": p, "kinds": kinds, "total": sum(got.values())})
    return out


def in_progress(s: ForestState) -> dict[str, Any] | None:
    """The step the acting spirit is in (None while it chooses an action)."""
    if s.phase != ACTIONS or s.step == S_CHOOSE:
        return None
    step = s.step
    out: dict[str, Any] = {"step": STEP_NAMES[step], "bonus": s.bonus_step}
    if step in (S_ATTRACT, S_EXTINGUISH):
        out["left"] = s.spend_left
        out["element"] = "sun" if step == S_ATTRACT else "water"
    if step == S_STEAL:
        out["from"] = list(s.steal_from)
    if step == S_MOVE:
        out["moves"] = move.previews(s, s.current_spirit)
    if s.bonuses_pending:
        out["then"] = [BONUS_NAMES[k] for k, _ in s.bonuses_pending]
    return out


def refusals(s: ForestState, seat: int) -> list[dict[str, Any]]:
    """Why the moves ``seat`` might try on the table now are refused: one entry per action the
    page shows that is not legal, ``{"action", "code", "params"}`` (the refusal of
    ``rules.why``). Planting is described by tree (``{"type": "plant", "tree"}``) and by space
    (``{"type": "plant", "row", "column"}``): each tried with a legal partner."""
    if s.phase == OVER:
        return []
    table = TABLES[s.players]
    codes = [A_DRAW, A_STOP, A_USE] if s.phase == DRAW else [A_CHOOSE + k for k in range(5)]
    codes += [A_PICK + i for i, c in enumerate(s.display) if c >= 0]
    codes += [A_FIRE + i for i in range(len(s.centre_fires))]
    acting = s.phase == ACTIONS and seat == s.current_spirit
    step = s.step
    if acting and step in (S_ATTRACT, S_EXTINGUISH, S_PLANT):
        codes.append(A_DONE)
    if acting and step == S_MOVE:
        codes += range(A_MOVE, plant_base(s.players))
    if acting and step == S_STEAL:
        codes += range(A_STEAL, A_MOVE)
    out = []
    for code in codes:
        why = rules.why(s, seat, code)
        if why is not None:
            out.append({"action": table[code].to_json(), "code": why[0], "params": why[1]})
    if acting and step == S_PLANT:
        out += _plant_refusals(s, seat)
    return out


def _plant_refusals(s: ForestState, seat: int) -> list[dict[str, Any]]:
    base = plant_base(s.players)
    free = plant.free_cells(s, seat)
    legal = set(rules.legal(s, seat))
    trees = [
        t for t in range(TREE_TYPES) if any(base + t * SPACES + CELL_SLOT[c] in legal for c in free)
    ]
    out: list[dict[str, Any]] = []
    if free:
        for t in range(TREE_TYPES):
            if t not in trees:
                why = rules.why(s, seat, base + t * SPACES + CELL_SLOT[free[0]])
                if why is not None:
                    tree = {"type": "plant", "tree": TREES.ids[t]}
                    out.append({"action": tree, "code": why[0], "params": why[1]})
    if trees:
        forest = s.forests[seat]
        for c in PLANT_CELLS:
            if forest[c] == EMPTY and c not in free:
                why = rules.why(s, seat, base + trees[0] * SPACES + CELL_SLOT[c])
                if why is not None:
                    row, column = divmod(c, COLUMNS)
                    cell = {"type": "plant", "row": row, "column": column}
                    out.append({"action": cell, "code": why[0], "params": why[1]})
    return out


def forest_json(forest: list[int]) -> list[list[str | None]]:
    """A forest as 3 rows of 5: null, ``"start"`` or a tree id."""
    return [[tree_name(t) for t in forest[r * COLUMNS : (r + 1) * COLUMNS]] for r in range(ROWS)]


def spirit_view(s: ForestState, p: int, progress: tuple[int, int, int]) -> dict[str, Any]:
    """What everyone may see of spirit ``p`` (its draw stack only by its size), with its
    counts ``progress``."""
    names = CARDS.names
    trees, fires, flowers = progress
    kept = s.fires_kept[p]
    return {
        "seat": p,
        "help_line": [names[c] for c in s.help_lines[p]],
        "solitary": s.solitary[p],
        "drawing": s.phase == DRAW and s.drawing[p],
        "draw_stack_count": len(s.draw_stacks[p]),
        "discard_count": len(s.discards[p]),
        "discard": sorted(names[c] for c in s.discards[p]),
        "forest": forest_json(s.forests[p]),
        "fragments": s.fragments[p],
        "fires": [v + 2 for v in range(3) for _ in range(kept[v])],
        "victory_tiles": dict(zip(VICTORY_KINDS, s.victory_tiles[p], strict=True)),
        "rock": s.rocks[p],
        "elements": {e: s.element(p, i) for i, e in enumerate(ELEMENTS)},
        "progress": {"trees": trees, "fires": fires, "flowers": flowers},
        "parts": parts_json(s, p),
    }


def body(s: ForestState, seat: int | None) -> dict[str, Any]:
    """The view's own fields (after the header every game's view starts with)."""
    acting = s.phase == ACTIONS
    progress = [counts(s, p) for p in range(s.players)]
    return {
        "round": s.round,
        "phase": PHASE_NAMES[s.phase],
        "sacred_tree": s.sacred_tree,
        "current": s.current_spirit if acting else None,
        "actions_left": s.actions_left if acting else None,
        "actions_used": [KIND_NAMES[k] for k in range(5) if s.actions_used >> k & 1]
        if acting
        else [],
        "in_progress": in_progress(s),
        "display": [
            [None if c < 0 else card_json(c) for c in s.display[lv * 4 : lv * 4 + 4]]
            for lv in range(3)
        ],
        "stack_counts": [len(st) for st in s.animal_stacks],
        "circle": [
            {
                "rock": r,
                "bonus": ROCK_BONUS[r],
                "spirit": next((p for p in range(s.players) if s.rocks[p] == r), None),
            }
            for r in range(12)
        ],
        "centre_fires": list(s.centre_fires),
        "fire_supply": {str(v): s.fire_supply[v - 2] for v in FIRE_VALUES},
        "tree_supply": dict(zip(TREES.ids, s.tree_supply, strict=True)),
        "fragment_supply": s.fragment_supply,
        "varan_supply": s.varan_supply,
        "taken_this_round": list(s.taken_this_round),
        "spirits": [spirit_view(s, p, progress[p]) for p in range(s.players)],
        "target": TARGET,
        "reached": reached_of(progress),
        "last_round": None if s.last_round is None else s.last_round.to_json(),
        "refusals": [] if seat is None else refusals(s, seat),
    }
