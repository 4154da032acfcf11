"""Token placement lives on the Board; the view begins with the core view header."""

from __future__ import annotations

import random

import pytest

import glade
from glade.harmonies import HarmoniesGame
from glade.harmonies.data import NEXT


def test_placements_are_the_engines_legal_token_moves_and_place_applies_them() -> None:
    rng = random.Random(8)
    game = glade.new_game("harmonies", seed=8, players=2, side="B")
    assert isinstance(game, HarmoniesGame)
    checked = 0
    while not game.is_over:
        seat = game.current
        legal = game.legal_action_ids(seat)
        sp = game.space
        b = game.boards[seat]
        if game.hand:
            placing = [c for c in legal if sp.PLACE <= c < sp.CARD]
            pairs = b.placements(game.hand)
            assert [sp.PLACE + color * sp.n + cell for color, cell in pairs] == placing
            for color, cell in pairs:
                bit = 1 << sp.layout.bits[cell]
                assert b.placeable(color) & bit
                assert NEXT[b.cells[cell] * 6 + color] >= 0 and not b.cubes & bit
                trial = b.copy()
                trial.place(color, cell)
                assert trial.cells[cell] == NEXT[b.cells[cell] * 6 + color]
                assert trial.masks == sp.layout.masks_of(trial.cells)
                checked += 1
        game.apply_action_id(seat, rng.choice(legal))
    assert checked > 1000


def test_place_refuses_a_stack_that_cannot_be_built() -> None:
    game = HarmoniesGame.new(1, {"players": 2})
    b = game.boards[0]
    b.place(0, 0)  # water on 0,0
    with pytest.raises(ValueError):
        b.place(3, 0)  # no tree on water
    assert b.placeable(3) & 1 << game.space.layout.bits[0] == 0


HEADER = ["game", "options", "seat", "players", "to_act", "over", "can_undo", "result"]


@pytest.mark.parametrize("seat", [0, 1, None])
def test_view_begins_with_the_header_and_names_each_field_once(seat: int | None) -> None:
    game = glade.new_game("harmonies", seed=3, players=2, spirits=True)
    view = game.view(seat)
    assert list(view)[: len(HEADER)] == HEADER
    assert {k: view[k] for k in HEADER} == game.view_header(seat)
    assert view["result"] is None and view["current"] == 0
    assert ("spirit_offer" in view) == (seat is not None)
    rng = random.Random(1)
    while not game.is_over:
        s = game.to_act[0]
        game.apply_action_id(s, rng.choice(game.legal_action_ids(s)))
    final = game.view(seat)
    assert final["over"] is True and final["result"] == game.result()
    assert final["can_undo"] is False and final["current"] is None
