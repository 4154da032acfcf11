"""One check per rule: the legal list is the set of moves the one check allows, and the fused
fast paths (the draw phase, the choice of an action) give exactly what their plain definitions
give, at every position of random games of every player count."""

from __future__ import annotations

import random

import pytest
from lf_helpers import fresh, state_of

from glade.living_forest import choose, draw, rules
from glade.living_forest.game import ACTIONS, DRAW, S_CHOOSE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_legal_list_is_what_the_one_check_allows(players: int) -> None:
    fast_draw = fast_choose = 0
    for seed in range(4):
        g = fresh(players, seed=100 + seed)
        state = state_of(g)
        rng = random.Random(seed)
        size = len(g.action_table())
        while not g.is_over:
            for seat in range(players):
                allowed = [c for c in range(size) if rules.why(state, seat, c) is None]
                legal = g.legal_action_ids(seat)
                assert legal == rules.legal(state, seat)
                # (the same set; the choice of an action lists end_actions last)
                assert sorted(legal) == allowed and len(set(legal)) == len(legal)
                if state.phase == DRAW and state.drawing[seat]:
                    assert draw.legal(state, seat) == draw.legal_plain(state, seat)
                    fast_draw += 1
                choosing = state.phase == ACTIONS and state.step == S_CHOOSE
                if choosing and seat == state.current_spirit:
                    assert choose.legal(state, seat) == choose.legal_plain(state, seat)
                    fast_choose += 1
            seat = g.to_act[0]
            ids = g.legal_action_ids(seat)
            # draw more than uniformly, so that the spirits have the elements to act
            code = 0 if 0 in ids and rng.random() < 0.6 else rng.choice(ids)
            g.apply_action_id(seat, code)
    assert fast_draw > 500 and fast_choose > 100


def test_why_illegal_words_the_one_check() -> None:
    g = fresh(3, seed=5)
    state = state_of(g)
    rng = random.Random(5)
    size = len(g.action_table())
    for _ in range(300):
        for seat in range(3):
            for code in range(size):
                why = rules.why(state, seat, code)
                reason = g.why_illegal(seat, code)
                if why is None:
                    assert reason is None
                else:
                    assert reason is not None
                    assert (reason.code, reason.params) == why
        seat = g.to_act[0]
        g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
        if g.is_over:
            break
