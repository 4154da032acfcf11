"""Fast hand-written evaluation of a Harmonies board for the bots.

``board_score`` is the exact end-game score, from the engine's one scorer (``Board.total``);
``evaluate`` adds what the score does not see yet: progress toward the habitats of held animal
cards and the promise of unfinished stacks (trunks, low mountains, lone reds), both discounted by
how many turns the game probably has left.
"""

from __future__ import annotations

from typing import ClassVar, Final

from glade.harmonies.data import B1, B2, CARDS, CLASS_STATES, M1, M2, NEXT, NSTATES, R1
from glade.harmonies.game import Board, HarmoniesGame
from glade.harmonies.scoring import spirit_points

NCLASS: Final = len(CLASS_STATES)
CLASS_MEMBERS: Final = tuple(CLASS_STATES.values())
MAX_COST: Final = 3
INF: Final = 99


# What each spirit's formula gives a finished board, on average: the 80 final boards of 40 greedy
# 2-player games (seeds 5000-5039, no spirits in play), every formula applied to every board
# (standard deviations 3-6 points; ``python benchmarks/spirit_typical.py``). A chosen spirit's
# worth early in the game, before the board
# shows it; SPIRIT_TURNS: the turns a fresh board lasts (``turns_left`` of an empty board).
SPIRIT_TYPICAL: Final = {
    "lion_spirit": 8.4,
    "butterfly_spirit": 9.8,
    "deer_spirit": 9.2,
    "owl_spirit": 12.8,
    "cat_spirit": 6.0,
    "crane_spirit": 3.0,
    "ram_spirit": 4.3,
    "marmot_spirit": 8.5,
    "dragonfly_spirit": 6.7,
    "tortoise_spirit": 10.2,
}
SPIRIT_TURNS: Final = 7.0


def _cost_table() -> tuple[tuple[int, ...], ...]:
    """COST[state][class] = fewest tokens to place on ``state`` to reach ``class`` (INF: never)."""
    table = []
    for start in range(NSTATES):
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for s in frontier:
                for color in range(6):
                    t = NEXT[s * 6 + color]
                    if t >= 0 and t not in dist:
                        dist[t] = dist[s] + 1
                        nxt.append(t)
            frontier = nxt
        row = []
        for members in CLASS_MEMBERS:
            row.append(min((dist[m] for m in members if m in dist), default=INF))
        table.append(tuple(row))
    return tuple(table)


COST: Final = _cost_table()
# per class and cost 1..3: the stack states that reach the class with that many tokens
REACH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(s for s in range(NSTATES) if COST[s][k] == c) for c in range(MAX_COST + 1))
    for k in range(NCLASS)
)


def board_score(game: HarmoniesGame, board: Board) -> int:
    """The board's current total score (``Board.total``, the engine's one scorer)."""
    return board.total()


def need_masks(board: Board) -> list[tuple[int, int, int]]:
    """Per class: (cells that reach it at all, cost bit 0, cost bit 1) as masks, where the cost
    is the number of tokens (0-3) still to place on a cell to give it that class."""
    masks = board.masks
    free = ~board.cubes
    out = []
    for k in range(NCLASS):
        reach = REACH[k]
        r = [0, 0, 0, 0]
        for c in range(MAX_COST + 1):
            m = 0
            for s in reach[c]:
                m |= masks[s]
            r[c] = m if c == 0 else m & free
        out.append((r[0] | r[1] | r[2] | r[3], r[1] | r[3], r[2] | r[3]))
    return out


def habitat_distance(
    card: int,
    rotations: tuple[tuple[tuple[int, int], ...], ...],
    need: list[tuple[int, int, int]],
    cubes: int,
    below: tuple[int, ...] | None = None,
) -> int:
    """Fewest tokens still needed to complete ``card``'s habitat somewhere (INF: nowhere).

    Costs of every anchor position are summed at once in four bit planes. ``below`` (the
    layout's, ``Layout.below``) keeps the masks moved up inside the grid's range, so that they
    stay machine-sized ints; without it the same bits come out of larger ints.
    """
    anyk, x0k, x1k = need[CARDS[card].cube_class]
    start = anyk & ~cubes
    if not start:
        return INF
    best = INF
    for rot in rotations:
        feasible = start
        p0 = x0k & feasible
        p1 = x1k & feasible
        p2 = 0
        p3 = 0
        for delta, k in rot:
            a, x0, x1 = need[k]
            if delta >= 0:
                feasible &= a >> delta
                x0 >>= delta
                x1 >>= delta
            elif below is not None:
                keep = below[-delta]
                feasible &= (a & keep) << -delta
                x0 = (x0 & keep) << -delta
                x1 = (x1 & keep) << -delta
            else:
                feasible &= a << -delta
                x0 <<= -delta
                x1 <<= -delta
            if not feasible:
                break
            # ripple-add the 2-bit number (x1 x0) into the planes p0..p3
            c = p0 & x0
            p0 ^= x0
            s1 = p1 ^ x1
            c1 = (p1 & x1) | (s1 & c)
            p1 = s1 ^ c
            p3 |= p2 & c1
            p2 ^= c1
        if not feasible:
            continue
        # the smallest 4-bit cost among feasible positions, highest bit first
        v = 0
        low = feasible & ~p3
        if low:
            feasible = low
        else:
            v |= 8
        low = feasible & ~p2
        if low:
            feasible = low
        else:
            v |= 4
        low = feasible & ~p1
        if low:
            feasible = low
        else:
            v |= 2
        if not feasible & ~p0:
            v |= 1
        if v < best:
            best = v
            if best == 0:
                return 0
    return best


