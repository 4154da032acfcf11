"""glade's research API: PettingZoo and Gymnasium environments, a batched runner, rollouts.

``glade.rl.harmonies_v0`` and ``glade.rl.living_forest_v0`` are PettingZoo AEC environments;
importing ``glade.rl`` registers the Gymnasium environment ``glade/HarmoniesSolo-v0``.
Install with the extra: ``pip install 'glade[rl]'`` (without it, importing ``glade.rl`` raises
``glade.extras.MissingExtra``, a ``ModuleNotFoundError`` that names the extra).
"""

from __future__ import annotations

from glade.extras import missing_extra

try:  # the rl extra's packages, before any module of glade.rl needs them
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as exc:
    raise missing_extra("glade.rl", exc) from None

from . import harmonies_v0, living_forest_v0
from .aec import REWARDS, GladeAECEnv
from .rollouts import Episode, rollouts
from .solo import HarmoniesSoloEnv
from .vector import VectorGames

SOLO_ID = "glade/HarmoniesSolo-v0"
if SOLO_ID not in gymnasium.registry:
    gymnasium.register(id=SOLO_ID, entry_point="glade.rl.solo:HarmoniesSoloEnv")

__all__ = [
    "Episode",
    "GladeAECEnv",
    "HarmoniesSoloEnv",
    "REWARDS",
    "SOLO_ID",
    "VectorGames",
    "harmonies_v0",
    "living_forest_v0",
    "rollouts",
]
