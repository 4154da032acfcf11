"""Gymnasium vector environments of glade's single-agent envs, in same-step autoreset mode.

``gymnasium.make_vec("glade/HarmoniesSolo-v0", num_envs=8)`` (and the two vs-bots ids) builds
its vector environment here (the ids' ``vector_entry_point``): a ``SyncVectorEnv`` (or, with
``asynchronous=True``, an ``AsyncVectorEnv``) whose autoreset mode is ``SAME_STEP``. The step
that ends a game resets that environment at once and hands out the new game's first
observation and info (``info["action_mask"]``, ``call("action_masks")``), the finished game's
in ``info["final_obs"]`` and ``info["final_info"]``: every mask handed out has a legal move.

Gymnasium's default mode, ``NEXT_STEP`` (what ``vectorization_mode="sync"`` gives unless
``vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}`` is passed),
hands out the finished game's last observation and an all-zero mask, and ignores the action of
the next step, which resets the game; a masked policy must then not sample from that mask.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from glade.core import BadInput


def make_vector(
    env_id: str, num_envs: int = 1, asynchronous: bool = False, **kwargs: Any
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """``num_envs`` copies of ``gymnasium.make(env_id, **kwargs)`` in one vector environment
    with same-step autoreset (the sub-environments pickle; ``env_fns`` are partials of
    ``gymnasium.make``)."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise BadInput(f"num_envs is a whole number of at least 1, not {num_envs!r}")
    make = functools.partial(gymnasium.make, env_id, **kwargs)
    cls = AsyncVectorEnv if asynchronous else SyncVectorEnv
    return cls([make] * num_envs, autoreset_mode=AutoresetMode.SAME_STEP)


def vector_entry(env_id: str) -> Any:
    """The ``vector_entry_point`` of ``env_id``: ``make_vector`` for that id."""
    return functools.partial(make_vector, env_id)


__all__ = ["make_vector", "vector_entry"]
