"""The state of one Living Forest game: a typed record the rules modules read and change.

Only the rules package touches it. Everything outside reads a game through
``LivingForestGame.snapshot()`` (``snapshot.py``), its view, or the contract methods. Per-spirit
parts are lists indexed by seat; piles list their cards from the bottom to the top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from glade.core.chance import check_seed, shuffled
from glade.core.game import LogEntry
from glade.core.refusals import CORE

from .data import (
    CARDS,
    EMPTY,
    FIRES_PER_VALUE,
    FRAGMENT_COUNT,
    LEVEL_RANGES,
    NUM_STARTING,
    START_CELL,
    START_ROCKS,
    START_TREE,
    TREES,
    VARAN_COUNT,
)
from .refusals import REFUSALS
from .space import CELLS, DRAW, LINE_BONUSES, S_CHOOSE

if TYPE_CHECKING:
    from .round_end import RoundRecord

C_ELEMS: Final = CARDS.elements
C_COIN: Final = CARDS.coin
T_ELEMS: Final = TREES.elements


class ForestState:
    """Every part of a game, named in the game's words (see ``docs/living-forest.md``)."""

    __slots__ = (
        "seed",
        "players",
        "log",  # the game's log (the same list as ``Game.log``)
        "phase",
        "round",
        "sacred_tree",  # holder of the Sacred Tree
        "current_spirit",  # the spirit acting in the action phase
        "turns_done",  # how many spirits finished their action phase this round
        "actions_left",  # actions left to choose
        "actions_used",  # bit mask of the action kinds chosen this turn
        "step",  # the S_* sub-step in progress
        "bonus_step",  # the step in progress is a bonus (of a rock or a corner)
        "spend_left",  # sun or water left in the attract/extinguish in progress
        "taken_in_step",  # cards or fires taken so far in the attract/extinguish in progress
        "bonuses_pending",  # bonuses still to resolve in this action: (B_*, extra)
        "steal_from",  # spirits still to steal a victory tile from
        "turn_start",  # log index where the current spirit's action phase began
        "draw_start",  # log index where the current draw phase began
        "draw_stacks",  # per spirit, top of the draw stack = end of the list
        "help_lines",
        "discards",
        "help_elements",  # per spirit, the elements on its help line
        "forest_elements",  # per spirit, the elements of its trees and completed lines
        "solitary",  # per spirit, solitary minus gregarious symbols on the help line
        "fragments",
        "rocks",  # rock of each spirit on the circle
        "drawing",
        "just_drawn",  # the last help-line card was just drawn (a fragment may send it away)
        "shuffles_dealt",  # shuffles dealt so far per spirit (names the next stream)
        "forests",  # 15 cells, row-major: EMPTY, START_TREE or a tree type
        "fires_kept",  # per spirit, fire tiles kept, counted per value 2/3/4
        "victory_tiles",  # per spirit, victory tiles held: fire, flower, tree
        "display",  # 12 slots, level-major; EMPTY when empty
        "animal_stacks",  # face-down animal stacks per level (top = end)
        "centre_fires",  # values of the fires in the centre of the circle
        "fire_supply",  # tiles left per value 2/3/4
        "tree_supply",
        "fragment_supply",
        "varan_supply",
        "taken_this_round",  # animals attracted this round per level
        "winners",
        "to_act",  # every spirit that may act now (kept up to date after each action)
        "last_round",  # what the last end of round did (public), None before the first
    )

    seed: int
    players: int
    log: list[LogEntry]
    phase: int
    round: int
    sacred_tree: int
    current_spirit: int
    turns_done: int
    actions_left: int
    actions_used: int
    step: int
    bonus_step: bool
    spend_left: int
    taken_in_step: int
    bonuses_pending: list[tuple[int, int]]
    steal_from: list[int]
    turn_start: int
    draw_start: int
    draw_stacks: list[list[int]]
    help_lines: list[list[int]]
    discards: list[list[int]]
    help_elements: list[list[int]]
    forest_elements: list[list[int]]
    solitary: list[int]
    fragments: list[int]
    rocks: list[int]
    drawing: list[bool]
    just_drawn: list[bool]
    shuffles_dealt: list[int]
    forests: list[list[int]]
    fires_kept: list[list[int]]
    victory_tiles: list[list[int]]
    display: list[int]
    animal_stacks: list[list[int]]
    centre_fires: list[int]
    fire_supply: list[int]
    tree_supply: list[int]
    fragment_supply: int
    varan_supply: int
    taken_this_round: list[int]
    winners: list[int]
    to_act: tuple[int, ...]
    last_round: RoundRecord | None

    def element(self, seat: int, e: int) -> int:
        """Total visible element ``e`` of a spirit: help line + trees + completed line bonuses."""
        return self.help_elements[seat][e] + self.forest_elements[seat][e]

    def copy(self, log: list[LogEntry]) -> ForestState:
        """An independent copy sharing nothing mutable, whose log is ``log``."""
        s = ForestState()
        s.seed = self.seed
        s.players = self.players
        s.log = log
        s.phase = self.phase
        s.round = self.round
        s.sacred_tree = self.sacred_tree
        s.current_spirit = self.current_spirit
        s.turns_done = self.turns_done
        s.actions_left = self.actions_left
        s.actions_used = self.actions_used
        s.step = self.step
        s.bonus_step = self.bonus_step
        s.spend_left = self.spend_left
        s.taken_in_step = self.taken_in_step
        s.bonuses_pending = self.bonuses_pending[:]
        s.steal_from = self.steal_from[:]
        s.turn_start = self.turn_start
        s.draw_start = self.draw_start
        s.draw_stacks = [x[:] for x in self.draw_stacks]
        s.help_lines = [x[:] for x in self.help_lines]
        s.discards = [x[:] for x in self.discards]
        s.help_elements = [x[:] for x in self.help_elements]
        s.forest_elements = [x[:] for x in self.forest_elements]
        s.solitary = self.solitary[:]
        s.fragments = self.fragments[:]
        s.rocks = self.rocks[:]
        s.drawing = self.drawing[:]
        s.just_drawn = self.just_drawn[:]
        s.shuffles_dealt = self.shuffles_dealt[:]
        s.forests = [x[:] for x in self.forests]
        s.fires_kept = [x[:] for x in self.fires_kept]
        s.victory_tiles = [x[:] for x in self.victory_tiles]
        s.display = self.display[:]
        s.animal_stacks = [x[:] for x in self.animal_stacks]
        s.centre_fires = self.centre_fires[:]
        s.fire_supply = self.fire_supply[:]
        s.tree_supply = self.tree_supply[:]
        s.fragment_supply = self.fragment_supply
        s.varan_supply = self.varan_supply
        s.taken_this_round = self.taken_this_round[:]
        s.winners = self.winners[:]
        s.to_act = self.to_act
        s.last_round = self.last_round  # (never changed once made: shared)
        return s


