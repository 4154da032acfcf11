"""The game registry: game names, their engine classes, and the entry points on them.

Each game is named by the module and class of its engine, which are imported on first use so that
one game never pays for the other. This is the one place that knows which games exist: the names
below are data read with ``importlib``, not imports, so ``glade.core`` still depends on nothing
above it (``tests/core/test_layers.py``).
"""

from __future__ import annotations

import importlib
import secrets
from typing import Any, Final

from .game import Game
from .refusals import CORE

# game name -> "module:Class"
GAMES: Final[dict[str, str]] = {
    "harmonies": "glade.harmonies.game:HarmoniesGame",
    "living-forest": "glade.living_forest.game:LivingForestGame",
}


def game_class(name: str) -> type[Game]:
    """The engine class of a game name ("harmonies" or "living-forest").

    :raises BadInput: ``game.unknown`` for any other name.
    """
    key = name.replace("_", "-").lower() if isinstance(name, str) else name
    if key not in GAMES:
        raise CORE.bad_input("game.unknown", name=repr(name), choices=", ".join(GAMES))
    module, cls = GAMES[key].split(":")
    found: type[Game] = getattr(importlib.import_module(module), cls)
    return found


def new_game(name: str, seed: int | None = None, **options: Any) -> Game:
    """A new game; a random seed when none is given.

    :raises BadInput: an unknown game, a seed that is not an integer, unknown or invalid options.
    """
    if seed is None:
        seed = secrets.randbelow(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise CORE.bad_input("seed.not_int")
    return game_class(name).new(seed, options)


def load_game(data: dict[str, Any]) -> Game:
    """Exact inverse of ``Game.to_json()``.

    :raises BadInput: anything that is not a save of a known game, or a damaged save.
    """
    if not isinstance(data, dict) or "game" not in data:
        raise CORE.bad_input("save.not_glade")
    return game_class(data["game"]).from_json(data)


__all__ = ["GAMES", "game_class", "load_game", "new_game"]
