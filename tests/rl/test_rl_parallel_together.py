"""The parallel env plays every agent the rules let act together in one step (Living Forest's
Guardian Animals phase): the same games as the AEC env fed the same moves, refusals that change
nothing, PettingZoo's parallel test, and the engine's claim that those moves are independent."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from rl_support import CONFIGS, IDS

from glade import IllegalAction, new_game
from glade.living_forest.game import DRAW
from glade.rl import harmonies_v0, living_forest_v0


def _views(observations: dict[str, Any]) -> dict[str, tuple[bytes, bytes]]:
    return {
        a: (v["observation"].tobytes(), v["action_mask"].tobytes()) for a, v in observations.items()
    }


def _between_draws(game: Any) -> bool:
    """A Living Forest state inside the draw phase (the AEC order does not pass through it)."""
    return getattr(game, "phase", None) == DRAW and game.game_name == "living-forest"


def _play_parallel(module: Any, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded game of the documented parallel loop; what each step applied, the states
    outside the draw phase with every agent's view, the summed rewards and the last infos."""
    env = module.parallel_env(**options)
    observations, infos = env.reset(seed=seed)
    game = env.aec_env.game
    queues: dict[str, list[int]] = {a: [] for a in env.possible_agents}
    states = [(game.fingerprint(), _views(observations))]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    together = 0
    while env.agents:
        acting = [a for a in env.agents if observations[a]["action_mask"].any()]
        assert acting and acting[0] == infos[acting[0]]["active_agent"]
        assert acting == sorted(acting, key=env.possible_agents.index)
        names = env.possible_agents
        assert acting == [names[s] for s in getattr(game, "acting_together", game.to_act[:1])]
        actions = env.sample_actions(observations)
        before = len(game.log)
        observations, rewards, _terms, _truncs, infos = env.step(actions)
        assert len(game.log) == before + len(acting)  # every acting agent's move was applied
        together += len(acting) > 1
        for agent in acting:
            queues[agent].append(actions[agent])
        for agent, value in rewards.items():
            totals[agent] += value
        if not _between_draws(game):
            states.append((game.fingerprint(), _views(observations)))
    return {
        "queues": queues,
        "states": states,
        "totals": totals,
        "infos": infos,
        "together": together,
        "json": game.to_json(),
    }


def _play_aec(module: Any, options: dict[str, Any], seed: int, queues: dict[str, list[int]]):
    """The AEC env fed each agent's moves in the order it asks for them."""
    env = module.env(**options)
    env.reset(seed=seed)
    game = env.game
    queues = {a: list(q) for a, q in queues.items()}
    views = {a: env.observe(a) for a in env.agents}
    states = [(game.fingerprint(), _views(views))]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    final_infos: dict[str, Any] = {}
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(queues[agent].pop(0))
        for a, value in env.rewards.items():
            totals[a] += value
        if game.is_over:
            final_infos = {a: dict(info) for a, info in env.infos.items()}
        if env.agents and not _between_draws(game):
            views = {a: env.observe(a) for a in env.agents}
            states.append((game.fingerprint(), _views(views)))
    assert all(not q for q in queues.values())  # every move was played
    return states, totals, final_infos, game.to_json()


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_the_parallel_env_plays_the_aec_envs_games(module: Any, options: dict[str, Any]) -> None:
    together = 0
    for seed in range(4):
        for reward in ("score_diff", "shaped"):
            opts = {**options, "reward": reward}
            par = _play_parallel(module, opts, seed)
            states, totals, infos, final_json = _play_aec(module, opts, seed, par["queues"])
            assert par["json"] == final_json  # the same game, log included
            assert par["totals"] == totals
            for agent, info in par["infos"].items():
                assert np.array_equal(info["scores"], infos[agent]["scores"])
                assert np.array_equal(info["winners"], infos[agent]["winners"])
            # every state the parallel env stops at outside the draw phase is one the AEC env
            # passes, in the same order, with every agent's view byte for byte the same
            at = 0
            for fingerprint, views in par["states"][:-1]:
                while states[at][0] != fingerprint:
                    at += 1
                assert states[at][1] == views
            together += par["together"]
    if module is living_forest_v0:
        assert together > 100  # the draw phase did play several spirits a step
    else:
        assert together == 0


