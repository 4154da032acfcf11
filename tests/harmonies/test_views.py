"""``Game.views``: every seat's view at once, the same as ``view`` seat by seat."""

from __future__ import annotations

import json
import random

import pytest

import glade


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("harmonies", {"players": 1}),
        ("harmonies", {"players": 1, "spirits": True}),
        ("harmonies", {"players": 2}),
        ("harmonies", {"players": 2, "spirits": True, "side": "B"}),
        ("harmonies", {"players": 3, "spirits": True}),
        ("harmonies", {"players": 4}),
        ("living-forest", {"players": 2}),
        ("living-forest", {"players": 3}),
    ],
)
def test_views_equal_each_seats_view_to_the_key_order(game: str, options: dict[str, int]) -> None:
    """At every step of random games (spirit offers, solo suns, the end included), ``views``
    gives each seat and the spectator exactly ``view``'s answer: equal values, and the same
    JSON text, so the keys come in the same order too."""
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        state = glade.new_game(game, seed=seed, **options)
        seats: list[int | None] = [None, *range(state.num_players)]
        while True:
            asked = rng.sample(seats, rng.randint(1, len(seats)))
            found = state.views(asked)
            assert list(found) == asked
            for seat in asked:
                alone = state.view(seat)
                assert found[seat] == alone
                assert json.dumps(found[seat]) == json.dumps(alone)
            checked += 1
            if state.is_over:
                break
            seat = rng.choice(list(state.to_act))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 50


def test_views_refuse_a_seat_that_is_not_at_the_table() -> None:
    state = glade.new_game("harmonies", seed=1, players=2)
    with pytest.raises(glade.IllegalAction):
        state.views([0, 5])
