"""Fast hand-written evaluation of a Harmonies board for the bots.

``board_score`` is the exact end-game score (equal to ``HarmoniesGame.breakdown(seat)["total"]``)
computed on the board's bit masks; ``evaluate`` adds what the score does not see yet: progress
toward the habitats of held animal cards and the promise of unfinished stacks (trunks, low
mountains, lone reds), both discounted by how many turns the game probably has left.
"""

from __future__ import annotations

from functools import lru_cache

from glade.harmonies.data import (
    B1,
    B2,
    BB,
    BG,
    BR,
    CARDS,
    CLASS_STATES,
    EMPTY,
    LAYOUTS,
    M1,
    M2,
    M3,
    NEXT,
    NSTATES,
    R1,
    T1,
    T2,
    T3,
    F,
    Layout,
    W,
)
from glade.harmonies.game import Board, HarmoniesGame
from glade.harmonies.scoring import river_points, spirit_points

NCLASS = len(CLASS_STATES)
CLASS_MEMBERS = tuple(CLASS_STATES.values())
MAX_COST = 3
INF = 99


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


COST = _cost_table()
# per class and cost 1..3: the stack states that reach the class with that many tokens
REACH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(s for s in range(NSTATES) if COST[s][k] == c) for c in range(MAX_COST + 1))
    for k in range(NCLASS)
)


class Geometry:
    """Neighbourhood shifts of one board side on its padded bit grid."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.full = layout.full
        st = layout.stride
        self.deltas = (st, st - 1, -1, -st, -st + 1, 1)
        self.cell_bits = tuple(1 << b for b in layout.bits)
        self.around = {1 << b: self.spread(1 << b) for b in layout.bits}

    def spread(self, m: int) -> int:
        """Cells adjacent to some cell of ``m`` (``m`` itself excluded unless adjacent)."""
        out = 0
        for d in self.deltas:
            out |= (m << d) if d > 0 else (m >> -d)
        return out & self.full

    def components(self, m: int) -> list[int]:
        out = []
        while m:
            comp = m & -m
            while True:
                grown = (comp | self.spread(comp)) & m
                if grown == comp:
                    break
                comp = grown
            out.append(comp)
            m &= ~comp
        return out


GEOMETRY = {side: Geometry(layout) for side, layout in LAYOUTS.items()}


@lru_cache(maxsize=65536)
def _river_score(side: str, water: int) -> int:
    geo = GEOMETRY[side]
    layout = geo.layout
    best = 0
    for comp in geo.components(water):
        cells = [layout.bit_cell[b] for b in range(comp.bit_length()) if comp >> b & 1]
        inside = set(cells)
        diameter = 0
        for start in cells:
            dist = {start: 0}
            frontier = [start]
            while frontier:
                nxt = []
                for i in frontier:
                    for j in layout.neighbours[i]:
                        if j in inside and j not in dist:
                            dist[j] = dist[i] + 1
                            nxt.append(j)
                frontier = nxt
            diameter = max(diameter, max(dist.values()))
        best = max(best, river_points(diameter + 1))
    return best


def landscape_score(geo: Geometry, masks: list[int]) -> int:
    """Trees, mountains, fields, buildings and water of a board from its state masks."""
    score = masks[T1].bit_count() + 3 * masks[T2].bit_count() + 7 * masks[T3].bit_count()
    mountains = masks[M1] | masks[M2] | masks[M3]
    if mountains:
        adj = mountains & geo.spread(mountains)
        if adj:
            score += (
                (masks[M1] & adj).bit_count()
                + 3 * (masks[M2] & adj).bit_count()
                + 7 * (masks[M3] & adj).bit_count()
            )
    buildings = masks[BG] | masks[BB] | masks[BR]
    if buildings:
        tops = (
            masks[W],
            mountains,
            masks[B1] | masks[B2],
            masks[T1] | masks[T2] | masks[T3],
            masks[F],
            masks[R1] | buildings,
        )
        around = geo.around
        m = buildings
        while m:
            low = m & -m
            m ^= low
            near = around[low]
            if sum(1 for t in tops if t & near) >= 3:
                score += 5
    fields = masks[F]
    if fields:
        paired = fields & geo.spread(fields)
        if paired:
            score += 5 * len(geo.components(paired))
    if geo.layout.side == "A":
        if masks[W]:
            score += _river_score("A", masks[W])
    else:
        score += 5 * max(1, len(geo.components(geo.full & ~masks[W])))
    return score


def board_score(game: HarmoniesGame, board: Board) -> int:
    """The board's current total score (equals ``game.breakdown(seat)["total"]``)."""
    geo = GEOMETRY[game.side]
    score = landscape_score(geo, board.masks)
    for c, p in board.done:
        score += CARDS[c].points[p - 1]
    for c, p in board.cards:
        if p:
            score += CARDS[c].points[p - 1]
    if board.spirit >= 0 and board.spirit_placed:
        score += spirit_points(geo.layout, board.cells, board.spirit)
    return score


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
) -> int:
    """Fewest tokens still needed to complete ``card``'s habitat somewhere (INF: nowhere).

    Costs of every anchor position are summed at once in four bit planes.
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
        p2 = p3 = 0
        for delta, k in rot:
            a, x0, x1 = need[k]
            if delta >= 0:
                feasible &= a >> delta
                x0 >>= delta
                x1 >>= delta
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
        for bit, plane in ((8, p3), (4, p2), (2, p1), (1, p0)):
            low = feasible & ~plane
            if low:
                feasible = low
            else:
                v |= bit
        if v < best:
            best = v
            if best == 0:
                return 0
    return best


# Promise of unfinished stacks: a trunk may become a tall tree, gray may grow, red may become a
# building. Values are points expected later, before the time discount.
POTENTIAL = [0.0] * NSTATES
POTENTIAL[B1] = 1.6
POTENTIAL[B2] = 3.2
POTENTIAL[M1] = 0.6
POTENTIAL[M2] = 1.2
POTENTIAL[R1] = 1.0
POTENTIAL[EMPTY] = 0.0


class Weights:
    """Tunable constants of the evaluation."""

    decay = 0.72  # value kept per missing token of a habitat
    per_turn = 1.6  # useful tokens a player places toward one habitat per turn, roughly
    potential = 1.0
    later_cubes = 0.0  # share of the cubes after the next one counted as progress


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
) -> float:
    """Expected extra points of ``card`` (``placed`` cubes on it) from its habitat's progress."""
    info = CARDS[card]
    if placed >= info.cubes:
        return 0.0
    d = habitat_distance(card, rotations, need, cubes)
    if d >= INF:
        return 0.0
    if d > 0 and d > left * Weights.per_turn + 0.5:
        return 0.0
    prev = info.points[placed - 1] if placed else 0
    gain = info.points[placed] - prev
    rest = info.points[-1] - info.points[placed]
    value = (Weights.decay**d) * (gain + Weights.later_cubes * rest * min(1.0, left / 6))
    return value


def evaluate(game: HarmoniesGame, board: Board, left: float) -> float:
    """Score + discounted progress of held cards + promise of unfinished stacks."""
    score = float(board_score(game, board))
    if board.cards:
        need = need_masks(board)
        rotations = game.space.rotations
        for c, p in board.cards:
            score += card_progress(c, p, need, board.cubes, left, rotations[c])
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
    "GEOMETRY",
    "Geometry",
    "Weights",
    "board_score",
    "card_progress",
    "evaluate",
    "habitat_distance",
    "landscape_score",
    "need_masks",
    "turns_left",
]
