"""Hints decide from what the seat may know: hidden orders do not change them."""

from __future__ import annotations

import random

import glade
from glade.bots import Budget
from glade.bots.hint import hint
from glade.harmonies.game import HarmoniesGame


def test_a_hint_ignores_the_pouch_deck_and_others_spirit_offers() -> None:
    state = glade.new_game("harmonies", seed=21, players=3, spirits=True)
    assert isinstance(state, HarmoniesGame)
    # seat 0 chooses its spirit, then the hint is asked for its first real move
    state.apply(0, state.legal_actions(0)[0])
    twin = state.copy()
    rng = random.Random(4)
    rng.shuffle(twin.pouch)
    rng.shuffle(twin.deck)
    # the other seats' face-down offers are swapped between them
    twin.boards[1].offer, twin.boards[2].offer = twin.boards[2].offer, twin.boards[1].offer
    assert twin.pouch != state.pouch and twin.deck != state.deck
    budget = Budget(iterations=12)
    assert hint(state, 0, budget, seed=3) == hint(twin, 0, budget, seed=3)


def test_a_living_forest_hint_ignores_the_order_of_draw_stacks() -> None:
    state = glade.new_game("living-forest", seed=8, players=2)
    twin = state.copy()
    random.Random(2).shuffle(twin.decks[1])  # the other spirit's draw stack, in another order
    random.Random(3).shuffle(twin.decks[0])  # and one's own: nobody knows its order
    assert twin.decks != state.decks
    budget = Budget(iterations=12)
    assert hint(state, 0, budget, seed=5) == hint(twin, 0, budget, seed=5)
