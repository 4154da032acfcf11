"""The batched runner VectorGames and episode rollouts (local and on a one-CPU Ray instance)."""

from __future__ import annotations

import numpy as np
import pytest

import glade
from glade import IllegalAction
from glade.core import BadInput
from glade.rl import VectorGames, rollouts
from glade.rl.harmonies_encoding import HarmoniesEncoder


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_batched_rows_equal_single_game_observations_and_games_restart() -> None:
    runner = VectorGames("harmonies", num_games=4, seed=100, players=2, reward="score")
    obs, masks, seats = runner.reset()
    assert obs.shape == (4, runner.obs_size) and masks.shape == (4, runner.n_actions)
    assert runner.seeds.tolist() == [100, 101, 102, 103]
    rng = np.random.default_rng(0)
    done_total = 0
    for _ in range(400):
        for i, game in enumerate(runner.games):
            enc = HarmoniesEncoder(2, live_scores=False)
            enc.reset(game)
            if len(game.log) == game.turn_start:  # fresh encodings match at turn boundaries
                assert np.array_equal(obs[i], enc.observe(int(seats[i])))
            assert np.flatnonzero(masks[i]).tolist() == sorted(game.legal_action_ids(int(seats[i])))
            assert seats[i] == game.to_act[0]
        obs, masks, seats, rewards, dones = runner.step(random_actions(masks, rng))
        for i in np.flatnonzero(dones):
            finished = runner.finished[done_total]
            assert rewards[i].tolist() == finished["scores"]
            assert len(runner.games[i].log) == 0  # replaced by a new game
            done_total += 1
        assert (rewards[~dones] == 0).all()
    assert done_total >= 4
    assert sorted(f["seed"] for f in runner.finished)[:4] == [100, 101, 102, 103]
    replay = glade.new_game("harmonies", seed=runner.finished[0]["seed"], players=2)
    assert replay.seed == runner.finished[0]["seed"]


def test_an_illegal_batched_action_changes_no_game() -> None:
    runner = VectorGames("harmonies", num_games=3, seed=0, players=2)
    _, masks, _ = runner.reset()
    before = [g.fingerprint() for g in runner.games]
    actions = masks.argmax(axis=1)
    actions[2] = int(np.flatnonzero(masks[2] == 0)[-1])
    with pytest.raises(IllegalAction, match="game 2"):
        runner.step(actions)
    with pytest.raises(IllegalAction, match="one whole-number action per game"):
        runner.step(actions[:2])
    assert [g.fingerprint() for g in runner.games] == before
    with pytest.raises(BadInput, match="num_games"):
        VectorGames("harmonies", num_games=0)
    with pytest.raises(BadInput, match="unknown game"):
        VectorGames("chess", num_games=2)


def test_rollouts_are_reproducible_and_consistent() -> None:
    eps = rollouts("harmonies", episodes=3, seed=10, players=2)
    again = rollouts("harmonies", episodes=3, seed=10, players=2)
    assert [e.seed for e in eps] == [10, 11, 12]
    for a, b in zip(eps, again, strict=True):
        assert np.array_equal(a.actions, b.actions) and np.array_equal(
            a.observations, b.observations
        )
    ep = eps[0]
    assert len(ep) == len(ep.observations) == len(ep.masks) == len(ep.seats) > 50
    assert all(ep.masks[t, ep.actions[t]] == 1 for t in range(len(ep)))
    game = glade.new_game("harmonies", seed=ep.seed, players=2)
    for seat, code in zip(ep.seats.tolist(), ep.actions.tolist(), strict=True):
        game.apply_action_id(seat, code)  # validated: every recorded move is legal
    assert game.is_over and game.result()["scores"] == ep.scores
    assert ep.rewards.tolist() == [ep.scores[0] - ep.scores[1], ep.scores[1] - ep.scores[0]]


def test_a_policy_choosing_an_illegal_move_is_stopped() -> None:
    def stubborn(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(BadInput, match="not legal"):
        rollouts("harmonies", episodes=1, policy=stubborn, players=2)


def test_ray_rollouts_on_a_local_instance_equal_local_ones() -> None:
    import ray

    started = not ray.is_initialized()  # another test may have left an instance running
    if started:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        remote = rollouts("harmonies", episodes=4, seed=30, ray=True, workers=2, players=1)
    finally:
        if started:
            ray.shutdown()
    local = rollouts("harmonies", episodes=4, seed=30, players=1)
    assert [e.seed for e in remote] == [30, 31, 32, 33]
    for a, b in zip(remote, local, strict=True):
        assert np.array_equal(a.actions, b.actions) and a.scores == b.scores
