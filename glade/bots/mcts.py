"""Information-set Monte-Carlo tree search over determinizations, for both games.

Each iteration re-samples the hidden parts of the state from the bot's own RNG (see
``Game.resample_hidden``), walks the tree with UCB restricted to the moves available in that sample
(single-observer ISMCTS: a child's "available" count grows each time it could have been chosen),
adds one node, plays the rest out with a fast policy for a bounded number of turns and scores the
leaf for every seat. Moves are whole decisions where the game adapter provides them (a Harmonies
turn is one move: central space, three placements, cubes and card), replayed underneath as the
engine's own actions.

What the search needs of a game is declared by ``adapter.Adapter``; ``adapter_for`` picks the
game's own. The tree is kept between calls: when the game has moved on by moves the tree already
holds, the matching subtree becomes the new root.
"""

from __future__ import annotations

import math
import random
import time
from typing import ClassVar, Final

from glade.core import Action, BadInput, Game

from . import LEVELS, Budget
from .adapter import ITERATIONS, Adapter, Move, Outcome, Ranked, outcome_values

UCB_C: Final = 0.7


class GenericAdapter(Adapter):
    """Every legal action is a move; random play-outs to the end, scored by the result."""

    tree_depth: ClassVar[int] = 64
    max_rollout: ClassVar[int] = 2000

    def moves(self, state: Game, seat: int, root: bool) -> list[Move]:
        return [(c,) for c in state.legal_action_ids(seat)]

    def rollout(self, state: Game, seat: int, rng: random.Random) -> Outcome:
        for _ in range(self.max_rollout):
            if state.is_over:
                break
            mover = state.to_act[0]
            state.apply_action_id(mover, rng.choice(state.legal_action_ids(mover)), checked=True)
        if not state.is_over:  # no end in sight: call it even
            n = state.num_players
            return [1.0 / n] * n, [0.0] * n
        return outcome_values(state)


def win_share(scores: list[float], seat: int) -> float:
    """1 if ``seat`` has the most points, shared on a tie, 0 otherwise."""
    top = max(scores)
    if scores[seat] < top:
        return 0.0
    return 1.0 / sum(1 for x in scores if x == top)


def adapter_for(game: Game) -> Adapter:
    """The game's own adapter (imported on first use: one game never loads the other's bots)."""
    if game.game_name == "harmonies":
        from .harmonies_search import HarmoniesAdapter

        return HarmoniesAdapter()
    if game.game_name == "living-forest":
        from .living_forest_search import LivingForestAdapter

        return LivingForestAdapter()
    return GenericAdapter()


class Node:
    __slots__ = ("children", "visits", "avail", "total", "score", "wins", "seat")

    def __init__(self, seat: int) -> None:
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # sum of values for ``seat``, the seat that made the move into this node
        self.score = 0.0  # sum of ``seat``'s projected final scores
        self.wins = 0.0  # simulations in which ``seat`` ended (or was projected to end) ahead
        self.seat = seat


