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
"""

from __future__ import annotations

from typing import Any

from glade.core.actions import Action
from glade.core.chance import check_seed, shuffled
from glade.core.errors import BadInput, IllegalAction
from glade.core.game import Game, LogEntry

from .data import (
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

# ---------------------------------------------------------------------------- constants
DRAW, ACTIONS, OVER = 0, 1, 2
PHASE_NAMES = ("draw", "actions", "over")

# what the current spirit is doing inside its action phase
S_CHOOSE, S_ATTRACT, S_EXTINGUISH, S_MOVE, S_PLANT, S_STEAL = range(6)
SUB_NAMES = ("choose", "attract", "extinguish", "move", "plant", "steal")

# the five actions
K_FRAGMENT, K_ATTRACT, K_EXTINGUISH, K_MOVE, K_PLANT = range(5)
KIND_NAMES = ("fragment", "attract", "extinguish", "move", "plant")
KIND_BY_NAME = {name: i for i, name in enumerate(KIND_NAMES)}
KIND_ELEMENT = (None, "sun", "water", "spiral", "plant")

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
# permanent line bonuses: (cells of the line, element, amount)
LINE_BONUSES: tuple[tuple[tuple[int, ...], int, int], ...] = (
    ((1, 6, 11), WATER, 1),  # column 1 (0-based)
    ((2, 7, 12), SUN, 1),  # column 2, the centre column
    ((3, 8, 13), SPIRAL, 1),  # column 3
    ((5, 6, 7, 8, 9), FLOWER, 2),  # row 1, the middle row
)
CELL_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, (cells, _, _) in enumerate(LINE_BONUSES) if c in cells) for c in range(CELLS)
)
# corner bonuses: cell -> pending bonus (kind, extra)
B_FRAGMENTS, B_ATTRACT, B_EXTINGUISH, B_PLANT = range(4)
CORNER_BONUS: dict[int, tuple[int, int]] = {
    0: (B_ATTRACT, 3),  # top-left: attract with +3 sun
    4: (B_FRAGMENTS, 2),  # top-right: 2 fragments
    10: (B_FRAGMENTS, 2),  # bottom-left: 2 fragments
    14: (B_EXTINGUISH, 2),  # bottom-right: extinguish with +2 water
}
ROCK_PENDING: tuple[tuple[int, int], ...] = tuple(
    {
        "take_fragment": (B_FRAGMENTS, 1),
        "plant": (B_PLANT, 0),
        "attract": (B_ATTRACT, 0),
        "extinguish": (B_EXTINGUISH, 0),
    }[b]
    for b in ROCK_BONUS
)
BONUS_NAMES = ("fragments", "attract", "extinguish", "plant")

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


class LivingForestGame(Game):
    """State of one Living Forest game; see the module docstring."""

    game_name = "living-forest"
    # the state is these fields: scalars, lists (copied one level deep), and the derived
    # ``acting``; serialisation walks the first two
    _SCALARS = (
        "n",
        "phase",
        "round",
        "first",
        "cur",
        "turn_no",
        "left",
        "used",
        "sub",
        "bonus",
        "budget",
        "picked",
        "turn_start",
        "draw_start",
        "frag_supply",
        "varan_supply",
    )
    _LISTS = (
        "pending",
        "victims",
        "decks",
        "helps",
        "discards",
        "hel",
        "fel",
        "net",
        "frags",
        "pos",
        "drawing",
        "fresh",
        "shuffles",
        "forests",
        "fires",
        "vts",
        "display",
        "stacks",
        "centre",
        "fire_supply",
        "tree_supply",
        "taken",
        "winners",
    )
    __slots__ = (*_SCALARS, *_LISTS, "acting")

    n: int
    phase: int
    round: int
    first: int  # holder of the Sacred Tree
    cur: int  # the spirit acting in the action phase
    turn_no: int  # how many spirits finished their action phase this round
    left: int  # actions left to choose
    used: int  # bit mask of the action kinds chosen this turn
    sub: int  # S_* step in progress
    bonus: bool  # the step in progress is a bonus (rock or corner), which may be declined
    budget: int  # sun or water left in the attract/extinguish in progress
    picked: int  # cards or fires taken so far in the attract/extinguish in progress
    pending: list[tuple[int, int]]  # bonuses still to resolve in this action: (B_*, extra)
    victims: list[int]  # spirits still to steal a victory tile from
    turn_start: int  # log index where the current spirit's action phase began
    draw_start: int  # log index where the current draw phase began
    decks: list[list[int]]  # top of the draw stack = end of the list
    helps: list[list[int]]
    discards: list[list[int]]
    hel: list[list[int]]  # elements on the help line
    fel: list[list[int]]  # elements of the forest: trees + completed line bonuses
    net: list[int]  # solitary minus gregarious symbols on the help line
    frags: list[int]
    pos: list[int]  # rock of each spirit on the circle
    drawing: list[bool]
    fresh: list[bool]  # the last help-line card was just drawn (a fragment may send it away)
    shuffles: list[int]  # shuffles dealt so far per spirit (names the next stream)
    forests: list[list[int]]  # 15 cells, row-major: EMPTY, START_TREE or a tree type
    fires: list[list[int]]  # fire tiles kept, counted per value 2/3/4
    vts: list[list[int]]  # victory tiles held: fire, flower, tree
    display: list[int]  # 12 slots, level-major; EMPTY when empty
    stacks: list[list[int]]  # face-down animal stacks per level (top = end)
    centre: list[int]  # values of the fires in the centre of the circle
    fire_supply: list[int]  # tiles left per value 2/3/4
    tree_supply: list[int]
    frag_supply: int
    varan_supply: int
    taken: list[int]  # animals attracted this round per level
    winners: list[int]
    acting: tuple[int, ...]  # cache of to_act, refreshed after every action

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, seed: int, options: dict[str, Any]) -> LivingForestGame:
        try:
            seed = check_seed(seed)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        if not isinstance(options, dict):
            raise BadInput("options must be a mapping")
        unknown = sorted(set(options) - {"players"})
        if unknown:
            raise BadInput(
                f"Living Forest has no option {unknown[0]!r}; the only option is players (2-4)"
            )
        n = options.get("players", 2)
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 4:
            raise BadInput(f"Living Forest is for 2 to 4 players, not {n!r}")
        g = object.__new__(cls)
        g.seed = seed
        g.options = {"players": n}
        g.log = []
        g.n = n
        g.phase = DRAW
        g.round = 1
        g.first = 0
        g.cur = 0
        g.turn_no = 0
        g.left = 0
        g.used = 0
        g.sub = S_CHOOSE
        g.bonus = False
        g.budget = 0
        g.picked = 0
        g.pending = []
        g.victims = []
        g.turn_start = 0
        g.draw_start = 0
        g.decks = [
            shuffled(seed, f"spirit{s}/shuffle0", list(range(NUM_STARTING))) for s in range(n)
        ]
        g.helps = [[] for _ in range(n)]
        g.discards = [[] for _ in range(n)]
        g.hel = [[0] * 5 for _ in range(n)]
        g.fel = [[0] * 5 for _ in range(n)]
        g.net = [0] * n
        g.frags = [0] * n
        g.pos = list(START_ROCKS[n])
        g.drawing = [True] * n
        g.fresh = [False] * n
        g.shuffles = [1] * n
        g.forests = []
        for _ in range(n):
            forest = [EMPTY] * CELLS
            forest[START_CELL] = START_TREE
            g.forests.append(forest)
        g.fires = [[0, 0, 0] for _ in range(n)]
        g.vts = [[1, 1, 1] for _ in range(n)]
        g.stacks = [
            shuffled(seed, f"animals/level{lv + 1}", list(LEVEL_RANGES[lv])) for lv in range(3)
        ]
        g.display = [g.stacks[lv].pop() for lv in range(3) for _ in range(4)]
        g.centre = [2]
        g.fire_supply = [FIRES_PER_VALUE - 1, FIRES_PER_VALUE, FIRES_PER_VALUE]
        g.tree_supply = list(TREES.copies[n])
        g.frag_supply = FRAGMENT_COUNT
        g.varan_supply = VARAN_COUNT
        g.taken = [0, 0, 0]
        g.winners = []
        g.acting = tuple(range(n))
        return g

    def copy(self) -> LivingForestGame:
        g = object.__new__(LivingForestGame)
        g.seed = self.seed
        g.options = self.options
        g.log = list(self.log)
        g.n = self.n
        g.phase = self.phase
        g.round = self.round
        g.first = self.first
        g.cur = self.cur
        g.turn_no = self.turn_no
        g.left = self.left
        g.used = self.used
        g.sub = self.sub
        g.bonus = self.bonus
        g.budget = self.budget
        g.picked = self.picked
        g.pending = list(self.pending)
        g.victims = list(self.victims)
        g.turn_start = self.turn_start
        g.draw_start = self.draw_start
        g.decks = [list(x) for x in self.decks]
        g.helps = [list(x) for x in self.helps]
        g.discards = [list(x) for x in self.discards]
        g.hel = [list(x) for x in self.hel]
        g.fel = [list(x) for x in self.fel]
        g.net = list(self.net)
        g.frags = list(self.frags)
        g.pos = list(self.pos)
        g.drawing = list(self.drawing)
        g.fresh = list(self.fresh)
        g.shuffles = list(self.shuffles)
        g.forests = [list(x) for x in self.forests]
        g.fires = [list(x) for x in self.fires]
        g.vts = [list(x) for x in self.vts]
        g.display = list(self.display)
        g.stacks = [list(x) for x in self.stacks]
        g.centre = list(self.centre)
        g.fire_supply = list(self.fire_supply)
        g.tree_supply = list(self.tree_supply)
        g.frag_supply = self.frag_supply
        g.varan_supply = self.varan_supply
        g.taken = list(self.taken)
        g.winners = list(self.winners)
        g.acting = self.acting
        return g

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game_name,
            "version": 1,
            "seed": self.seed,
            "options": dict(self.options),
            "log": [[s, c, None if ch is None else list(ch)] for s, c, ch in self.log],
        }
        for name in self._SCALARS:
            out[name] = getattr(self, name)
        for name in self._LISTS:
            value = getattr(self, name)
            out[name] = [list(v) if isinstance(v, list | tuple) else v for v in value]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LivingForestGame:
        if not isinstance(data, dict) or data.get("game") != cls.game_name:
            raise BadInput("this is not a saved Living Forest game")
        if data.get("version") != 1:
            raise BadInput(f"unknown Living Forest save version {data.get('version')!r}")
        try:
            g = cls.new(data["seed"], data["options"])
            g.log = [
                (int(s), int(c), None if ch is None else tuple(ch)) for s, c, ch in data["log"]
            ]
            for name in cls._SCALARS:
                value = data[name]
                setattr(g, name, bool(value) if name == "bonus" else int(value))
            for name in cls._LISTS:
                value = data[name]
                if name == "pending":
                    value = [(int(a), int(b)) for a, b in value]
                elif name in ("drawing", "fresh"):
                    value = [bool(v) for v in value]
                else:
                    value = [list(v) if isinstance(v, list) else v for v in value]
                setattr(g, name, value)
            g.acting = g._compute_acting()
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"this Living Forest save is damaged ({exc})") from None
        return g

    # ------------------------------------------------------------------ basic queries
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def to_act(self) -> tuple[int, ...]:
        return self.acting

    def _compute_acting(self) -> tuple[int, ...]:
        if self.phase == ACTIONS:
            return (self.cur,)
        if self.phase == DRAW:
            return tuple(s for s in range(self.n) if self.drawing[s])
        return ()

    def element(self, seat: int, e: int) -> int:
        """Total visible element ``e`` of a spirit: help line + trees + completed line bonuses."""
        return self.hel[seat][e] + self.fel[seat][e]

    def has_t11(self, seat: int) -> bool:
        return T11 in self.forests[seat]

    def counts(self, seat: int) -> tuple[int, int, int]:
        """Progress toward 12: (different trees, fires, sacred flowers)."""
        forest = self.forests[seat]
        kinds = {t for t in forest if 0 <= t < START_TREE}
        vt = self.vts[seat]
        trees = len(kinds) + 1 + vt[2]
        fires = sum(self.fires[seat]) + vt[0]
        flowers = self.hel[seat][FLOWER] + self.fel[seat][FLOWER] + vt[1]
        return trees, fires, flowers

    # ------------------------------------------------------------------ the action space
    def action_table(self) -> list[Action]:
        return TABLES[self.n]

    def action_id(self, action: Action) -> int:
        try:
            code = INDEXES[self.n].get(action)
        except TypeError:  # a field holding an unhashable value names nothing
            code = None
        if code is not None and all(type(v) in (int, str) for _, v in action.args):
            return code  # (True == 1 and 1.0 == 1 in Python: such values name nothing here)
        kind = action.type
        if kind not in FIELDS:
            raise IllegalAction(
                f"Living Forest has no action {kind!r}; the actions are: {', '.join(FIELDS)}"
            )
        want = FIELDS[kind]
        have = tuple(k for k, _ in action.args)
        if have != want:
            need = ", ".join(want) if want else "no fields"
            raise IllegalAction(f"the {kind} action takes {need}")
        hints = {
            "choose_action": f"action must be one of {', '.join(KIND_NAMES)}",
            "pick_card": "level must be 1, 2 or 3 and slot 0 to 3",
            "pick_fire": f"index must be a whole number from 0 to {CENTRE_CAP - 1}",
            "steal": f"tile must be one of {', '.join(VICTORY_KINDS)}",
            "move": f"steps must be a whole number from 1 to {12 - self.n}",
            "plant": (
                f"tree must be one of {', '.join(TREES.ids)}, row 0 to {ROWS - 1} and column 0 "
                f"to {COLUMNS - 1}, and the centre (row 1, column 2) holds the starting tree"
            ),
        }
        raise IllegalAction(f"that {kind} names nothing on the table: {hints[kind]}")

    def _affordable_card(self, budget: int) -> bool:
        for c in self.display:  # noqa: SIM110 (a plain loop is faster on this hot path)
            if c >= 0 and C_COST[c] <= budget:
                return True
        return False

    def _affordable_fire(self, budget: int) -> bool:
        for v in self.centre:  # noqa: SIM110 (a plain loop is faster on this hot path)
            if v <= budget:
                return True
        return False

    def _can_plant(self, seat: int) -> bool:
        if EMPTY not in self.forests[seat]:
            return False
        supply = self.tree_supply
        for t in range(12):  # trees are listed by cost: the first one left is the cheapest
            if supply[t]:
                return T_COST[t] <= self.hel[seat][PLANT] + self.fel[seat][PLANT]
        return False

    def _kind_feasible(self, seat: int, kind: int) -> bool:
        if kind == K_FRAGMENT:
            return self.frag_supply > 0
        if kind == K_ATTRACT:
            return self._affordable_card(self.element(seat, SUN))
        if kind == K_EXTINGUISH:
            return self._affordable_fire(self.element(seat, WATER))
        if kind == K_MOVE:
            return self.element(seat, SPIRAL) >= 1
        return self._can_plant(seat)

    def _free_cells(self, seat: int) -> list[int]:
        forest = self.forests[seat]
        return [
            c
            for c in PLANT_CELLS
            if forest[c] == EMPTY and any(forest[x] != EMPTY for x in NEIGHBOURS[c])
        ]

    def legal_action_ids(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == DRAW:
            if not (0 <= seat < self.n and self.drawing[seat]):
                return []
            out = []
            if self.net[seat] < 3 and (self.decks[seat] or self.discards[seat]):
                out.append(A_DRAW)
            out.append(A_STOP)
            if self.fresh[seat] and self.frags[seat]:
                out.append(A_USE)
            return out
        if phase != ACTIONS or seat != self.cur:
            return []
        sub = self.sub
        if sub == S_CHOOSE:
            out = []
            twice = self.used and self.has_t11(seat)
            for k in range(5):
                if (twice or not self.used >> k & 1) and self._kind_feasible(seat, k):
                    out.append(A_CHOOSE + k)
            out.append(A_END)
            return out
        if sub == S_ATTRACT:
            budget = self.budget
            out = [A_DONE] if self.bonus or self.picked else []
            for i, c in enumerate(self.display):
                if c >= 0 and C_COST[c] <= budget:
                    out.append(A_PICK + i)
            return out
        if sub == S_EXTINGUISH:
            budget = self.budget
            out = [A_DONE] if self.bonus or self.picked else []
            for i, v in enumerate(self.centre):
                if v <= budget:
                    out.append(A_FIRE + i)
            return out
        if sub == S_MOVE:
            top = min(self.element(seat, SPIRAL), 12 - self.n)
            return list(range(A_MOVE, A_MOVE + top))
        if sub == S_STEAL:
            vt = self.vts[self.victims[0]]
            return [A_STEAL + k for k in range(3) if vt[k]]
        # S_PLANT
        out = [A_DONE] if self.bonus else []
        plant = self.element(seat, PLANT)
        cells = [CELL_SLOT[c] for c in self._free_cells(seat)]
        base = _plant_base(self.n)
        supply = self.tree_supply
        for t in range(12):
            if supply[t] and T_COST[t] <= plant:
                row = base + t * 14
                out.extend(row + c for c in cells)
        return out

    def why_illegal(self, seat: int, code: int) -> str | None:
        # type(x) is int also refuses True/False
        if type(code) is not int or not 0 <= code < len(TABLES[self.n]):
            return f"there is no action number {code!r}"
        if type(seat) is not int or not 0 <= seat < self.n:
            return f"there is no seat {seat!r} in this game"
        phase = self.phase
        if phase == DRAW:
            if code > A_USE:
                return "the spirits are drawing Guardian Animals now; actions come after"
            if not self.drawing[seat]:
                return "you have stopped drawing this round; wait for the other spirits"
            return self._why_draw(seat, code)
        if phase == OVER:
            return "the game is over"
        if seat != self.cur:
            return f"it is spirit {self.cur}'s turn to act, not yours"
        sub = self.sub
        if code <= A_USE:
            return "the Guardian Animals phase is over; draw again next round"
        if sub == S_CHOOSE:
            return self._why_choose(seat, code)
        if sub == S_ATTRACT:
            return self._why_attract(code)
        if sub == S_EXTINGUISH:
            return self._why_extinguish(code)
        if sub == S_MOVE:
            return self._why_move(seat, code)
        if sub == S_STEAL:
            return self._why_steal(code)
        return self._why_plant(seat, code)

    def _why_draw(self, seat: int, code: int) -> str | None:
        if code == A_DRAW:
            if self.net[seat] >= 3:
                if self.frags[seat]:
                    return (
                        "your help line shows 3 solitary symbols: use a fragment on that card "
                        "or stop"
                    )
                return "your help line shows 3 solitary symbols, so you must stop"
            if not self.decks[seat] and not self.discards[seat]:
                return "your draw stack and your discard are both empty"
            return None
        if code == A_USE:
            if not self.frags[seat]:
                return "you have no fragment to use"
            if not self.fresh[seat]:
                return "a fragment can only send away the card you have just drawn"
        return None

    def _why_choose(self, seat: int, code: int) -> str | None:
        if code == A_END:
            return None
        if not A_CHOOSE <= code < A_CHOOSE + 5:
            if code == A_DONE:
                return "there is nothing to finish: choose an action or end your actions"
            return "choose an action first (take a fragment, attract, extinguish, move or plant)"
        kind = code - A_CHOOSE
        name = KIND_NAMES[kind]
        if self.used >> kind & 1 and not self.has_t11(seat):
            return (
                f"you have already chosen {name} this turn; only the cost-11 tree allows the "
                "same action twice"
            )
        if kind == K_FRAGMENT:
            if self.frag_supply <= 0:
                return "there is no fragment left in the supply"
        elif kind == K_ATTRACT:
            sun = self.element(seat, SUN)
            costs = [C_COST[c] for c in self.display if c >= 0]
            if not costs:
                return "there is no face-up animal left to attract"
            if min(costs) > sun:
                return f"the cheapest face-up animal costs {min(costs)} sun but you have {sun}"
        elif kind == K_EXTINGUISH:
            water = self.element(seat, WATER)
            if not self.centre:
                return "there is no fire in the centre to extinguish"
            if min(self.centre) > water:
                return f"the smallest fire is worth {min(self.centre)} but you have {water} water"
        elif kind == K_MOVE:
            if self.element(seat, SPIRAL) < 1:
                return "you need at least 1 spiral to move on the circle"
        else:
            if EMPTY not in self.forests[seat]:
                return "your forest is full"
            plant = self.element(seat, PLANT)
            costs = [T_COST[t] for t in range(12) if self.tree_supply[t]]
            if not costs:
                return "there is no protective tree left in the supply"
            if min(costs) > plant:
                return f"the cheapest tree left costs {min(costs)} plant but you have {plant}"
        return None

    def _why_attract(self, code: int) -> str | None:
        if code == A_DONE:
            if self.bonus or self.picked:
                return None
            return "you chose to attract: take at least one animal (or undo)"
        if not A_PICK <= code < A_FIRE:
            return "you are attracting animals: pick a face-up card or say done"
        card = self.display[code - A_PICK]
        lv, slot = divmod(code - A_PICK, 4)
        if card < 0:
            return f"slot {slot} of level {lv + 1} is empty"
        if C_COST[card] > self.budget:
            return (
                f"the {CARDS.names[card]} costs {C_COST[card]} sun but you have {self.budget} left"
            )
        return None

    def _why_extinguish(self, code: int) -> str | None:
        if code == A_DONE:
            if self.bonus or self.picked:
                return None
            return "you chose to extinguish: take at least one fire (or undo)"
        if not A_FIRE <= code < A_STEAL:
            return "you are extinguishing fires: pick a fire in the centre or say done"
        i = code - A_FIRE
        if i >= len(self.centre):
            return f"there is no fire number {i} in the centre ({len(self.centre)} left)"
        if self.centre[i] > self.budget:
            return f"that fire is worth {self.centre[i]} but you have {self.budget} water left"
        return None

    def _why_move(self, seat: int, code: int) -> str | None:
        if not A_MOVE <= code < _plant_base(self.n):
            return "you are moving on the circle: choose how many rocks to move"
        steps = code - A_MOVE + 1
        spiral = self.element(seat, SPIRAL)
        if steps > spiral:
            return f"you have {spiral} spiral, so you can move at most {spiral} rocks"
        return None

    def _why_steal(self, code: int) -> str | None:
        if not A_STEAL <= code < A_MOVE:
            return f"choose a victory tile to take from spirit {self.victims[0]}"
        kind = code - A_STEAL
        if not self.vts[self.victims[0]][kind]:
            return f"spirit {self.victims[0]} has no {VICTORY_KINDS[kind]} victory tile"
        return None

    def _why_plant(self, seat: int, code: int) -> str | None:
        base = _plant_base(self.n)
        if code == A_DONE:
            return None if self.bonus else "you chose to plant: plant a tree (or undo)"
        if code < base:
            return "you are planting: choose a tree and an empty space of your forest"
        t, slot = divmod(code - base, 14)
        cell = PLANT_CELLS[slot]
        tid = TREES.ids[t]
        if not self.tree_supply[t]:
            return f"there is no {tid} tree left in the supply"
        plant = self.element(seat, PLANT)
        if T_COST[t] > plant:
            return f"the {tid} tree costs {T_COST[t]} plant but you have {plant}"
        forest = self.forests[seat]
        where = f"row {cell // COLUMNS}, column {cell % COLUMNS}"
        if forest[cell] != EMPTY:
            return f"there is already a tree at {where}"
        if not any(forest[x] != EMPTY for x in NEIGHBOURS[cell]):
            return f"{where} does not touch a tree of your forest (orthogonally)"
        return None

    # ------------------------------------------------------------------ applying
    def apply_action_id(self, seat: int, code: int, checked: bool = False) -> None:
        if not checked:
            reason = self.why_illegal(seat, code)
            if reason is not None:
                raise IllegalAction(reason)
        if self.phase == DRAW:
            self._apply_draw_phase(seat, code)
        else:
            log = self.log
            log.append((seat, code, None))
            idx = len(log) - 1
            chance = self._apply_action_phase(seat, code)
            if chance is not None:
                log[idx] = (seat, code, chance)
        self.acting = self._compute_acting()

    def _apply_draw_phase(self, seat: int, code: int) -> None:
        # keep the draw-phase block of the log sorted by seat (stable), so the log does not
        # depend on the order in which simultaneous draws arrive
        log = self.log
        at = len(log)
        start = self.draw_start
        while at > start and log[at - 1][0] > seat:
            at -= 1
        chance: tuple[int, ...] | None = None
        if code == A_DRAW:
            chance = self._draw(seat)
        elif code == A_STOP:
            self.drawing[seat] = False
            self.fresh[seat] = False
        else:
            self._use_fragment(seat)
        log.insert(at, (seat, code, chance))
        if not any(self.drawing):
            self._start_action_phase()

    def _draw(self, s: int) -> tuple[int, int]:
        deck = self.decks[s]
        reshuffled = 0
        if not deck:
            k = self.shuffles[s]
            deck = shuffled(self.seed, f"spirit{s}/shuffle{k}", sorted(self.discards[s]))
            self.decks[s] = deck
            self.discards[s] = []
            self.shuffles[s] = k + 1
            reshuffled = 1
        card = deck.pop()
        self.helps[s].append(card)
        h = self.hel[s]
        for e, v in enumerate(C_ELEMS[card]):
            h[e] += v
        self.net[s] += C_COIN[card]
        self.fresh[s] = True
        if self.net[s] >= 3 and not self.frags[s]:
            self.drawing[s] = False  # the third uncancelled solitary symbol: must stop
            self.fresh[s] = False
        return card, reshuffled

    def _use_fragment(self, s: int) -> None:
        card = self.helps[s].pop()
        h = self.hel[s]
        for e, v in enumerate(C_ELEMS[card]):
            h[e] -= v
        self.net[s] -= C_COIN[card]
        self.frags[s] -= 1
        self.frag_supply += 1
        self.fresh[s] = False
        if card == VARAN:
            self.varan_supply += 1
        else:
            self.discards[s].append(card)

    def _start_action_phase(self) -> None:
        self.phase = ACTIONS
        self.turn_no = 0
        self.cur = self.first
        self._start_turn()

    def _start_turn(self) -> None:
        self.left = 1 if self.net[self.cur] >= 3 else 2
        self.used = 0
        self.sub = S_CHOOSE
        self.bonus = False
        self.turn_start = len(self.log)

    def _apply_action_phase(self, s: int, code: int) -> tuple[int, ...] | None:
        sub = self.sub
        if sub == S_CHOOSE:
            if code == A_END:
                self.left = 0
            else:
                self._choose(s, code - A_CHOOSE)
        elif code == A_DONE:
            self.sub = S_CHOOSE
        elif sub == S_ATTRACT:
            i = code - A_PICK
            card = self.display[i]
            self.display[i] = EMPTY
            self.decks[s].append(card)  # face down on top of the spirit's own draw stack
            self.taken[C_LEVEL[card] - 1] += 1
            self.budget -= C_COST[card]
            self.picked += 1
            if not self._affordable_card(self.budget):
                self.sub = S_CHOOSE
        elif sub == S_EXTINGUISH:
            value = self.centre.pop(code - A_FIRE)
            self.fires[s][value - 2] += 1
            self.budget -= value
            self.picked += 1
            if not self._affordable_fire(self.budget):
                self.sub = S_CHOOSE
        elif sub == S_MOVE:
            self._move(s, code - A_MOVE + 1)
        elif sub == S_STEAL:
            kind = code - A_STEAL
            victim = self.victims.pop(0)
            self.vts[victim][kind] -= 1
            self.vts[s][kind] += 1
            if not self.victims:
                self.sub = S_CHOOSE
        else:
            t, slot = divmod(code - _plant_base(self.n), 14)
            self._plant(s, t, PLANT_CELLS[slot])
        return self._settle()

    def _choose(self, s: int, kind: int) -> None:
        self.left -= 1
        self.used |= 1 << kind
        self.bonus = False
        self.picked = 0
        if kind == K_FRAGMENT:
            self.frag_supply -= 1
            self.frags[s] += 1
        elif kind == K_ATTRACT:
            self.sub = S_ATTRACT
            self.budget = max(0, self.element(s, SUN))
        elif kind == K_EXTINGUISH:
            self.sub = S_EXTINGUISH
            self.budget = max(0, self.element(s, WATER))
        elif kind == K_MOVE:
            self.sub = S_MOVE
        else:
            self.sub = S_PLANT

    def _move(self, s: int, steps: int) -> None:
        others = {self.pos[o]: o for o in range(self.n) if o != s}
        p = self.pos[s]
        jumped = []
        while steps:
            p = (p + 1) % 12
            if p in others:
                jumped.append(others[p])  # occupied rocks are jumped and not counted
            else:
                steps -= 1
        self.pos[s] = p
        self.victims = [o for o in jumped if any(self.vts[o])]
        self.pending.append(ROCK_PENDING[p])
        self.sub = S_STEAL if self.victims else S_CHOOSE

    def _plant(self, s: int, t: int, cell: int) -> None:
        forest = self.forests[s]
        forest[cell] = t
        self.tree_supply[t] -= 1
        f = self.fel[s]
        for e, v in enumerate(T_ELEMS[t]):
            f[e] += v
        for line in CELL_LINES[cell]:
            cells, e, v = LINE_BONUSES[line]
            if all(forest[c] != EMPTY for c in cells):
                f[e] += v
        corner = CORNER_BONUS.get(cell)
        if corner is not None:
            self.pending.append(corner)
        self.sub = S_CHOOSE

    def _settle(self) -> tuple[int, ...] | None:
        """Start pending bonuses, then end the spirit's turn when it has nothing left to do."""
        s = self.cur
        while self.sub == S_CHOOSE:
            if self.pending:
                kind, extra = self.pending.pop(0)
                self.bonus = True
                self.picked = 0
                if kind == B_FRAGMENTS:
                    got = min(extra, self.frag_supply)
                    self.frag_supply -= got
                    self.frags[s] += got
                elif kind == B_ATTRACT:
                    budget = max(0, self.element(s, SUN) + extra)
                    if self._affordable_card(budget):
                        self.sub, self.budget = S_ATTRACT, budget
                elif kind == B_EXTINGUISH:
                    budget = max(0, self.element(s, WATER) + extra)
                    if self._affordable_fire(budget):
                        self.sub, self.budget = S_EXTINGUISH, budget
                elif self._can_plant(s):
                    self.sub = S_PLANT
                continue
            if self.left > 0:
                return None
            return self._end_turn()
        return None

    def _end_turn(self) -> tuple[int, ...] | None:
        self.turn_no += 1
        if self.turn_no < self.n:
            self.cur = (self.cur + 1) % self.n
            self._start_turn()
            return None
        return self._end_round()

    def _end_round(self) -> tuple[int, ...] | None:
        n = self.n
        # victory is checked after a complete action phase, before the end-of-round steps
        progress = [self.counts(s) for s in range(n)]
        reached = [s for s in range(n) if max(progress[s]) >= TARGET]
        if reached:
            best = max(sum(progress[s]) for s in reached)
            self.winners = [s for s in reached if sum(progress[s]) == best]
            self.phase = OVER
            self.sub = S_CHOOSE
            return None
        order = [(self.first + i) % n for i in range(n)]
        # a. Onibi attacks every spirit whose water is strictly below the centre's fire
        if self.centre:
            power = sum(self.centre)
            victims = [s for s in order if self.element(s, WATER) < power]
            for _ in range(len(self.centre)):
                for s in victims:
                    if self.varan_supply:
                        self.varan_supply -= 1
                        self.discards[s].append(VARAN)
        # b. Onibi attacks the Sacred Tree: one fire per animal taken, level 1 first, cap 7
        centre = self.centre
        for lv in range(3):
            value = FIRE_LEVEL_VALUE[lv]
            for _ in range(self.taken[lv]):
                if len(centre) < CENTRE_CAP and self.fire_supply[value - 2]:
                    self.fire_supply[value - 2] -= 1
                    centre.append(value)
        if not centre:
            for value in FIRE_VALUES:  # a value-2 fire (a larger one if the 2s ran out)
                if self.fire_supply[value - 2]:
                    self.fire_supply[value - 2] -= 1
                    centre.append(value)
                    break
        # c. refill the display; an empty slot stays empty once its level's stack is exhausted
        revealed: list[int] = []
        for i, c in enumerate(self.display):
            if c < 0:
                stack = self.stacks[i // 4]
                if stack:
                    self.display[i] = stack.pop()
                    revealed.append(self.display[i])
        # d. help lines to the discard
        for s in range(n):
            self.discards[s].extend(self.helps[s])
            self.helps[s] = []
            self.hel[s] = [0] * 5
            self.net[s] = 0
            self.drawing[s] = True
            self.fresh[s] = False
        # e. the Sacred Tree passes clockwise; a new round starts
        self.first = (self.first + 1) % n
        self.round += 1
        self.taken = [0, 0, 0]
        self.phase = DRAW
        self.sub = S_CHOOSE
        self.draw_start = len(self.log)
        return (-1, *revealed) if revealed else None

    # ------------------------------------------------------------------ undo
    def can_undo(self, seat: int) -> bool:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            return False
        if self.phase == ACTIONS:
            return seat == self.cur and len(self.log) > self.turn_start
        if self.phase == DRAW and not self.drawing[seat]:
            # a voluntary stop may be taken back while the others still draw
            for i in range(len(self.log) - 1, self.draw_start - 1, -1):
                entry = self.log[i]
                if entry[0] == seat:
                    return entry[1] == A_STOP
        return False

    # ------------------------------------------------------------------ results and views
    def result(self) -> dict[str, Any]:
        breakdown = []
        scores = []
        for s in range(self.n):
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
        return {"scores": scores, "winners": list(self.winners), "breakdown": breakdown}

    def describe_chance(self, entry: LogEntry, seat: int | None) -> Any:
        chance = entry[2]
        if chance is None:
            return None
        if chance[0] == -1:
            return {"revealed": [CARDS.names[c] for c in chance[1:]]}
        return {"card": CARDS.names[chance[0]], "reshuffled": bool(chance[1])}

    def in_progress(self) -> dict[str, Any] | None:
        """The step the acting spirit is in (None while it chooses an action)."""
        if self.phase != ACTIONS or self.sub == S_CHOOSE:
            return None
        out: dict[str, Any] = {"step": SUB_NAMES[self.sub], "bonus": self.bonus}
        if self.sub in (S_ATTRACT, S_EXTINGUISH):
            out["left"] = self.budget
            out["element"] = "sun" if self.sub == S_ATTRACT else "water"
        if self.sub == S_STEAL:
            out["from"] = list(self.victims)
        if self.pending:
            out["then"] = [BONUS_NAMES[k] for k, _ in self.pending]
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        names = CARDS.names
        spirits = []
        for s in range(self.n):
            trees, fires, flowers = self.counts(s)
            forest = [
                [
                    None if t == EMPTY else ("start" if t == START_TREE else TREES.ids[t])
                    for t in self.forests[s][r * COLUMNS : (r + 1) * COLUMNS]
                ]
                for r in range(ROWS)
            ]
            spirits.append(
                {
                    "seat": s,
                    "help_line": [names[c] for c in self.helps[s]],
                    "solitary": self.net[s],
                    "drawing": self.phase == DRAW and self.drawing[s],
                    "draw_stack_count": len(self.decks[s]),
                    "discard_count": len(self.discards[s]),
                    "discard": sorted(names[c] for c in self.discards[s]),
                    "forest": forest,
                    "fragments": self.frags[s],
                    "fires": sorted(v + 2 for v in range(3) for _ in range(self.fires[s][v])),
                    "victory_tiles": dict(zip(VICTORY_KINDS, self.vts[s], strict=True)),
                    "rock": self.pos[s],
                    "elements": {e: self.element(s, i) for i, e in enumerate(ELEMENTS)},
                    "progress": {"trees": trees, "fires": fires, "flowers": flowers},
                }
            )
        out: dict[str, Any] = {
            "game": self.game_name,
            "players": self.n,
            "you": seat,
            "round": self.round,
            "phase": PHASE_NAMES[self.phase],
            "to_act": list(self.to_act),
            "sacred_tree": self.first,
            "current": self.cur if self.phase == ACTIONS else None,
            "actions_left": self.left if self.phase == ACTIONS else None,
            "actions_used": [KIND_NAMES[k] for k in range(5) if self.used >> k & 1]
            if self.phase == ACTIONS
            else [],
            "in_progress": self.in_progress(),
            "display": [
                [None if c < 0 else card_json(c) for c in self.display[lv * 4 : lv * 4 + 4]]
                for lv in range(3)
            ],
            "stack_counts": [len(st) for st in self.stacks],
            "circle": [
                {
                    "rock": r,
                    "bonus": ROCK_BONUS[r],
                    "spirit": next((s for s in range(self.n) if self.pos[s] == r), None),
                }
                for r in range(12)
            ],
            "centre_fires": list(self.centre),
            "fire_supply": {str(v): self.fire_supply[v - 2] for v in FIRE_VALUES},
            "tree_supply": dict(zip(TREES.ids, self.tree_supply, strict=True)),
            "fragment_supply": self.frag_supply,
            "varan_supply": self.varan_supply,
            "taken_this_round": list(self.taken),
            "spirits": spirits,
            "result": self.result() if self.phase == OVER else None,
        }
        return out


__all__ = ["CARD_BY_NAME", "LivingForestGame", "TABLES", "TREE_BY_ID", "card_json"]
