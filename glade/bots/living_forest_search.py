"""The Living Forest side of the search: flat Monte-Carlo improvement of the greedy bot.

Living Forest's decisions are small engine steps (draw or stop, which action, which card), and
the greedy bot already plays them well; what it lacks is a look at what follows. So the search
is flat: for every candidate step of the seat, many determinized futures are played out by the
greedy policy for every spirit, and the step with the best mean outcome wins. The candidates are
compared with common random numbers: each sample re-deals the hidden parts once (from the bot's
own generator, never the true order) and fixes one play-out seed, and every candidate is played
from that same sample with that same seed, so the differences between candidates are measured
on the same luck. The greedy bot's own step (the anchor) is kept unless another step beats it
by a clear, statistically significant margin on those paired samples.

A play-out of the search runs to the end of the round after the current one (or to the game's
end); a finished game is worth 1 to a sole winner, 0 to a loser, shared on a tie; an unfinished
one is scored by the greedy evaluation, as a win chance from the gap to the best other spirit.
The shared evaluation of hints and reviews uses the same adapter with ``TO_THE_END``: its
play-outs always finish the game, so its counts and win chance are final ones.
"""

from __future__ import annotations

import math
import random
import statistics
import time

from glade.core import Game
from glade.living_forest.game import DRAW, LivingForestGame

from .adapter import Adapter, Move, Outcome, Ranked
from .living_forest_greedy import LivingForestGreedy, evaluate, finish_action

ROUNDS_AHEAD = 1  # play-outs stop when this many rounds after the current one are done
TO_THE_END = 10_000  # a ``rounds_ahead`` no game reaches: the play-out runs to the game's end
SCALE = 6.0  # evaluation points that make a clear lead
MAX_STEPS = 4000
ANCHOR_MARGIN = 0.02  # mean value by which a step must beat the greedy step to replace it
ANCHOR_Z = 2.0  # ... and by this many standard errors of the paired difference
MAX_CANDIDATES = 6  # steps searched at most: the greedy step and its runners-up
SAFE_NET = 1  # a draw with at most this many solitary symbols showing is not searched


def safe_draw(state: LivingForestGame, seat: int) -> bool:
    """A draw decision with nothing at stake: at most ``SAFE_NET`` solitary symbols show, so the
    next card cannot end the drawing. The search plays the greedy step there; review skips it."""
    return state.phase == DRAW and state.spirit_snapshot(seat).solitary <= SAFE_NET


# samples per decision: the budget when none is given, and the cap under a time budget
LEVELS = {"easy": 2, "normal": 12, "hard": 40}


def leaf_values(game: LivingForestGame) -> Outcome:
    """Each spirit's value of an unfinished game, and its current total as its score."""
    snap = game.snapshot()
    evals = [evaluate(snap, s, snap.round) for s in range(snap.players)]
    out = []
    for s, e in enumerate(evals):
        best_other = max(evals[o] for o in range(snap.players) if o != s)
        out.append(1 / (1 + math.exp(-(e - best_other) / SCALE)))
    scores = [float(sum(spirit.progress)) for spirit in snap.spirits]
    return out, scores


def final_values(game: LivingForestGame) -> Outcome:
    """A finished game: 1 to a sole winner, shared on a tie, 0 otherwise; the final totals."""
    snap = game.snapshot()
    winners = snap.winners
    scores = [float(sum(spirit.progress)) for spirit in snap.spirits]
    values = [(1.0 / len(winners)) if s in winners else 0.0 for s in range(snap.players)]
    return values, scores


class SamplePolicy(LivingForestGreedy):
    """The greedy bot as a play-out policy on a determinized sample.

    The sample's hidden order was dealt by the searching bot itself, so the policy may use the
    sample as it is (no second re-deal per step); it works on action ids, not actions.
    """

    def _blind(self, g: LivingForestGame, seat: int) -> LivingForestGame:
        return g

    def step(self, g: LivingForestGame, seat: int) -> int:
        ids = g.legal_action_ids(seat)
        if len(ids) == 1:
            return ids[0]
        if g.phase == DRAW:
            return self._draw_choice(g, seat, ids)
        return self._action_choice(g, seat, ids)


def play_out(g: LivingForestGame, policy: SamplePolicy, stop_round: int) -> None:
    """Play every spirit with ``policy`` until the game ends or ``stop_round`` begins."""
    for _ in range(MAX_STEPS):
        if g.is_over or g.round >= stop_round:
            return
        mover = g.to_act[0]
        g.apply_action_id(mover, policy.step(g, mover), checked=True)


