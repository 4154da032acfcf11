"""Train OpenSpiel's advantage actor-critic (A2C, ``open_spiel.python.pytorch.policy_gradient``)
on 2-player Harmonies through OpenSpiel, against a uniformly random opponent.

    PYTHONPATH=. python examples/openspiel_a2c.py --episodes 300 --plot docs/openspiel-a2c.png
    PYTHONPATH=. python examples/openspiel_a2c.py --rewards score_diff --minutes 25 --episodes 100000

The game is ``python_glade_harmonies`` (``glade.rl.openspiel``) with normalised tensors, in
OpenSpiel's ``rl_environment``: seat 0 is the learner, seat 1 OpenSpiel's ``RandomAgent``. The
reward is the game's terminal utility: with ``--rewards win_loss`` (the game's default) +1 for a
win and -1 for a loss; with ``--rewards score_diff`` the learner's final score minus the
opponent's, divided by ``--reward-scale`` before the learner sees it. The script prints the
learner's win rate against random during training and, at the end, over ``--eval-games`` new
games (acting greedily on its policy, OpenSpiel's ``is_evaluation`` mode). Training stops after
``--episodes`` games or ``--minutes``, whichever comes first.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.pytorch import policy_gradient

from glade.rl import openspiel as glade_openspiel


def make_env(seed: int, rewards: str = "win_loss") -> rl_environment.Environment:
    return rl_environment.Environment(  # the seat's observation as the network's input
        glade_openspiel.HARMONIES,
        observation_type=rl_environment.ObservationType.OBSERVATION,
        players=2,
        normalize=True,
        rewards=rewards,
        rng_seed=seed,
    )


def play(
    env: rl_environment.Environment, agents: list, evaluate: bool, scale: float = 1.0
) -> float:
    """One game; the learner's (seat 0) return, unscaled (its sign says win or loss)."""
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        output = agents[seat].step(step, is_evaluation=evaluate)
        step = env.step([output.action])
    final = float(step.rewards[0])
    if scale != 1.0:
        step = step._replace(rewards=[r / scale for r in step.rewards])
    for agent in agents:  # the final step lets the learner see its reward and learn
        agent.step(step, is_evaluation=evaluate)
    return final


def train(
    episodes: int,
    seed: int = 0,
    batch_size: int = 8,
    hidden: int = 128,
    rewards: str = "win_loss",
    scale: float = 1.0,
    minutes: float | None = None,
) -> tuple[list, list[float], rl_environment.Environment]:
    torch.manual_seed(seed)
    np.random.seed(seed)
    env = make_env(seed, rewards)
    size = env.observation_spec()["info_state"][0]
    n_actions = env.action_spec()["num_actions"]
    learner = policy_gradient.PolicyGradient(
        player_id=0,
        info_state_size=size,
        num_actions=n_actions,
        loss_str="a2c",
        hidden_layers_sizes=(hidden,),
        batch_size=batch_size,
        entropy_cost=0.001,
        critic_learning_rate=0.01,
        pi_learning_rate=0.001,
        num_critic_before_pi=4,
    )
    opponent = random_agent.RandomAgent(player_id=1, num_actions=n_actions)
    agents = [learner, opponent]
    deadline = None if minutes is None else time.monotonic() + minutes * 60
    returns: list[float] = []
    while len(returns) < episodes and (deadline is None or time.monotonic() < deadline):
        returns.append(play(env, agents, evaluate=False, scale=scale))
        if len(returns) % 100 == 0:
            rate = np.mean(np.array(returns[-100:]) > 0)
            print(f"{len(returns)} games: win rate of the last 100 {rate:.2f}", flush=True)
    return agents, returns, env


def plot(returns: list[float], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    wins = (np.array(returns) > 0).astype(float)
    window = max(1, min(50, len(wins) // 5))
    rate = np.convolve(wins, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(np.arange(window, len(wins) + 1), rate, label=f"win rate, mean of {window} games")
    ax.axhline(0.5, linestyle="--", color="tab:red", label="random vs random")
    ax.set_xlabel("training games")
    ax.set_ylabel("win rate against random")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train OpenSpiel's A2C on 2-player Harmonies.")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--minutes", type=float, default=None, help="or stop after this")
    parser.add_argument("--rewards", default="win_loss", choices=("win_loss", "score_diff"))
    parser.add_argument("--reward-scale", type=float, default=1.0, help="reward divided by this")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=None)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    start = time.monotonic()
    agents, returns, env = train(
        args.episodes,
        args.seed,
        args.batch_size,
        args.hidden,
        args.rewards,
        args.reward_scale,
        args.minutes,
    )
    took = time.monotonic() - start
    print(f"trained {len(returns)} episodes in {took:.0f}s")
    if returns:
        last = returns[-50:]
        print(
            f"win rate against random, last {len(last)} training games: {np.mean(np.array(last) > 0):.2f}"
        )
    evals = [
        play(env, agents, evaluate=True, scale=args.reward_scale) for _ in range(args.eval_games)
    ]
    print(
        f"win rate against random over {args.eval_games} evaluation games: {np.mean(np.array(evals) > 0):.2f}"
    )
    if args.plot is not None:
        plot(
            returns,
            args.plot,
            f"OpenSpiel A2C ({args.rewards}), Harmonies 2p vs random: {took / 60:.0f} min",
        )
        print(f"learning curve written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
