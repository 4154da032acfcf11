"""A Living Forest position with every hidden order changed, for the no-peeking tests."""

from __future__ import annotations

import random

from glade.living_forest.game import LivingForestGame


def reorder_hidden(game: LivingForestGame, seed: int, seed_shift: int = 1) -> LivingForestGame:
    """The same game with other hidden orders below the public top of each draw stack, other
    animal stacks and another game seed (``seed_shift`` more; the seed decides future
    shuffles)."""
    other = game.copy()
    rng = random.Random(seed)
    other.seed = game.seed + seed_shift
    known = game.known_on_top()
    with other.edit() as state:
        for pile, top in zip(state.draw_stacks, known, strict=True):
            cut = len(pile) - min(top, len(pile))
            hidden = pile[:cut]
            rng.shuffle(hidden)
            pile[:cut] = hidden
        for stack in state.animal_stacks:
            rng.shuffle(stack)
    return other
