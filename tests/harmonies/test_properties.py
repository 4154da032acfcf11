"""Property tests: the board a view shows is a valid contract board that scores the same."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import glade
from glade.harmonies.game import HarmoniesGame

from .helpers import check_invariants


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.integers(min_value=1, max_value=4),
    side=st.sampled_from(["A", "B"]),
    spirits=st.booleans(),
    stop=st.integers(min_value=0, max_value=400),
)
def test_view_boards_rescore_identically(
    seed: int, players: int, side: str, spirits: bool, stop: int
) -> None:
    g = glade.new_game("harmonies", seed=seed, players=players, side=side, spirits=spirits)
    assert isinstance(g, HarmoniesGame)
    rng = random.Random(seed)
    for _ in range(stop):
        if g.is_over:
            break
        seat = g.to_act[0]
        g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
    check_invariants(g)
    view = g.view(None)
    for seat, board in enumerate(view["boards"]):
        contract = {k: board[k] for k in ("side", "stacks", "cubes") if k in board}
        contract["cards"] = [{"card": c["card"], "placed": c["placed"]} for c in board["cards"]]
        if "spirit" in board:
            contract["spirit"] = board["spirit"]
        rescored = glade.score_board(contract, solo=players == 1, explain=True)
        assert rescored == g.breakdown(seat, explain=True) == board["score"]
        assert {k: v for k, v in rescored.items() if k != "parts"} == g.breakdown(seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), cut=st.integers(min_value=1, max_value=60))
def test_loading_mid_game_and_replaying_the_log_agree(seed: int, cut: int) -> None:
    g = glade.new_game("harmonies", seed=seed, players=2, spirits=True)
    rng = random.Random(seed)
    for _ in range(cut):
        seat = g.to_act[0]
        g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
    replayed = HarmoniesGame.replay(g.seed, g.options, list(g.log))
    assert replayed.fingerprint() == g.fingerprint()
    assert glade.load_game(g.to_json()).fingerprint() == g.fingerprint()
