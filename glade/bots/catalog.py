"""Bots by name with levels (``random``, ``greedy``, ``mcts``, ``mcts:easy|normal|hard``).

Registers ``mcts`` in ``glade.bots.BOTS`` and builds bots from specs that carry a level, which
``glade.bots.make_bot`` does not pass on yet.
"""

from __future__ import annotations

import importlib

from glade.core import BadInput

from . import BOTS, Bot, make_bot
from .mcts import LEVELS

BOTS.setdefault("mcts", {"*": "glade.bots.mcts:MCTSBot"})


def make(spec: str, game: str, seed: int | None = None) -> Bot:
    """A bot from ``spec`` (``name`` or ``name:level``) for ``game``."""
    if not isinstance(spec, str) or not spec:
        raise BadInput("a bot is named by a string such as greedy or mcts:hard")
    base, _, level = spec.partition(":")
    if not level:
        return make_bot(base, game, seed)
    if base != "mcts":
        raise BadInput(f"the bot {base!r} has no levels; only mcts has ({', '.join(LEVELS)})")
    choices = BOTS["mcts"]
    target = choices.get(game) or choices["*"]
    module, cls = target.split(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(seed=seed, level=level)
    return bot


def names() -> list[str]:
    """Every bot spec a user may type."""
    return sorted(BOTS) + [f"mcts:{level}" for level in LEVELS]


__all__ = ["make", "names"]
