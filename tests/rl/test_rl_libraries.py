"""The envs as the RL libraries use them: PettingZoo's tests for every env and player count,
render modes, parallel envs, state(), truncation, normalised views, shaped rewards, fixed-shape
infos (Tianshou's buffer), sb3 vectorised envs and masks."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state_space as state_space_test
from rl_support import CONFIGS, IDS

import glade.rl
from glade.rl import harmonies_v0, living_forest_v0


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_tests_pass_for_every_env_and_player_count(module: Any, options: dict) -> None:
    api_test(module.env(**options), num_cycles=60)
    api_test(module.env(**options, normalize=True, reward="shaped", max_cycles=50), num_cycles=60)
    seed_test(lambda **kw: module.env(**options, **kw), num_cycles=30)
    render_test(lambda render_mode: module.env(**options, render_mode=render_mode))
    parallel_api_test(module.parallel_env(**options), num_cycles=60)
    # PettingZoo's state_space checks (its test_state plays unmasked actions, which these envs
    # refuse, so state() is checked over masked play in test_normalised_views_and_state...)
    env = module.env(**options)
    env.reset(seed=0)
    state_space_test(env)
    for _ in range(30):
        assert env.state_space.contains(env.state())
        env.step(env.sample_legal())


def test_rgb_array_is_a_picture_of_the_table() -> None:
    for module, options in ((harmonies_v0, {"players": 2}), (living_forest_v0, {"players": 3})):
        env = module.env(**options, render_mode="rgb_array")
        env.reset(seed=1)
        before = env.render()
        assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
        assert before.shape[0] > 200 and before.shape[1] > 400
        assert len(np.unique(before.reshape(-1, 3), axis=0)) > 5  # drawn, not a blank
        for _ in range(12):
            env.step(env.sample_legal())
        after = env.render()
        assert after.shape == before.shape and not np.array_equal(after, before)


def test_human_mode_prints_the_ansi_board(capsys: pytest.CaptureFixture[str]) -> None:
    env = harmonies_v0.env(players=2, render_mode="human")
    env.reset(seed=4)
    assert env.render() is None
    printed = capsys.readouterr().out
    text = harmonies_v0.env(players=2, render_mode="ansi")
    text.reset(seed=4)
    assert printed.strip() == text.render().strip()
    from pettingzoo.utils.wrappers import CaptureStdoutWrapper

    captured = CaptureStdoutWrapper(living_forest_v0.env(players=2, render_mode="human"))
    captured.reset(seed=1)
    assert "Spirit 1" in captured.render()
    solo = gymnasium.make(glade.rl.SOLO_ID, render_mode="rgb_array")
    solo.reset(seed=1)
    assert solo.render().shape[2] == 3
    made = gymnasium.make(glade.rl.HARMONIES_VS_BOTS_ID, render_mode="ansi")
    made.reset(seed=1)
    assert "seat 0 (you)" in made.render()


def play(env: Any, seed: int) -> dict[str, float]:
    """A random game; each agent's summed rewards."""
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else env.sample_legal())
    return total


@pytest.mark.parametrize(
    ("module", "options"),
    [(harmonies_v0, {"players": 3}), (living_forest_v0, {"players": 2})],
)
def test_shaped_rewards_come_every_turn_and_add_up_to_the_final_score(
    module: Any, options: dict
) -> None:
    env = module.env(**options, reward="shaped")
    env.reset(seed=9)
    during = []
    for _agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated:
            break
        during.append(reward)
        env.step(env.sample_legal())
    assert any(r != 0 for r in during)  # rewards come during the game, not only at its end
    total = play(env, 9)
    scores = env.infos["player_0"]["scores"] if env.agents else None
    game = env.game
    assert game is not None and game.is_over
    result = game.result()["scores"]
    assert [total[a] for a in env.possible_agents] == [float(s) for s in result]
    assert scores is None or list(scores) == result


def test_max_cycles_truncates_and_infos_keep_their_shape() -> None:
    env = living_forest_v0.env(players=3, max_cycles=40)
    env.reset(seed=2)
    shapes = set()
    moves = 0
    for _agent in env.agent_iter():
        _, _, terminated, truncated, info = env.last()
        shapes.add(tuple((k, v.shape, v.dtype.str) for k, v in sorted(info.items())))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(env.sample_legal())
        moves += 1
    assert moves == 40 and not env.agents
    assert shapes == {(("scores", (3,), "<i8"), ("winners", (3,), "|i1"))}
    assert env.game is not None and not env.game.is_over


