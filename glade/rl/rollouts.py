"""Episode collection, in this process or spread over a Ray cluster with ``ray=True``.

    episodes = glade.rl.rollouts("harmonies", episodes=100, seed=0, players=2)
    episodes = glade.rl.rollouts("harmonies", episodes=10_000, ray=True, players=2)

Episode ``k`` is the game of seed ``seed + k`` with the policy's generator seeded from the same
number, so the episodes are the same however they are spread over workers. A policy is a
picklable callable ``policy(observation, mask, rng) -> action index``; the default plays a
uniformly random legal move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from glade import new_game
from glade.core import BadInput

from .aec import check_reward, final_rewards
from .encoders import make_encoder

Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]


def random_policy(observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal move."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@dataclass
class Episode:
    """One finished game: every decision with what the acting seat saw, and the final outcome."""

    seed: int
    observations: np.ndarray  # (steps, observation size) float32, each from the acting seat's view
    masks: np.ndarray  # (steps, actions) int8
    actions: np.ndarray  # (steps,) int64
    seats: np.ndarray  # (steps,) int64, the acting seat of each step
    rewards: np.ndarray  # (players,) float32, final reward of each seat
    scores: list[int]

    def __len__(self) -> int:
        return len(self.actions)


def play_episode(
    game: str, seed: int, policy: Policy | None, reward: str, options: dict[str, Any]
) -> Episode:
    """Play one game of seed ``seed`` with ``policy`` choosing every seat's moves."""
    choose = policy or random_policy
    encoder = make_encoder(game, **options)
    check_reward(reward, encoder.players)
    state = new_game(encoder.game_name, seed=seed, **encoder.options)
    encoder.reset(state)
    rng = np.random.default_rng(seed)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    seats: list[int] = []
    n_actions = encoder.n_actions
    while not state.is_over:
        seat = state.to_act[0]
        obs = encoder.observe(seat)
        mask = np.zeros(n_actions, dtype=np.int8)
        mask[state.legal_action_ids(seat)] = 1
        code = int(choose(obs, mask, rng))
        if not (0 <= code < n_actions and mask[code]):
            why = state.why_illegal(seat, code) if 0 <= code < n_actions else "no such action"
            raise BadInput(
                f"the policy chose action {code} for seat {seat}, which is not legal: {why}"
            )
        state.apply_action_id(seat, code, checked=True)
        encoder.after(seat, code)
        observations.append(obs)
        masks.append(mask)
        actions.append(code)
        seats.append(seat)
    result = state.result()
    return Episode(
        seed=seed,
        observations=np.stack(observations),
        masks=np.stack(masks),
        actions=np.array(actions, dtype=np.int64),
        seats=np.array(seats, dtype=np.int64),
        rewards=np.array(final_rewards(result, reward), dtype=np.float32),
        scores=list(result["scores"]),
    )


def _collect(
    game: str, seeds: list[int], policy: Policy | None, reward: str, options: dict[str, Any]
) -> list[Episode]:
    return [play_episode(game, s, policy, reward, options) for s in seeds]


def rollouts(
    game: str = "harmonies",
    episodes: int = 1,
    seed: int = 0,
    policy: Policy | None = None,
    reward: str = "score_diff",
    ray: bool = False,
    workers: int | None = None,
    ray_address: str | None = None,
    **options: Any,
) -> list[Episode]:
    """Collect ``episodes`` games, in order of seed.

    With ``ray=True`` the seeds are split into ``workers`` chunks (default: the cluster's CPUs)
    run as Ray tasks; Ray is started with ``ray_address`` (None: a local instance) unless it is
    already running.
    """
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 0:
        raise BadInput("episodes must be a whole number of at least 0")
    encoder = make_encoder(game, **options)  # bad names and options fail here, before any work
    check_reward(reward, encoder.players)
    seeds = [seed + k for k in range(episodes)]
    if not ray:
        return _collect(game, seeds, policy, reward, options)
    import ray as ray_lib

    if not ray_lib.is_initialized():
        ray_lib.init(address=ray_address, include_dashboard=False)
    if workers is None:
        workers = max(1, int(ray_lib.cluster_resources().get("CPU", 1)))
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BadInput("workers must be a whole number of at least 1")
    chunks = [seeds[k::workers] for k in range(workers) if seeds[k::workers]]
    task = ray_lib.remote(_collect)
    futures = [task.remote(game, chunk, policy, reward, options) for chunk in chunks]
    found = {ep.seed: ep for chunk in ray_lib.get(futures) for ep in chunk}
    return [found[s] for s in seeds]
