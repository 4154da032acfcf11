"""One check per rule: the legal moves are the moves each kind's check allows.

``moves.legal_ids`` (the fused fast path the engine plays with) must give, at every position of
random games of every mode, exactly the ids that ``moves.check`` allows over the whole action
space (``plain_legal_ids``), and ``why_illegal`` is that check.
"""

from __future__ import annotations

import itertools
import random

import pytest

import glade
from glade.core import Refusal
from glade.harmonies import moves
from glade.harmonies.game import HarmoniesGame

MODES = list(itertools.product([1, 2, 3, 4], ["A", "B"], [False, True]))


@pytest.mark.parametrize(("players", "side", "spirits"), MODES)
def test_the_fast_path_is_the_checks_at_every_position(
    players: int, side: str, spirits: bool
) -> None:
    kinds_offered: set[str] = set()
    for seed in range(2):
        game = glade.new_game("harmonies", seed=seed, players=players, side=side, spirits=spirits)
        assert isinstance(game, HarmoniesGame)
        rng = random.Random(seed)
        table = game.action_table()
        while not game.is_over:
            seat = game.current
            fast = game.legal_action_ids(seat)
            plain = moves.plain_legal_ids(game, seat)
            assert len(set(fast)) == len(fast)
            assert sorted(fast) == plain == game.plain_legal_action_ids(seat)
            kinds_offered |= {table[c].type for c in fast}
            if rng.random() < 0.1 and players > 1:  # another seat: nothing is allowed
                other = (seat + 1) % players
                assert game.legal_action_ids(other) == moves.plain_legal_ids(game, other) == []
            game.apply_action_id(seat, rng.choice(fast))
        assert game.legal_action_ids(0) == moves.plain_legal_ids(game, 0) == []
    expected = {"take_tokens", "place_token", "take_card", "end_turn"}
    if spirits:
        expected.add("choose_spirit")
    if players == 1:
        expected.add("discard_card")
    assert kinds_offered - {"place_cube"} == expected
    assert players == 1 or "place_cube" in kinds_offered  # (random solo play rarely has one)


def test_why_illegal_is_the_check_of_the_moves_kind() -> None:
    game = glade.new_game("harmonies", seed=3, players=2)
    assert isinstance(game, HarmoniesGame)
    rng = random.Random(3)
    for _ in range(40):
        seat = game.current
        for code in range(game.space.size):
            mine = game.why_illegal(seat, code)
            theirs = moves.check(game, seat, code)
            assert mine == theirs
            if mine is not None:
                assert isinstance(mine, Refusal) and isinstance(theirs, Refusal)
                assert (mine.code, mine.params) == (theirs.code, theirs.params)
        game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))


def test_why_no_stack_refuses_to_explain_an_allowed_stack() -> None:
    with pytest.raises(ValueError, match="may go on the stack"):
        moves.why_no_stack(0, 0, "0,0")  # blue on an empty cell is allowed
