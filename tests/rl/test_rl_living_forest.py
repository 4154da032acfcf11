"""The Living Forest PettingZoo environment and encoding."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rl_support import check_masks_against_engine

import glade
from glade import IllegalAction
from glade.core import BadInput
from glade.living_forest.game import LivingForestGame
from glade.rl import VectorGames, living_forest_v0, rollouts
from glade.rl.living_forest_encoding import LivingForestEncoder


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes(players: int) -> None:
    env = living_forest_v0.env(players=players)
    api_test(env, num_cycles=150)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: living_forest_v0.env(players=3), num_cycles=60)


@pytest.mark.parametrize("players", [2, 4])
def test_masks_match_the_engine_over_thousands_of_random_steps(players: int) -> None:
    env = living_forest_v0.env(players=players)
    rng = random.Random(players)
    steps = check_masks_against_engine(env, rng, first_seed=500, samples=20, stop_mid_game=True)
    assert steps >= 1500


@pytest.mark.parametrize("players", [3, 4])
def test_incremental_encoding_equals_a_fresh_one_and_stays_in_bounds(players: int) -> None:
    rng = random.Random(2)
    enc = LivingForestEncoder(players)
    for g in range(1):
        game = glade.new_game("living-forest", seed=70 + g, players=players)
        enc.reset(game)
        step = 0
        while not game.is_over:
            step += 1
            # every seat's view every 10th move, else the acting seat's
            seats = range(players) if step % 10 == 0 else game.to_act[:1]
            for seat in seats:
                fresh = LivingForestEncoder(players)
                fresh.reset(game)
                got = enc.observe(seat)
                assert np.array_equal(got, fresh.observe(seat))
                assert (got >= enc.low).all() and (got <= enc.high).all()
            seat = game.to_act[0]
            code = rng.choice(game.legal_action_ids(seat))
            game.apply_action_id(seat, code, checked=True)
            enc.after(seat, code)


def test_observation_shows_nothing_hidden_and_counts_seats_from_the_observer() -> None:
    game = glade.new_game("living-forest", seed=31, players=3)
    assert isinstance(game, LivingForestGame)
    twin = game.copy()
    rng = random.Random(5)
    with twin.edit() as state:
        for deck in state.draw_stacks:
            rng.shuffle(deck)
        for stack in state.animal_stacks:
            rng.shuffle(stack)
    snap, twin_snap = game.snapshot(), twin.snapshot()
    assert [sp.draw_stack for sp in snap.spirits] != [sp.draw_stack for sp in twin_snap.spirits]
    assert snap.animal_stacks != twin_snap.animal_stacks
    a, b = LivingForestEncoder(3), LivingForestEncoder(3)
    a.reset(game)
    b.reset(twin)
    for seat in range(3):
        assert np.array_equal(a.observe(seat), b.observe(seat))
    tree = a.segment("sacred_tree")
    for seat in range(3):
        one_hot = a.observe(seat)[tree.start : tree.stop]
        assert one_hot.tolist()[(snap.sacred_tree - seat) % 3] == 1.0 and one_hot.sum() == 1
    rock = a.segment("spirit[me].rock")
    assert a.observe(1)[rock.start : rock.stop].argmax() == snap.spirits[1].rock


def test_illegal_actions_are_refused_and_rewards_come_at_the_end() -> None:
    env = living_forest_v0.env(players=2, reward="win_loss", render_mode="ansi")
    env.reset(seed=3)
    assert env.game is not None
    before = env.game.fingerprint()
    with pytest.raises(IllegalAction, match="player_0 cannot play action 4"):
        env.step(4)  # end_actions during the draw phase
    assert env.game.fingerprint() == before
    text = env.render()
    assert isinstance(text, str) and "Round 1" in text and "Spirit 1" in text
    rng = random.Random(0)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, _, info = env.last()
        if terminated:
            final[agent] = (reward, info)
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    winners = np.flatnonzero(final["player_0"][1]["winners"]).tolist()
    for i in range(2):
        expected = (1.0 if len(winners) == 1 else 0.0) if i in winners else -1.0
        assert final[f"player_{i}"][0] == expected
    with pytest.raises(BadInput, match="2 to 4 players"):
        living_forest_v0.env(players=1)


def test_runner_and_rollouts_play_living_forest() -> None:
    runner = VectorGames("living-forest", num_games=3, seed=4, players=2)
    _, masks, seats = runner.reset()
    rng = random.Random(1)
    while not runner.finished:
        _, masks, seats, _, _ = runner.step([rng.choice(ids) for ids in runner.legal])
        for i, game in enumerate(runner.games):
            assert seats[i] == game.to_act[0]
            assert np.flatnonzero(masks[i]).tolist() == sorted(game.legal_action_ids(int(seats[i])))
    (episode,) = rollouts("living-forest", episodes=1, seed=8, players=3)
    game = glade.new_game("living-forest", seed=8, players=3)
    for seat, code in zip(episode.seats.tolist(), episode.actions.tolist(), strict=True):
        game.apply_action_id(seat, code)
    assert game.is_over and game.result()["scores"] == episode.scores


def test_the_encoding_reads_each_spirit_as_documented() -> None:
    rng = random.Random(9)
    game = glade.new_game("living-forest", seed=19, players=3)
    assert isinstance(game, LivingForestGame)
    enc = LivingForestEncoder(3)
    enc.reset(game)
    while game.round < 4 or game.phase != 1:  # into the action phase of round 4
        seat = game.to_act[0]
        code = rng.choice(game.legal_action_ids(seat))
        game.apply_action_id(seat, code, checked=True)
        enc.after(seat, code)
    obs = enc.observe(2)

    def seg(name: str) -> list[float]:
        s = enc.segment(name)
        return obs[s.start : s.stop].tolist()

    for who, owner in (("me", 2), ("next1", 0), ("next2", 1)):
        prefix = f"spirit[{who}]."
        sp = game.spirit_snapshot(owner)
        assert seg(prefix + "help_line") == [sp.help_line.count(c) for c in range(66)]
        assert seg(prefix + "discard") == [sp.discard.count(c) for c in range(66)]
        assert seg(prefix + "help_elements") == list(sp.help_elements)
        assert seg(prefix + "forest_elements") == list(sp.forest_elements)
        assert seg(prefix + "rock").index(1.0) == sp.rock
        assert seg(prefix + "fires") == list(sp.fires_kept)
        assert seg(prefix + "victory_tiles") == list(sp.victory_tiles)
        assert seg(prefix + "pile_sizes") == [len(sp.draw_stack), len(sp.discard)]
        assert seg(prefix + "fragments") == [sp.fragments]
        assert seg(prefix + "progress") == list(game.counts(owner)) == list(sp.progress)
        forest = [seg(prefix + "forest")[c * 14 : c * 14 + 14].index(1.0) for c in range(15)]
        assert forest == [1 if t == 12 else (0 if t < 0 else t + 2) for t in sp.forest]
    assert seg("phase") == [0.0, 1.0, 0.0] and seg("round") == [4.0]
    assert seg("current").index(1.0) == (game.current_spirit - 2) % 3
    assert seg("stacks") == [len(s) for s in game.table_snapshot().animal_stacks]
