"""Train OpenSpiel's advantage actor-critic (A2C, ``open_spiel.python.pytorch.policy_gradient``)
on 2-player Harmonies through OpenSpiel, against a uniformly random opponent.

    PYTHONPATH=. python examples/openspiel_a2c.py --episodes 300 --plot docs/openspiel-a2c.png

The game is ``python_glade_harmonies`` (``glade.rl.openspiel``) with normalised tensors, in
OpenSpiel's ``rl_environment``: seat 0 is the learner, seat 1 OpenSpiel's ``RandomAgent``. The
reward is the game's: +1 for a win, -1 for a loss. The script prints the learner's win rate against
random during training and, at the end, over ``--eval-games`` new games (acting greedily on its
policy, OpenSpiel's ``is_evaluation`` mode).
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


def make_env(seed: int) -> rl_environment.Environment:
    return rl_environment.Environment(
        glade_openspiel.HARMONIES, players=2, normalize=True, rng_seed=seed
    )


def play(env: rl_environment.Environment, agents: list, evaluate: bool) -> float:
    """One game; the learner's (seat 0) return."""
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        output = agents[seat].step(step, is_evaluation=evaluate)
        step = env.step([output.action])
    for agent in agents:  # the final step lets the learner see its reward and learn
        agent.step(step, is_evaluation=evaluate)
    return float(step.rewards[0])


def train(
    episodes: int, seed: int = 0, batch_size: int = 8, hidden: int = 128
) -> tuple[list, list[float], rl_environment.Environment]:
    torch.manual_seed(seed)
    np.random.seed(seed)
    env = make_env(seed)
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
    returns = [play(env, agents, evaluate=False) for _ in range(episodes)]
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
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=None)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    start = time.monotonic()
    agents, returns, env = train(args.episodes, args.seed, args.batch_size, args.hidden)
    took = time.monotonic() - start
    print(f"trained {len(returns)} episodes in {took:.0f}s")
    if returns:
        last = returns[-50:]
        print(
            f"win rate against random, last {len(last)} training games: {np.mean(np.array(last) > 0):.2f}"
        )
    evals = [play(env, agents, evaluate=True) for _ in range(args.eval_games)]
    print(
        f"win rate against random over {args.eval_games} evaluation games: {np.mean(np.array(evals) > 0):.2f}"
    )
    if args.plot is not None:
        plot(returns, args.plot, f"OpenSpiel A2C, Harmonies 2p vs random: {took / 60:.0f} min")
        print(f"learning curve written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
