"""The Living Forest rules engine (base game, 2-4 spirits).

A round is the simultaneous Guardian Animals phase (every spirit draws cards one at a time into
its help line), then the Action phase in turn order from the Sacred Tree holder, then the end of
round (Onibi's two attacks, display refill, help lines to the discard, the Sacred Tree passes).

Every multi-part choice is made of one-click steps (choose an action, then pick cards or fires
one at a time, then ``done``), so the fixed integer action space stays small. The action ids are
laid out in ``docs/living-forest.md``.

Randomness comes only from named streams of the seed: spirit ``s`` deals its k-th shuffle from
``spirit{s}/shuffle{k}``, the animal stacks from ``animals/level{L}``. A spirit's draws therefore
never depend on the order in which the spirits' draws arrive; the draw-phase part of the log is
kept sorted by seat (stable) so even the log, and with it ``to_json``, is order independent.

The state lives in private slots named in the game's words (``_help_lines``, ``_forest_elements``,
``_current_spirit`` …); everything outside this package reads it through the read-only
properties of the same names without the underscore (the lists they return are the engine's
own: read them, never change them). ``to_json`` writes the explicit save format (version 2,
``docs/living-forest.md``); ``from_json`` also reads version 1, the slot dump of earlier releases.
"""

from __future__ import annotations

import random
from typing import Any

from glade.core.actions import Action
from glade.core.chance import check_seed, shuffled
from glade.core.errors import IllegalAction, Refusal
from glade.core.game import Game, LogEntry
from glade.core.refusals import CORE

from .data import (
    BOARD,
    CARD_BY_NAME,
    CARDS,
    CENTRE_CAP,
    COLUMNS,
    ELEMENTS,
    EMPTY,
    FIRE_LEVEL_VALUE,
    FIRE_VALUES,
    FIRES_PER_VALUE,
    FLOWER,
    FRAGMENT_COUNT,
    LEVEL_RANGES,
    NUM_STARTING,
    PLANT,
    ROCK_BONUS,
    ROWS,
    SPIRAL,
    START_CELL,
    START_ROCKS,
    START_TREE,
    SUN,
    T11,
    TARGET,
    TREE_BY_ID,
    TREES,
    VARAN,
    VARAN_COUNT,
    VICTORY_KINDS,
    WATER,
)
from .refusals import REFUSALS

# ---------------------------------------------------------------------------- constants
DRAW, ACTIONS, OVER = 0, 1, 2
PHASE_NAMES = ("draw", "actions", "over")

# the sub-step the current spirit is in inside its action phase
S_CHOOSE, S_ATTRACT, S_EXTINGUISH, S_MOVE, S_PLANT, S_STEAL = range(6)
STEP_NAMES = ("choose", "attract", "extinguish", "move", "plant", "steal")

# the five actions
K_FRAGMENT, K_ATTRACT, K_EXTINGUISH, K_MOVE, K_PLANT = range(5)
KIND_NAMES = ("fragment", "attract", "extinguish", "move", "plant")

# action ids (see docs/living-forest.md); move and plant ids depend on the player count
A_DRAW, A_STOP, A_USE, A_DONE, A_END = range(5)
A_CHOOSE = 5  # 5..9, one per KIND
A_PICK = 10  # 10..21: level 1..3 x slot 0..3
A_FIRE = 22  # 22..28: centre fire index 0..6
A_STEAL = 29  # 29..31: fire / flower / tree victory tile
A_MOVE = 32  # 32..32+M-1: 1..M steps, M = 12 - players

CELLS = ROWS * COLUMNS
PLANT_CELLS: tuple[int, ...] = tuple(c for c in range(CELLS) if c != START_CELL)
CELL_SLOT = {c: i for i, c in enumerate(PLANT_CELLS)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
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
# pending bonuses: (B_*, extra); the kinds are the data file's rock and corner bonus names
B_FRAGMENTS, B_ATTRACT, B_EXTINGUISH, B_PLANT = range(4)
BONUS_NAMES = ("fragments", "attract", "extinguish", "plant")
_BONUS_OF = {"take_fragment": B_FRAGMENTS, "attract": B_ATTRACT, "extinguish": B_EXTINGUISH}
_BONUS_OF["plant"] = B_PLANT
# permanent line bonuses (data file): (cells of the line, element, amount)
LINE_BONUSES: tuple[tuple[tuple[int, ...], int, int], ...] = tuple(BOARD.lines)
CELL_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, (cells, _, _) in enumerate(LINE_BONUSES) if c in cells) for c in range(CELLS)
)
# corner bonuses (data file): cell -> pending bonus (B_*, extra)
CORNER_BONUS: dict[int, tuple[int, int]] = {
    cell: (_BONUS_OF[kind], extra) for cell, (kind, extra) in BOARD.corners.items()
}
# the landing rock's bonus: a rock's fragment bonus is 1 tile, its actions have no extra
ROCK_PENDING: tuple[tuple[int, int], ...] = tuple(
    (_BONUS_OF[b], 1 if b == "take_fragment" else 0) for b in ROCK_BONUS
)
SAVE_VERSION = 2

C_ELEMS = CARDS.elements
C_COIN = CARDS.coin
C_COST = CARDS.cost
C_LEVEL = CARDS.level
T_ELEMS = TREES.elements
T_COST = TREES.cost


