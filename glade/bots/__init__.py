"""Bots for both games behind one interface and one registry.

A bot's ``choose(state, seat, budget)`` returns the actions it wants to play now, in order (at
least one); the caller applies them one by one. Bots read only what ``seat`` may know.

The registry is ``BOTS`` (which class plays which game) and ``LEVELS`` (the bots that take a
level after a colon); ``make_bot("mcts:hard", "harmonies")`` builds one and ``bot_names()`` lists
every spec a user may type. Bot modules are imported on first use.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Protocol

from glade.core import UNDO, Action, BadInput, Game


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: wall-clock seconds and/or search iterations (None = its default)."""

    seconds: float | None = None
    iterations: int | None = None


class Bot(Protocol):
    name: str

    def choose(self, state: Game, seat: int, budget: Budget | None = None) -> list[Action]: ...


class RandomBot:
    """Uniformly random legal move (undo never)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Game, seat: int, budget: Budget | None = None) -> list[Action]:
        ids = state.legal_action_ids(seat)
        if not ids:
            raise BadInput(f"seat {seat} has no move to make")
        return [state.action_table()[self.rng.choice(ids)]]


# bot name -> {game name -> "module:Class"}; "*" serves every game.
BOTS: dict[str, dict[str, str]] = {
    "random": {"*": "glade.bots:RandomBot"},
    "greedy": {
        "harmonies": "glade.bots.harmonies_greedy:HarmoniesGreedy",
        "living-forest": "glade.bots.living_forest_greedy:LivingForestGreedy",
    },
    "mcts": {"*": "glade.bots.mcts:MCTSBot"},
}
# bots that take a level after a colon, and the levels they know
LEVELS: dict[str, tuple[str, ...]] = {"mcts": ("easy", "normal", "hard")}
# how many times a server's base thinking time (``--bot-seconds``) a level may take a move. A
# level's strength is its iterations; the cap lets an idle core finish them (Harmonies, 2 players,
# CPU a move over each seat's first six turns: ``mcts:normal`` 40 iterations 1.75 s, ``mcts:hard``
# 150 iterations 6.4 s; Living Forest ``mcts:hard`` 0.11 s), so that the level a player meets on
# the server is the level the arena calibrated (docs/strength.md)
LEVEL_TIME: dict[str, float] = {"easy": 1.0, "normal": 2.0, "hard": 8.0}


def thinking_seconds(spec: str, base: float) -> float:
    """The wall-clock cap a server gives the bot ``spec`` a move, from its base thinking time."""
    _, _, level = spec.partition(":")
    return base * LEVEL_TIME.get(level, 1.0)


def make_bot(spec: str, game: str, seed: int | None = None) -> Bot:
    """A bot from its registry name (``random``, ``greedy``, ``mcts:normal`` ...) for ``game``."""
    if not isinstance(spec, str) or not spec:
        raise BadInput("a bot is named by a string such as greedy or mcts:hard")
    base, _, level = spec.partition(":")
    if level and level not in LEVELS.get(base, ()):
        known = LEVELS.get(base)
        if not known:
            leveled = ", ".join(f"{b} ({', '.join(lv)})" for b, lv in LEVELS.items())
            raise BadInput(f"the bot {base!r} has no levels; only these have: {leveled}")
        raise BadInput(f"unknown {base} level {level!r}; levels are {', '.join(known)}")
    choices = BOTS.get(base)
    if choices is None:
        raise BadInput(f"unknown bot {spec!r}; choose one of: {', '.join(sorted(BOTS))}")
    target = choices.get(game) or choices.get("*")
    if target is None:
        raise BadInput(f"the bot {base!r} does not play {game}")
    module, cls = target.split(":")
    factory = getattr(importlib.import_module(module), cls)
    bot: Bot = factory(seed=seed, level=level) if level else factory(seed=seed)
    return bot


def bot_names() -> list[str]:
    """Every bot spec a user may type, levels included."""
    return sorted(BOTS) + [f"{b}:{lv}" for b, levels in LEVELS.items() for lv in levels]


__all__ = [
    "BOTS",
    "LEVELS",
    "LEVEL_TIME",
    "Bot",
    "Budget",
    "RandomBot",
    "UNDO",
    "bot_names",
    "make_bot",
    "thinking_seconds",
]
