"""Train sb3-contrib's MaskablePPO on glade: Harmonies solo, or a 2-player game against greedy.

    PYTHONPATH=. python examples/maskable_ppo.py --minutes 30 --plot docs/maskable-ppo-solo.png
    PYTHONPATH=. python examples/maskable_ppo.py --opponents greedy --minutes 30

Solo: the registered ``glade/HarmoniesSolo-v0`` with normalised observations, its reward the
score gained each move (so an episode's return is the final score). Against bots:
``glade.rl.opponents.OpponentsEnv`` (2-player Harmonies, the other seat played by glade's bot, the
the shaped reward: its own score gained after each of its moves, summing to its final score). MaskablePPO finds
the masks through the envs' ``action_masks()``. The script prints the mean score of the trained
policy (most likely legal move) and of the baselines on evaluation seeds, and with ``--plot``
draws the learning curve (training episodes' scores against moves played) to a PNG.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import glade
import glade.bots
import glade.rl

EVAL_SEED = 1_000_000  # evaluation games use seeds from here, apart from the training seeds


class Curve(BaseCallback):
    """Records every finished training episode's final score; stops at the deadline."""

    def __init__(self, deadline: float) -> None:
        super().__init__()
        self.deadline = deadline
        self.points: list[tuple[int, float, float]] = []  # (moves so far, seconds, score)
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        if self.num_timesteps % 20_480 == 0 and self.points:  # progress, every 20k moves
            last = [p[2] for p in self.points[-200:]]
            print(f"{self.num_timesteps} moves: mean of the last 200 games {np.mean(last):.1f}")
            print(flush=True, end="")
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done:
                self.points.append(
                    (self.num_timesteps, time.monotonic() - self.start, float(info["score"]))
                )
        return time.monotonic() < self.deadline


def make_env(opponents: str | None, seed: int = 0) -> gymnasium.Env[Any, Any]:
    if opponents is None:
        return gymnasium.make(glade.rl.SOLO_ID, normalize=True)
    from glade.rl.opponents import OpponentsEnv

    return OpponentsEnv(
        "harmonies",
        players=2,
        opponents=(opponents,),
        normalize=True,
        reward="shaped",
        seed=seed,
    )


def train(
    minutes: float = 3.0,
    timesteps: int = 10_000_000,
    n_envs: int = 8,
    opponents: str | None = None,
    seed: int = 0,
    n_steps: int = 256,
    batch_size: int = 256,
    n_epochs: int = 4,
) -> tuple[MaskablePPO, Curve]:
    """Train until ``minutes`` pass or ``timesteps`` moves are played."""
    torch.manual_seed(seed)
    env = make_vec_env(
        lambda: make_env(opponents, seed), n_envs=n_envs, seed=seed
    )  # DummyVecEnv: one process
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
        n_epochs=n_epochs,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        verbose=0,
    )
    curve = Curve(time.monotonic() + minutes * 60)
    model.learn(total_timesteps=timesteps, callback=curve)
    return model, curve


def play_model(model: MaskablePPO, opponents: str | None, seed: int) -> float:
    """One evaluation game with the policy's most likely legal move; the learner's final score."""
    env = make_env(opponents, seed)
    obs, info = env.reset(seed=seed)
    while True:
        masks = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        obs, _, terminated, truncated, info = env.step(int(action))
        if terminated or truncated:
            return float(info["score"])


def play_bot(spec: str, opponents: str | None, seed: int) -> float:
    """One evaluation game with a registered bot in the learner's seat; its final score."""
    players = 1 if opponents is None else 2
    game = glade.new_game("harmonies", seed=seed, players=players)
    bots = [glade.bots.make_bot(spec, "harmonies", seed=seed)]
    if opponents is not None:
        bots.append(glade.bots.make_bot(opponents, "harmonies", seed=seed + 1))
    while not game.is_over:
        seat = game.to_act[0]
        for action in bots[seat].choose(game, seat):
            game.apply(seat, action)
    return float(game.result()["scores"][0])


def evaluate(model: MaskablePPO, games: int, opponents: str | None) -> dict[str, float]:
    seeds = [EVAL_SEED + k for k in range(games)]
    return {
        "trained": float(np.mean([play_model(model, opponents, s) for s in seeds])),
        "random": float(np.mean([play_bot("random", opponents, s) for s in seeds])),
        "greedy": float(np.mean([play_bot("greedy", opponents, s) for s in seeds])),
    }


def plot(curve: Curve, path: Path, title: str, baselines: dict[str, float]) -> None:
    """The training episodes' scores (a moving mean of 200) against moves played, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([p[0] for p in curve.points])
    scores = np.array([p[2] for p in curve.points])
    window = max(1, min(200, len(scores) // 10))
    mean = np.convolve(scores, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(steps, scores, ".", markersize=1, alpha=0.2, color="tab:blue", label="episode")
    ax.plot(steps[window - 1 :], mean, color="tab:blue", label=f"mean of {window}")
    for (name, value), colour in zip(baselines.items(), ("tab:red", "tab:green"), strict=False):
        ax.axhline(value, linestyle="--", color=colour, label=f"{name} ({value:.1f})")
    ax.set_xlabel("moves played")
    ax.set_ylabel("final score")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train MaskablePPO on glade.")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="or stop after these")
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--n-steps", type=int, default=256, help="moves per env per update")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--opponents", default=None, help="a bot for seat 1 (2p); none: solo")
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=None, help="learning curve PNG")
    parser.add_argument("--csv", type=Path, default=None, help="episodes as CSV")
    parser.add_argument("--n-epochs", type=int, default=4, help="PPO epochs per update")
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    start = time.monotonic()
    model, curve = train(
        args.minutes,
        args.timesteps,
        args.n_envs,
        args.opponents,
        args.seed,
        args.n_steps,
        args.batch_size,
        args.n_epochs,
    )
    took = time.monotonic() - start
    if args.save is not None:
        model.save(args.save)
    print(f"trained {model.num_timesteps} moves, {len(curve.points)} games in {took:.0f}s")
    if curve.points:
        last = [p[2] for p in curve.points[-200:]]
        print(f"mean score of the last {len(last)} training games: {np.mean(last):.1f}")
    scores = evaluate(model, args.eval_games, args.opponents)
    where = "solo" if args.opponents is None else f"2p against {args.opponents}"
    print(f"mean score over {args.eval_games} evaluation games ({where}):")
    for name, value in scores.items():
        print(f"  {name:<8}{value:.1f}")
    if args.csv is not None:
        with args.csv.open("w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["moves", "seconds", "score"])
            out.writerows(curve.points)
    if args.plot is not None:
        title = f"MaskablePPO, Harmonies {where}: {took / 60:.0f} min"
        plot(curve, args.plot, title, {"random": scores["random"], "greedy": scores["greedy"]})
        print(f"learning curve written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
