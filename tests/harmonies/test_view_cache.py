"""The boards' view kept between versions (``board_json``): what every view gives equals, byte
for byte, the view of the same game rebuilt from nothing (no board kept), for every seat and
the spectator, at every step of many random games played as the server plays them (each
action on a copy), undos, spirit offers and the ends included."""

from __future__ import annotations

import json
import random

import pytest

import glade
from glade.harmonies.game import HarmoniesGame


def _text(view: dict[str, object]) -> str:
    return json.dumps(view, separators=(",", ":"))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 1, "spirits": True},
        {"players": 2},
        {"players": 2, "spirits": True, "side": "B"},
        {"players": 3, "spirits": True},
        {"players": 4},
    ],
)
def test_kept_board_views_equal_views_built_from_nothing(options: dict[str, object]) -> None:
    rng = random.Random(11)
    steps = kept = 0
    for seed in range(8):
        state = glade.new_game("harmonies", seed=seed, **options)
        assert isinstance(state, HarmoniesGame)
        seats: list[int | None] = [None, *range(state.num_players)]
        while True:
            fresh = glade.load_game(state.to_json())  # the same game, no board view kept
            for seat in seats:
                assert _text(state.view(seat)) == _text(fresh.view(seat)), (seed, seat)
            both = state.views(seats)
            again = fresh.views(seats)
            for seat in seats:
                assert _text(both[seat]) == _text(again[seat])
            steps += 1
            if state.is_over:
                break
            seat = rng.choice(list(state.to_act))
            before = [state.board_json(s) for s in range(state.num_players)]
            after = state.copy()
            after.apply(seat, rng.choice(after.legal_actions(seat)))
            for s in range(state.num_players):
                if s != seat and after.board_json(s) is before[s]:
                    kept += 1  # a board the action did not touch gives its kept view again
            # the old state (a push being built for it) still shows what it showed
            assert [state.board_json(s) for s in range(state.num_players)] == before
            state = after
    assert steps > 200
    if options["players"] != 1:
        assert kept > steps // 2


def test_a_hidden_copy_shows_each_seat_only_what_it_may_know() -> None:
    """Kept board views carry no hidden part: a seat's resampled copy (spirit offers and
    piles re-dealt) views each board as the true game does."""
    rng = random.Random(3)
    state = glade.new_game("harmonies", seed=4, players=3, spirits=True)
    for _ in range(40):
        if state.is_over:
            break
        for seat in (None, 0, 1, 2):
            copy = state.resample_hidden(seat, rng)
            fresh = glade.load_game(copy.to_json())
            assert _text(copy.view(seat)) == _text(fresh.view(seat))
            assert copy.view(seat)["boards"] == state.view(seat)["boards"]
        mover = rng.choice(list(state.to_act))
        state.apply(mover, rng.choice(state.legal_actions(mover)))
