"""Determinization: a full game state consistent with what one seat may know.

Search bots never look at the true hidden parts of a state. For every simulation they copy the
state and re-deal its hidden parts from their own random generator. Each hidden part is first put
in a canonical order (sorted), so the sample depends only on the public contents and the bot's
RNG, never on the true order.

Harmonies hides the pouch order (its multiset is public), the animal draw pile's order (its
contents are the animals seen nowhere else) and the face-down spirit offers of the other seats.
Living Forest hides the order of every spirit's draw stack and of the three animal stacks (their
contents follow from public information) and the future shuffles of discard piles, which the
engine derives from the game's seed: the sample gets a seed of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from glade.core import BadInput, Game
from glade.harmonies.game import HarmoniesGame
from glade.living_forest.game import LivingForestGame


def determinize_harmonies(state: HarmoniesGame, seat: int, rng: random.Random) -> HarmoniesGame:
    """A copy of ``state`` with the pouch, draw pile and other seats' spirit offers re-dealt."""
    return state.resample_hidden(seat, rng)


def known_on_top(state: LivingForestGame) -> list[int]:
    """Per spirit: how many cards on top of its draw stack everyone knows (the engine's)."""
    return state.known_on_top()


def determinize_living_forest(
    state: LivingForestGame, seat: int, rng: random.Random
) -> LivingForestGame:
    """A copy of ``state`` with draw stacks, animal stacks and future shuffles re-dealt: the
    engine's ``LivingForestGame.resample_hidden``."""
    return state.resample_hidden(seat, rng)


Determinizer = Callable[[Game, int, random.Random], Game]


def _harmonies(state: Game, seat: int, rng: random.Random) -> Game:
    assert isinstance(state, HarmoniesGame)
    return determinize_harmonies(state, seat, rng)


def _living_forest(state: Game, seat: int, rng: random.Random) -> Game:
    assert isinstance(state, LivingForestGame)
    return determinize_living_forest(state, seat, rng)


DETERMINIZERS: dict[str, Determinizer] = {
    "harmonies": _harmonies,
    "living-forest": _living_forest,
}


def determinize(state: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``state`` whose hidden parts are re-sampled consistently with ``seat``'s view."""
    found = DETERMINIZERS.get(state.game_name)
    if found is None:
        raise BadInput(f"search bots cannot sample the hidden parts of {state.game_name} games")
    return found(state, seat, rng)


__all__ = [
    "DETERMINIZERS",
    "determinize",
    "determinize_harmonies",
    "determinize_living_forest",
    "known_on_top",
]
