"""Hints decide from what the seat may know: hidden orders do not change them."""

from __future__ import annotations

import random

import glade
from glade.bots import Budget
from glade.bots.hint import hint
from glade.harmonies.game import HarmoniesGame
from glade.living_forest.game import ACTIONS, LivingForestGame


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
    assert isinstance(state, LivingForestGame)
    twin = state.copy()
    with twin.edit() as st:
        random.Random(2).shuffle(st.draw_stacks[1])  # the other spirit's, in another order
        random.Random(3).shuffle(st.draw_stacks[0])  # and one's own: nobody knows its order
    assert twin.snapshot().spirits != state.snapshot().spirits
    budget = Budget(iterations=12)
    assert hint(state, 0, budget, seed=5) == hint(twin, 0, budget, seed=5)


def test_living_forest_greedy_ignores_the_order_of_hidden_stacks() -> None:
    from glade.bots import make_bot

    rng = random.Random(9)
    checked = 0
    for seed in range(8):
        state = glade.new_game("living-forest", seed=seed, players=2)
        # play on into an action phase, where the greedy bot looks ahead on a blind copy
        for _ in range(400):
            if not state.to_act or (state.phase == ACTIONS and len(state.to_act) == 1):
                break
            seat = rng.choice([s for s in state.to_act if state.legal_action_ids(s)])
            state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)))
        if not state.to_act or len(state.legal_action_ids(state.to_act[0])) < 3:
            continue
        seat = state.to_act[0]
        assert isinstance(state, LivingForestGame)
        twin = state.copy()
        known = state.known_on_top()
        with twin.edit() as st:
            for s, pile in enumerate(st.draw_stacks):
                hidden = pile[: len(pile) - min(known[s], len(pile))]
                random.Random(seed).shuffle(hidden)
                pile[: len(hidden)] = hidden
            for stack in st.animal_stacks:
                random.Random(seed + 1).shuffle(stack)
        a = make_bot("greedy", "living-forest", seed=7).choose(state, seat)
        b = make_bot("greedy", "living-forest", seed=7).choose(twin, seat)
        assert a == b, seed
        checked += 1
    assert checked >= 3
