"""PettingZoo parallel versions of the glade environments, by PettingZoo's turn-based conversion.

    from glade.rl import harmonies_v0
    env = harmonies_v0.parallel_env(players=2)
    observations, infos = env.reset(seed=7)
    while env.agents:
        actions = {a: env.sample_legal(a, observations[a]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

The games are turn-based, so a parallel step plays only the action of the agent whose turn it is
(``infos[agent]["active_agent"]``, the same for every agent, names it) and ignores the others'
(their masks are all zeros then, so a masked sampler gives them action 0). It is PettingZoo's
``turn_based_aec_to_parallel`` over the AEC environment; ``aec_to_parallel`` does not apply (it
needs every agent to act at once). Every agent's ``infos`` has the AEC keys plus ``active_agent``
from the first observation on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from .aec import GladeAECEnv


class GladeParallelEnv(turn_based_aec_to_parallel_wrapper):
    """The turn-based parallel view of a :class:`GladeAECEnv`."""

    def __init__(self, aec_env: GladeAECEnv) -> None:
        super().__init__(aec_env)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        observations, infos = super().reset(seed=seed, options=options)
        active = self.aec_env.agent_selection
        infos = {a: {**info, "active_agent": active} for a, info in infos.items()}
        return observations, infos

    def step(self, actions: dict[str, Any]) -> tuple[Any, ...]:
        # the AEC env's info dicts are copied first: the conversion writes into the ones it gets
        env = self.aec_env
        if not self.agents:
            return {}, {}, {}, {}, {}
        env.infos = {a: dict(info) for a, info in env.infos.items()}
        return tuple(super().step(actions))

    def sample_legal(self, agent: str, observation: dict[str, np.ndarray]) -> int:
        """A uniformly random legal action for ``agent`` from its observation's mask (0 when it
        is not the agent's turn: the conversion ignores that action)."""
        mask = observation["action_mask"]
        if not mask.any():
            return 0
        env: GladeAECEnv = self.aec_env
        return env.sample_legal(mask)

    def state(self) -> np.ndarray:
        env: GladeAECEnv = self.aec_env
        return env.state()


def parallel_of(aec_env: GladeAECEnv) -> GladeParallelEnv:
    return GladeParallelEnv(aec_env)
