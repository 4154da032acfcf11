"""The evaluation shared by hints and the game review.

For one seat's position and a few candidate moves, every candidate is played on the same
samples (common random numbers): each sample re-deals the hidden parts from what that seat may
know (``Game.resample_hidden``: never the true pouch order, draw pile or decks) and fixes one play-out
seed; the game's search adapter then plays on with its fast policy and scores the leaf. Per
candidate the evaluation is the mean over the samples of

- every seat's projected final score (Harmonies: points; Living Forest: trees + fires + flowers,
  with the three counts kept apart in ``detail``);
- every seat's win value: Harmonies, the share of samples in which the seat's projected score is
  the highest (ties shared); Living Forest, the share of samples the seat won (ties shared);
  both counting ``WIN_PRIOR`` more samples shared evenly: with n samples a seat that won w of
  them is given (w + k/players) / (n + k), so a few samples never claim a certain win or loss
  (Living Forest, k = 2, 12 samples: 13/14 at most for 2 players) and a hint under a short time
  budget (2 or 3 samples) does not say 100%. Harmonies' k = 3 was fitted on the calibration
  games (docs/strength.md): its 6 samples' raw share said 0.96 where 0.81 of the seats won.

Living Forest play-outs run to the end of the game (``evaluation_adapter``: the search adapter
with ``TO_THE_END``), so its counts and win chance are final ones; the ``mcts`` bot's own search
keeps its shorter play-outs (to the end of the next round). Harmonies play-outs are the search
adapter's (a few turns, then the board's projection of its final score).

The number a candidate is ranked by (``key``) is the one shown for it: Harmonies, the seat's
expected final score; Living Forest, its win chance (the game is won by a race, not by points).
Because all candidates share the same samples, the differences between them are measured on the
same luck, so "points lost" by a move is much less noisy than either evaluation alone.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from glade.core import Game

from .adapter import Adapter, Move
from .mcts import adapter_for, win_share

# samples per evaluation (each plays every candidate once) and candidates per position
SAMPLES = {"harmonies": 6, "living-forest": 12}
CANDIDATES = {"harmonies": 6, "living-forest": 6}
TIMED_MIN = 2  # samples played at least under a time budget
# the win chance counts this many extra samples, each shared evenly by the seats (see the module
# docstring; Harmonies' value minimises the Brier score of the second half of 100 calibration
# games, and was checked on the other 100: 0.178 raw, 0.163 with it)
WIN_PRIOR = {"living-forest": 2.0, "harmonies": 3.0}


@dataclass
class MoveEval:
    """The evaluation of one candidate move for the seat that makes it."""

    move: Move
    scores: list[float]  # every seat's expected final score
    wins: list[float]  # every seat's win chance
    detail: list[list[float]] = field(default_factory=list)  # Living Forest: per seat counts
    samples: int = 0

    def key(self, game: str, seat: int) -> float:
        """The number this move is ranked by, and shown: see the module docstring."""
        return self.wins[seat] if game == "living-forest" else self.scores[seat]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scores": [round(x, 2) for x in self.scores],
            "wins": [round(x, 3) for x in self.wins],
            "samples": self.samples,
        }
        if self.detail:
            out["detail"] = [[round(x, 2) for x in d] for d in self.detail]
        return out


def evaluation_adapter(state: Game) -> Adapter:
    """The adapter whose play-outs the evaluation uses (see the module docstring)."""
    if state.game_name == "living-forest":
        from .living_forest_search import TO_THE_END, LivingForestAdapter

        return LivingForestAdapter(rounds_ahead=TO_THE_END)
    return adapter_for(state)


def candidates(state: Game, seat: int, limit: int | None = None) -> list[Move]:
    """The seat's candidate moves, most promising first, as the search adapter proposes them."""
    adapter = adapter_for(state)
    search = getattr(adapter, "candidates", None)
    if search is not None:  # Living Forest: the greedy step and its runners-up
        moves: list[Move] = [(c,) for c in search(state, seat)]
    else:
        moves = list(adapter.moves(state, seat, True))
    n = limit if limit is not None else CANDIDATES.get(state.game_name, 6)
    return moves[: max(1, n)]


