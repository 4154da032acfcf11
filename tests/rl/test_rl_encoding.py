"""Harmonies observation encoding: incremental updates equal a fresh encoding; the layout."""

from __future__ import annotations

import random

import numpy as np
import pytest

import glade
from glade.harmonies.data import STACKS
from glade.rl.harmonies_encoding import CELL_WIDTH, SCORE_KEYS, HarmoniesEncoder
from tests.harmonies.scoring_oracle import breakdown as oracle_breakdown


def fresh(options: dict, game: glade.Game, seat: int) -> np.ndarray:
    enc = HarmoniesEncoder(**options, live_scores=True)
    enc.reset(game)
    return enc.observe(seat)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1, "side": "A", "spirits": True},
        {"players": 2, "side": "B", "spirits": False},
        {"players": 4, "side": "A", "spirits": True},
    ],
)
def test_incremental_encoding_equals_a_fresh_one_at_every_step(options: dict) -> None:
    rng = random.Random(8)
    live = HarmoniesEncoder(**options, live_scores=True)
    lazy = HarmoniesEncoder(**options)
    score_cols = np.zeros(live.size, dtype=bool)
    for seg in live.segments:
        if seg.name.endswith(".score"):
            score_cols[seg.start : seg.stop] = True
    for g in range(3):
        game = glade.new_game("harmonies", seed=50 + g, **options)
        live.reset(game)
        lazy.reset(game)
        while not game.is_over:
            for seat in range(game.num_players):
                want = fresh(options, game, seat)
                assert np.array_equal(live.observe(seat), want)
                got = lazy.observe(seat)
                assert np.array_equal(got[~score_cols], want[~score_cols])
                if len(game.log) == game.turn_start:  # a turn boundary: scores settled
                    assert np.array_equal(got, want)
            seat = game.to_act[0]
            code = rng.choice(game.legal_action_ids(seat))
            game.apply_action_id(seat, code, checked=True)
            live.after(seat, code)
            lazy.after(seat, code)
        for seat in range(game.num_players):
            assert np.array_equal(lazy.observe(seat), fresh(options, game, seat))


def test_segments_tile_the_vector_and_bound_every_value() -> None:
    rng = random.Random(1)
    enc = HarmoniesEncoder(3, "A", True)
    pos = 0
    for seg in enc.segments:
        assert seg.start == pos and seg.length > 0
        pos = seg.stop
    assert pos == enc.size == len(enc.high)
    ranges = enc.action_ranges()
    assert ranges[0].start == 0
    for a, b in zip(ranges, ranges[1:], strict=False):
        assert a.start + a.length == b.start
    assert ranges[-1].start + ranges[-1].length == enc.n_actions
    game = glade.new_game("harmonies", seed=3, players=3, spirits=True)
    enc.reset(game)
    while not game.is_over:
        seat = game.to_act[0]
        obs = enc.observe(seat)
        assert obs.dtype == np.float32 and (obs >= 0).all() and (obs <= enc.high).all()
        code = rng.choice(game.legal_action_ids(seat))
        game.apply_action_id(seat, code, checked=True)
        enc.after(seat, code)


def test_the_encoding_reads_the_board_as_documented() -> None:
    rng = random.Random(4)
    game = glade.new_game("harmonies", seed=12, players=2)
    enc = HarmoniesEncoder(2, "A", False)
    enc.reset(game)
    while game.turn < 9:
        seat = game.to_act[0]
        code = rng.choice(game.legal_action_ids(seat))
        game.apply_action_id(seat, code, checked=True)
        enc.after(seat, code)
    seat = game.current  # seat 1 after an odd number of turns
    assert seat == 1
    obs = enc.observe(seat)
    for who, owner in (("me", 1), ("next1", 0)):
        cells = enc.segment(f"board[{who}].cells")
        planes = obs[cells.start : cells.stop].reshape(-1, CELL_WIDTH)
        board = game.boards[owner]
        for i, state in enumerate(board.cells):
            stack = STACKS[state]
            expected = np.zeros(CELL_WIDTH, dtype=np.float32)
            for level, color in enumerate(stack):
                expected[level * 6 + color] = 1
            expected[18] = board.cubes >> game.space.layout.bits[i] & 1
            assert np.array_equal(planes[i], expected)
        score = enc.segment(f"board[{who}].score")
        bd = oracle_breakdown(
            game.space.layout, board.cells, board.card_list(), board.spirit, board.spirit_placed
        )
        assert obs[score.start : score.stop].tolist() == [bd[k] for k in SCORE_KEYS]
    central = enc.segment("central")
    for space, tokens in enumerate(game.central):
        counts = obs[central.start + space * 6 : central.start + space * 6 + 6]
        assert counts.tolist() == [tokens.count(c) for c in range(6)]
    pouch = enc.segment("pouch")
    assert obs[pouch.start : pouch.stop].tolist() == [game.pouch.count(c) for c in range(6)]
    row = enc.segment("row")
    for slot, card in enumerate(game.row):
        one_hot = obs[row.start + slot * 32 : row.start + slot * 32 + 32]
        assert (
            (one_hot.argmax() == card and one_hot.sum() == 1) if card >= 0 else one_hot.sum() == 0
        )
    counters = enc.segment("counters")
    assert obs[counters.start] == game.turn == 9


def test_encoder_refuses_a_game_of_another_configuration() -> None:
    enc = HarmoniesEncoder(2, "A", False)
    with pytest.raises(ValueError, match="this encoder is for"):
        enc.reset(glade.new_game("harmonies", seed=1, players=3))
    with pytest.raises(RuntimeError, match="reset"):
        HarmoniesEncoder(2).observe(0)
