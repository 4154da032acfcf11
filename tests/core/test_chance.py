"""The engines' draws are the standard library's draws: ``glade.core.chance`` gives what
``random.Random``'s own methods give from the same generator state (saved games replay from their
seed, so a different draw would change every game)."""

from __future__ import annotations

import random

import pytest

from glade.core import chance


@pytest.mark.parametrize("seed", range(40))
def test_randbelow_choice_and_shuffle_draw_as_random_does(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in (1, 2, 3, 5, 7, 8, 9, 64, 65, 1000, 2**40 + 3):
        assert [chance.randbelow(ours, n) for _ in range(20)] == [
            theirs.randrange(n) for _ in range(20)
        ]
    seq = list(range(seed % 9 + 1))
    assert [chance.choice(ours, seq) for _ in range(30)] == [theirs.choice(seq) for _ in range(30)]
    for size in (0, 1, 2, 10, 120):
        a, b = list(range(size)), list(range(size))
        chance.shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
    assert ours.getstate() == theirs.getstate()


def test_shuffled_is_the_named_streams_shuffle() -> None:
    items = [c for c in range(6) for _ in range(20)]
    expected = list(items)
    random.Random("7/pouch").shuffle(expected)
    assert chance.shuffled(7, "pouch", items) == expected
    assert items == sorted(items)  # a new list: the given one is left as it was


def test_choice_refuses_an_empty_sequence() -> None:
    with pytest.raises(IndexError):
        chance.choice(random.Random(1), [])
