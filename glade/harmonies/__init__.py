"""Harmonies (Libellud 2024): rules engine, data and scoring."""

from .game import HarmoniesGame
from .scoring import score_board

__all__ = ["HarmoniesGame", "score_board"]
