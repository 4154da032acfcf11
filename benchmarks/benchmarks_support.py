"""A finished greedy 2-player game, for the review benchmarks."""

from __future__ import annotations

import glade
from glade.bots import make_bot
from glade.core import Game


def finished(name: str, seed: int) -> Game:
    g = glade.new_game(name, seed=seed, players=2)
    bots = [make_bot("greedy", name, seed=seed * 2 + i) for i in range(2)]
    while not g.is_over:
        s = g.to_act[0]
        for a in bots[s].choose(g, s):
            g.apply(s, a)
    return g
