"""The typed, read-only snapshot: it says what the state is, shares nothing with the game, and
stays as it was while the game moves on."""

from __future__ import annotations

import random

import pytest
from lf_helpers import fresh

from glade.living_forest import ForestSnapshot, SpiritSnapshot
from glade.living_forest.game import DRAW


def _deep_tuples(value: object) -> bool:
    if isinstance(value, list | dict | set):
        return False
    if isinstance(value, tuple):
        return all(_deep_tuples(v) for v in value)
    return True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_snapshot_says_what_the_save_and_the_view_say(players: int) -> None:
    g = fresh(players, seed=players)
    rng = random.Random(players)
    steps = 0
    while not g.is_over and steps < 700:
        snap = g.snapshot()
        assert isinstance(snap, ForestSnapshot) and _deep_tuples(snap)
        save = g.to_json()
        view = g.view(None)
        assert (snap.players, snap.round, snap.to_act) == (players, save["round"], g.to_act)
        assert snap.acting_together == g.acting_together
        assert snap.sacred_tree == save["sacred_tree"] and snap.winners == tuple(save["winners"])
        assert snap.current_spirit == save["turn"]["spirit"]
        assert snap.actions_left == save["turn"]["actions_left"]
        assert snap.spend_left == save["turn"]["spend_left"]
        assert snap.steal_from == tuple(save["turn"]["steal_from"])
        assert list(snap.centre_fires) == save["centre_fires"] == view["centre_fires"]
        assert [len(st) for st in snap.animal_stacks] == view["stack_counts"]
        assert list(snap.tree_supply) == list(save["tree_supply"].values())
        assert snap.fragment_supply == save["fragment_supply"]
        assert snap.varan_supply == save["varan_supply"]
        for s, sp in enumerate(snap.spirits):
            assert isinstance(sp, SpiritSnapshot) and sp.seat == s
            saved, seen = save["spirits"][s], view["spirits"][s]
            assert len(sp.draw_stack) == seen["draw_stack_count"]
            assert len(sp.help_line) == len(saved["help_line"]) and sp.solitary == seen["solitary"]
            assert sp.fragments == saved["fragments"] and sp.rock == saved["rock"]
            assert sp.drawing == saved["drawing"] and sp.just_drawn == saved["just_drawn"]
            assert list(sp.fires_kept) == list(saved["fires_kept"].values())
            assert list(sp.victory_tiles) == list(saved["victory_tiles"].values())
            assert list(sp.elements) == list(seen["elements"].values())
            assert sp.progress == g.counts(s) == tuple(seen["progress"].values())
            assert sum(t >= 0 for t in sp.forest) == sum(
                t is not None for row in saved["forest"] for t in row
            )
        seat = g.to_act[0]
        ids = g.legal_action_ids(seat)
        g.apply_action_id(seat, 0 if 0 in ids and rng.random() < 0.6 else rng.choice(ids))
        steps += 1
    assert steps > 100


def test_a_snapshot_stays_as_it_was() -> None:
    g = fresh(2, seed=3)
    first = g.snapshot()
    assert first.phase == DRAW and first.spirits[0].help_line == ()
    g.apply(0, {"type": "draw"})
    assert first.spirits[0].help_line == () and len(g.snapshot().spirits[0].help_line) == 1
    assert first == fresh(2, seed=3).snapshot()
    with pytest.raises(AttributeError):
        first.round = 5  # type: ignore[misc]
