"""The Living Forest flat Monte-Carlo search: legal ranked steps, determinism, no peeking,
the greedy anchor, the unsearched safe draws, the levels and the time budget."""

from __future__ import annotations

import math
import random

from lf_hidden import reorder_hidden

import glade
from glade.bots import Budget
from glade.bots import make_bot as make
from glade.bots.living_forest_search import (
    LEVELS,
    SAFE_NET,
    LivingForestAdapter,
    SamplePolicy,
    play_out,
)
from glade.bots.mcts import MCTSBot
from glade.living_forest.game import ACTIONS, DRAW, LivingForestGame


def _play_until(seed: int, wanted: str, skip: int = 0) -> LivingForestGame:
    """A greedy-vs-greedy game stopped at the ``skip``-th (0-based) position of kind ``wanted``:
    ``risky`` (a draw decision with more than SAFE_NET solitary symbols showing), ``safe`` (a
    draw decision with at most SAFE_NET) or ``action`` (an action-phase step with a choice)."""
    game = glade.new_game("living-forest", seed=seed, players=2)
    assert isinstance(game, LivingForestGame)
    bots = [make("greedy", "living-forest", seed=s) for s in range(2)]
    seen = 0
    while not game.is_over:
        seat = game.to_act[0]
        ids = game.legal_action_ids(seat)
        if len(ids) > 1:
            if game.phase == DRAW:
                kind = "risky" if game.spirit_snapshot(seat).solitary > SAFE_NET else "safe"
            else:
                kind = "action"
            if kind == wanted:
                if seen == skip:
                    return game
                seen += 1
        for action in bots[seat].choose(game, seat):
            game.apply(seat, action)
    raise AssertionError(f"no {wanted} position in game {seed}")


def test_the_ranked_steps_are_legal_and_searched_with_common_samples() -> None:
    for wanted, skip in (("risky", 0), ("action", 3), ("action", 20)):
        game = _play_until(5, wanted, skip)
        seat = game.to_act[0]
        ranked = MCTSBot(seed=1).search(game, seat, Budget(iterations=4))
        legal = set(game.legal_action_ids(seat))
        assert len(ranked) >= 2
        assert len({r[0] for r in ranked}) == len(ranked)
        for move, value, score, samples in ranked:
            assert len(move) == 1 and move[0] in legal
            assert 0.0 <= value <= 1.0 and score >= 0.0
            assert samples == 4  # every candidate was played from every sample


def test_the_search_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    game = _play_until(6, "action", 5)
    seat = game.to_act[0]
    a = MCTSBot(seed=3).search(game, seat, Budget(iterations=5))
    b = MCTSBot(seed=3).search(game.copy(), seat, Budget(iterations=5))
    assert a == b
    c = MCTSBot(seed=4).search(game, seat, Budget(iterations=5))
    assert [r[1] for r in c] != [r[1] for r in a]  # another seed, other samples


def test_the_search_never_reads_the_hidden_order() -> None:
    for wanted, skip in (("risky", 1), ("risky", 6), ("action", 2), ("action", 15)):
        game = _play_until(9, wanted, skip)
        twin = reorder_hidden(game, skip, seed_shift=17)
        assert twin.snapshot() != game.snapshot()
        seat = game.to_act[0]
        a = MCTSBot(seed=2).search(game, seat, Budget(iterations=4))
        b = MCTSBot(seed=2).search(twin, seat, Budget(iterations=4))
        assert a == b  # same steps, same values: the true order played no part


def test_the_greedy_step_is_kept_unless_another_is_clearly_better() -> None:
    better = LivingForestAdapter._clearly_better
    assert not better([0.6, 0.4, 0.7, 0.3], [0.5, 0.5, 0.5, 0.5])  # noise, not a gain
    assert not better([0.51] * 8, [0.5] * 8)  # consistent but tiny
    assert better([0.62, 0.6, 0.65, 0.61, 0.6, 0.63], [0.5, 0.49, 0.52, 0.5, 0.5, 0.51])
    game = _play_until(5, "action", 4)
    seat = game.to_act[0]
    adapter = LivingForestAdapter()
    greedy_step = adapter.candidates(game, seat)[0]
    ranked = MCTSBot(seed=1).search(game, seat, Budget(iterations=1))
    assert ranked[0][0] == (greedy_step,)  # one sample proves nothing: the anchor stays


def test_safe_draws_are_the_greedy_step_unsearched() -> None:
    game = _play_until(7, "safe", 2)
    seat = game.to_act[0]
    bot = MCTSBot(seed=1)
    ranked = bot.search(game, seat, Budget(iterations=10))
    assert bot.last_stats["iterations"] == 0
    assert all(math.isnan(r[1]) for r in ranked)
    greedy = LivingForestAdapter()._greedy_step(game, seat)
    assert ranked[0][0] == (greedy,)
    assert {r[0][0] for r in ranked} == set(game.legal_action_ids(seat))


def test_levels_set_the_samples_and_seconds_bound_the_time() -> None:
    game = _play_until(8, "risky", 0)
    seat = game.to_act[0]
    for level, samples in LEVELS.items():
        bot = MCTSBot(seed=1, level=level)
        bot.search(game, seat)
        assert bot.last_stats["iterations"] == samples
    bot = MCTSBot(seed=1, level="hard")
    bot.search(game, seat, Budget(seconds=0.05))
    assert 1 <= bot.last_stats["iterations"] < LEVELS["hard"]
    assert bot.last_stats["seconds"] < 1.0
    bot = MCTSBot(seed=1, level="easy")
    bot.search(game, seat, Budget(seconds=30.0))  # time alone is a bound: the level caps
    assert bot.last_stats["iterations"] == LEVELS["easy"]


def test_play_outs_stop_at_the_horizon_or_the_end() -> None:
    game = _play_until(5, "action", 0)
    policy = SamplePolicy(seed=1)
    sim = game.copy()
    play_out(sim, policy, game.round + 1)
    assert sim.is_over or (sim.round == game.round + 1 and sim.phase == DRAW)
    sim = game.copy()
    play_out(sim, policy, 10_000)
    assert sim.is_over and sim.snapshot().winners
    assert game.phase == ACTIONS  # the searched state itself is never touched


def test_the_tree_interface_puts_the_greedy_step_first_and_scores_play_outs() -> None:
    game = _play_until(5, "action", 2)
    seat = game.to_act[0]
    adapter = LivingForestAdapter(rounds_ahead=0)
    moves = adapter.moves(game, seat, True)
    assert moves[0] == (adapter._greedy_step(game, seat),)
    assert sorted(m[0] for m in moves) == sorted(game.legal_action_ids(seat))
    sim = game.copy()
    values, scores = adapter.rollout(sim, seat, random.Random(3))
    assert sim.is_over or sim.round == game.round + 1
    assert all(0.0 <= v <= 1.0 for v in values) and len(scores) == 2
    if not sim.is_over:
        assert abs(sum(values) - 1.0) < 1e-9  # two spirits: the gap's sigmoid is symmetric
