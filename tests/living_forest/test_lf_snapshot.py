"""The typed, read-only snapshot: it says what the state is, shares nothing with the game, and
stays as it was while the game moves on."""

from __future__ import annotations

import random

import pytest
from lf_helpers import fresh

from glade.core.errors import IllegalAction
from glade.living_forest import ForestSnapshot, SpiritSnapshot, TableSnapshot
from glade.living_forest.game import DRAW
from glade.living_forest.snapshot import Snapshot


def _deep_tuples(value: object) -> bool:
    """Whether ``value`` holds nothing mutable: ints, bools, tuples and snapshots of those."""
    if isinstance(value, Snapshot):
        return len(value.names()) == len(value.values()) and all(
            _deep_tuples(v) for v in value.values()
        )
    if isinstance(value, tuple):
        return all(_deep_tuples(v) for v in value)
    return isinstance(value, int)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_snapshot_says_what_the_save_and_the_view_say(players: int) -> None:
    g = fresh(players, seed=players)
    rng = random.Random(players)
    steps = 0
    while not g.is_over and steps < 700:
        snap = g.snapshot()
        assert isinstance(snap, ForestSnapshot) and _deep_tuples(snap)
        table = g.table_snapshot()
        assert isinstance(table, TableSnapshot) and not isinstance(table, ForestSnapshot)
        assert table.values() == snap.values()[:-1] and table.names() == snap.names()[:-1]
        assert snap.names()[-1] == "spirits"
        assert all(g.spirit_snapshot(s) == sp for s, sp in enumerate(snap.spirits))
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


def test_the_records_are_read_only_and_compare_by_value() -> None:
    g = fresh(3, seed=4)
    snap, table, spirit = g.snapshot(), g.table_snapshot(), g.spirit_snapshot(1)
    for record, name in ((snap, "spirits"), (table, "round"), (spirit, "forest")):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(record, name, 0)
        with pytest.raises(AttributeError, match="read-only"):
            delattr(record, name)
        assert getattr(record, name) == record.values()[record.names().index(name)]
    assert spirit == fresh(3, seed=4).spirit_snapshot(1) != g.spirit_snapshot(0)
    assert hash(table) == hash(fresh(3, seed=4).table_snapshot())
    assert table != snap  # a table is not the whole game, though the fields it has agree
    assert repr(spirit).startswith("SpiritSnapshot(seat=1, draw_stack=(")
    for seat in (3, -1, True, "0"):
        with pytest.raises(IllegalAction):
            g.spirit_snapshot(seat)  # type: ignore[arg-type]
