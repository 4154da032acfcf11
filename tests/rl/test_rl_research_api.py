"""The research API without asterisks (issue 32): seeded resets of the bot envs, the vector
envs' autoreset masks, PettingZoo's parallel_seed_test under the refusing illegal-move policy
(the same in the AEC and parallel APIs), and ``clone``/``legal_actions``/``action_to_string``."""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from pettingzoo.test import parallel_seed_test, seed_test

import glade.rl
from glade import IllegalAction
from glade.core import BadInput
from glade.rl import harmonies_v0, living_forest_v0


def episode(env: Any, seed: int | None, rng: random.Random) -> list[Any]:
    """One whole episode from ``reset(seed=seed)``, random legal actions from ``rng``."""
    obs, info = env.reset(seed=seed)
    out: list[Any] = [(obs.tobytes(), info["action_mask"].tobytes())]
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        out.append((action, obs.tobytes(), reward, info["scores"].tolist(), info["score"]))
    out.append(env.unwrapped.game.fingerprint())
    return out


@pytest.mark.parametrize(
    "env_id,opponents",
    [
        (glade.rl.HARMONIES_VS_BOTS_ID, ("random",)),
        (glade.rl.HARMONIES_VS_BOTS_ID, ("greedy",)),
        (glade.rl.LIVING_FOREST_VS_BOTS_ID, ("random",)),
    ],
)
def test_reset_seed_alone_replays_a_bots_episode(env_id: str, opponents: Any) -> None:
    """The same seed gives the same episode: on a second env, and on the same env after other
    episodes (its bots are seeded from the reset seed, not only from ``make(seed=)``)."""
    first = gymnasium.make(env_id, opponents=opponents)
    other = gymnasium.make(env_id, opponents=opponents)
    ahead = episode(first, 7, random.Random(1))
    episode(first, 8, random.Random(2))
    episode(first, None, random.Random(3))
    assert episode(first, 7, random.Random(1)) == ahead
    assert episode(other, 7, random.Random(1)) == ahead
    assert episode(other, 9, random.Random(1)) != ahead


def test_the_constructor_seed_seeds_the_first_unseeded_reset() -> None:
    runs = []
    for _ in range(2):
        env = gymnasium.make(glade.rl.HARMONIES_VS_BOTS_ID, opponents=("random",), seed=5)
        runs.append([episode(env, None, random.Random(4)) for _ in range(2)])
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[0][1]
    seeded = gymnasium.make(glade.rl.HARMONIES_VS_BOTS_ID, opponents=("random",))
    assert episode(seeded, 5, random.Random(4)) == runs[0][0]


@pytest.mark.parametrize(
    "env_id,kwargs",
    [
        (glade.rl.SOLO_ID, {}),
        (glade.rl.HARMONIES_VS_BOTS_ID, {"opponents": ("random",)}),
        (glade.rl.LIVING_FOREST_VS_BOTS_ID, {"opponents": ("random",)}),
    ],
)
def test_a_vector_env_never_hands_out_an_all_zero_mask(env_id: str, kwargs: Any) -> None:
    """gymnasium.make_vec builds the ids' vector envs in same-step autoreset: every mask it
    hands out (in infos and from ``action_masks``) has a legal move, through game ends."""
    env = gymnasium.make_vec(env_id, num_envs=3, **kwargs)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    _, infos = env.reset(seed=3)
    rng = random.Random(0)
    ended = 0
    for _ in range(400 if "Living" not in env_id else 700):
        masks = infos["action_mask"]
        assert (masks.sum(axis=1) > 0).all()
        assert np.array_equal(np.stack(env.call("action_masks")), masks.astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in masks])
        _, _, terminated, truncated, infos = env.step(actions)
        done = terminated | truncated
        ended += int(done.sum())
        if done.any():  # the finished game's last view comes in final_obs / final_info
            for i in np.flatnonzero(done):
                assert infos["final_info"]["action_mask"][i].sum() == 0
    assert ended >= 3


def test_gymnasiums_default_autoreset_mode_shows_the_finished_games_mask() -> None:
    """What the docs warn about: with ``vectorization_mode="sync"`` (NEXT_STEP autoreset) the
    step that ends a game hands out that game's all-zero mask, and the next action is ignored."""
    env = gymnasium.make_vec(glade.rl.SOLO_ID, num_envs=2, vectorization_mode="sync")
    _, infos = env.reset(seed=0)
    rng = random.Random(0)
    zero_masks = 0
    for _ in range(200):
        masks = infos["action_mask"]
        zero_masks += int((masks.sum(axis=1) == 0).sum())
        actions = np.array([rng.choice(np.flatnonzero(m).tolist() or [0]) for m in masks])
        _, _, _, _, infos = env.step(actions)
    assert zero_masks > 0


