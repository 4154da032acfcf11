"""Living Forest (Ludonaute 2021): the rules engine for the base game, 2-4 spirits.

``LivingForestGame`` (``game.py``) is the engine; ``snapshot()`` gives outside readers a typed,
read-only copy of its state (``ForestSnapshot``); ``docs/living-forest.md`` maps the package.
"""

from .game import LivingForestGame
from .snapshot import ForestSnapshot, SpiritSnapshot, TableSnapshot

__all__ = ["ForestSnapshot", "LivingForestGame", "SpiritSnapshot", "TableSnapshot"]