def phase_candidates(state: Game, seat: int, limit: int | None = None) -> list[Move]:
    """Living Forest, in a spirit's action phase: whole phases as candidates. Each of the
    evaluation's candidate first steps (``candidates``) is carried on to the end of the phase by
    the search adapter's greedy step, which re-deals what the seat cannot see before each step.
    """
    from glade.living_forest.game import ACTIONS, LivingForestGame

    from .living_forest_search import LivingForestAdapter

    assert isinstance(state, LivingForestGame)
    adapter = adapter_for(state)
    assert isinstance(adapter, LivingForestAdapter)
    out: list[Move] = []
    for (first,) in candidates(state, seat, limit):
        game = state.copy()
        codes = [first]
        game.apply_action_id(seat, first, checked=True)
        while not game.is_over and game.phase == ACTIONS and game.current_spirit == seat:
            ids = game.legal_action_ids(seat)
            code = ids[0] if len(ids) == 1 else adapter.greedy_step(game, seat)
            codes.append(code)
            game.apply_action_id(seat, code, checked=True)
        move = tuple(codes)
        if move not in out:
            out.append(move)
    return out


def evaluate_moves(
    state: Game,
    seat: int,
    moves: list[Move],
    samples: int | None = None,
    seed: int = 0,
    seconds: float | None = None,
) -> list[MoveEval]:
    """Each of ``moves`` (made now by ``seat``) evaluated on the same re-dealt samples.

    ``samples`` (default ``SAMPLES``) is the number of samples; with ``seconds``, it is a cap:
    no sample is started once ``seconds`` of wall-clock time have passed, after at least
    ``TIMED_MIN`` of them (so the result then depends on the machine's speed). Reads only what
    ``seat`` may know: every sample is dealt by ``Game.resample_hidden`` from ``seed``.
    """
    start = time.perf_counter()
    adapter = evaluation_adapter(state)
    n = samples if samples is not None else SAMPLES.get(state.game_name, 8)
    rng = random.Random(seed)
    players = state.num_players
    lf = state.game_name == "living-forest"
    sums = [[0.0] * players for _ in moves]
    wins = [[0.0] * players for _ in moves]
    detail = [[[0.0, 0.0, 0.0] for _ in range(players)] for _ in moves]
    m = 0
    for _ in range(max(1, n)):
        if seconds is not None and m >= TIMED_MIN and time.perf_counter() - start >= seconds:
            break
        m += 1
        sample = state.resample_hidden(seat, rng)
        play_seed = rng.getrandbits(64)
        for i, move in enumerate(moves):
            game = sample.copy()
            for code in move:
                game.apply_action_id(seat, code, checked=True)
            if game.is_over:
                values, scores = adapter.final_values(game)
            else:
                values, scores = adapter.rollout(game, seat, random.Random(play_seed))
            for s in range(players):
                sums[i][s] += scores[s]
                wins[i][s] += values[s] if lf else win_share(scores, s)
                if lf:
                    counts = game.counts(s)  # type: ignore[attr-defined]
                    for k in range(3):
                        detail[i][s][k] += counts[k]
    prior = WIN_PRIOR.get(state.game_name, 0.0)
    out = []
    for i, move in enumerate(moves):
        out.append(
            MoveEval(
                move=move,
                scores=[x / m for x in sums[i]],
                wins=[(x + prior / players) / (m + prior) for x in wins[i]],
                detail=[[x / m for x in d] for d in detail[i]] if lf else [],
                samples=m,
            )
        )
    return out


def rank(state: Game, seat: int, evals: list[MoveEval]) -> list[MoveEval]:
    """``evals`` best first by the number each is shown with (ties: the adapter's order)."""
    order = {id(e): i for i, e in enumerate(evals)}
    return sorted(evals, key=lambda e: (-e.key(state.game_name, seat), order[id(e)]))


def win_meaningful(state: Game) -> bool:
    """Whether a win chance is worth showing yet.

    Early on every seat's projection is a pace guess, so a win chance computed from it is far
    more certain than the game is; it is shown only from the second half of the game: Harmonies,
    once the pouch holds at most half of its tokens (or a board is more than half full);
    Living Forest, from round 3 (games end between rounds 5 and 9 in bot play).
    """
    if state.num_players < 2:
        return False
    if state.game_name == "harmonies":
        pouch = len(state.pouch)  # type: ignore[attr-defined]
        boards = state.boards  # type: ignore[attr-defined]
        half_full = any(b.empty_cells() * 2 < len(b.cells) for b in boards)
        return pouch <= 60 or half_full
    if state.game_name == "living-forest":
        return int(state.round) >= 3  # type: ignore[attr-defined]
    return True


__all__ = [
    "CANDIDATES",
    "MoveEval",
    "SAMPLES",
    "TIMED_MIN",
    "WIN_PRIOR",
    "candidates",
    "evaluate_moves",
    "evaluation_adapter",
    "phase_candidates",
    "rank",
    "win_meaningful",
]