def test_make_vector_checks_its_count() -> None:
    with pytest.raises(BadInput, match="num_envs"):
        glade.rl.make_vector(glade.rl.SOLO_ID, num_envs=0)


# ---------------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize(
    "module,options",
    [
        (harmonies_v0, {"players": 2}),
        (harmonies_v0, {"players": 3, "spirits": True}),
        (living_forest_v0, {"players": 2}),
        (living_forest_v0, {"players": 4}),
    ],
)
def test_parallel_seed_test_passes_when_illegal_actions_are_refused(
    module: Any, options: Any
) -> None:
    parallel_seed_test(lambda: module.parallel_env(**options, illegal_action="refuse"))
    seed_test(lambda: module.env(**options, illegal_action="refuse"))


def test_the_default_policy_raises_in_parallel_seed_test() -> None:
    with pytest.raises(IllegalAction):
        parallel_seed_test(lambda: harmonies_v0.parallel_env(players=2))


@pytest.mark.parametrize("module", [harmonies_v0, living_forest_v0])
def test_a_refused_action_changes_nothing_in_both_apis(module: Any) -> None:
    aec = module.env(players=2, illegal_action="refuse")
    aec.reset(seed=2)
    agent = aec.agent_selection
    obs, *_ = aec.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = aec.game.fingerprint()
    aec.step(bad)
    assert aec.game.fingerprint() == before and aec.agent_selection == agent
    assert aec.infos[agent]["illegal_action"] is True
    assert f"cannot play action {bad}" in (aec.refusal or "")
    assert all(r == 0.0 for r in aec.rewards.values())
    aec.step(-1)
    assert "there is no action -1" in (aec.refusal or "")
    good = aec.legal_actions(agent)[0]
    aec.step(good)
    assert aec.refusal is None and not any(i["illegal_action"] for i in aec.infos.values())

    par = module.parallel_env(players=2, illegal_action="refuse")
    observations, infos = par.reset(seed=2)
    assert all(info["illegal_action"] is False for info in infos.values())
    before = par.aec_env.game.fingerprint()
    actions = {a: bad for a in par.agents}
    again, rewards, _, _, infos = par.step(actions)
    assert par.aec_env.game.fingerprint() == before
    assert infos[agent]["illegal_action"] is True
    assert all(r == 0.0 for r in rewards.values())
    for a in par.agents:
        assert again[a]["observation"].tobytes() == observations[a]["observation"].tobytes()
    assert f"cannot play action {bad}" in (par.aec_env.refusal or "")

    strict = module.env(players=2)
    strict.reset(seed=2)
    with pytest.raises(IllegalAction, match=f"cannot play action {bad}"):
        strict.step(bad)
    with pytest.raises(BadInput, match="illegal_action"):
        module.env(players=2, illegal_action="ignore")


@pytest.mark.parametrize("module,players", [(harmonies_v0, 2), (living_forest_v0, 3)])
def test_legal_actions_action_to_string_and_clone(module: Any, players: int) -> None:
    env = module.env(players=players)
    env.reset(seed=5)
    rng = random.Random(5)
    table = env.game.action_table()
    for _ in range(60):
        obs, _, terminated, truncated, _ = env.last()
        agent = env.agent_selection
        assert env.legal_actions(agent) == np.flatnonzero(obs["action_mask"]).tolist()
        for other in env.possible_agents:
            seat = int(other.split("_")[1])
            if seat not in env.game.to_act:
                assert env.legal_actions(other) == []
        code = rng.choice(env.legal_actions(agent))
        text = env.action_to_string(agent, code)
        assert text == f"{agent}: {json.dumps(table[code].to_json(), sort_keys=True)}"
        env.step(code)
    twin = env.clone()
    before = env.game.fingerprint()
    twin.step(twin.legal_actions(twin.agent_selection)[0])
    assert env.game.fingerprint() == before != twin.game.fingerprint()
    with pytest.raises(KeyError, match="no agent"):
        env.legal_actions("player_9")
    with pytest.raises(IllegalAction, match="numbered"):
        env.action_to_string(env.agent_selection, len(table))

    par = module.parallel_env(players=players)
    observations, _ = par.reset(seed=5)
    for _ in range(30):
        for agent in par.agents:
            assert par.legal_actions(agent) == (
                np.flatnonzero(observations[agent]["action_mask"]).tolist()
            )
        observations, *_ = par.step(par.sample_actions(observations))
    twin_par = par.clone()
    assert twin_par.aec_env.game.fingerprint() == par.aec_env.game.fingerprint()
    agent = par.aec_env.agent_selection
    assert par.action_to_string(agent, 0).startswith(f"{agent}: ")
