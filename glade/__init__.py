"""glade: digital editions of Harmonies and Living Forest.

state = glade.new_game("harmonies", players=2, seed=7, side="A", spirits=False)
state = glade.new_game("living-forest", players=3, seed=7)
"""

from __future__ import annotations

import importlib
import secrets
from typing import Any

from .core import Action, BadInput, Game, IllegalAction
from .core.refusals import CORE

__all__ = [
    "Action",
    "BadInput",
    "Game",
    "GAMES",
    "IllegalAction",
    "game_class",
    "load_game",
    "new_game",
]
__version__ = "0.1.0"  # the one place: pyproject.toml reads it, `glade --version` prints it

# game name -> "module:Class"; imported lazily so one game never pays for the other.
GAMES: dict[str, str] = {
    "harmonies": "glade.harmonies.game:HarmoniesGame",
    "living-forest": "glade.living_forest.game:LivingForestGame",
}


def game_class(name: str) -> type[Game]:
    """The engine class of a game name ("harmonies" or "living-forest")."""
    key = name.replace("_", "-").lower() if isinstance(name, str) else name
    if key not in GAMES:
        raise CORE.bad_input("game.unknown", name=repr(name), choices=", ".join(GAMES))
    module, cls = GAMES[key].split(":")
    found: type[Game] = getattr(importlib.import_module(module), cls)
    return found


def new_game(name: str, seed: int | None = None, **options: Any) -> Game:
    """A new game; unknown or invalid options raise BadInput with a sentence."""
    if seed is None:
        seed = secrets.randbelow(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise CORE.bad_input("seed.not_int")
    return game_class(name).new(seed, options)


def load_game(data: dict[str, Any]) -> Game:
    """Exact inverse of ``Game.to_json()``."""
    if not isinstance(data, dict) or "game" not in data:
        raise CORE.bad_input("save.not_glade")
    return game_class(data["game"]).from_json(data)


def __getattr__(name: str) -> Any:
    """``glade.score_board`` and ``glade.hint`` load their packages on first use."""
    if name == "score_board":
        from glade.harmonies.scoring import score_board

        return score_board
    if name == "hint":
        from glade.bots.hint import hint

        return hint
    raise AttributeError(f"module 'glade' has no attribute {name!r}")
