"""glade's research API: PettingZoo and Gymnasium environments, a batched runner, rollouts.

``glade.rl.harmonies_v0`` and ``glade.rl.living_forest_v0`` are PettingZoo AEC environments
(``.env()``) and parallel ones (``.parallel_env()``); importing ``glade.rl`` registers the
Gymnasium environments ``glade/HarmoniesSolo-v0`` (solo) and ``glade/HarmoniesVsBots-v0`` /
``glade/LivingForestVsBots-v0`` (one learner against glade's bots, ``glade.rl.opponents``);
``glade.rl.openspiel`` registers both games with OpenSpiel when imported.
Install with the extra: ``pip install 'glade[rl]'`` (without it, importing ``glade.rl`` raises
``glade.extras.MissingExtra``, a ``ModuleNotFoundError`` that names the extra); OpenSpiel needs
``glade[openspiel]``, the training examples ``glade[train]``.
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
from .gym_vector import make_vector, vector_entry
from .opponents import OpponentsEnv, frozen
from .rollouts import Episode, rollouts
from .solo import MAX_EPISODE_STEPS, HarmoniesSoloEnv
from .vector import VectorGames

SOLO_ID = "glade/HarmoniesSolo-v0"
HARMONIES_VS_BOTS_ID = "glade/HarmoniesVsBots-v0"
LIVING_FOREST_VS_BOTS_ID = "glade/LivingForestVsBots-v0"
# a step of the bot envs is one learner move; a game never takes more than these (the limit
# only ends episodes an agent prolongs with refused moves)
VS_BOTS_MAX_STEPS = {HARMONIES_VS_BOTS_ID: 2_000, LIVING_FOREST_VS_BOTS_ID: 20_000}
# The envs refuse a step or a render before reset() themselves and their spaces are checked by
# the test suite (Gymnasium's check_env), so gymnasium.make adds neither its order-enforcing
# wrapper nor its passive checker: each would cost a Python call a step (about 1 us each, a
# fifth of a solo step's own work). TimeLimit (max_episode_steps) stays. gymnasium.make_vec
# builds their vector envs with same-step autoreset (glade.rl.gym_vector), so that no mask it
# hands out is all zero.

if SOLO_ID not in gymnasium.registry:
    gymnasium.register(
        id=SOLO_ID,
        entry_point="glade.rl.solo:HarmoniesSoloEnv",
        max_episode_steps=MAX_EPISODE_STEPS,
        vector_entry_point=vector_entry(SOLO_ID),
        order_enforce=False,
        disable_env_checker=True,
    )
for _id, _game in (
    (HARMONIES_VS_BOTS_ID, "harmonies"),
    (LIVING_FOREST_VS_BOTS_ID, "living-forest"),
):
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="glade.rl.opponents:OpponentsEnv",
            max_episode_steps=VS_BOTS_MAX_STEPS[_id],
            kwargs={"game": _game},
            vector_entry_point=vector_entry(_id),
            order_enforce=False,
            disable_env_checker=True,
        )

__all__ = [
    "HARMONIES_VS_BOTS_ID",
    "LIVING_FOREST_VS_BOTS_ID",
    "Episode",
    "GladeAECEnv",
    "HarmoniesSoloEnv",
    "OpponentsEnv",
    "REWARDS",
    "SOLO_ID",
    "VectorGames",
    "frozen",
    "harmonies_v0",
    "living_forest_v0",
    "make_vector",
    "rollouts",
]