class LivingForestAdapter(Adapter):
    """Flat Monte-Carlo over the greedy bot's candidate steps (see the module docstring).

    ``moves`` and ``rollout`` keep the tree-search interface working (the greedy step first);
    ``search_root`` is what ``MCTSBot`` uses for Living Forest.
    """

    tree_depth = 12
    root_halving = False
    anchor_margin = ANCHOR_MARGIN
    levels = LEVELS

    def __init__(self, rounds_ahead: int | None = None) -> None:
        self.policy = LivingForestGreedy(seed=0)
        self.rounds_ahead = ROUNDS_AHEAD if rounds_ahead is None else rounds_ahead

    def _greedy_step(self, state: LivingForestGame, seat: int) -> int:
        rng = random.Random(0)
        self.policy.rng = rng
        sample = state.resample_hidden(seat, rng)  # the policy never sees the true order
        return state.action_id(self.policy.choose(sample, seat)[0])

    def greedy_step(self, state: LivingForestGame, seat: int) -> int:
        """The greedy bot's step for ``seat`` now, chosen on a re-dealt sample (never the true
        hidden order)."""
        return self._greedy_step(state, seat)

    def moves(self, state: Game, seat: int, root: bool) -> list[Move]:
        """Every legal step; at the root the greedy bot's choice comes first (the anchor)."""
        out: list[Move] = [(c,) for c in state.legal_action_ids(seat)]
        if root and len(out) > 1:
            assert isinstance(state, LivingForestGame)
            first = (self._greedy_step(state, seat),)
            out.remove(first)
            out.insert(0, first)
        return out

    def rollout(self, state: Game, seat: int, rng: random.Random) -> Outcome:
        assert isinstance(state, LivingForestGame)
        policy = SamplePolicy()
        policy.rng = rng
        play_out(state, policy, state.round + self.rounds_ahead + 1)
        if state.is_over:
            return final_values(state)
        return leaf_values(state)

    # ------------------------------------------------------------------ flat search
    def candidates(self, state: LivingForestGame, seat: int) -> list[int]:
        """The greedy step first, then the greedy bot's next best steps (at most
        ``MAX_CANDIDATES`` in all), judged on one re-dealt sample by the greedy one-step look."""
        ids = state.legal_action_ids(seat)
        anchor = self._greedy_step(state, seat)
        if len(ids) <= MAX_CANDIDATES or state.phase == DRAW:
            return [anchor] + [c for c in ids if c != anchor]
        rng = random.Random(1)
        sample = state.resample_hidden(seat, rng)
        scored = []
        for code in ids:
            if code == anchor:
                continue
            sim = sample.copy()
            sim.apply_action_id(seat, code, checked=True)
            finish_action(sim, seat, state.round)
            scored.append((-evaluate(sim.snapshot(), seat, state.round), code))
        scored.sort()
        return [anchor] + [code for _, code in scored[: MAX_CANDIDATES - 1]]

    def search_root(
        self,
        state: Game,
        seat: int,
        iterations: int | None,
        seconds: float | None,
        rng: random.Random,
    ) -> tuple[list[Ranked], int]:
        """Candidate steps ranked best first, and the number of samples played.

        ``iterations`` counts samples (each plays every candidate once); ``seconds`` bounds the
        wall-clock time (at least one sample is always played).
        """
        assert isinstance(state, LivingForestGame)
        start = time.perf_counter()
        cands = self.candidates(state, seat)
        if len(cands) == 1 or safe_draw(state, seat):
            # one step, or a draw that cannot end the drawing: the greedy step, unsearched
            return [((c,), math.nan, math.nan, 0) for c in cands], 0
        stop_round = state.round + self.rounds_ahead + 1
        values: list[list[float]] = [[] for _ in cands]
        scores = [0.0] * len(cands)
        policy = SamplePolicy()
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if seconds is not None and done > 0 and time.perf_counter() - start >= seconds:
                break
            sample = state.resample_hidden(seat, rng)
            play_seed = rng.getrandbits(64)
            for i, code in enumerate(cands):
                g = sample.copy()
                g.apply_action_id(seat, code, checked=True)
                policy.rng = random.Random(play_seed)
                play_out(g, policy, stop_round)
                vals, sc = final_values(g) if g.is_over else leaf_values(g)
                values[i].append(vals[seat])
                scores[i] += sc[seat]
            done += 1
        means = [sum(v) / len(v) for v in values]
        order = sorted(range(len(cands)), key=lambda i: -means[i])
        best = order[0]
        if best != 0 and not self._clearly_better(values[best], values[0]):
            order.remove(0)
            order.insert(0, 0)
        ranked: list[Ranked] = [((cands[i],), means[i], scores[i] / done, done) for i in order]
        return ranked, done

    @staticmethod
    def _clearly_better(challenger: list[float], anchor: list[float]) -> bool:
        """Whether the paired differences show ``challenger`` clearly above ``anchor``."""
        diffs = [a - b for a, b in zip(challenger, anchor, strict=True)]
        mean = sum(diffs) / len(diffs)
        if mean < ANCHOR_MARGIN:
            return False
        if len(diffs) < 2:
            return False
        se = statistics.stdev(diffs) / math.sqrt(len(diffs))
        return mean > ANCHOR_Z * se


__all__ = [
    "LivingForestAdapter",
    "SamplePolicy",
    "TO_THE_END",
    "final_values",
    "leaf_values",
    "play_out",
]
