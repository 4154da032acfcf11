"""Game-agnostic protocol, seeded randomness, errors and the action log."""

from .actions import Action
from .errors import BadInput, IllegalAction
from .game import UNDO, Game, LogEntry

__all__ = ["Action", "BadInput", "Game", "IllegalAction", "LogEntry", "UNDO"]