# Promise of unfinished stacks: a trunk may become a tall tree, gray may grow, red may become a
# building. Values are points expected later, before the time discount.
_POTENTIAL = {B1: 1.6, B2: 3.2, M1: 0.6, M2: 1.2, R1: 1.0}
POTENTIAL: Final[tuple[float, ...]] = tuple(_POTENTIAL.get(s, 0.0) for s in range(NSTATES))


class Weights:
    """Tunable constants of the evaluation."""

    decay: ClassVar[float] = 0.72  # value kept per missing token of a habitat
    # useful tokens a player places toward one habitat per turn, roughly
    per_turn: ClassVar[float] = 1.6
    potential: ClassVar[float] = 1.0
    later_cubes: ClassVar[float] = 0.0  # share of the cubes after the next one counted as progress


def turns_left(game: HarmoniesGame, board: Board) -> float:
    """A rough count of the turns this player still gets."""
    by_pouch = len(game.pouch) / (3 * max(1, len(game.central) if game.solo else game.players))
    by_board = max(0, board.empty_cells() - 2) / 3
    return max(0.0, min(by_pouch, by_board))


def card_progress(
    card: int,
    placed: int,
    need: list[tuple[int, int, int]],
    cubes: int,
    left: float,
    rotations: tuple[tuple[tuple[int, int], ...], ...],
    below: tuple[int, ...] | None = None,
) -> float:
    """Expected extra points of ``card`` (``placed`` cubes on it) from its habitat's progress."""
    info = CARDS[card]
    if placed >= info.cubes:
        return 0.0
    d = habitat_distance(card, rotations, need, cubes, below)
    if d >= INF:
        return 0.0
    if d > 0 and d > left * Weights.per_turn + 0.5:
        return 0.0
    prev = info.points[placed - 1] if placed else 0
    gain = info.points[placed] - prev
    rest = info.points[-1] - info.points[placed]
    value = (Weights.decay**d) * (gain + Weights.later_cubes * rest * min(1.0, left / 6))
    return value


def spirit_progress(
    board: Board,
    spirit: int,
    need: list[tuple[int, int, int]],
    left: float,
    rotations: tuple[tuple[tuple[int, int], ...], ...],
) -> float:
    """Expected points of a chosen spirit whose cube is not placed yet: what its formula gives
    the board now, moved toward what it typically gives a finished board (``SPIRIT_TYPICAL``) by
    the share of the game still to come, discounted by the tokens its habitat still needs
    (nothing if out of reach)."""
    d = habitat_distance(spirit, rotations, need, board.cubes, board.layout.below)
    if d >= INF or (d > 0 and d > left * Weights.per_turn + 0.5):
        return 0.0
    now = spirit_points(board.layout, board.masks, spirit)
    typical = SPIRIT_TYPICAL.get(CARDS[spirit].id, 0.0)
    later = min(1.0, left / SPIRIT_TURNS) * max(0.0, typical - now)
    return float(Weights.decay**d * (now + later))


def evaluate(game: HarmoniesGame, board: Board, left: float) -> float:
    """Score + discounted progress of held cards (and of a chosen spirit not yet placed) + promise
    of unfinished stacks."""
    score = float(board_score(game, board))
    spirit = board.spirit if board.spirit >= 0 and not board.spirit_placed else -1
    if board.cards or spirit >= 0:
        need = need_masks(board)
        rotations = game.space.rotations
        below = board.layout.below
        for c, p in board.cards:
            score += card_progress(c, p, need, board.cubes, left, rotations[c], below)
        if spirit >= 0:
            score += spirit_progress(board, spirit, need, left, rotations[spirit])
    if left > 0:
        factor = Weights.potential * min(1.0, left / 4)
        masks = board.masks
        free = ~board.cubes
        for s in (B1, B2, M1, M2, R1):
            if masks[s]:
                score += factor * POTENTIAL[s] * (masks[s] & free).bit_count()
    return score


__all__ = [
    "COST",
    "Weights",
    "board_score",
    "card_progress",
    "evaluate",
    "habitat_distance",
    "need_masks",
    "spirit_progress",
    "turns_left",
]
