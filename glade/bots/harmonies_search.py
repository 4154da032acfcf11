"""The Harmonies side of the tree search: whole turns as moves, quick greedy play-outs."""

from __future__ import annotations

import math
import random
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from glade.core import Game
from glade.harmonies.game import Board, HarmoniesGame

from .adapter import Adapter, Move, Outcome
from .harmonies_eval import evaluate, turns_left
from .harmonies_greedy import turn_candidates

ROOT_MOVES: Final = 12  # whole-turn candidates searched at the root
INNER_MOVES: Final = 5  # candidates at deeper nodes (one per central space)


# A seat's value weighs its own score fully and the best opponent's by OPPONENT_WEIGHT, against
# PAR for the rest: the bot plays mostly for its own points and still keeps an eye on the race.
# Against greedy at 50 iterations a move, on the same 70 starting positions, weight 1.0 won 79%
# of the games with 90.0 points on average and weight 0.3 won 76% with 93.7 (docs/strength.md).
OPPONENT_WEIGHT: Final = 0.3
PAR: Final = 70.0  # a fair 2-player score, the centre of the value curve
SCALE: Final = 10.0  # points that make a clear difference


def seat_values(points: list[float]) -> list[float]:
    """Each seat's value in [0, 1] from everyone's (final or evaluated) points."""
    if len(points) == 1:
        return [min(1.0, points[0] / 150)]
    out = []
    for s, own in enumerate(points):
        best_other = max(points[o] for o in range(len(points)) if o != s)
        target = OPPONENT_WEIGHT * best_other + (1 - OPPONENT_WEIGHT) * PAR
        out.append(1 / (1 + math.exp(-(own - target) / SCALE)))
    return out


def final_values(game: HarmoniesGame) -> Outcome:
    """Values and scores of a finished game."""
    scores = [float(x) for x in game.result()["scores"]]
    return seat_values(scores), scores


# Final-score estimates for hints and win shares. Early in a game the pace kept so far says
# little (scoring speeds up later), so the estimate starts from a good player's pace over the
# turns the board still holds (a turn fills about 2.3 cells: tokens stack) and moves over to the
# pace kept so far within 4 turns. On 657 turn starts of greedy games (1-3 players) it misses
# the final score by 11.6 points on average, against 24.6 for the pace alone (42.4 in the first
# three turns).
GOOD_PACE: Final = 9.0  # points a turn
CELLS_PER_TURN: Final = 2.3
SETTLE_TURNS: Final = 4.0


def projected_score(game: HarmoniesGame, board: Board, e: float, left: float, played: int) -> float:
    """An estimate of ``board``'s final score from its evaluation ``e`` now."""
    at_pace = e + left * e / played
    spaces = len(game.central) if game.solo else game.players
    by_pouch = len(game.pouch) / (3 * max(1, spaces))
    remaining = max(0.0, min(by_pouch, (board.empty_cells() - 2) / CELLS_PER_TURN))
    from_start = e + remaining * max(e / played, GOOD_PACE)
    settled = min(1.0, (played - 1) / SETTLE_TURNS)
    return (1 - settled) * from_start + settled * at_pace


def leaf_values(game: HarmoniesGame) -> Outcome:
    """Each seat's value of an unfinished game from the hand-written evaluation, and an estimate
    of its final score (``projected_score``). Solo, the value is the final score projected at the
    pace kept so far, over 150."""
    evals = []
    projected = []
    solo_value = 0.0
    for s, b in enumerate(game.boards):
        left = turns_left(game, b)
        e = evaluate(game, b, left)
        played = max(1, (game.turn + game.players - 1 - s) // game.players)
        evals.append(e)
        projected.append(projected_score(game, b, e, left, played))
        solo_value = min(1.0, (e + left * e / played) / 150)
    if len(evals) == 1:
        return [solo_value], projected
    return seat_values(evals), projected


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled; a test slows its play-outs)
class HarmoniesAdapter(Adapter):
    """Moves are whole turns; play-outs use a light greedy for a couple of rounds."""

    tree_depth: ClassVar[int] = 1
    root_halving: ClassVar[bool] = True

    def __init__(self) -> None:
        self.rng = random.Random(0)  # tie-breaks only

    def moves(self, state: Game, seat: int, root: bool) -> list[Move]:
        assert isinstance(state, HarmoniesGame)
        board = state.boards[seat]
        if board.offer:
            return [(state.space.SPIRIT + k - 32,) for k in board.offer]
        if root:
            found = turn_candidates(state, seat, self.rng, per_space=3)
            limit = ROOT_MOVES
        else:
            found = turn_candidates(state, seat, self.rng, beam=2, per_space=1)
            limit = INNER_MOVES
        out: list[Move] = []
        seen: set[Move] = set()
        for _, codes in found:
            move = tuple(codes)
            if move not in seen:
                seen.add(move)
                out.append(move)
            if len(out) >= limit:
                break
        if not out:
            out = [(c,) for c in state.legal_action_ids(seat)]
        return out

    def final_values(self, state: Game) -> Outcome:
        assert isinstance(state, HarmoniesGame)
        return final_values(state)

    def rollout(self, state: Game, seat: int, rng: random.Random) -> Outcome:
        assert isinstance(state, HarmoniesGame)
        horizon = 2 * state.players - 1
        for _ in range(horizon):
            if state.is_over:
                break
            mover = state.current
            board = state.boards[mover]
            if board.offer:
                state.apply_action_id(mover, state.space.SPIRIT + rng.choice(board.offer) - 32)
                continue
            found = turn_candidates(state, mover, rng, beam=1, per_space=1, spaces=2)
            if not found:
                break
            for code in found[0][1]:
                state.apply_action_id(mover, code, checked=True)
        if state.is_over:
            return final_values(state)
        return leaf_values(state)


__all__ = ["HarmoniesAdapter", "leaf_values"]