class MCTSBot:
    """ISMCTS; ``level`` (easy, normal, hard) sets the default iterations per move."""

    name = "mcts"

    def __init__(
        self, seed: int | None = None, level: str = "normal", adapter: Adapter | None = None
    ) -> None:
        if level not in LEVELS["mcts"]:
            known = ", ".join(LEVELS["mcts"])
            raise BadInput(f"unknown mcts level {level!r}; levels are {known}")
        self.level = level
        self.adapter = adapter
        self.rng = random.Random(seed)
        self.root: Node | None = None
        self.root_log = 0  # length of the game log the root stands for
        self.root_key: tuple[int, str] | None = None
        self.last_stats: dict[str, float] = {}
        # per root move of the last search: the share of its simulations in which the seat
        # ended, or was projected to end, ahead (empty when the adapter searched the root itself)
        self.last_wins: dict[Move, float] = {}

    # ------------------------------------------------------------------ the interface
    def choose(self, state: Game, seat: int, budget: Budget | None = None) -> list[Action]:
        table = state.action_table()
        ranked = self.search(state, seat, budget)
        return [table[c] for c in ranked[0][0]]

    def search(self, state: Game, seat: int, budget: Budget | None = None) -> list[Ranked]:
        """Root moves ranked by visits: (move, mean value, mean projected score, visits)."""
        if state.is_over or seat not in state.to_act:
            raise BadInput(f"seat {seat} has no move to make")
        adapter = self.adapter or adapter_for(state)
        levels = adapter.levels
        budget = budget or Budget(iterations=levels[self.level])
        seconds = budget.seconds
        iterations = budget.iterations
        if seconds is None and iterations is None:
            iterations = levels[self.level]
        start = time.perf_counter()
        self.last_wins = {}
        # a time budget alone is an upper bound: the level still caps the samples
        cap = iterations if iterations is not None else levels[self.level]
        flat = adapter.search_root(state, seat, cap, seconds, self.rng)
        if flat is not None:  # the adapter searched the root itself (no tree to keep)
            ranked, done = flat
            self.root = None
            self.last_stats = {"iterations": done, "seconds": time.perf_counter() - start}
            return list(ranked)
        root = self._reuse(state)
        root_moves = adapter.moves(state, seat, True)
        if not root_moves:
            raise BadInput(f"seat {seat} has no move to make")
        if len(root_moves) == 1:
            self.root = None
            return [(root_moves[0], float("nan"), float("nan"), 0)]
        if adapter.root_halving:
            done, order = self._halving(
                state, seat, root, root_moves, adapter, iterations, seconds, start
            )
        else:
            done, order = 0, {}
            spent = 0.0  # seconds in iterations so far: one more starts only if it should fit
            while True:
                if iterations is not None and done >= iterations:
                    break
                now = time.perf_counter()
                if seconds is not None and done and now + spent / done - start >= seconds:
                    break
                self._iterate(state, seat, root, root_moves, adapter)
                done += 1
                spent += time.perf_counter() - now
        self.last_stats = {"iterations": done, "seconds": time.perf_counter() - start}
        ranked = []
        for move in root_moves:
            child = root.children.get(move)
            if child is None or child.visits == 0:
                continue
            v = child.visits
            ranked.append((move, child.total / v, child.score / v, v))
            self.last_wins[move] = child.wins / v
        if order:  # sequential halving: the rounds a move survived, then its mean value
            ranked.sort(key=lambda item: (-order[item[0]], -item[1]))
        else:
            ranked.sort(key=lambda item: (-item[3], -item[1]))
        if not ranked:
            ranked = [(root_moves[0], float("nan"), float("nan"), 0)]
        margin = adapter.anchor_margin
        if margin is not None and len(ranked) > 1:
            # the adapter's first root move is its policy's choice: keep it unless the search
            # found a move clearly better on average
            anchor = next((r for r in ranked if r[0] == root_moves[0]), None)
            if anchor is not None and ranked[0][1] - anchor[1] < margin:
                ranked.remove(anchor)
                ranked.insert(0, anchor)
        self.root = root
        self.root_log = len(state.log)
        self.root_key = (state.seed, state.game_name)
        return ranked

    # ------------------------------------------------------------------ root by halving
    def _halving(
        self,
        state: Game,
        seat: int,
        root: Node,
        moves: list[Move],
        adapter: Adapter,
        iterations: int | None,
        seconds: float | None,
        start: float,
    ) -> tuple[int, dict[Move, int]]:
        """Sequential halving over the root moves with common random numbers.

        Each batch samples one determinization and one play-out seed and plays every surviving
        move from it, so moves are compared on the same hidden order and the same replies; after
        each round the better half survives. With an iteration budget smaller than twice the
        number of moves only the first (most promising) moves enter. Returns simulations run and
        rounds survived per move.
        """
        survivors = list(moves)
        if iterations is not None:
            survivors = survivors[: max(2, iterations // 2)]
        deadline = None if seconds is None else start + seconds
        rounds = max(1, math.ceil(math.log2(len(survivors))))
        order = {m: 0 for m in moves}
        done = 0
        spent = 0.0  # seconds in simulations so far: one more starts only if it should fit
        out_of_time = False  # no further simulation would end before the deadline
        for r in range(rounds):
            if out_of_time or len(survivors) == 1:
                break
            if iterations is not None and done >= iterations:
                break
            if r > 0 and deadline is not None and time.perf_counter() >= deadline:
                break
            if iterations is not None:
                batches = max(1, (iterations - done) // ((rounds - r) * len(survivors)))
            else:
                batches = 1 << 30
            round_end = None if seconds is None else start + seconds * (r + 1) / rounds
            for b in range(batches):
                if out_of_time:
                    break
                if b > 0 and round_end is not None and time.perf_counter() >= round_end:
                    break
                sample = state.resample_hidden(seat, self.rng)
                play_seed = self.rng.getrandbits(64)
                for move in survivors:
                    now = time.perf_counter()
                    if done and deadline is not None and now + spent / done >= deadline:
                        out_of_time = True
                        break
                    game = sample.copy()
                    self._play(game, seat, move)
                    rng = random.Random(play_seed)
                    values, scores = (
                        adapter.final_values(game)
                        if game.is_over
                        else adapter.rollout(game, seat, rng)
                    )
                    child = root.children.get(move)
                    if child is None:
                        child = root.children[move] = Node(seat)
                    child.visits += 1
                    child.avail += 1
                    child.total += values[seat]
                    child.score += scores[seat]
                    child.wins += win_share(scores, seat)
                    root.visits += 1
                    done += 1
                    spent += time.perf_counter() - now
            survivors = [m for m in survivors if m in root.children]
            survivors.sort(key=lambda m: -root.children[m].total / root.children[m].visits)
            survivors = survivors[: max(1, (len(survivors) + 1) // 2)]
            for m in survivors:
                order[m] = r + 1
        return done, order

    # ------------------------------------------------------------------ tree reuse
    def _reuse(self, state: Game) -> Node:
        """The subtree for ``state`` if the moves since the last search are in the tree."""
        mover = state.to_act[0]
        old = self.root
        if old is None or self.root_key != (state.seed, state.game_name):
            return Node(mover)
        new_entries = state.log[self.root_log :]
        if len(state.log) < self.root_log:
            return Node(mover)
        node = old
        i = 0
        while i < len(new_entries):
            matched = None
            for move, child in node.children.items():
                n = len(move)
                seats = {e[0] for e in new_entries[i : i + n]}
                codes = tuple(e[1] for e in new_entries[i : i + n])
                if codes == move and seats == {child.seat}:
                    matched = child
                    break
            if matched is None:
                return Node(mover)
            node = matched
            i += len(move)
        if node is old and new_entries:
            return Node(mover)
        return node

    # ------------------------------------------------------------------ one iteration
    def _iterate(
        self, state: Game, seat: int, root: Node, root_moves: list[Move], adapter: Adapter
    ) -> None:
        rng = self.rng
        game = state.resample_hidden(seat, rng)
        path = [root]
        node = root
        depth = 0
        while not game.is_over and depth < adapter.tree_depth:
            mover = seat if depth == 0 else game.to_act[0]
            moves = root_moves if depth == 0 else adapter.moves(game, mover, False)
            if not moves:
                break
            untried = [m for m in moves if m not in node.children]
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.avail += 1
            if untried:
                move = untried[0]
                child = Node(mover)
                child.avail = 1
                node.children[move] = child
                self._play(game, mover, move)
                path.append(child)
                break
            best, best_score = moves[0], -1.0
            for m in moves:
                child = node.children[m]
                score = child.total / child.visits + UCB_C * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best, best_score = m, score
            node = node.children[best]
            self._play(game, mover, best)
            path.append(node)
            depth += 1
        values, scores = (
            adapter.final_values(game) if game.is_over else adapter.rollout(game, seat, rng)
        )
        for n in path:
            n.visits += 1
            if n is not root:
                n.total += values[n.seat]
                n.score += scores[n.seat]
                n.wins += win_share(scores, n.seat)

    @staticmethod
    def _play(game: Game, seat: int, move: Move) -> None:
        for code in move:
            game.apply_action_id(seat, code, checked=True)


__all__ = [
    "Adapter",
    "GenericAdapter",
    "ITERATIONS",
    "MCTSBot",
    "Move",
    "Node",
    "Outcome",
    "Ranked",
    "adapter_for",
    "outcome_values",
    "win_share",
]
