"""PettingZoo AEC environment of Living Forest (2-4 players): ``glade.rl.living_forest_v0.env()``.

    from glade.rl import living_forest_v0
    env = living_forest_v0.env(players=3)
    env.reset(seed=7)

In the simultaneous draw phase the agent to act is the lowest seat still drawing (the engine
accepts the draws in any order with the same result); in the action phase it is the acting spirit.
The parallel environment plays every spirit still drawing in one step (the engine's
``acting_together``).
"""

from __future__ import annotations

from typing import Any

from .aec import GladeAECEnv
from .common import RENDER_MODES
from .living_forest_encoding import LivingForestEncoder
from .parallel import GladeParallelEnv, parallel_of


class raw_env(GladeAECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Living Forest as an AEC environment; see ``docs/rl.md`` for the layouts."""

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "living_forest_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        reward: str = "score_diff",
        render_mode: str | None = None,
        normalize: bool = False,
        max_cycles: int | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__(
            LivingForestEncoder(players),
            reward=reward,
            render_mode=render_mode,
            normalize=normalize,
            max_cycles=max_cycles,
            illegal_action=illegal_action,
        )
        self._arguments = {
            "players": players,
            "reward": reward,
            "render_mode": render_mode,
            "normalize": normalize,
            "max_cycles": max_cycles,
            "illegal_action": illegal_action,
        }


def env(**kwargs: Any) -> raw_env:
    """The Living Forest environment (it checks its own call order, so no extra wrapper)."""
    return raw_env(**kwargs)


def parallel_env(**kwargs: Any) -> GladeParallelEnv:
    """The same game as a PettingZoo parallel environment (who acts in a step: see
    ``glade.rl.parallel``)."""
    return parallel_of(raw_env(**kwargs))


__all__ = ["env", "parallel_env", "raw_env"]
