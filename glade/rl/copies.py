"""Pickles, cloud-pickles and deep copies of the environments, which continue exactly.

An environment holds parts that cannot be pickled or copied as they are: the encoders' compiled
kernels and the compiled per-move cores it derives from (C fields, bound to a live game). So each
environment reduces itself (``__reduce__``, used by ``pickle``, ``cloudpickle`` and
``copy.deepcopy``) to three things:

- the arguments of its constructor, which make a fresh environment of the same configuration;
- the attributes a game in progress changes (plain Python values: dicts, lists, arrays, the
  generators ``reset(seed)`` seeded, with their states);
- its game as a seed, options and the list of moves played (:class:`SavedGame`).

Rebuilding calls the constructor, puts the attributes back, then starts the game from its seed
and plays the moves again, each one told to the environment's encoder as it was the first time.
The seed is what every hidden order and every later draw comes from (``glade.core.chance``), so
the replayed game is the same state, draws to come included, and the encoder is in the state the
original's moves and observations left it in. (An encoder keeps what a turn changed, which a
game alone does not say, and refreshes some segments only when it observes: the score segment
of the AEC environments shows a seat's score as its last turn ended. So the seat to act is
observed before each replayed move; every environment observes at least once between a seat's
turns, and the refreshed values are the same whenever that happens.) A copy therefore gives the same observations, masks and rewards as the original for the same
actions, with either build of the engines and of the RL kernels, and may be unpickled where the
other build runs. Replaying costs about what playing the moves cost the first time.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from glade import new_game
from glade.core import Game

from .spec import Encoder


@dataclass(frozen=True)
class SavedGame:
    """What replays a game: its name, seed, options and moves as (seat, action id) pairs."""

    name: str
    seed: int
    options: dict[str, Any]
    moves: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, game: Game) -> SavedGame:
        return cls(
            game.game_name,
            game.seed,
            dict(game.options),
            tuple((int(seat), int(code)) for seat, code, _ in game.log),
        )

    def replay(self, encoder: Encoder | None = None) -> Game:
        """The game again, every move told to ``encoder`` (bound to it) as it is played and the
        seat to act observed before it, as the environments observe it."""
        game = new_game(self.name, seed=self.seed, **self.options)
        if encoder is None:
            for seat, code in self.moves:
                game.apply_action_id(seat, code, True)
            return game
        encoder.reset(game)
        view = np.empty(encoder.size, dtype=np.float32)
        for seat, code in self.moves:
            encoder.observe(game.to_act[0], out=view)
            game.apply_action_id(seat, code, True)
            encoder.after(seat, code)
        return game


def saved(game: Game | None) -> SavedGame | None:
    return None if game is None else SavedGame.of(game)


def playing(env: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The attributes ``names`` of ``env`` that it has (some appear only after a reset)."""
    missing = object()
    found = {name: getattr(env, name, missing) for name in names}
    return {name: value for name, value in found.items() if value is not missing}


def restore(cls: type, arguments: dict[str, Any], state: dict[str, Any]) -> Any:
    """A new ``cls(**arguments)`` with the attributes of ``state`` put back, then its
    ``_restored(game)`` told the saved game (``state["game"]``, a :class:`SavedGame` or None)."""
    state = dict(state)
    game = state.pop("game", None)
    env = cls(**arguments)
    for name, value in state.items():
        setattr(env, name, value)
    env._restored(game)
    return env


def deep_copy(env: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(env)`` through the environment's own reduction (the same as a pickle's
    round trip, without the bytes)."""
    function, args = env.__reduce__()
    return function(*copy.deepcopy(args, memo))


__all__ = ["SavedGame", "deep_copy", "playing", "restore", "saved"]