def test_normalised_views_and_state_lie_in_zero_one() -> None:
    for module, options in ((harmonies_v0, {"players": 2}), (living_forest_v0, {"players": 2})):
        env = module.env(**options, normalize=True)
        env.reset(seed=3)
        space = env.observation_space("player_0")["observation"]
        assert space.low.min() == 0.0 and space.high.max() == 1.0
        for _ in range(60):
            obs, *_ = env.last()
            assert obs["observation"].dtype == np.float32 and space.contains(obs["observation"])
            state = env.state()
            assert env.state_space.contains(state) and state.shape == env.state_space.shape
            env.step(env.sample_legal())
    solo = glade.rl.HarmoniesSoloEnv(normalize=True)
    obs, _ = solo.reset(seed=1)
    assert solo.observation_space.contains(obs) and obs.max() <= 1.0


def test_state_is_every_seat_view() -> None:
    env = harmonies_v0.env(players=3)
    env.reset(seed=6)
    for _ in range(10):
        env.step(env.sample_legal())
    state = env.state()
    size = env.encoder.size
    for seat in range(3):
        assert np.array_equal(state[seat * size : (seat + 1) * size], env.encoder.observe(seat))


def test_parallel_env_plays_only_the_acting_agent() -> None:
    env = living_forest_v0.parallel_env(players=2)
    observations, infos = env.reset(seed=5)
    steps = 0
    while env.agents:
        active = infos[env.agents[0]]["active_agent"]
        assert all(info["active_agent"] == active for info in infos.values())
        assert observations[active]["action_mask"].any()
        actions = {a: env.sample_legal(a, observations[a]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        steps += 1
    assert steps > 50 and env.aec_env.game.is_over


def test_gym_infos_are_fixed_shape_and_tianshou_buffer_accepts_them() -> None:
    tianshou = pytest.importorskip("tianshou")
    from tianshou.data import Batch, ReplayBuffer

    del tianshou
    for env in (
        glade.rl.HarmoniesSoloEnv(),
        glade.rl.OpponentsEnv("living-forest", players=3, opponents=("random",), seed=1),
    ):
        buffer = ReplayBuffer(size=1000)
        obs, info = env.reset(seed=1)
        keys = {k: (np.shape(v), np.asarray(v).dtype) for k, v in info.items()}
        rng = random.Random(0)
        for _ in range(700):
            # now and then an unmasked action, often illegal: refused, same info keys
            unmasked = rng.random() < 0.1
            action = rng.randrange(env.action_space.n) if unmasked else env.sample_legal()
            obs_next, reward, terminated, truncated, info = env.step(action)
            assert {k: (np.shape(v), np.asarray(v).dtype) for k, v in info.items()} == keys
            buffer.add(
                Batch(
                    obs=obs,
                    act=action,
                    rew=reward,
                    terminated=terminated,
                    truncated=truncated,
                    obs_next=obs_next,
                    info=info,
                )
            )
            obs = obs_next
            if terminated or truncated:
                obs, info = env.reset()
        assert len(buffer) == 700
        assert buffer.info["action_mask"].shape == (1000, env.action_space.n)


def test_sb3_vector_envs_and_maskable_ppo_take_the_registered_ids() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(glade.rl.SOLO_ID, n_envs=2, seed=0)
    assert is_masking_supported(venv)
    venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", glade.rl.SOLO_ID, n_steps=64, batch_size=32, n_epochs=1)
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64
    spec = gymnasium.spec(glade.rl.SOLO_ID)
    assert spec.max_episode_steps == glade.rl.MAX_EPISODE_STEPS
    for bots_id in (glade.rl.HARMONIES_VS_BOTS_ID, glade.rl.LIVING_FOREST_VS_BOTS_ID):
        assert gymnasium.spec(bots_id).max_episode_steps is not None


def test_an_unmasked_agent_is_truncated_by_the_registered_limit() -> None:
    env = gymnasium.make(glade.rl.SOLO_ID)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        _, _, terminated, truncated, _ = env.step(int(rng.integers(env.action_space.n)))
        steps += 1
        if terminated or truncated:
            break
    assert steps <= glade.rl.MAX_EPISODE_STEPS
