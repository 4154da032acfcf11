"""The save: version 2 (``dump``), and the loading of versions 2 and 1, judged at the door.

A save holds the state under the game's own names and the log that led to it. ``load`` reads
and checks every field, then replays the log from the seed: the game it returns is that replay,
and only if the replay reaches exactly the stored state. A log that is cut short, altered or
reordered is refused (``lf_save.damaged`` naming the first entry that does not replay, or
``log[N]``, N the log's length, when every entry replays but the state it leads to is not the
stored one), so nothing a load lets in can fail later.
"""

from __future__ import annotations

from typing import Any, Final

from glade.core.game import LogEntry

from . import rules
from .data import (
    CARD_BY_NAME,
    CARDS,
    COLUMNS,
    EMPTY,
    FIRE_VALUES,
    ROWS,
    START_TREE,
    TREE_BY_ID,
    TREES,
    VICTORY_KINDS,
)
from .refusals import REFUSALS
from .space import BONUS_NAMES, CELLS, KIND_NAMES, PHASE_NAMES, STEP_NAMES, TABLES
from .state import ForestState, new_state, rederive, settings

SAVE_VERSION: Final = 2
GAME_NAME: Final = "living-forest"


class Damaged(ValueError):
    """A save field that could not be read or does not hold together (``load`` names it)."""

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


def tree_name(t: int) -> str | None:
    return None if t == EMPTY else ("start" if t == START_TREE else TREES.ids[t])


def _tree_of(name: Any) -> int:
    if name is None:
        return EMPTY
    return START_TREE if name == "start" else TREE_BY_ID[name]


def _card_of(name: Any) -> int:
    if not isinstance(name, str):
        raise TypeError(f"a card name must be text, not {name!r}")
    return CARD_BY_NAME[name]


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {value!r}")
    return value


# ---------------------------------------------------------------------------- writing
def dump(s: ForestState, options: dict[str, Any]) -> dict[str, Any]:
    """The save, version 2: every part of the state under the game's own names.

    Cards are named as in the data file, trees by id; the forest is 3 rows of 5 (null, "start"
    or a tree id); piles list their cards from the bottom to the top. What follows from other
    parts (the elements of a help line or a forest, the solitary count) is not stored.
    """
    return {
        "game": GAME_NAME,
        "version": SAVE_VERSION,
        "seed": s.seed,
        "options": dict(options),
        **_state_fields(s),
        "log": [[p, c, None if ch is None else list(ch)] for p, c, ch in s.log],
    }


def _state_fields(s: ForestState) -> dict[str, Any]:
    names = CARDS.names

    def cards(pile: list[int]) -> list[str]:
        return [names[c] for c in pile]

    return {
        "round": s.round,
        "phase": PHASE_NAMES[s.phase],
        "sacred_tree": s.sacred_tree,
        "draw_start": s.draw_start,
        "turn": {
            "spirit": s.current_spirit,
            "turns_done": s.turns_done,
            "start": s.turn_start,
            "actions_left": s.actions_left,
            "actions_used": [KIND_NAMES[k] for k in range(5) if s.actions_used >> k & 1],
            "step": STEP_NAMES[s.step],
            "bonus_step": s.bonus_step,
            "spend_left": s.spend_left,
            "taken_in_step": s.taken_in_step,
            "bonuses_pending": [[BONUS_NAMES[k], x] for k, x in s.bonuses_pending],
            "steal_from": list(s.steal_from),
        },
        "spirits": [
            {
                "draw_stack": cards(s.draw_stacks[p]),
                "help_line": cards(s.help_lines[p]),
                "discard": cards(s.discards[p]),
                "drawing": s.drawing[p],
                "just_drawn": s.just_drawn[p],
                "shuffles_dealt": s.shuffles_dealt[p],
                "fragments": s.fragments[p],
                "rock": s.rocks[p],
                "forest": [
                    [tree_name(t) for t in s.forests[p][r * COLUMNS : (r + 1) * COLUMNS]]
                    for r in range(ROWS)
                ],
                "fires_kept": dict(zip(map(str, FIRE_VALUES), s.fires_kept[p], strict=True)),
                "victory_tiles": dict(zip(VICTORY_KINDS, s.victory_tiles[p], strict=True)),
            }
            for p in range(s.players)
        ],
        "display": [
            [None if c < 0 else names[c] for c in s.display[lv * 4 : lv * 4 + 4]] for lv in range(3)
        ],
        "animal_stacks": [cards(st) for st in s.animal_stacks],
        "centre_fires": list(s.centre_fires),
        "fire_supply": dict(zip(map(str, FIRE_VALUES), s.fire_supply, strict=True)),
        "tree_supply": dict(zip(TREES.ids, s.tree_supply, strict=True)),
        "fragment_supply": s.fragment_supply,
        "varan_supply": s.varan_supply,
        "taken_this_round": list(s.taken_this_round),
        "winners": list(s.winners),
    }


