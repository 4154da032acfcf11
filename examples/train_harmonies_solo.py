"""Train a masked policy on Harmonies solo with PyTorch (CPU), then compare it with baselines.

    PYTHONPATH=. python examples/train_harmonies_solo.py --minutes 3

The policy is a small network over the solo observation of ``glade.rl`` whose logits on illegal
moves are masked out, trained by REINFORCE on 16 games stepped together by ``VectorGames``; the
return of every move is the game's final score minus a running baseline. At the end it prints the
mean solo score of the trained policy (its most likely legal move each time), of uniformly random
legal play and, when the greedy bot is installed, of ``glade.bots.make_bot("greedy", "harmonies")``,
all on the same evaluation seeds.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from torch import nn

import glade
import glade.bots
from glade.core import BadInput
from glade.rl import VectorGames
from glade.rl.harmonies_encoding import HarmoniesEncoder

EVAL_SEED = 1_000_000  # evaluation games use seeds from here, apart from the training seeds


class MaskedPolicy(nn.Module):
    """An MLP from the observation to one logit per action; illegal actions get -inf."""

    def __init__(self, obs_size: int, n_actions: int, high: np.ndarray, hidden: int = 128) -> None:
        super().__init__()
        scale = np.where(high > 0, 1.0 / np.maximum(high, 1e-6), 0.0).astype(np.float32)
        self.register_buffer("scale", torch.from_numpy(scale))
        self.net = nn.Sequential(
            nn.Linear(obs_size, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, n_actions),
        )

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        scale: torch.Tensor = self.get_buffer("scale")
        logits: torch.Tensor = self.net(obs * scale)
        return logits.masked_fill(mask == 0, float("-inf"))


def train(
    minutes: float = 3.0,
    max_steps: int | None = None,
    batch: int = 16,
    update_every: int = 8,
    hidden: int = 128,
    lr: float = 1e-3,
    side: str = "A",
    seed: int = 0,
) -> dict[str, Any]:
    """Train until ``minutes`` pass or ``max_steps`` moves are played; return the policy and stats."""
    torch.manual_seed(seed)
    runner = VectorGames(
        "harmonies", num_games=batch, seed=seed, reward="score", players=1, side=side
    )
    enc = runner.encoders[0]
    policy = MaskedPolicy(runner.obs_size, runner.n_actions, enc.high, hidden)
    optimiser = torch.optim.Adam(policy.parameters(), lr=lr)
    obs, masks, _ = runner.reset()
    trajectories: list[list[torch.Tensor]] = [[] for _ in range(batch)]
    pending: list[tuple[float, torch.Tensor]] = []
    baseline: float | None = None
    returns: list[float] = []
    steps = updates = 0
    deadline = time.monotonic() + minutes * 60
    while time.monotonic() < deadline and (max_steps is None or steps < max_steps):
        logits = policy(torch.from_numpy(obs), torch.from_numpy(masks))
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        logp = dist.log_prob(actions)
        for i in range(batch):
            trajectories[i].append(logp[i])
        obs, masks, _, rewards, dones = runner.step(actions.numpy())
        steps += batch
        for i in np.flatnonzero(dones).tolist():
            score = float(rewards[i, 0])
            returns.append(score)
            pending.append((score, torch.stack(trajectories[i]).sum()))
            trajectories[i] = []
        if len(pending) >= update_every:
            scores = [s for s, _ in pending]
            if baseline is None:
                baseline = float(np.mean(scores))
            loss = torch.stack([-(s - baseline) * lp for s, lp in pending]).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            baseline = 0.9 * baseline + 0.1 * float(np.mean(scores))
            pending = []
            trajectories = [[lp.detach() for lp in t] for t in trajectories]
            updates += 1
    return {
        "policy": policy,
        "steps": steps,
        "updates": updates,
        "episodes": len(returns),
        "returns": returns,
    }


def play_policy(policy: MaskedPolicy, seed: int, side: str) -> int:
    """One solo game with the policy's most likely legal move each time; the final score."""
    game = glade.new_game("harmonies", seed=seed, players=1, side=side)
    enc = HarmoniesEncoder(1, side)
    enc.reset(game)
    mask = np.zeros(enc.n_actions, dtype=np.int8)
    with torch.no_grad():
        while not game.is_over:
            mask.fill(0)
            mask[game.legal_action_ids(0)] = 1
            logits = policy(torch.from_numpy(enc.observe(0))[None], torch.from_numpy(mask)[None])
            code = int(logits.argmax())
            game.apply_action_id(0, code)
            enc.after(0, code)
    return int(game.result()["scores"][0])


def play_bot(spec: str, seed: int, side: str) -> int:
    """One solo game played by a registered bot; the final score."""
    game = glade.new_game("harmonies", seed=seed, players=1, side=side)
    bot = glade.bots.make_bot(spec, "harmonies", seed=seed)
    while not game.is_over:
        for action in bot.choose(game, 0):
            game.apply(0, action)
    return int(game.result()["scores"][0])


def greedy_available() -> bool:
    try:
        glade.bots.make_bot("greedy", "harmonies", seed=0)
    except (ImportError, BadInput):
        return False
    return True


def evaluate(policy: MaskedPolicy, games: int, side: str) -> dict[str, float | None]:
    seeds = [EVAL_SEED + k for k in range(games)]
    out: dict[str, float | None] = {
        "trained": float(np.mean([play_policy(policy, s, side) for s in seeds])),
        "random": float(np.mean([play_bot("random", s, side) for s in seeds])),
        "greedy": None,
    }
    if greedy_available():
        out["greedy"] = float(np.mean([play_bot("greedy", s, side) for s in seeds]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a masked policy on Harmonies solo.")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many moves")
    parser.add_argument("--batch", type=int, default=16, help="games stepped together")
    parser.add_argument("--update-every", type=int, default=8, help="finished games per update")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--side", choices=["A", "B"], default="A")
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    start = time.monotonic()
    run = train(
        args.minutes,
        args.max_steps,
        args.batch,
        args.update_every,
        args.hidden,
        args.lr,
        args.side,
        args.seed,
    )
    took = time.monotonic() - start
    print(
        f"trained {run['steps']} moves, {run['episodes']} games, {run['updates']} updates in {took:.0f}s"
    )
    if run["returns"]:
        last = run["returns"][-50:]
        print(f"mean score of the last {len(last)} training games: {np.mean(last):.1f}")
    scores = evaluate(run["policy"], args.eval_games, args.side)
    print(f"mean solo score over {args.eval_games} games (side {args.side}):")
    print(f"  trained policy  {scores['trained']:.1f}")
    print(f"  random          {scores['random']:.1f}")
    if scores["greedy"] is None:
        print("  greedy          not available (glade.bots has no greedy Harmonies bot installed)")
    else:
        print(f"  greedy          {scores['greedy']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
