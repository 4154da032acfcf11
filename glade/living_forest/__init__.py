"""Living Forest (Ludonaute 2021): the rules engine for the base game, 2-4 spirits."""

from .game import LivingForestGame

__all__ = ["LivingForestGame"]
