"""The greedy bot: legal moves only, beats random, does not depend on hidden orders."""

import random

from lf_helpers import state_of

import glade
from glade.bots import make_bot
from glade.living_forest.game import LivingForestGame


def play(seed: int, names: list[str]) -> LivingForestGame:
    g = glade.new_game("living-forest", players=len(names), seed=seed)
    assert isinstance(g, LivingForestGame)
    bots = [make_bot(n, "living-forest", seed=seed * 7 + i) for i, n in enumerate(names)]
    while not g.is_over:
        seat = g.to_act[0]
        for action in bots[seat].choose(g, seat):
            g.apply(seat, action)  # raises IllegalAction on an illegal move
    return g


def test_greedy_beats_random() -> None:
    wins = 0
    for i in range(20):
        seat = i % 2
        names = ["greedy", "random"] if seat == 0 else ["random", "greedy"]
        g = play(500 + i, names)
        wins += seat in g.result()["winners"]
    assert wins >= 17


def test_greedy_plays_legal_games_with_more_spirits() -> None:
    for n in (3, 4):
        g = play(40 + n, ["greedy"] * n)
        assert g.is_over and g.result()["winners"]


def test_greedy_choice_ignores_hidden_orders() -> None:
    g = glade.new_game("living-forest", players=3, seed=77)
    assert isinstance(g, LivingForestGame)
    rng = random.Random(1)
    checked = 0
    while not g.is_over and checked < 60:
        seat = g.to_act[0]
        twin = g.copy()
        for pile in state_of(twin).draw_stacks:
            rng.shuffle(pile)
        for stack in state_of(twin).animal_stacks:
            rng.shuffle(stack)
        a = make_bot("greedy", "living-forest", seed=5).choose(g, seat)
        b = make_bot("greedy", "living-forest", seed=5).choose(twin, seat)
        assert a == b
        checked += 1
        g.apply(seat, a[0])
