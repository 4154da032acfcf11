"""The one seeded source of randomness of a game.

Every random event draws from a named *stream* of the game's seed (for example the pouch shuffle,
or one spirit's n-th reshuffle). A stream is an independent ``random.Random`` seeded from the text
``"<seed>/<stream>"`` (SHA-512 based, so identical on every platform and run). Because a game only
keeps the seed and counters, copying and serialising the randomness costs nothing, and the outcome
of simultaneous actions does not depend on the order in which they arrive.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

T = TypeVar("T")


def stream(seed: int, name: str) -> random.Random:
    """An independent generator for one named random event of the game with this seed."""
    return random.Random(f"{seed}/{name}")


def shuffled(seed: int, name: str, items: list[T]) -> list[T]:
    """A new list with ``items`` in the order the named stream deals them."""
    out = list(items)
    stream(seed, name).shuffle(out)
    return out


def check_seed(seed: Any) -> int:
    """Validate a user-supplied seed (any integer)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("the seed must be a whole number")
    return seed
