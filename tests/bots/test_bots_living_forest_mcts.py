"""ISMCTS on Living Forest: legal play, no peeking at hidden orders, determinism."""

from __future__ import annotations

import random

from lf_hidden import reorder_hidden

import glade
from glade.bots import Budget
from glade.bots import make_bot as make
from glade.bots.mcts import MCTSBot
from glade.living_forest.game import LivingForestGame


def _midgame(seed: int, steps: int) -> LivingForestGame:
    game = glade.new_game("living-forest", seed=seed, players=2)
    assert isinstance(game, LivingForestGame)
    bots = [make("greedy", "living-forest", seed=s) for s in range(2)]
    for _ in range(steps):
        seat = game.to_act[0]
        for action in bots[seat].choose(game, seat):
            game.apply(seat, action)
    return game


def test_living_forest_determinization_keeps_what_is_public() -> None:
    game = _midgame(1, 120)
    sample = game.resample_hidden(0, random.Random(2))
    assert isinstance(sample, LivingForestGame)
    known, drawn = sample.snapshot(), game.snapshot()
    for s in range(2):
        pile, true_pile = known.spirits[s].draw_stack, drawn.spirits[s].draw_stack
        assert sorted(pile) == sorted(true_pile)
        top = game.known_on_top()[s]
        if top:
            assert pile[-top:] == true_pile[-top:]
    assert [sorted(x) for x in known.animal_stacks] == [sorted(x) for x in drawn.animal_stacks]
    assert sample.view(0) == game.view(0)
    other = reorder_hidden(game, 3)
    again = other.resample_hidden(0, random.Random(2))
    assert isinstance(again, LivingForestGame)
    assert again.snapshot() == known


def test_living_forest_mcts_never_reads_the_hidden_order() -> None:
    checked = 0
    for steps in (0, 40, 90, 140):
        game = _midgame(4, steps)
        if game.is_over:
            continue
        other = reorder_hidden(game, steps)
        seat = game.to_act[0]
        a = MCTSBot(seed=5).choose(game, seat, Budget(iterations=20))
        b = MCTSBot(seed=5).choose(other, seat, Budget(iterations=20))
        assert a == b
        checked += 1
    assert checked >= 3


def test_living_forest_mcts_plays_a_legal_game_deterministically() -> None:
    def play(seed: int) -> list[int]:
        game = glade.new_game("living-forest", seed=seed, players=2)
        bots = [MCTSBot(seed=1), make("greedy", "living-forest", seed=2)]
        while not game.is_over:
            seat = game.to_act[0]
            for action in bots[seat].choose(game, seat, Budget(iterations=3)):
                game.apply(seat, action)  # raises IllegalAction on an illegal move
        scores: list[int] = game.result()["scores"]
        return scores

    first = play(7)
    assert first == play(7)
    assert max(first) >= 12
