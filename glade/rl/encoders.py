"""The encoder of each game by name, so the runner and rollouts work for either game."""

from __future__ import annotations

import importlib
from typing import Any

from glade.core import BadInput

from .spec import Encoder

ENCODERS: dict[str, str] = {
    "harmonies": "glade.rl.harmonies_encoding:HarmoniesEncoder",
    "living-forest": "glade.rl.living_forest_encoding:LivingForestEncoder",
}


def make_encoder(game: str, **options: Any) -> Encoder:
    """A fresh encoder for ``game`` ("harmonies" ...) and its options (players, ...)."""
    key = game.replace("_", "-").lower() if isinstance(game, str) else game
    if key not in ENCODERS:
        raise BadInput(f"unknown game {game!r}; choose one of: {', '.join(ENCODERS)}")
    module, cls = ENCODERS[key].split(":")
    encoder: Encoder = getattr(importlib.import_module(module), cls)(**options)
    return encoder
