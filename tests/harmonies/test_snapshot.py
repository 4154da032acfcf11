"""The typed, read-only snapshot says what the view says, shares nothing with the game and
shows the hidden parts only as counts."""

from __future__ import annotations

import random

import glade
from glade.harmonies.data import CARDS, COLORS, STACKS
from glade.harmonies.game import HarmoniesGame
from glade.harmonies.scoring import CATEGORIES


def test_the_snapshot_says_what_the_view_says_at_every_step() -> None:
    for options in ({"players": 2}, {"players": 1, "side": "B", "spirits": True}):
        game = glade.new_game("harmonies", seed=4, **options)
        assert isinstance(game, HarmoniesGame)
        rng = random.Random(4)
        while True:
            snap = game.snapshot()
            view = game.view(None)
            assert snap.current == (view["current"] if not snap.over else snap.current)
            assert [[COLORS[c] for c in t] for t in snap.central] == view["central"]
            assert dict(zip(COLORS, snap.pouch, strict=True)) == view["pouch"]["colors"]
            assert snap.deck == view["deck"]
            assert [CARDS[c].id if c >= 0 else None for c in snap.row] == view["row"]
            assert [COLORS[c] for c in snap.hand] == view["hand"]
            layout = game.space.layout
            for b, shown in zip(snap.boards, view["boards"], strict=True):
                stacks = {
                    layout.names[i]: [COLORS[c] for c in STACKS[s]]
                    for i, s in enumerate(b.cells)
                    if s
                }
                assert stacks == shown["stacks"]
                assert [layout.names[i] for i in b.cubes] == shown["cubes"]
                assert (b.animal_cubes, b.held, b.empty_cells) == (
                    shown["animal_cubes"],
                    shown["held"],
                    shown["empty_cells"],
                )
                assert dict(zip(CATEGORIES, b.score, strict=True)) == {
                    k: v for k, v in shown["score"].items() if k in CATEGORIES
                }
            if game.is_over:
                break
            seat = game.current
            game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))


def test_the_snapshot_shares_nothing_with_the_game() -> None:
    game = glade.new_game("harmonies", seed=2, players=2)
    assert isinstance(game, HarmoniesGame)
    before = game.snapshot()
    game.apply(0, {"type": "take_tokens", "space": 0})
    assert before.hand == () and game.snapshot().hand != ()
    assert before == glade.new_game("harmonies", seed=2, players=2).snapshot()  # type: ignore[attr-defined]
    hash(before)  # tuples all the way down
