"""PettingZoo AEC environment of Harmonies (1-4 players): ``glade.rl.harmonies_v0.env()``.

from glade.rl import harmonies_v0
env = harmonies_v0.env(players=2, side="A", spirits=False, reward="score_diff")
env.reset(seed=7)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    env.step(None if terminated or truncated else env.sample_legal())
"""

from __future__ import annotations

from typing import Any

from .aec import GladeAECEnv
from .common import RENDER_MODES
from .harmonies_encoding import HarmoniesEncoder
from .parallel import GladeParallelEnv, parallel_of


class raw_env(GladeAECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Harmonies as an AEC environment; see ``docs/rl.md`` for the observation and action layout."""

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "harmonies_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        side: str = "A",
        spirits: bool = False,
        reward: str = "score_diff",
        render_mode: str | None = None,
        normalize: bool = False,
        max_cycles: int | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__(
            HarmoniesEncoder(players, side, spirits),
            reward=reward,
            render_mode=render_mode,
            normalize=normalize,
            max_cycles=max_cycles,
            illegal_action=illegal_action,
        )
        self._arguments = {
            "players": players,
            "side": side,
            "spirits": spirits,
            "reward": reward,
            "render_mode": render_mode,
            "normalize": normalize,
            "max_cycles": max_cycles,
            "illegal_action": illegal_action,
        }


def env(**kwargs: Any) -> raw_env:
    """The Harmonies environment (it checks its own call order, so no extra wrapper is needed)."""
    return raw_env(**kwargs)


def parallel_env(**kwargs: Any) -> GladeParallelEnv:
    """The same game as a PettingZoo parallel environment (who acts in a step: see
    ``glade.rl.parallel``)."""
    return parallel_of(raw_env(**kwargs))


__all__ = ["env", "parallel_env", "raw_env"]