def settings(seed: Any, options: Any) -> tuple[int, int]:
    """The seed and the number of spirits of a new game, checked.

    :raises BadInput: ``seed.not_int``, ``lf_options.not_mapping``, ``lf_options.unknown``,
        ``lf_options.players``.
    """
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
    return seed, n


def new_state(seed: int, players: int) -> ForestState:
    """The set-up of a game of ``players`` spirits dealt from ``seed`` (both already checked)."""
    n = players
    s = ForestState()
    s.seed = seed
    s.players = n
    s.log = []
    s.phase = DRAW
    s.round = 1
    s.sacred_tree = 0
    s.current_spirit = 0
    s.turns_done = 0
    s.actions_left = 0
    s.actions_used = 0
    s.step = S_CHOOSE
    s.bonus_step = False
    s.spend_left = 0
    s.taken_in_step = 0
    s.bonuses_pending = []
    s.steal_from = []
    s.turn_start = 0
    s.draw_start = 0
    s.draw_stacks = [
        shuffled(seed, f"spirit{p}/shuffle0", list(range(NUM_STARTING))) for p in range(n)
    ]
    s.help_lines = [[] for _ in range(n)]
    s.discards = [[] for _ in range(n)]
    s.help_elements = [[0] * 5 for _ in range(n)]
    s.forest_elements = [[0] * 5 for _ in range(n)]
    s.solitary = [0] * n
    s.fragments = [0] * n
    s.rocks = list(START_ROCKS[n])
    s.drawing = [True] * n
    s.just_drawn = [False] * n
    s.shuffles_dealt = [1] * n
    s.forests = []
    for _ in range(n):
        forest = [EMPTY] * CELLS
        forest[START_CELL] = START_TREE
        s.forests.append(forest)
    s.fires_kept = [[0, 0, 0] for _ in range(n)]
    s.victory_tiles = [[1, 1, 1] for _ in range(n)]
    s.animal_stacks = [
        shuffled(seed, f"animals/level{lv + 1}", list(LEVEL_RANGES[lv])) for lv in range(3)
    ]
    s.display = [s.animal_stacks[lv].pop() for lv in range(3) for _ in range(4)]
    s.centre_fires = [2]
    s.fire_supply = [FIRES_PER_VALUE - 1, FIRES_PER_VALUE, FIRES_PER_VALUE]
    s.tree_supply = list(TREES.copies[n])
    s.fragment_supply = FRAGMENT_COUNT
    s.varan_supply = VARAN_COUNT
    s.taken_this_round = [0, 0, 0]
    s.winners = []
    s.to_act = tuple(range(n))
    s.last_round = None
    return s


def help_totals(line: list[int]) -> tuple[list[int], int]:
    """The elements on a help line and its net solitary count."""
    return [sum(C_ELEMS[c][e] for c in line) for e in range(5)], sum(C_COIN[c] for c in line)


def forest_totals(forest: list[int]) -> list[int]:
    """The elements a forest gives: its protective trees and its completed lines."""
    elements = [0] * 5
    for t in forest:
        if 0 <= t < START_TREE:
            for e, v in enumerate(T_ELEMS[t]):
                elements[e] += v
    for cells, e, v in LINE_BONUSES:
        if all(forest[c] != EMPTY for c in cells):
            elements[e] += v
    return elements


def rederive(s: ForestState) -> None:
    """Recompute what follows from the rest: help-line and forest elements, solitary counts
    (after a load, or after a position was edited by hand)."""
    s.help_elements = []
    s.solitary = []
    for line in s.help_lines:
        elements, net = help_totals(line)
        s.help_elements.append(elements)
        s.solitary.append(net)
    s.forest_elements = [forest_totals(f) for f in s.forests]
