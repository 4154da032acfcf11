"""glade: digital editions of Harmonies and Living Forest.

state = glade.new_game("harmonies", players=2, seed=7, side="A", spirits=False)
state = glade.new_game("living-forest", players=3, seed=7)
"""

from __future__ import annotations

from typing import Any

from .core import Action, BadInput, Game, IllegalAction
from .core.registry import GAMES, game_class, load_game, new_game

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


def __getattr__(name: str) -> Any:
    """``glade.score_board`` and ``glade.hint`` load their packages on first use."""
    if name == "score_board":
        from glade.harmonies.scoring import score_board

        return score_board
    if name == "hint":
        from glade.bots.hint import hint

        return hint
    raise AttributeError(f"module 'glade' has no attribute {name!r}")
