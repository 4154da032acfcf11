"""Game-agnostic protocol, seeded randomness, errors and the action log."""

# before anything that may be compiled: which build runs (glade/core/compiled.py)
from . import compiled

compiled.activate()

from .actions import Action  # noqa: E402
from .errors import BadInput, Catalogue, IllegalAction, Refusal  # noqa: E402
from .game import UNDO, Game, LogEntry  # noqa: E402

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
