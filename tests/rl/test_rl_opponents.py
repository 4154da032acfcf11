"""Single-agent envs against glade's bots, self-play with a frozen learner, the MaskablePPO example."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import glade
import glade.rl
from glade import IllegalAction
from glade.core import BadInput
from glade.rl import OpponentsEnv, frozen

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


def finish(env: gymnasium.Env, seed: int) -> tuple[float, dict, int]:
    env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        _, reward, terminated, truncated, info = env.step(env.unwrapped.sample_legal())
        total += reward
        steps += 1
        if terminated or truncated:
            return total, info, steps


@pytest.mark.parametrize(
    ("game", "players", "bots"),
    [
        ("harmonies", 2, ("greedy",)),
        ("harmonies", 4, ("random", "greedy", "random")),
        ("living-forest", 3, ("greedy",)),
    ],
)
def test_the_other_seats_are_played_by_glade_bots(game: str, players: int, bots: tuple) -> None:
    env = OpponentsEnv(game, players=players, opponents=bots, seed=3, reward="score")
    check_env(OpponentsEnv(game, players=players, opponents=("random",), seed=3))
    total, info, steps = finish(env, 11)
    g = env.game
    assert g is not None and g.is_over
    result = g.result()
    assert total == result["scores"][0] == info["score"]
    assert info["scores"].tolist() == result["scores"]
    assert np.flatnonzero(info["winners"]).tolist() == sorted(result["winners"])
    # the learner made only its own moves; the bots made every other one
    assert steps == sum(1 for seat, _, _ in g.log if seat == 0)
    assert {seat for seat, _, _ in g.log} == set(range(players))


def test_shaped_rewards_add_up_to_the_final_score_against_bots() -> None:
    for game in ("harmonies", "living-forest"):
        env = gymnasium.make(
            glade.rl.HARMONIES_VS_BOTS_ID
            if game == "harmonies"
            else glade.rl.LIVING_FOREST_VS_BOTS_ID,
            opponents=("greedy",),
            reward="shaped",
            seed=1,
        )
        env.reset(seed=4)
        rewards = []
        while True:
            _, reward, terminated, truncated, info = env.step(env.unwrapped.sample_legal())
            rewards.append(reward)
            if terminated or truncated:
                break
        assert sum(rewards) == info["score"] == env.unwrapped.game.result()["scores"][0]
        assert any(rewards[:-1])  # rewards along the way, not only at the end


def test_learner_seat_and_bad_opponents() -> None:
    env = OpponentsEnv("harmonies", players=2, opponents=("random",), seat=1, seed=2)
    env.reset(seed=5)
    assert env.game is not None and env.game.to_act == (1,)  # seat 0's bot already moved
    assert any(seat == 0 for seat, _, _ in env.game.log)
    with pytest.raises(BadInput, match="unknown bot"):
        OpponentsEnv("harmonies", opponents=("grandmaster",))
    with pytest.raises(BadInput, match="one per other seat"):
        OpponentsEnv("harmonies", players=4, opponents=("random", "greedy"))
    with pytest.raises(BadInput, match="2 to 4 players"):
        OpponentsEnv("harmonies", players=1)
    strict = OpponentsEnv("harmonies", opponents=("random",), illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction, match="not legal"):
        strict.step(int(np.flatnonzero(strict.action_masks() == 0)[0]))


def test_self_play_with_a_frozen_copy_of_the_learner() -> None:
    from sb3_contrib import MaskablePPO

    env = OpponentsEnv("harmonies", players=2, opponents=("random",), normalize=True, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    opponent = frozen(model)
    weights = {k: v.clone() for k, v in model.policy.state_dict().items()}
    env.set_opponents((opponent,))
    _, info, _ = finish(env, 3)
    assert env.game is not None and env.game.is_over and info["scores"].sum() > 0
    env.reset(seed=3)
    obs, mask = env._obs(), env.action_masks().astype(np.int8)
    before = [opponent(obs, mask) for _ in range(1)]
    assert mask[before[0]] == 1  # the frozen policy plays legal moves
    model.learn(64)  # training on changes the learner, not the frozen copy
    assert any(
        not np.array_equal(weights[k].numpy(), v.numpy())
        for k, v in model.policy.state_dict().items()
    )
    deterministic = frozen(model, deterministic=True)
    assert deterministic(obs, mask) == deterministic(obs, mask)


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_solo_example_beats_random(tmp_path: Path) -> None:
    example = load_example()
    model, curve = example.train(minutes=10, timesteps=4096, n_envs=8, seed=0)
    assert model.num_timesteps >= 4096 and len(curve.points) > 50
    seeds = [example.EVAL_SEED + k for k in range(6)]
    trained = np.mean([example.play_model(model, None, s) for s in seeds])
    random_play = np.mean([example.play_bot("random", None, s) for s in seeds])
    assert trained > random_play
    example.plot(curve, tmp_path / "curve.png", "test", {"random": float(random_play)})
    assert (tmp_path / "curve.png").stat().st_size > 1000


def test_maskable_ppo_example_runs_against_greedy_in_2p(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    example = load_example()
    code = example.main(
        [
            "--opponents",
            "greedy",
            "--timesteps",
            "128",
            "--n-envs",
            "2",
            "--n-steps",
            "64",
            "--batch-size",
            "64",
            "--eval-games",
            "1",
            "--plot",
            str(tmp_path / "p.png"),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert re.search(r"trained \d+ moves", out) and "2p against greedy" in out
    assert re.search(r"trained\s+\d+\.\d", out) and re.search(r"greedy\s+\d+\.\d", out)
    assert glade.rl.OpponentsEnv is OpponentsEnv


def test_maskable_ppo_example_resumes_a_saved_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    example = load_example()
    model_path, curve_csv = tmp_path / "solo.zip", tmp_path / "solo.csv"
    small = ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--eval-games", "1"]
    files = ["--csv", str(curve_csv), "--save", str(model_path)]
    assert example.main(["--timesteps", "640", *small, *files]) == 0
    first = example.read_csv(curve_csv)
    first_model = example.MaskablePPO.load(model_path)
    done = first_model.num_timesteps
    assert done >= 640 and first and first[-1][0] <= done
    capsys.readouterr()
    assert example.main(["--resume", str(model_path), "--timesteps", "256", *small, *files]) == 0
    out = capsys.readouterr().out
    both = example.read_csv(curve_csv)
    assert both[: len(first)] == first  # the earlier episodes are kept, in order
    later = both[len(first) :]
    assert later, "the resumed run finished no episode"
    # moves and seconds go on from where the first run ended
    assert all(p[0] > done and p[1] >= first[-1][1] for p in later)
    assert [p[0] for p in both] == sorted(p[0] for p in both)
    resumed = example.MaskablePPO.load(model_path)
    assert resumed.num_timesteps >= done + 256
    assert f"trained {resumed.num_timesteps} moves, {len(both)} games" in out
    # the saved weights went on training from the first run's, not from a fresh policy
    weights = first_model.policy.state_dict()
    assert any(
        not np.array_equal(weights[k].numpy(), v.numpy())
        for k, v in resumed.policy.state_dict().items()
    )
    assert resumed.n_steps == 64 and resumed.batch_size == 64


def test_linear_lr_falls_over_the_runs_own_moves() -> None:
    example = load_example()
    # a resumed run: 1,000 moves before, 500 in this learn(); sb3 passes 1 - n / 1,500
    schedule = example.linear_lr(1e-3, 1e-5, 1000, 500)
    assert schedule(1 - 1000 / 1500) == pytest.approx(1e-3)
    assert schedule(1 - 1250 / 1500) == pytest.approx((1e-3 + 1e-5) / 2)
    assert schedule(0.0) == pytest.approx(1e-5)
    assert example.linear_lr(2e-4, 0.0, 0, 100)(1.0) == pytest.approx(2e-4)
    # with minutes, the larger of the two fractions: a slow run still ends at the final rate
    now = [100.0]
    timed = example.linear_lr(1e-3, 0.0, 1000, 500, minutes=2.0, clock=lambda: now[0])
    assert timed(1 - 1000 / 1500) == pytest.approx(1e-3)
    now[0] += 60.0  # half the minutes, a fifth of the moves
    assert timed(1 - 1100 / 1500) == pytest.approx(5e-4)
    assert timed(1 - 1400 / 1500) == pytest.approx(2e-4)  # four fifths of the moves
    now[0] += 600.0
    assert timed(1 - 1100 / 1500) == 0.0


def test_a_resumed_run_takes_the_new_hyper_parameters_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    example = load_example()
    model_path, curve_csv = tmp_path / "solo.zip", tmp_path / "solo.csv"
    files = ["--csv", str(curve_csv), "--save", str(model_path), "--eval-games", "1"]
    first = ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--ent-coef", "0.01"]
    assert example.main(["--timesteps", "256", *first, *files]) == 0
    done = example.MaskablePPO.load(model_path).num_timesteps
    capsys.readouterr()
    # given: lr schedule, entropy, batch; not given: n_steps (kept at the saved 64)
    retuned = ["--lr", "1e-3", "--lr-final", "1e-4", "--ent-coef", "0.002", "--batch-size", "32"]
    again = ["--resume", str(model_path), "--timesteps", "256", "--minutes", "1e4", *retuned]
    again += ["--n-envs", "2"]  # (minutes: the schedule's time fraction stays near 0 here)
    assert example.main([*again, *files]) == 0
    resumed = example.MaskablePPO.load(model_path)
    assert resumed.ent_coef == 0.002 and resumed.batch_size == 32 and resumed.n_steps == 64
    # the saved schedule is the resumed run's: 1e-3 at its first move, 1e-4 after its last
    total = done + 256
    assert resumed.lr_schedule(1 - done / total) == pytest.approx(1e-3, rel=1e-3)
    assert resumed.lr_schedule(0.0) == pytest.approx(1e-4)
    # the optimiser ran at the falling rate: below the start after the last update
    rate = resumed.policy.optimizer.param_groups[0]["lr"]
    assert 1e-4 <= rate < 1e-3
    with pytest.raises(ValueError, match="cannot retune"):
        example.train(timesteps=64, n_envs=2, resume=model_path, retune=("gamma",))
