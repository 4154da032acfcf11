"""Game-agnostic protocol, seeded randomness, errors and the action log."""

from .actions import Action
from .errors import BadInput, Catalogue, IllegalAction, Refusal
from .game import UNDO, Game, LogEntry

__all__ = [
    "Action",
    "BadInput",
    "Catalogue",
    "Game",
    "IllegalAction",
    "LogEntry",
    "Refusal",
    "UNDO",
]