# ---------------------------------------------------------------------------- reading
def load(data: Any) -> tuple[ForestState, dict[str, Any]]:
    """The state a save of version 2 or 1 holds, and its options.

    :raises BadInput: ``lf_save.not_living_forest``, ``lf_save.version``, ``seed.not_int``,
        ``lf_options.*`` and ``lf_save.damaged`` (naming the field, or the log entry, at fault).
    """
    if not isinstance(data, dict) or data.get("game") != GAME_NAME:
        raise REFUSALS.bad_input("lf_save.not_living_forest")
    version = data.get("version")
    if version not in (1, SAVE_VERSION) or isinstance(version, bool):
        raise REFUSALS.bad_input("lf_save.version", version=repr(version))
    seed, players = settings(data.get("seed"), data.get("options"))
    stored = new_state(seed, players)
    try:
        log = _read_log(data)
        if version == 1:
            _read_v1(stored, data)
        else:
            _read_v2(stored, data)
        _check_sizes(stored)
        rederive(stored)
        return _replay_to(stored, log), {"players": players}
    except Damaged as exc:
        raise REFUSALS.bad_input("lf_save.damaged", field=exc.field) from None


def _read_log(data: dict[str, Any]) -> list[LogEntry]:
    try:
        return [
            (_whole(p), _whole(c), None if ch is None else tuple(map(_whole, ch)))
            for p, c, ch in data["log"]
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise Damaged("log") from exc


def _replay_to(stored: ForestState, log: list[LogEntry]) -> ForestState:
    """The game the log replays to from the seed, if it is the stored one (see the module
    docstring); else Damaged naming the first entry that does not replay."""
    game = new_state(stored.seed, stored.players)
    size = len(TABLES[stored.players])
    for i, (seat, code, _) in enumerate(log):
        if not (0 <= seat < game.players and 0 <= code < size) or rules.why(game, seat, code):
            raise Damaged(f"log[{_first_difference(game.log, log, i)}]")
        rules.play(game, seat, code)
    at = _first_difference(game.log, log, len(log))
    if at < len(log):
        raise Damaged(f"log[{at}]")
    if _state_fields(game) != _state_fields(stored):
        raise Damaged(f"log[{len(log)}]")
    return game


def _first_difference(replayed: list[LogEntry], stored: list[LogEntry], upto: int) -> int:
    """The first index below ``upto`` at which the replayed log differs from the stored one
    (an entry replayed to another chance, or put elsewhere in the draw phase), else ``upto``."""
    for i in range(min(upto, len(replayed))):
        if replayed[i] != stored[i]:
            return i
    return upto


def _read_v2(s: ForestState, data: dict[str, Any]) -> None:
    """Read the version-2 fields; Damaged names the field being read."""
    field = ""
    try:
        n = s.players
        field = "round"
        s.round = _whole(data["round"])
        field = "phase"
        s.phase = PHASE_NAMES.index(data["phase"])
        field = "sacred_tree"
        s.sacred_tree = _whole(data["sacred_tree"])
        field = "draw_start"
        s.draw_start = _whole(data["draw_start"])
        field = "turn"
        turn = data["turn"]
        s.current_spirit = _whole(turn["spirit"])
        s.turns_done = _whole(turn["turns_done"])
        s.turn_start = _whole(turn["start"])
        s.actions_left = _whole(turn["actions_left"])
        s.actions_used = sum(1 << KIND_NAMES.index(k) for k in set(turn["actions_used"]))
        s.step = STEP_NAMES.index(turn["step"])
        s.bonus_step = _flag(turn["bonus_step"])
        s.spend_left = _whole(turn["spend_left"])
        s.taken_in_step = _whole(turn["taken_in_step"])
        s.bonuses_pending = [(BONUS_NAMES.index(k), _whole(x)) for k, x in turn["bonuses_pending"]]
        s.steal_from = [_whole(p) for p in turn["steal_from"]]
        field = "spirits"
        spirits = data["spirits"]
        if len(spirits) != n:
            raise ValueError("one entry per spirit")
        s.draw_stacks = [list(map(_card_of, sp["draw_stack"])) for sp in spirits]
        s.help_lines = [list(map(_card_of, sp["help_line"])) for sp in spirits]
        s.discards = [list(map(_card_of, sp["discard"])) for sp in spirits]
        s.drawing = [_flag(sp["drawing"]) for sp in spirits]
        s.just_drawn = [_flag(sp["just_drawn"]) for sp in spirits]
        s.shuffles_dealt = [_whole(sp["shuffles_dealt"]) for sp in spirits]
        s.fragments = [_whole(sp["fragments"]) for sp in spirits]
        s.rocks = [_whole(sp["rock"]) for sp in spirits]
        forests = []
        for sp in spirits:
            rows = sp["forest"]
            if len(rows) != ROWS or any(len(r) != COLUMNS for r in rows):
                raise ValueError("a forest is 3 rows of 5")
            forests.append([_tree_of(t) for r in rows for t in r])
        s.forests = forests
        s.fires_kept = [[_whole(sp["fires_kept"][str(v)]) for v in FIRE_VALUES] for sp in spirits]
        s.victory_tiles = [
            [_whole(sp["victory_tiles"][k]) for k in VICTORY_KINDS] for sp in spirits
        ]
        field = "display"
        display = data["display"]
        if len(display) != 3 or any(len(row) != 4 for row in display):
            raise ValueError("the display is 3 rows of 4")
        s.display = [EMPTY if c is None else _card_of(c) for row in display for c in row]
        field = "animal_stacks"
        stacks = data["animal_stacks"]
        if len(stacks) != 3:
            raise ValueError("one stack per level")
        s.animal_stacks = [list(map(_card_of, st)) for st in stacks]
        field = "centre_fires"
        s.centre_fires = [_whole(v) for v in data["centre_fires"]]
        field = "fire_supply"
        supply = data["fire_supply"]
        s.fire_supply = [_whole(supply[str(v)]) for v in FIRE_VALUES]
        field = "tree_supply"
        trees = data["tree_supply"]
        s.tree_supply = [_whole(trees[t]) for t in TREES.ids]
        field = "fragment_supply"
        s.fragment_supply = _whole(data["fragment_supply"])
        field = "varan_supply"
        s.varan_supply = _whole(data["varan_supply"])
        field = "taken_this_round"
        taken = [_whole(v) for v in data["taken_this_round"]]
        if len(taken) != 3:
            raise ValueError("one count per level")
        s.taken_this_round = taken
        field = "winners"
        s.winners = [_whole(p) for p in data["winners"]]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise Damaged(field) from exc


def _read_v1(s: ForestState, data: dict[str, Any]) -> None:
    """Read a version-1 save, the slot dump of earlier releases (its own short names)."""
    field = ""

    def whole(name: str) -> int:
        nonlocal field
        field = name
        return _whole(data[name])

    def wholes(name: str) -> list[int]:
        nonlocal field
        field = name
        return [_whole(v) for v in data[name]]

    def nested(name: str) -> list[list[int]]:
        nonlocal field
        field = name
        return [[_whole(v) for v in row] for row in data[name]]

    def flags(name: str) -> list[bool]:
        nonlocal field
        field = name
        return [bool(v) for v in data[name]]

    try:
        s.phase = whole("phase")
        s.round = whole("round")
        s.sacred_tree = whole("first")
        s.current_spirit = whole("cur")
        s.turns_done = whole("turn_no")
        s.actions_left = whole("left")
        s.actions_used = whole("used")
        s.step = whole("sub")
        s.spend_left = whole("budget")
        s.taken_in_step = whole("picked")
        s.turn_start = whole("turn_start")
        s.draw_start = whole("draw_start")
        s.fragment_supply = whole("frag_supply")
        s.varan_supply = whole("varan_supply")
        field = "bonus"
        s.bonus_step = bool(data["bonus"])
        s.steal_from = wholes("victims")
        s.fragments = wholes("frags")
        s.rocks = wholes("pos")
        s.shuffles_dealt = wholes("shuffles")
        s.display = wholes("display")
        s.centre_fires = wholes("centre")
        s.fire_supply = wholes("fire_supply")
        s.tree_supply = wholes("tree_supply")
        s.taken_this_round = wholes("taken")
        s.winners = wholes("winners")
        s.draw_stacks = nested("decks")
        s.help_lines = nested("helps")
        s.discards = nested("discards")
        s.forests = nested("forests")
        s.fires_kept = nested("fires")
        s.victory_tiles = nested("vts")
        s.animal_stacks = nested("stacks")
        field = "pending"
        s.bonuses_pending = [(_whole(a), _whole(b)) for a, b in data["pending"]]
        s.drawing = flags("drawing")
        s.just_drawn = flags("fresh")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise Damaged(field) from exc


def _check_sizes(s: ForestState) -> None:
    """The sizes the engine relies on (before anything is derived from the fields)."""
    n = s.players
    per_spirit = (s.draw_stacks, s.help_lines, s.discards, s.fragments, s.rocks, s.forests)
    if any(len(x) != n for x in per_spirit):
        raise Damaged("spirits")
    if any(len(f) != CELLS for f in s.forests):
        raise Damaged("spirits")
    if len(s.display) != 12 or len(s.tree_supply) != 12:
        raise Damaged("display")
    if not 0 <= s.current_spirit < n or not 0 <= s.sacred_tree < n:
        raise Damaged("turn")
    try:
        for pile in (*s.draw_stacks, *s.help_lines, *s.discards, *s.animal_stacks, s.display):
            for c in pile:
                if not -1 <= c < len(CARDS.names):
                    raise ValueError(c)
        for forest in s.forests:
            for t in forest:
                if not EMPTY <= t <= START_TREE:
                    raise ValueError(t)
    except ValueError as exc:
        raise Damaged("spirits") from exc


__all__ = ["SAVE_VERSION", "Damaged", "dump", "load", "tree_name"]