def _plant_base(players: int) -> int:
    return A_MOVE + 12 - players


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
    table += [Action("move", steps=k) for k in range(1, 13 - players)]
    table += [
        Action("plant", tree=tid, row=c // COLUMNS, column=c % COLUMNS)
        for tid in TREES.ids
        for c in PLANT_CELLS
    ]
    assert len(table) == _plant_base(players) + 12 * len(PLANT_CELLS)
    return table


TABLES: dict[int, list[Action]] = {n: _build_table(n) for n in (2, 3, 4)}
INDEXES: dict[int, dict[Action, int]] = {
    n: {a: i for i, a in enumerate(t)} for n, t in TABLES.items()
}
FIELDS: dict[str, tuple[str, ...]] = {
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


def _tree_name(t: int) -> str | None:
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


class LivingForestGame(Game):
    """State of one Living Forest game; see the module docstring."""

    game_name = "living-forest"
    __slots__ = (
        "_players",
        "_phase",
        "_round",
        "_sacred_tree",  # holder of the Sacred Tree
        "_current_spirit",  # the spirit acting in the action phase
        "_turns_done",  # how many spirits finished their action phase this round
        "_actions_left",  # actions left to choose
        "_actions_used",  # bit mask of the action kinds chosen this turn
        "_step",  # the S_* sub-step in progress
        "_bonus_step",  # the step in progress is a bonus (of a rock or a corner)
        "_spend_left",  # sun or water left in the attract/extinguish in progress
        "_taken_in_step",  # cards or fires taken so far in the attract/extinguish in progress
        "_bonuses_pending",  # bonuses still to resolve in this action: (B_*, extra)
        "_steal_from",  # spirits still to steal a victory tile from
        "_turn_start",  # log index where the current spirit's action phase began
        "_draw_start",  # log index where the current draw phase began
        "_draw_stacks",  # per spirit, top of the draw stack = end of the list
        "_help_lines",
        "_discards",
        "_help_elements",  # per spirit, the elements on its help line
        "_forest_elements",  # per spirit, the elements of its trees and completed lines
        "_solitary",  # per spirit, solitary minus gregarious symbols on the help line
        "_fragments",
        "_rocks",  # rock of each spirit on the circle
        "_drawing",
        "_just_drawn",  # the last help-line card was just drawn (a fragment may send it away)
        "_shuffles_dealt",  # shuffles dealt so far per spirit (names the next stream)
        "_forests",  # 15 cells, row-major: EMPTY, START_TREE or a tree type
        "_fires_kept",  # per spirit, fire tiles kept, counted per value 2/3/4
        "_victory_tiles",  # per spirit, victory tiles held: fire, flower, tree
        "_display",  # 12 slots, level-major; EMPTY when empty
        "_animal_stacks",  # face-down animal stacks per level (top = end)
        "_centre_fires",  # values of the fires in the centre of the circle
        "_fire_supply",  # tiles left per value 2/3/4
        "_tree_supply",
        "_fragment_supply",
        "_varan_supply",
        "_taken_this_round",  # animals attracted this round per level
        "_winners",
        "_to_act",  # cache of to_act, refreshed after every action
        "_last_round",  # what the last end of round did (public), derived from the log
    )

    _players: int
    _phase: int
    _round: int
    _sacred_tree: int
    _current_spirit: int
    _turns_done: int
    _actions_left: int
    _actions_used: int
    _step: int
    _bonus_step: bool
    _spend_left: int
    _taken_in_step: int
    _bonuses_pending: list[tuple[int, int]]
    _steal_from: list[int]
    _turn_start: int
    _draw_start: int
    _draw_stacks: list[list[int]]
    _help_lines: list[list[int]]
    _discards: list[list[int]]
    _help_elements: list[list[int]]
    _forest_elements: list[list[int]]
    _solitary: list[int]
    _fragments: list[int]
    _rocks: list[int]
    _drawing: list[bool]
    _just_drawn: list[bool]
    _shuffles_dealt: list[int]
    _forests: list[list[int]]
    _fires_kept: list[list[int]]
    _victory_tiles: list[list[int]]
    _display: list[int]
    _animal_stacks: list[list[int]]
    _centre_fires: list[int]
    _fire_supply: list[int]
    _tree_supply: list[int]
    _fragment_supply: int
    _varan_supply: int
    _taken_this_round: list[int]
    _winners: list[int]
    _to_act: tuple[int, ...]
    _last_round: dict[str, Any] | None | _Unknown

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, seed: int, options: dict[str, Any]) -> LivingForestGame:
        try:
            seed = check_seed(seed)
        except ValueError:
            raise CORE.bad_input("seed.not_int") from None
        if not isinstance(options, dict):
            raise REFUSALS.bad_input("lf_options.not_mapping")
        unknown = sorted(set(options) - {"players"})
        if unknown:
            raise REFUSALS.bad_input("lf_options.unknown", option=repr(unknown[0]))
        n = options.get("players", 2)
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 4:
            raise REFUSALS.bad_input("lf_options.players", players=repr(n))
        g = object.__new__(cls)
        g.seed = seed
        g.options = {"players": n}
        g.log = []
        g._players = n
        g._phase = DRAW
        g._round = 1
        g._sacred_tree = 0
        g._current_spirit = 0
        g._turns_done = 0
        g._actions_left = 0
        g._actions_used = 0
        g._step = S_CHOOSE
        g._bonus_step = False
        g._spend_left = 0
        g._taken_in_step = 0
        g._bonuses_pending = []
        g._steal_from = []
        g._turn_start = 0
        g._draw_start = 0
        g._draw_stacks = [
            shuffled(seed, f"spirit{s}/shuffle0", list(range(NUM_STARTING))) for s in range(n)
        ]
        g._help_lines = [[] for _ in range(n)]
        g._discards = [[] for _ in range(n)]
        g._help_elements = [[0] * 5 for _ in range(n)]
        g._forest_elements = [[0] * 5 for _ in range(n)]
        g._solitary = [0] * n
        g._fragments = [0] * n
        g._rocks = list(START_ROCKS[n])
        g._drawing = [True] * n
        g._just_drawn = [False] * n
        g._shuffles_dealt = [1] * n
        g._forests = []
        for _ in range(n):
            forest = [EMPTY] * CELLS
            forest[START_CELL] = START_TREE
            g._forests.append(forest)
        g._fires_kept = [[0, 0, 0] for _ in range(n)]
        g._victory_tiles = [[1, 1, 1] for _ in range(n)]
        g._animal_stacks = [
            shuffled(seed, f"animals/level{lv + 1}", list(LEVEL_RANGES[lv])) for lv in range(3)
        ]
        g._display = [g._animal_stacks[lv].pop() for lv in range(3) for _ in range(4)]
        g._centre_fires = [2]
        g._fire_supply = [FIRES_PER_VALUE - 1, FIRES_PER_VALUE, FIRES_PER_VALUE]
        g._tree_supply = list(TREES.copies[n])
        g._fragment_supply = FRAGMENT_COUNT
        g._varan_supply = VARAN_COUNT
        g._taken_this_round = [0, 0, 0]
        g._winners = []
        g._to_act = tuple(range(n))
        g._last_round = None
        return g

    def copy(self) -> LivingForestGame:
        g = object.__new__(LivingForestGame)
        g.seed = self.seed
        g.options = self.options
        g.log = list(self.log)
        g._players = self._players
        g._phase = self._phase
        g._round = self._round
        g._sacred_tree = self._sacred_tree
        g._current_spirit = self._current_spirit
        g._turns_done = self._turns_done
        g._actions_left = self._actions_left
        g._actions_used = self._actions_used
        g._step = self._step
        g._bonus_step = self._bonus_step
        g._spend_left = self._spend_left
        g._taken_in_step = self._taken_in_step
        g._bonuses_pending = list(self._bonuses_pending)
        g._steal_from = list(self._steal_from)
        g._turn_start = self._turn_start
        g._draw_start = self._draw_start
        g._draw_stacks = [list(x) for x in self._draw_stacks]
        g._help_lines = [list(x) for x in self._help_lines]
        g._discards = [list(x) for x in self._discards]
        g._help_elements = [list(x) for x in self._help_elements]
        g._forest_elements = [list(x) for x in self._forest_elements]
        g._solitary = list(self._solitary)
        g._fragments = list(self._fragments)
        g._rocks = list(self._rocks)
        g._drawing = list(self._drawing)
        g._just_drawn = list(self._just_drawn)
        g._shuffles_dealt = list(self._shuffles_dealt)
        g._forests = [list(x) for x in self._forests]
        g._fires_kept = [list(x) for x in self._fires_kept]
        g._victory_tiles = [list(x) for x in self._victory_tiles]
        g._display = list(self._display)
        g._animal_stacks = [list(x) for x in self._animal_stacks]
        g._centre_fires = list(self._centre_fires)
        g._fire_supply = list(self._fire_supply)
        g._tree_supply = list(self._tree_supply)
        g._fragment_supply = self._fragment_supply
        g._varan_supply = self._varan_supply
        g._taken_this_round = list(self._taken_this_round)
        g._winners = list(self._winners)
        g._to_act = self._to_act
        g._last_round = self._last_round  # (never changed once made: shared)
        return g

    # ------------------------------------------------------------------ hidden information
    def resample_hidden(self, seat: int | None, rng: random.Random) -> LivingForestGame:
        """A copy in which everything ``seat`` cannot know is re-dealt from ``rng``.

        Hidden in Living Forest, from every spirit alike: the order of each draw stack, of the
        three face-down animal stacks, and the future reshuffles of the discards (the seed). Their
        contents follow from public information. Each hidden part is put in a canonical order
        (sorted) before ``rng`` shuffles it, so the copy depends only on what is public and on
        ``rng``, never on the true order. Animals attracted since a spirit last drew lie, known to
        all, on top of its stack in the order they were taken: that part stays as it is.
        ``seat`` None is a spectator (who knows exactly as much here).
        """
        if seat is not None:
            self._check_seat(seat)
        self.last_round  # noqa: B018 (derived from the true seed before the copy gets another)
        g = self.copy()
        g.seed = rng.getrandbits(63)
        known = self.known_on_top()
        for s, pile in enumerate(g._draw_stacks):
            cut = len(pile) - min(known[s], len(pile))
            hidden = sorted(pile[:cut])
            rng.shuffle(hidden)
            pile[:cut] = hidden
        for stack in g._animal_stacks:
            stack.sort()
            rng.shuffle(stack)
        return g

    def known_on_top(self) -> list[int]:
        """Per spirit: how many cards on top of its draw stack everyone knows (the animals it
        attracted, put there in view of all and not drawn since)."""
        known = [0] * self._players
        for seat, code, _ in self.log:
            if A_PICK <= code < A_FIRE:
                known[seat] += 1
            elif code == A_DRAW and known[seat]:
                known[seat] -= 1
        return known

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        """The save, version 2: every part of the state under the game's own names.

        Cards are named as in the data file, trees by id; the forest is 3 rows of 5 (null, "start"
        or a tree id); piles list their cards from the bottom to the top. What follows from other
        parts (the elements of a help line or a forest, the solitary count) is not stored.
        """
        names = CARDS.names

        def cards(pile: list[int]) -> list[str]:
            return [names[c] for c in pile]

        return {
            "game": self.game_name,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "options": dict(self.options),
            "round": self._round,
            "phase": PHASE_NAMES[self._phase],
            "sacred_tree": self._sacred_tree,
            "draw_start": self._draw_start,
            "turn": {
                "spirit": self._current_spirit,
                "turns_done": self._turns_done,
                "start": self._turn_start,
                "actions_left": self._actions_left,
                "actions_used": [KIND_NAMES[k] for k in range(5) if self._actions_used >> k & 1],
                "step": STEP_NAMES[self._step],
                "bonus_step": self._bonus_step,
                "spend_left": self._spend_left,
                "taken_in_step": self._taken_in_step,
                "bonuses_pending": [[BONUS_NAMES[k], x] for k, x in self._bonuses_pending],
                "steal_from": list(self._steal_from),
            },
            "spirits": [
                {
                    "draw_stack": cards(self._draw_stacks[s]),
                    "help_line": cards(self._help_lines[s]),
                    "discard": cards(self._discards[s]),
                    "drawing": self._drawing[s],
                    "just_drawn": self._just_drawn[s],
                    "shuffles_dealt": self._shuffles_dealt[s],
                    "fragments": self._fragments[s],
                    "rock": self._rocks[s],
                    "forest": [
                        [_tree_name(t) for t in self._forests[s][r * COLUMNS : (r + 1) * COLUMNS]]
                        for r in range(ROWS)
                    ],
                    "fires_kept": dict(
                        zip(map(str, FIRE_VALUES), self._fires_kept[s], strict=True)
                    ),
                    "victory_tiles": dict(zip(VICTORY_KINDS, self._victory_tiles[s], strict=True)),
                }
                for s in range(self._players)
            ],
            "display": [
                [None if c < 0 else names[c] for c in self._display[lv * 4 : lv * 4 + 4]]
                for lv in range(3)
            ],
            "animal_stacks": [cards(st) for st in self._animal_stacks],
            "centre_fires": list(self._centre_fires),
            "fire_supply": dict(zip(map(str, FIRE_VALUES), self._fire_supply, strict=True)),
            "tree_supply": dict(zip(TREES.ids, self._tree_supply, strict=True)),
            "fragment_supply": self._fragment_supply,
            "varan_supply": self._varan_supply,
            "taken_this_round": list(self._taken_this_round),
            "winners": list(self._winners),
            "log": [[s, c, None if ch is None else list(ch)] for s, c, ch in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LivingForestGame:
        """Load a save of version 2 (``to_json``) or 1 (the slot dump of earlier releases)."""
        if not isinstance(data, dict) or data.get("game") != cls.game_name:
            raise REFUSALS.bad_input("lf_save.not_living_forest")
        version = data.get("version")
        if version not in (1, SAVE_VERSION) or isinstance(version, bool):
            raise REFUSALS.bad_input("lf_save.version", version=repr(version))
        seed: Any = data.get("seed")
        options: Any = data.get("options")
        g = cls.new(seed, options)  # (refuses a bad seed or bad options)
        field = "log"
        try:
            g.log = [
                (_whole(s), _whole(c), None if ch is None else tuple(map(_whole, ch)))
                for s, c, ch in data["log"]
            ]
            field = g._load_v1(data) if version == 1 else g._load_v2(data)
            g._derive()
            g._to_act = g._compute_to_act()
            g._last_round = _UNKNOWN  # derived from the log when first asked for
        except _Damaged as exc:
            raise REFUSALS.bad_input("lf_save.damaged", field=exc.field) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise REFUSALS.bad_input("lf_save.damaged", field=field) from None
        return g

    def _load_v2(self, data: dict[str, Any]) -> str:
        """Read the version-2 fields; the name of the field being read is kept for errors."""
        field = ""

        def at(name: str) -> Any:
            nonlocal field
            field = name
            return data[name]

        try:
            n = self._players
            self._round = _whole(at("round"))
            self._phase = PHASE_NAMES.index(at("phase"))
            self._sacred_tree = _whole(at("sacred_tree"))
            self._draw_start = _whole(at("draw_start"))
            turn = at("turn")
            field = "turn"
            self._current_spirit = _whole(turn["spirit"])
            self._turns_done = _whole(turn["turns_done"])
            self._turn_start = _whole(turn["start"])
            self._actions_left = _whole(turn["actions_left"])
            self._actions_used = sum(1 << KIND_NAMES.index(k) for k in set(turn["actions_used"]))
            self._step = STEP_NAMES.index(turn["step"])
            self._bonus_step = _flag(turn["bonus_step"])
            self._spend_left = _whole(turn["spend_left"])
            self._taken_in_step = _whole(turn["taken_in_step"])
            self._bonuses_pending = [
                (BONUS_NAMES.index(k), _whole(x)) for k, x in turn["bonuses_pending"]
            ]
            self._steal_from = [_whole(s) for s in turn["steal_from"]]
            spirits = at("spirits")
            if len(spirits) != n:
                raise ValueError("one entry per spirit")
            self._draw_stacks = [list(map(_card_of, sp["draw_stack"])) for sp in spirits]
            self._help_lines = [list(map(_card_of, sp["help_line"])) for sp in spirits]
            self._discards = [list(map(_card_of, sp["discard"])) for sp in spirits]
            self._drawing = [_flag(sp["drawing"]) for sp in spirits]
            self._just_drawn = [_flag(sp["just_drawn"]) for sp in spirits]
            self._shuffles_dealt = [_whole(sp["shuffles_dealt"]) for sp in spirits]
            self._fragments = [_whole(sp["fragments"]) for sp in spirits]
            self._rocks = [_whole(sp["rock"]) for sp in spirits]
            forests = []
            for sp in spirits:
                rows = sp["forest"]
                if len(rows) != ROWS or any(len(r) != COLUMNS for r in rows):
                    raise ValueError("a forest is 3 rows of 5")
                forests.append([_tree_of(t) for r in rows for t in r])
            self._forests = forests
            self._fires_kept = [
                [_whole(sp["fires_kept"][str(v)]) for v in FIRE_VALUES] for sp in spirits
            ]
            self._victory_tiles = [
                [_whole(sp["victory_tiles"][k]) for k in VICTORY_KINDS] for sp in spirits
            ]
            display = at("display")
            if len(display) != 3 or any(len(row) != 4 for row in display):
                raise ValueError("the display is 3 rows of 4")
            self._display = [EMPTY if c is None else _card_of(c) for row in display for c in row]
            stacks = at("animal_stacks")
            if len(stacks) != 3:
                raise ValueError("one stack per level")
            self._animal_stacks = [list(map(_card_of, st)) for st in stacks]
            self._centre_fires = [_whole(v) for v in at("centre_fires")]
            supply = at("fire_supply")
            self._fire_supply = [_whole(supply[str(v)]) for v in FIRE_VALUES]
            trees = at("tree_supply")
            self._tree_supply = [_whole(trees[t]) for t in TREES.ids]
            self._fragment_supply = _whole(at("fragment_supply"))
            self._varan_supply = _whole(at("varan_supply"))
            taken = [_whole(v) for v in at("taken_this_round")]
            if len(taken) != 3:
                raise ValueError("one count per level")
            self._taken_this_round = taken
            self._winners = [_whole(s) for s in at("winners")]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise _Damaged(field) from exc
        return "state"

    # the version-1 save: the engine's slots by their old names
    _V1_FIELDS = (
        ("phase", "_phase"),
        ("round", "_round"),
        ("first", "_sacred_tree"),
        ("cur", "_current_spirit"),
        ("turn_no", "_turns_done"),
        ("left", "_actions_left"),
        ("used", "_actions_used"),
        ("sub", "_step"),
        ("budget", "_spend_left"),
        ("picked", "_taken_in_step"),
        ("turn_start", "_turn_start"),
        ("draw_start", "_draw_start"),
        ("frag_supply", "_fragment_supply"),
        ("varan_supply", "_varan_supply"),
    )
    _V1_LISTS = (
        ("victims", "_steal_from"),
        ("frags", "_fragments"),
        ("pos", "_rocks"),
        ("shuffles", "_shuffles_dealt"),
        ("display", "_display"),
        ("centre", "_centre_fires"),
        ("fire_supply", "_fire_supply"),
        ("tree_supply", "_tree_supply"),
        ("taken", "_taken_this_round"),
        ("winners", "_winners"),
    )
    _V1_NESTED = (
        ("decks", "_draw_stacks"),
        ("helps", "_help_lines"),
        ("discards", "_discards"),
        ("forests", "_forests"),
        ("fires", "_fires_kept"),
        ("vts", "_victory_tiles"),
        ("stacks", "_animal_stacks"),
    )

    def _load_v1(self, data: dict[str, Any]) -> str:
        field = ""
        try:
            for field, slot in self._V1_FIELDS:
                setattr(self, slot, _whole(data[field]))
            field = "bonus"
            self._bonus_step = bool(data["bonus"])
            for field, slot in self._V1_LISTS:
                setattr(self, slot, [_whole(v) for v in data[field]])
            for field, slot in self._V1_NESTED:
                setattr(self, slot, [[_whole(v) for v in row] for row in data[field]])
            field = "pending"
            self._bonuses_pending = [(_whole(a), _whole(b)) for a, b in data["pending"]]
            for field, slot in (("drawing", "_drawing"), ("fresh", "_just_drawn")):
                setattr(self, slot, [bool(v) for v in data[field]])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise _Damaged(field) from exc
        return "state"

    def _derive(self) -> None:
        """Recompute what follows from the rest: help-line and forest elements, solitary counts;
        check the sizes the engine relies on."""
        n = self._players
        for name in ("_draw_stacks", "_help_lines", "_discards", "_fragments", "_rocks"):
            if len(getattr(self, name)) != n:
                raise ValueError(name)
        if len(self._display) != 12 or len(self._tree_supply) != 12:
            raise ValueError("display")
        if not 0 <= self._current_spirit < n or not 0 <= self._sacred_tree < n:
            raise ValueError("seat")
        self._help_elements = []
        self._solitary = []
        for line in self._help_lines:
            self._help_elements.append([sum(C_ELEMS[c][e] for c in line) for e in range(5)])
            self._solitary.append(sum(C_COIN[c] for c in line))
        self._forest_elements = []
        for forest in self._forests:
            if len(forest) != CELLS:
                raise ValueError("forest")
            elements = [0] * 5
            for t in forest:
                if 0 <= t < START_TREE:
                    for e, v in enumerate(T_ELEMS[t]):
                        elements[e] += v
            for cells, e, v in LINE_BONUSES:
                if all(forest[c] != EMPTY for c in cells):
                    elements[e] += v
            self._forest_elements.append(elements)

    # ------------------------------------------------------------------ the state, read-only
    # (the lists returned are the engine's own: read them, never change them)
    @property
    def num_players(self) -> int:
        return self._players

    @property
    def to_act(self) -> tuple[int, ...]:
        """Every spirit that may act now: those with a move first (in seat order), then, in the
        draw phase, those that stopped of their own accord and may still undo that stop. So
        ``to_act[0]`` always has a move while the game goes on."""
        return self._to_act

    @property
    def acting_together(self) -> tuple[int, ...]:
        """The spirits whose moves now may be made together, in seat order: in the simultaneous
        Guardian Animals phase every spirit still drawing (a draw, a stop or a Fragment changes
        only that spirit's own cards, stream and flags, never another's legal moves or what they
        do, so each move may be checked against the state now and all of them applied in any
        order, giving the same state and log); in the Action phase the acting spirit alone.
        Every other spirit has no legal move now (its ``legal_action_ids`` is [])."""
        if self._phase == DRAW:  # the spirits still drawing come first in to_act
            return self._to_act[: self._drawing.count(True)]
        return self._to_act

    @property
    def phase(self) -> int:
        """DRAW, ACTIONS or OVER (``PHASE_NAMES`` names them)."""
        return self._phase

    @property
    def round(self) -> int:
        return self._round

    @property
    def sacred_tree(self) -> int:
        """The spirit holding the Sacred Tree (it acts first this round)."""
        return self._sacred_tree

    @property
    def current_spirit(self) -> int:
        """The spirit acting in the action phase."""
        return self._current_spirit

    @property
    def actions_left(self) -> int:
        return self._actions_left

    @property
    def actions_used(self) -> int:
        """Bit mask of the action kinds (K_*) chosen this turn."""
        return self._actions_used

    @property
    def step(self) -> int:
        """The sub-step in progress (S_*; ``STEP_NAMES`` names them)."""
        return self._step

    @property
    def bonus_step(self) -> bool:
        """Whether the step in progress is a bonus of a rock or a corner."""
        return self._bonus_step

    @property
    def spend_left(self) -> int:
        """Sun or water left to spend in the attract or extinguish in progress."""
        return self._spend_left

    @property
    def taken_in_step(self) -> int:
        """Cards or fires taken so far in the attract or extinguish in progress."""
        return self._taken_in_step

    @property
    def bonuses_pending(self) -> list[tuple[int, int]]:
        """Bonuses still to resolve in this action: (B_* kind, extra)."""
        return self._bonuses_pending

    @property
    def steal_from(self) -> list[int]:
        """Spirits still to steal a victory tile from, in order."""
        return self._steal_from

    @property
    def draw_stacks(self) -> list[list[int]]:
        """Per spirit, its draw stack (top = end). The order is hidden information."""
        return self._draw_stacks

    @property
    def help_lines(self) -> list[list[int]]:
        return self._help_lines

    @property
    def discards(self) -> list[list[int]]:
        return self._discards

    @property
    def help_elements(self) -> list[list[int]]:
        """Per spirit, the elements on its help line (sun, water, plant, spiral, flower)."""
        return self._help_elements

    @property
    def forest_elements(self) -> list[list[int]]:
        """Per spirit, the elements of its planted trees and completed line bonuses."""
        return self._forest_elements

    @property
    def solitary(self) -> list[int]:
        """Per spirit, solitary minus gregarious symbols on its help line."""
        return self._solitary

    @property
    def fragments(self) -> list[int]:
        return self._fragments

    @property
    def rocks(self) -> list[int]:
        """Per spirit, the rock of the circle of spirits it stands on."""
        return self._rocks

    @property
    def drawing(self) -> list[bool]:
        return self._drawing

    @property
    def just_drawn(self) -> list[bool]:
        """Per spirit, whether its last help-line card was just drawn (a fragment may send it
        away)."""
        return self._just_drawn

    @property
    def shuffles_dealt(self) -> list[int]:
        """Per spirit, how many shuffles of its cards were dealt (the next names its stream)."""
        return self._shuffles_dealt

    @property
    def forests(self) -> list[list[int]]:
        """Per spirit, 15 cells row-major: EMPTY, START_TREE or a tree type."""
        return self._forests

    @property
    def fires_kept(self) -> list[list[int]]:
        """Per spirit, fire tiles kept, counted per value 2, 3, 4."""
        return self._fires_kept

    @property
    def victory_tiles(self) -> list[list[int]]:
        """Per spirit, victory tiles held: fire, flower, tree."""
        return self._victory_tiles

    @property
    def display(self) -> list[int]:
        """The 12 face-up slots, level-major (EMPTY when empty)."""
        return self._display

    @property
    def animal_stacks(self) -> list[list[int]]:
        """The face-down stack of each level (top = end). The order is hidden information."""
        return self._animal_stacks

    @property
    def centre_fires(self) -> list[int]:
        return self._centre_fires

    @property
    def fire_supply(self) -> list[int]:
        """Fire tiles left per value 2, 3, 4."""
        return self._fire_supply

    @property
    def tree_supply(self) -> list[int]:
        return self._tree_supply

    @property
    def fragment_supply(self) -> int:
        return self._fragment_supply

    @property
    def varan_supply(self) -> int:
        return self._varan_supply

    @property
    def taken_this_round(self) -> list[int]:
        """Animals attracted this round per level."""
        return self._taken_this_round

    @property
    def winners(self) -> list[int]:
        return self._winners

    @property
    def last_round(self) -> dict[str, Any] | None:
        """What the last end of round did, in public words (None before the first one ends):
        Onibi's fires and power against each spirit's water and the Fire Varans it dealt, the
        reshuffles of the round's draws, the fires added to the centre, the display refilled and
        the Sacred Tree passed. A loaded game derives it from its log when first asked for."""
        if isinstance(self._last_round, _Unknown):
            rebuilt = LivingForestGame.replay(self.seed, self.options, self.log, checked=False)
            self._last_round = rebuilt._last_round
        return self._last_round  # type: ignore[return-value]

    def _compute_to_act(self) -> tuple[int, ...]:
        if self._phase == ACTIONS:
            return (self._current_spirit,)
        if self._phase == DRAW:
            # a spirit that stopped of its own accord may undo that stop: a forced stop leaves
            # 3 solitary symbols and no fragment, a voluntary one never does
            drawing = self._drawing
            movers = []
            undoers = []
            for s in range(self._players):
                if drawing[s]:
                    movers.append(s)
                elif self._solitary[s] < 3 or self._fragments[s]:
                    undoers.append(s)
            return tuple(movers + undoers if undoers else movers)
        return ()

    def element(self, seat: int, e: int) -> int:
        """Total visible element ``e`` of a spirit: help line + trees + completed line bonuses."""
        return self._help_elements[seat][e] + self._forest_elements[seat][e]

    def has_t11(self, seat: int) -> bool:
        return T11 in self._forests[seat]

    def counts(self, seat: int) -> tuple[int, int, int]:
        """Progress toward 12: (different trees, fires, sacred flowers)."""
        forest = self._forests[seat]
        kinds = {t for t in forest if 0 <= t < START_TREE}
        vt = self._victory_tiles[seat]
        trees = len(kinds) + 1 + vt[2]
        fires = sum(self._fires_kept[seat]) + vt[0]
        flowers = self._help_elements[seat][FLOWER] + self._forest_elements[seat][FLOWER] + vt[1]
        return trees, fires, flowers

    # ------------------------------------------------------------------ the action space
    def action_table(self) -> list[Action]:
        return TABLES[self._players]

    def action_id(self, action: Action) -> int:
        try:
            code = INDEXES[self._players].get(action)
        except TypeError:  # a field holding an unhashable value names nothing
            code = None
        if code is not None and all(type(v) in (int, str) for _, v in action.args):
            return code  # (True == 1 and 1.0 == 1 in Python: such values name nothing here)
        kind = action.type
        if kind not in FIELDS:
            raise REFUSALS.illegal("lf_action.kind", kind=repr(kind), actions=", ".join(FIELDS))
        want = FIELDS[kind]
        have = tuple(k for k, _ in action.args)
        if have != want:
            if not want:
                raise REFUSALS.illegal("lf_action.no_fields", kind=kind)
            raise REFUSALS.illegal("lf_action.fields", kind=kind, fields=", ".join(want))
        if kind == "choose_action":
            raise REFUSALS.illegal("lf_action.choose_action", actions=", ".join(KIND_NAMES))
        if kind == "pick_fire":
            raise REFUSALS.illegal("lf_action.pick_fire", last=CENTRE_CAP - 1)
        if kind == "steal":
            raise REFUSALS.illegal("lf_action.steal", tiles=", ".join(VICTORY_KINDS))
        if kind == "move":
            raise REFUSALS.illegal("lf_action.move", most=12 - self._players)
        if kind == "plant":
            raise REFUSALS.illegal(
                "lf_action.plant",
                trees=", ".join(TREES.ids),
                last_row=ROWS - 1,
                last_column=COLUMNS - 1,
                start_row=START_CELL // COLUMNS,
                start_column=START_CELL % COLUMNS,
            )
        raise REFUSALS.illegal("lf_action.pick_card")

    def _affordable_card(self, budget: int) -> bool:
        for c in self._display:  # noqa: SIM110 (a plain loop is faster on this hot path)
            if c >= 0 and C_COST[c] <= budget:
                return True
        return False

    def _affordable_fire(self, budget: int) -> bool:
        for v in self._centre_fires:  # noqa: SIM110 (a plain loop is faster on this hot path)
            if v <= budget:
                return True
        return False

    def _can_plant(self, seat: int) -> bool:
        if EMPTY not in self._forests[seat]:
            return False
        supply = self._tree_supply
        for t in range(12):  # trees are listed by cost: the first one left is the cheapest
            if supply[t]:
                return (
                    T_COST[t]
                    <= self._help_elements[seat][PLANT] + self._forest_elements[seat][PLANT]
                )
        return False

    def _kind_feasible(self, seat: int, kind: int) -> bool:
        if kind == K_FRAGMENT:
            return self._fragment_supply > 0
        if kind == K_ATTRACT:
            return self._affordable_card(self.element(seat, SUN))
        if kind == K_EXTINGUISH:
            return self._affordable_fire(self.element(seat, WATER))
        if kind == K_MOVE:
            return self.element(seat, SPIRAL) >= 1
        return self._can_plant(seat)

    def _free_cells(self, seat: int) -> list[int]:
        forest = self._forests[seat]
        return [
            c
            for c in PLANT_CELLS
            if forest[c] == EMPTY and any(forest[x] != EMPTY for x in NEIGHBOURS[c])
        ]

    def legal_action_ids(self, seat: int) -> list[int]:
        phase = self._phase
        if phase == DRAW:
            if not (0 <= seat < self._players and self._drawing[seat]):
                return []
            out = []
            if self._solitary[seat] < 3 and (self._draw_stacks[seat] or self._discards[seat]):
                out.append(A_DRAW)
            if self._help_lines[seat]:
                out.append(A_STOP)
            if self._just_drawn[seat] and self._fragments[seat]:
                out.append(A_USE)
            return out
        if phase != ACTIONS or seat != self._current_spirit:
            return []
        step = self._step
        if step == S_CHOOSE:
            out = []
            twice = self._actions_used and self.has_t11(seat)
            for k in range(5):
                if (twice or not self._actions_used >> k & 1) and self._kind_feasible(seat, k):
                    out.append(A_CHOOSE + k)
            out.append(A_END)
            return out
        if step == S_ATTRACT:
            budget = self._spend_left
            out = [A_DONE] if self._taken_in_step else []
            for i, c in enumerate(self._display):
                if c >= 0 and C_COST[c] <= budget:
                    out.append(A_PICK + i)
            return out
        if step == S_EXTINGUISH:
            budget = self._spend_left
            out = [A_DONE] if self._taken_in_step else []
            for i, v in enumerate(self._centre_fires):
                if v <= budget:
                    out.append(A_FIRE + i)
            return out
        if step == S_MOVE:
            top = min(self.element(seat, SPIRAL), 12 - self._players)
            return list(range(A_MOVE, A_MOVE + top))
        if step == S_STEAL:
            vt = self._victory_tiles[self._steal_from[0]]
            return [A_STEAL + k for k in range(3) if vt[k]]
        # S_PLANT: one tree, which a bonus too must plant
        out = []
        plant = self.element(seat, PLANT)
        cells = [CELL_SLOT[c] for c in self._free_cells(seat)]
        base = _plant_base(self._players)
        supply = self._tree_supply
        for t in range(12):
            if supply[t] and T_COST[t] <= plant:
                row = base + t * 14
                out.extend(row + c for c in cells)
        return out

    def why_illegal(self, seat: int, code: int) -> Refusal | None:
        # type(x) is int also refuses True/False
        if type(code) is not int or not 0 <= code < len(TABLES[self._players]):
            return REFUSALS.refuse("lf_action.number", number=repr(code))
        if type(seat) is not int or not 0 <= seat < self._players:
            return CORE.refuse("seat.unknown", seat=repr(seat))
        phase = self._phase
        if phase == DRAW:
            if code > A_USE:
                return REFUSALS.refuse("round.drawing")
            if not self._drawing[seat]:
                return REFUSALS.refuse("draw.stopped")
            return self._why_draw(seat, code)
        if phase == OVER:
            return CORE.refuse("game.over")
        if seat != self._current_spirit:
            return REFUSALS.refuse("round.other_spirit", spirit=self._current_spirit)
        step = self._step
        if code <= A_USE:
            return REFUSALS.refuse("round.draw_over")
        if step == S_CHOOSE:
            return self._why_choose(seat, code)
        if step == S_ATTRACT:
            return self._why_attract(code)
        if step == S_EXTINGUISH:
            return self._why_extinguish(code)
        if step == S_MOVE:
            return self._why_move(seat, code)
        if step == S_STEAL:
            return self._why_steal(code)
        return self._why_plant(seat, code)

    def _why_draw(self, seat: int, code: int) -> Refusal | None:
        if code == A_DRAW:
            if self._solitary[seat] >= 3:
                if self._fragments[seat]:
                    return REFUSALS.refuse("draw.three_solitary_fragment")
                return REFUSALS.refuse("draw.three_solitary")
            if not self._draw_stacks[seat] and not self._discards[seat]:
                return REFUSALS.refuse("draw.no_cards")
            return None
        if code == A_STOP:
            if not self._help_lines[seat]:
                return REFUSALS.refuse("draw.stop_empty")
            return None
        if not self._fragments[seat]:
            return REFUSALS.refuse("draw.no_fragment")
        if not self._just_drawn[seat]:
            return REFUSALS.refuse("draw.not_just_drawn")
        return None

    def _why_choose(self, seat: int, code: int) -> Refusal | None:
        if code == A_END:
            return None
        if not A_CHOOSE <= code < A_CHOOSE + 5:
            if code == A_DONE:
                return REFUSALS.refuse("actions.nothing_to_finish")
            return REFUSALS.refuse("actions.choose_first")
        kind = code - A_CHOOSE
        if self._actions_used >> kind & 1 and not self.has_t11(seat):
            return REFUSALS.refuse("actions.same_action", action=KIND_NAMES[kind])
        if kind == K_FRAGMENT:
            if self._fragment_supply <= 0:
                return REFUSALS.refuse("fragment.none_left")
        elif kind == K_ATTRACT:
            sun = self.element(seat, SUN)
            costs = [C_COST[c] for c in self._display if c >= 0]
            if not costs:
                return REFUSALS.refuse("attract.no_animal")
            if min(costs) > sun:
                return REFUSALS.refuse("attract.too_dear", cost=min(costs), sun=sun)
        elif kind == K_EXTINGUISH:
            water = self.element(seat, WATER)
            if not self._centre_fires:
                return REFUSALS.refuse("extinguish.no_fire")
            if min(self._centre_fires) > water:
                return REFUSALS.refuse(
                    "extinguish.too_big", value=min(self._centre_fires), water=water
                )
        elif kind == K_MOVE:
            if self.element(seat, SPIRAL) < 1:
                return REFUSALS.refuse("move.no_spiral")
        else:
            if EMPTY not in self._forests[seat]:
                return REFUSALS.refuse("plant.forest_full")
            plant = self.element(seat, PLANT)
            costs = [T_COST[t] for t in range(12) if self._tree_supply[t]]
            if not costs:
                return REFUSALS.refuse("plant.no_tree")
            if min(costs) > plant:
                return REFUSALS.refuse("plant.too_dear", cost=min(costs), plant=plant)
        return None

    def _why_attract(self, code: int) -> Refusal | None:
        if code == A_DONE:
            if self._taken_in_step:
                return None
            if self._bonus_step:
                return REFUSALS.refuse("bonus.attract")
            return REFUSALS.refuse("attract.take_one")
        if not A_PICK <= code < A_FIRE:
            return REFUSALS.refuse("attract.pick")
        card = self._display[code - A_PICK]
        lv, slot = divmod(code - A_PICK, 4)
        if card < 0:
            return REFUSALS.refuse("attract.slot_empty", slot=slot, level=lv + 1)
        if C_COST[card] > self._spend_left:
            return REFUSALS.refuse(
                "attract.over_budget",
                card=CARDS.names[card],
                cost=C_COST[card],
                left=self._spend_left,
            )
        return None

    def _why_extinguish(self, code: int) -> Refusal | None:
        if code == A_DONE:
            if self._taken_in_step:
                return None
            if self._bonus_step:
                return REFUSALS.refuse("bonus.extinguish")
            return REFUSALS.refuse("extinguish.take_one")
        if not A_FIRE <= code < A_STEAL:
            return REFUSALS.refuse("extinguish.pick")
        i = code - A_FIRE
        centre = self._centre_fires
        if i >= len(centre):
            return REFUSALS.refuse("extinguish.no_such_fire", index=i, left=len(centre))
        if centre[i] > self._spend_left:
            return REFUSALS.refuse("extinguish.over_budget", value=centre[i], left=self._spend_left)
        return None

    def _why_move(self, seat: int, code: int) -> Refusal | None:
        if not A_MOVE <= code < _plant_base(self._players):
            return REFUSALS.refuse("move.steps")
        steps = code - A_MOVE + 1
        spiral = self.element(seat, SPIRAL)
        if steps > spiral:
            return REFUSALS.refuse("move.too_far", spiral=spiral)
        return None

    def _why_steal(self, code: int) -> Refusal | None:
        victim = self._steal_from[0]
        if not A_STEAL <= code < A_MOVE:
            return REFUSALS.refuse("steal.choose", spirit=victim)
        kind = code - A_STEAL
        if not self._victory_tiles[victim][kind]:
            return REFUSALS.refuse("steal.no_tile", spirit=victim, tile=VICTORY_KINDS[kind])
        return None

    def _why_plant(self, seat: int, code: int) -> Refusal | None:
        base = _plant_base(self._players)
        if code == A_DONE:
            return REFUSALS.refuse("bonus.plant" if self._bonus_step else "plant.plant_one")
        if code < base:
            return REFUSALS.refuse("plant.choose")
        t, slot = divmod(code - base, 14)
        cell = PLANT_CELLS[slot]
        tid = TREES.ids[t]
        if not self._tree_supply[t]:
            return REFUSALS.refuse("plant.none_left", tree=tid)
        plant = self.element(seat, PLANT)
        if T_COST[t] > plant:
            return REFUSALS.refuse("plant.over_budget", tree=tid, cost=T_COST[t], plant=plant)
        forest = self._forests[seat]
        row, column = divmod(cell, COLUMNS)
        if forest[cell] != EMPTY:
            return REFUSALS.refuse("plant.occupied", row=row, column=column)
        if not any(forest[x] != EMPTY for x in NEIGHBOURS[cell]):
            return REFUSALS.refuse("plant.not_adjacent", row=row, column=column)
        return None

    # ------------------------------------------------------------------ applying
    def apply_action_id(self, seat: int, code: int, checked: bool = False) -> None:
        if not checked:
            reason = self.why_illegal(seat, code)
            if reason is not None:
                raise IllegalAction(reason)
        if self._phase == DRAW:
            self._apply_draw_phase(seat, code)
        else:
            log = self.log
            log.append((seat, code, None))
            idx = len(log) - 1
            chance = self._apply_action_phase(seat, code)
            if chance is not None:
                log[idx] = (seat, code, chance)
        self._to_act = self._compute_to_act()

    def _apply_draw_phase(self, seat: int, code: int) -> None:
        # keep the draw-phase block of the log sorted by seat (stable), so the log does not
        # depend on the order in which simultaneous draws arrive
        log = self.log
        at = len(log)
        start = self._draw_start
        while at > start and log[at - 1][0] > seat:
            at -= 1
        chance: tuple[int, ...] | None = None
        if code == A_DRAW:
            chance = self._draw(seat)
        elif code == A_STOP:
            self._drawing[seat] = False
            self._just_drawn[seat] = False
        else:
            self._use_fragment(seat)
        log.insert(at, (seat, code, chance))
        if not any(self._drawing):
            self._start_action_phase()

    def _draw(self, s: int) -> tuple[int, int]:
        deck = self._draw_stacks[s]
        reshuffled = 0
        if not deck:
            k = self._shuffles_dealt[s]
            deck = shuffled(self.seed, f"spirit{s}/shuffle{k}", sorted(self._discards[s]))
            self._draw_stacks[s] = deck
            self._discards[s] = []
            self._shuffles_dealt[s] = k + 1
            reshuffled = 1
        card = deck.pop()
        self._help_lines[s].append(card)
        h = self._help_elements[s]
        for e, v in enumerate(C_ELEMS[card]):
            h[e] += v
        self._solitary[s] += C_COIN[card]
        self._just_drawn[s] = True
        if self._solitary[s] >= 3 and not self._fragments[s]:
            self._drawing[s] = False  # the third uncancelled solitary symbol: must stop
            self._just_drawn[s] = False
        return card, reshuffled

    def _use_fragment(self, s: int) -> None:
        card = self._help_lines[s].pop()
        h = self._help_elements[s]
        for e, v in enumerate(C_ELEMS[card]):
            h[e] -= v
        self._solitary[s] -= C_COIN[card]
        self._fragments[s] -= 1
        self._fragment_supply += 1
        self._just_drawn[s] = False
        if card == VARAN:
            self._varan_supply += 1
        else:
            self._discards[s].append(card)

    def _start_action_phase(self) -> None:
        self._phase = ACTIONS
        self._turns_done = 0
        self._current_spirit = self._sacred_tree
        self._start_turn()

    def _start_turn(self) -> None:
        self._actions_left = 1 if self._solitary[self._current_spirit] >= 3 else 2
        self._actions_used = 0
        self._step = S_CHOOSE
        self._bonus_step = False
        self._turn_start = len(self.log)

    def _apply_action_phase(self, s: int, code: int) -> tuple[int, ...] | None:
        step = self._step
        if step == S_CHOOSE:
            if code == A_END:
                self._actions_left = 0
            else:
                self._choose(s, code - A_CHOOSE)
        elif code == A_DONE:
            self._step = S_CHOOSE
        elif step == S_ATTRACT:
            i = code - A_PICK
            card = self._display[i]
            self._display[i] = EMPTY
            self._draw_stacks[s].append(card)  # face down on top of the spirit's own draw stack
            self._taken_this_round[C_LEVEL[card] - 1] += 1
            self._spend_left -= C_COST[card]
            self._taken_in_step += 1
            if not self._affordable_card(self._spend_left):
                self._step = S_CHOOSE
        elif step == S_EXTINGUISH:
            value = self._centre_fires.pop(code - A_FIRE)
            self._fires_kept[s][value - 2] += 1
            self._spend_left -= value
            self._taken_in_step += 1
            if not self._affordable_fire(self._spend_left):
                self._step = S_CHOOSE
        elif step == S_MOVE:
            self._move(s, code - A_MOVE + 1)
        elif step == S_STEAL:
            kind = code - A_STEAL
            victim = self._steal_from.pop(0)
            self._victory_tiles[victim][kind] -= 1
            self._victory_tiles[s][kind] += 1
            if not self._steal_from:
                self._step = S_CHOOSE
        else:
            t, slot = divmod(code - _plant_base(self._players), 14)
            self._plant(s, t, PLANT_CELLS[slot])
        return self._settle()

    def _choose(self, s: int, kind: int) -> None:
        self._actions_left -= 1
        self._actions_used |= 1 << kind
        self._bonus_step = False
        self._taken_in_step = 0
        if kind == K_FRAGMENT:
            self._fragment_supply -= 1
            self._fragments[s] += 1
        elif kind == K_ATTRACT:
            self._step = S_ATTRACT
            self._spend_left = max(0, self.element(s, SUN))
        elif kind == K_EXTINGUISH:
            self._step = S_EXTINGUISH
            self._spend_left = max(0, self.element(s, WATER))
        elif kind == K_MOVE:
            self._step = S_MOVE
        else:
            self._step = S_PLANT

    def _walk(self, s: int, steps: int) -> tuple[int, list[int]]:
        """The rock ``steps`` rocks clockwise of spirit ``s`` and the spirits jumped on the way."""
        rocks = self._rocks
        others = {rocks[o]: o for o in range(self._players) if o != s}
        p = rocks[s]
        jumped = []
        while steps:
            p = (p + 1) % 12
            if p in others:
                jumped.append(others[p])  # occupied rocks are jumped and not counted
            else:
                steps -= 1
        return p, jumped

    def _move(self, s: int, steps: int) -> None:
        p, jumped = self._walk(s, steps)
        self._rocks[s] = p
        self._steal_from = [o for o in jumped if any(self._victory_tiles[o])]
        self._bonuses_pending.append(ROCK_PENDING[p])
        self._step = S_STEAL if self._steal_from else S_CHOOSE

    def _plant(self, s: int, t: int, cell: int) -> None:
        forest = self._forests[s]
        forest[cell] = t
        self._tree_supply[t] -= 1
        f = self._forest_elements[s]
        for e, v in enumerate(T_ELEMS[t]):
            f[e] += v
        for line in CELL_LINES[cell]:
            cells, e, v = LINE_BONUSES[line]
            if all(forest[c] != EMPTY for c in cells):
                f[e] += v
        corner = CORNER_BONUS.get(cell)
        if corner is not None:
            self._bonuses_pending.append(corner)
        self._step = S_CHOOSE

    def _settle(self) -> tuple[int, ...] | None:
        """Start pending bonuses, then end the spirit's turn when it has nothing left to do.

        A bonus that can do something starts a step that must be carried out; one that can do
        nothing (no affordable card or fire, no tree to plant) is skipped."""
        s = self._current_spirit
        while self._step == S_CHOOSE:
            if self._bonuses_pending:
                kind, extra = self._bonuses_pending.pop(0)
                self._bonus_step = True
                self._taken_in_step = 0
                if kind == B_FRAGMENTS:
                    got = min(extra, self._fragment_supply)
                    self._fragment_supply -= got
                    self._fragments[s] += got
                elif kind == B_ATTRACT:
                    budget = max(0, self.element(s, SUN) + extra)
                    if self._affordable_card(budget):
                        self._step, self._spend_left = S_ATTRACT, budget
                elif kind == B_EXTINGUISH:
                    budget = max(0, self.element(s, WATER) + extra)
                    if self._affordable_fire(budget):
                        self._step, self._spend_left = S_EXTINGUISH, budget
                elif self._can_plant(s):
                    self._step = S_PLANT
                continue
            if self._actions_left > 0:
                return None
            return self._end_turn()
        return None

    def _end_turn(self) -> tuple[int, ...] | None:
        self._turns_done += 1
        if self._turns_done < self._players:
            self._current_spirit = (self._current_spirit + 1) % self._players
            self._start_turn()
            return None
        return self._end_round()

    def _end_round(self) -> tuple[int, ...] | None:
        n = self._players
        # victory is checked after a complete action phase, before the end-of-round steps
        progress = [self.counts(s) for s in range(n)]
        reached = [s for s in range(n) if max(progress[s]) >= TARGET]
        if reached:
            best = max(sum(progress[s]) for s in reached)
            self._winners = [s for s in reached if sum(progress[s]) == best]
            self._phase = OVER
            self._step = S_CHOOSE
            return None
        order = [(self._sacred_tree + i) % n for i in range(n)]
        centre = self._centre_fires
        # what this end of round does, recorded for everyone to read (public information only)
        water = [self.element(s, WATER) for s in range(n)]
        onibi = list(centre)
        varans = [0] * n
        # a. Onibi attacks every spirit whose water is strictly below the centre's fire
        power = sum(centre)
        victims = [s for s in order if water[s] < power] if centre else []
        for _ in range(len(centre)):
            for s in victims:
                if self._varan_supply:
                    self._varan_supply -= 1
                    self._discards[s].append(VARAN)
                    varans[s] += 1
        # b. Onibi attacks the Sacred Tree: one fire per animal taken, level 1 first, cap 7
        before = len(centre)
        wanted = sum(self._taken_this_round)
        for lv in range(3):
            value = FIRE_LEVEL_VALUE[lv]
            for _ in range(self._taken_this_round[lv]):
                if len(centre) < CENTRE_CAP and self._fire_supply[value - 2]:
                    self._fire_supply[value - 2] -= 1
                    centre.append(value)
        added = centre[before:]
        refire = False
        if not centre:
            for value in FIRE_VALUES:  # a value-2 fire (a larger one if the 2s ran out)
                if self._fire_supply[value - 2]:
                    self._fire_supply[value - 2] -= 1
                    centre.append(value)
                    refire = True
                    break
        # c. refill the display; an empty slot stays empty once its level's stack is exhausted
        revealed: list[int] = []
        refilled: list[dict[str, Any]] = []
        display = self._display
        for i, c in enumerate(display):
            if c < 0:
                stack = self._animal_stacks[i // 4]
                if stack:
                    display[i] = stack.pop()
                    revealed.append(display[i])
                    refilled.append(
                        {"level": i // 4 + 1, "slot": i % 4, "card": CARDS.names[display[i]]}
                    )
        reshuffles = [0] * n
        for seat, code, chance in self.log[self._draw_start :]:
            if code == A_DRAW and chance is not None and chance[1]:
                reshuffles[seat] += 1
        self._last_round = {
            "round": self._round,
            "onibi": {"fires": onibi, "power": power},
            "spirits": [
                {
                    "seat": s,
                    "water": water[s],
                    "attacked": s in victims,
                    "varans": varans[s],
                    "reshuffles": reshuffles[s],
                }
                for s in range(n)
            ],
            "varans_short": sum(varans) < len(victims) * len(onibi),
            "taken": list(self._taken_this_round),
            "fires_added": list(added),
            "fires_capped": len(added) < wanted,
            "centre_refired": centre[-1] if refire else None,
            "refilled": refilled,
            "empty_slots": sum(1 for c in display if c < 0),
            "sacred_tree": {"from": self._sacred_tree, "to": (self._sacred_tree + 1) % n},
        }
        # d. help lines to the discard
        for s in range(n):
            self._discards[s].extend(self._help_lines[s])
            self._help_lines[s] = []
            self._help_elements[s] = [0] * 5
            self._solitary[s] = 0
            self._drawing[s] = True
            self._just_drawn[s] = False
        # e. the Sacred Tree passes clockwise; a new round starts
        self._sacred_tree = (self._sacred_tree + 1) % n
        self._round += 1
        self._taken_this_round = [0, 0, 0]
        self._phase = DRAW
        self._step = S_CHOOSE
        self._draw_start = len(self.log)
        return (-1, *revealed) if revealed else None

    # ------------------------------------------------------------------ undo
    def can_undo(self, seat: int) -> bool:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._players:
            return False
        if self._phase == ACTIONS:
            return seat == self._current_spirit and len(self.log) > self._turn_start
        if self._phase == DRAW and not self._drawing[seat]:
            # a voluntary stop may be taken back while the others still draw
            for i in range(len(self.log) - 1, self._draw_start - 1, -1):
                entry = self.log[i]
                if entry[0] == seat:
                    return entry[1] == A_STOP
        return False

    # ------------------------------------------------------------------ results and views
    def result(self) -> dict[str, Any]:
        breakdown = []
        scores = []
        for s in range(self._players):
            trees, fires, flowers = self.counts(s)
            total = trees + fires + flowers
            scores.append(total)
            breakdown.append(
                {
                    "trees": trees,
                    "fires": fires,
                    "flowers": flowers,
                    "total": total,
                    "reached": max(trees, fires, flowers) >= TARGET,
                }
            )
        return {"scores": scores, "winners": list(self._winners), "breakdown": breakdown}

    def describe_chance(self, entry: LogEntry, seat: int | None) -> Any:
        chance = entry[2]
        if chance is None:
            return None
        if chance[0] == -1:
            return {"revealed": [CARDS.names[c] for c in chance[1:]]}
        return {"card": CARDS.names[chance[0]], "reshuffled": bool(chance[1])}

    def move_preview(self, seat: int, steps: int) -> dict[str, Any]:
        """Where a move of ``steps`` rocks would take ``seat``'s spirit: the rock it lands on and
        that rock's bonus, the spirits it jumps (occupied rocks are not counted) and those of them
        it would take a victory tile from (the ones that hold one)."""
        p, jumped = self._walk(seat, steps)
        return {
            "rock": p,
            "bonus": ROCK_BONUS[p],
            "jumped": jumped,
            "steal_from": [o for o in jumped if any(self._victory_tiles[o])],
        }

    def move_previews(self, seat: int) -> list[dict[str, Any]]:
        """``move_preview`` of every move ``seat`` may make now, by steps."""
        top = min(self.element(seat, SPIRAL), 12 - self._players)
        return [{"steps": k, **self.move_preview(seat, k)} for k in range(1, top + 1)]

    def refusals(self, seat: int) -> list[dict[str, Any]]:
        """Why the moves ``seat`` might try on the table now are refused: one entry per action
        the page shows that is not legal, ``{"action", "code", "params"}`` (the refusal of
        ``why_illegal``). Planting is described by tree (``{"type": "plant", "tree"}``) and by
        space (``{"type": "plant", "row", "column"}``): each tried with a legal partner."""
        self._check_seat(seat)
        if self._phase == OVER:
            return []
        table = TABLES[self._players]
        codes = [A_DRAW, A_STOP, A_USE] if self._phase == DRAW else [A_CHOOSE + k for k in range(5)]
        codes += [A_PICK + i for i, c in enumerate(self._display) if c >= 0]
        codes += [A_FIRE + i for i in range(len(self._centre_fires))]
        acting = self._phase == ACTIONS and seat == self._current_spirit
        step = self._step
        if acting and step in (S_ATTRACT, S_EXTINGUISH, S_PLANT):
            codes.append(A_DONE)
        if acting and step == S_MOVE:
            codes += range(A_MOVE, _plant_base(self._players))
        if acting and step == S_STEAL:
            codes += range(A_STEAL, A_MOVE)
        out = []
        for code in codes:
            why = self.why_illegal(seat, code)
            if why is not None:
                out.append(
                    {"action": table[code].to_json(), "code": why.code, "params": why.params}
                )
        if acting and step == S_PLANT:
            out += self._plant_refusals(seat)
        return out

    def _plant_refusals(self, seat: int) -> list[dict[str, Any]]:
        base = _plant_base(self._players)
        free = self._free_cells(seat)
        legal = set(self.legal_action_ids(seat))
        trees = [t for t in range(12) if any(base + t * 14 + CELL_SLOT[c] in legal for c in free)]
        out: list[dict[str, Any]] = []
        if free:
            for t in range(12):
                if t not in trees:
                    why = self.why_illegal(seat, base + t * 14 + CELL_SLOT[free[0]])
                    if why is not None:
                        tree = {"type": "plant", "tree": TREES.ids[t]}
                        out.append({"action": tree, "code": why.code, "params": why.params})
        if trees:
            forest = self._forests[seat]
            for c in PLANT_CELLS:
                if forest[c] == EMPTY and c not in free:
                    why = self.why_illegal(seat, base + trees[0] * 14 + CELL_SLOT[c])
                    if why is not None:
                        row, column = divmod(c, COLUMNS)
                        cell = {"type": "plant", "row": row, "column": column}
                        out.append({"action": cell, "code": why.code, "params": why.params})
        return out

    def reached(self) -> list[dict[str, Any]]:
        """The spirits that have reached 12 of something now, with what they reached (the game
        ends after the action phase in which one has; the highest total wins among them)."""
        out = []
        for s in range(self._players):
            counts = dict(zip(("trees", "fires", "flowers"), self.counts(s), strict=True))
            kinds = [k for k, v in counts.items() if v >= TARGET]
            if kinds:
                out.append({"seat": s, "kinds": kinds, "total": sum(counts.values())})
        return out

    def in_progress(self) -> dict[str, Any] | None:
        """The step the acting spirit is in (None while it chooses an action)."""
        if self._phase != ACTIONS or self._step == S_CHOOSE:
            return None
        step = self._step
        out: dict[str, Any] = {"step": STEP_NAMES[step], "bonus": self._bonus_step}
        if step in (S_ATTRACT, S_EXTINGUISH):
            out["left"] = self._spend_left
            out["element"] = "sun" if step == S_ATTRACT else "water"
        if step == S_STEAL:
            out["from"] = list(self._steal_from)
        if step == S_MOVE:
            out["moves"] = self.move_previews(self._current_spirit)
        if self._bonuses_pending:
            out["then"] = [BONUS_NAMES[k] for k, _ in self._bonuses_pending]
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        names = CARDS.names
        spirits = []
        draw_phase = self._phase == DRAW
        for s in range(self._players):
            trees, fires, flowers = self.counts(s)
            forest = [
                [_tree_name(t) for t in self._forests[s][r * COLUMNS : (r + 1) * COLUMNS]]
                for r in range(ROWS)
            ]
            spirits.append(
                {
                    "seat": s,
                    "help_line": [names[c] for c in self._help_lines[s]],
                    "solitary": self._solitary[s],
                    "drawing": draw_phase and self._drawing[s],
                    "draw_stack_count": len(self._draw_stacks[s]),
                    "discard_count": len(self._discards[s]),
                    "discard": sorted(names[c] for c in self._discards[s]),
                    "forest": forest,
                    "fragments": self._fragments[s],
                    "fires": sorted(v + 2 for v in range(3) for _ in range(self._fires_kept[s][v])),
                    "victory_tiles": dict(zip(VICTORY_KINDS, self._victory_tiles[s], strict=True)),
                    "rock": self._rocks[s],
                    "elements": {e: self.element(s, i) for i, e in enumerate(ELEMENTS)},
                    "progress": {"trees": trees, "fires": fires, "flowers": flowers},
                }
            )
        acting = self._phase == ACTIONS
        out = self.view_header(seat)
        out.update(
            {
                "round": self._round,
                "phase": PHASE_NAMES[self._phase],
                "sacred_tree": self._sacred_tree,
                "current": self._current_spirit if acting else None,
                "actions_left": self._actions_left if acting else None,
                "actions_used": [KIND_NAMES[k] for k in range(5) if self._actions_used >> k & 1]
                if acting
                else [],
                "in_progress": self.in_progress(),
                "display": [
                    [None if c < 0 else card_json(c) for c in self._display[lv * 4 : lv * 4 + 4]]
                    for lv in range(3)
                ],
                "stack_counts": [len(st) for st in self._animal_stacks],
                "circle": [
                    {
                        "rock": r,
                        "bonus": ROCK_BONUS[r],
                        "spirit": next(
                            (s for s in range(self._players) if self._rocks[s] == r), None
                        ),
                    }
                    for r in range(12)
                ],
                "centre_fires": list(self._centre_fires),
                "fire_supply": {str(v): self._fire_supply[v - 2] for v in FIRE_VALUES},
                "tree_supply": dict(zip(TREES.ids, self._tree_supply, strict=True)),
                "fragment_supply": self._fragment_supply,
                "varan_supply": self._varan_supply,
                "taken_this_round": list(self._taken_this_round),
                "spirits": spirits,
                "target": TARGET,
                "reached": self.reached(),
                "last_round": self.last_round,
                "refusals": [] if seat is None else self.refusals(seat),
            }
        )
        return out


class _Unknown:
    """The mark of a summary not derived yet (a game just loaded from a save)."""

    __slots__ = ()


_UNKNOWN = _Unknown()


class _Damaged(ValueError):
    """A save field that could not be read (``from_json`` names it in its refusal)."""

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


__all__ = ["CARD_BY_NAME", "LivingForestGame", "TABLES", "TREE_BY_ID", "card_json"]
