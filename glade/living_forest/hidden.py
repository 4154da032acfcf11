"""Hidden information: what nobody knows (the order of the draw stacks below their publicly known
tops, of the animal stacks, and the future reshuffles), and re-dealing it for search."""

from __future__ import annotations

import random

from .space import A_DRAW, A_FIRE, A_PICK
from .state import ForestState


def known_on_top(s: ForestState) -> list[int]:
    """Per spirit: how many cards on top of its draw stack everyone knows (the animals it
    attracted, put there in view of all and not drawn since)."""
    known = [0] * s.players
    for seat, code, _ in s.log:
        if A_PICK <= code < A_FIRE:
            known[seat] += 1
        elif code == A_DRAW and known[seat]:
            known[seat] -= 1
    return known


def resample(s: ForestState, rng: random.Random) -> ForestState:
    """A copy of ``s`` in which every hidden order is re-dealt from ``rng`` (see
    ``LivingForestGame.resample_hidden``); its log is a copy of ``s``'s."""
    g = s.copy(list(s.log))
    g.seed = rng.getrandbits(63)
    known = known_on_top(s)
    for p, pile in enumerate(g.draw_stacks):
        cut = len(pile) - min(known[p], len(pile))
        hidden = sorted(pile[:cut])
        rng.shuffle(hidden)
        pile[:cut] = hidden
    for stack in g.animal_stacks:
        stack.sort()
        rng.shuffle(stack)
    return g