def _draw_step(players: int, seed: int) -> tuple[Any, dict[str, Any], list[str]]:
    """A parallel env at a step where several spirits draw together."""
    env = living_forest_v0.parallel_env(players=players)
    observations, _infos = env.reset(seed=seed)
    for step in range(300):
        acting = [a for a in env.agents if observations[a]["action_mask"].any()]
        if step >= 2 and len(acting) >= 2:  # past the first draws (a stop is legal now)
            return env, observations, acting
        observations, *_ = env.step(env.sample_actions(observations))
    raise AssertionError("no step with several spirits drawing")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_illegal_action_among_several_changes_nothing(players: int) -> None:
    for seed in range(3):
        env, observations, acting = _draw_step(players, seed)
        game = env.aec_env.game
        before = game.to_json()
        fingerprint = game.fingerprint()
        selected = env.aec_env.agent_selection
        shown = _views(observations)
        good = env.sample_actions(observations)
        for agent in acting:
            mask = observations[agent]["action_mask"]
            refused = int(np.flatnonzero(mask == 0)[0])  # in range, not legal now
            for bad, reason in (
                (refused, f"{agent} cannot play action {refused} "),
                (None, f"{agent} must choose an action"),
                ("draw", f"an action is an index from 0 to {mask.size - 1}"),
                (10**6, f"there is no action {10**6}"),
            ):
                with pytest.raises(IllegalAction, match=reason):
                    env.step({**good, agent: bad})
                assert game.fingerprint() == fingerprint and game.to_json() == before
                assert env.aec_env.agent_selection == selected
                assert _views(observations) == shown and env._views is observations
            missing = {a: c for a, c in good.items() if a != agent}
            with pytest.raises(IllegalAction, match=f"{agent} must choose an action"):
                env.step(missing)
            assert game.to_json() == before
        # two illegal actions: the lower seat is named
        last = acting[-1]
        with pytest.raises(IllegalAction, match=f"^{acting[0]} "):
            env.step({**good, acting[0]: None, last: None})
        # an agent that does not act may send anything: it is ignored
        idle = {a: "anything" for a in env.agents if a not in acting}
        moves = len(game.log)
        env.step({**good, **idle})
        assert len(game.log) == moves + len(acting)


def test_a_step_stops_at_the_move_limit_and_shaped_rewards_add_up() -> None:
    for players in (2, 3, 4):
        for limit in (7, 40, 301):
            env = living_forest_v0.parallel_env(players=players, max_cycles=limit)
            observations, _ = env.reset(seed=players)
            last: dict[str, bool] = {}
            while env.agents:
                observations, _r, _te, last, _i = env.step(env.sample_actions(observations))
            assert len(env.aec_env.game.log) == limit  # the later acting agents were not played
            assert all(last.values())
        env = living_forest_v0.parallel_env(players=players, reward="shaped")
        observations, _ = env.reset(seed=players)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            observations, rewards, *_ = env.step(env.sample_actions(observations))
            for agent, value in rewards.items():
                totals[agent] += value
        scores = env.aec_env.game.result()["scores"]
        assert [totals[a] for a in env.possible_agents] == [float(s) for s in scores]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_parallel_test_with_every_option(players: int) -> None:
    parallel_api_test(
        living_forest_v0.parallel_env(
            players=players, normalize=True, reward="shaped", max_cycles=400
        ),
        num_cycles=500,
    )
    parallel_api_test(harmonies_v0.parallel_env(players=players, max_cycles=80), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_spirits_drawing_together_are_independent_in_the_engine(players: int) -> None:
    """The engine's ``acting_together`` claim, checked: for two spirits drawing together, either
    order of their moves gives the same game, and one's move leaves the other's legal moves as
    they were; every other spirit has no legal move."""
    rng = random.Random(players)
    checked = 0
    for seed in range(4):
        game = new_game("living-forest", seed=seed, players=players)
        while not game.is_over and checked < 400 * (seed + 1):
            together = game.acting_together
            for seat in range(players):
                if seat not in together:
                    assert game.legal_action_ids(seat) == []
            if game.phase == DRAW and len(together) >= 2:
                a, b = rng.sample(together, 2)
                move_a = rng.choice(game.legal_action_ids(a))
                move_b = rng.choice(game.legal_action_ids(b))
                first = game.copy()
                first.apply_action_id(a, move_a)
                assert first.legal_action_ids(b) == game.legal_action_ids(b)
                first.apply_action_id(b, move_b)
                second = game.copy()
                second.apply_action_id(b, move_b)
                assert second.legal_action_ids(a) == game.legal_action_ids(a)
                second.apply_action_id(a, move_a)
                assert first.to_json() == second.to_json()
                checked += 1
            seat = together[0] if together else game.to_act[0]
            game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
    assert checked > 300
