"""The one seeded source of randomness of a game.

Every random event draws from a named *stream* of the game's seed (for example the pouch shuffle,
or one spirit's n-th reshuffle). A stream is an independent ``random.Random`` seeded from the text
``"<seed>/<stream>"`` (SHA-512 based, so identical on every platform and run). Because a game only
keeps the seed and counters, copying and serialising the randomness costs nothing, and the outcome
of simultaneous actions does not depend on the order in which they arrive.

``randbelow``, ``choice`` and ``shuffle`` draw exactly what ``random.Random``'s own methods draw
(the same calls of ``getrandbits``, in the same order: saved games replay from their seed), in
code the compiled engines run without going through ``random.py``'s Python methods;
``tests/core/test_chance.py`` compares them with the standard library's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def stream(seed: int, name: str) -> random.Random:
    """An independent generator for one named random event of the game with this seed."""
    return random.Random(f"{seed}/{name}")


def randbelow(rng: random.Random, n: int) -> int:
    """A number in [0, n) (n > 0), drawn as ``random.Random`` draws it for ``randrange(n)``:
    the bits of ``n``, drawn again while the number is too large."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``: one element of a non-empty sequence."""
    if not len(seq):
        raise IndexError("cannot choose from an empty sequence")
    return seq[randbelow(rng, len(seq))]


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: from the last place down, each swapped with one at or before it."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def shuffled(seed: int, name: str, items: list[T]) -> list[T]:
    """A new list with ``items`` in the order the named stream deals them."""
    out = list(items)
    shuffle(stream(seed, name), out)
    return out


def check_seed(seed: Any) -> int:
    """Validate a user-supplied seed (any integer)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("the seed must be a whole number")
    return seed
