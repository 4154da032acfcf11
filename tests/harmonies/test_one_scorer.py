"""The one scorer (bit masks) against the tests' cell-walking oracle, and who calls it."""

from __future__ import annotations

import random

import pytest

import glade
from glade.bots.harmonies_eval import board_score
from glade.harmonies import HarmoniesGame
from glade.harmonies.data import LAYOUTS, NSTATES, SPIRITS
from glade.harmonies.scoring import board_breakdown, score_board

from .scoring_oracle import breakdown as oracle


@pytest.mark.parametrize("side", ["A", "B"])
def test_random_boards_score_as_the_oracle_says(side: str) -> None:
    layout = LAYOUTS[side]
    rng = random.Random(side)
    for trial in range(400):
        # dense or sparse boards, every stack state, every spirit placed
        fill = rng.random()
        cells = [rng.randrange(1, NSTATES) if rng.random() < fill else 0 for _ in layout.cells]
        spirit = SPIRITS[trial % len(SPIRITS)]
        cards = [(rng.randrange(32), rng.randrange(0, 3)) for _ in range(3)]
        want = oracle(layout, cells, cards, spirit, True)
        assert board_breakdown(layout, layout.masks_of(cells), cards, spirit, True) == want, cells


def test_games_score_as_the_oracle_says_through_every_caller() -> None:
    rng = random.Random(4)
    for seed, options in enumerate(
        [{"players": 1, "spirits": True}, {"players": 3, "side": "B", "spirits": True}]
    ):
        game = glade.new_game("harmonies", seed=seed, **options)
        assert isinstance(game, HarmoniesGame)
        while not game.is_over:
            seat = game.current
            game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
            b = game.boards[seat]
            want = oracle(game.space.layout, b.cells, b.card_list(), b.spirit, b.spirit_placed)
            got = game.breakdown(seat)
            got.pop("suns", None)
            assert got == want
            assert board_score(game, b) == b.total() == want["total"]
        for s, board in enumerate(game.view(None)["boards"]):
            data = {k: board[k] for k in ("side", "stacks", "cubes", "spirit") if k in board}
            data["cards"] = [{"card": c["card"], "placed": c["placed"]} for c in board["cards"]]
            assert score_board(data)["total"] == game.result()["scores"][s]
