"""Protocol details: action ids and refusals, undo, views, the log."""

import random

import pytest
from lf_helpers import check_invariants, fresh, start_actions, state_of

import glade
from glade.core.actions import Action
from glade.core.errors import IllegalAction
from glade.living_forest.data import CARDS
from glade.living_forest.game import TABLES


def test_action_space_sizes_and_round_trip() -> None:
    for n in (2, 3, 4):
        table = TABLES[n]
        assert len(table) == 32 + (12 - n) + 12 * 14
        g = fresh(n)
        for i, a in enumerate(table):
            assert g.action_id(Action.from_json(a.to_json())) == i
        assert len(set(table)) == len(table)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "fly"}, "no action 'fly'"),
        ({"type": "draw", "cards": 2}, "the draw action takes no fields"),
        ({"type": "pick_card", "level": 4, "slot": 0}, "level must be 1, 2 or 3"),
        ({"type": "pick_card", "level": 1}, "takes level, slot"),
        ({"type": "pick_fire", "index": True}, "index must be"),
        ({"type": "pick_fire", "index": 1.0}, "index must be"),
        ({"type": "move", "steps": "3"}, "steps must be"),
        ({"type": "move", "steps": 11}, "steps must be a whole number from 1 to 10"),
        ({"type": "choose_action", "action": "sing"}, "action must be one of"),
        ({"type": "plant", "tree": "T12", "row": 0, "column": 0}, "tree must be one of"),
        ({"type": "steal", "tile": "gold"}, "tile must be one of"),
    ],
)
def test_action_id_refuses_what_names_nothing(action: dict, message: str) -> None:
    g = fresh()
    before = g.fingerprint()
    with pytest.raises(IllegalAction, match=message):
        g.apply(0, action)
    assert g.fingerprint() == before


def test_wrong_phase_and_wrong_seat_messages() -> None:
    g = fresh()
    with pytest.raises(IllegalAction, match="drawing Guardian Animals now"):
        g.apply(0, {"type": "choose_action", "action": "move"})
    start_actions(g)
    with pytest.raises(IllegalAction, match="spirit 0's turn"):
        g.apply(1, {"type": "end_actions"})
    with pytest.raises(IllegalAction, match="phase is over"):
        g.apply(0, {"type": "draw"})
    with pytest.raises(IllegalAction, match="no seat 2"):
        g.apply(2, {"type": "end_actions"})
    with pytest.raises(IllegalAction, match="choose an action first"):
        g.apply(0, {"type": "pick_fire", "index": 0})


def test_why_illegal_agrees_with_legal_ids_everywhere() -> None:
    for n in (2, 3, 4):
        g = fresh(n, seed=n)
        rng = random.Random(n)
        size = len(g.action_table())
        steps = 0
        while not g.is_over and steps < 1500:
            for seat in range(n):
                legal = set(g.legal_action_ids(seat))
                for code in range(size):
                    assert (g.why_illegal(seat, code) is None) == (code in legal)
            seat = rng.choice([s for s in g.to_act if g.legal_action_ids(s)])
            ids = g.legal_action_ids(seat)
            # prefer drawing so the states are rich
            code = 0 if 0 in ids and rng.random() < 0.8 else rng.choice(ids)
            g.apply_action_id(seat, code)
            steps += 1


def test_undo_in_the_action_phase() -> None:
    h = fresh(seed=4)
    for s in (0, 1):
        h.apply(s, {"type": "draw"})
        h.apply(s, {"type": "stop"})
    snap = h.fingerprint()
    h.apply(0, {"type": "choose_action", "action": "fragment"})
    assert h.can_undo(0) and not h.can_undo(1)
    assert Action("undo") in h.legal_actions(0)
    h.apply(0, {"type": "undo"})
    assert h.fingerprint() == snap
    h.apply(0, {"type": "choose_action", "action": "fragment"})
    h.apply(0, {"type": "end_actions"})
    assert not h.can_undo(0)  # the turn has passed
    with pytest.raises(IllegalAction, match="nothing you can undo"):
        h.apply(0, {"type": "undo"})


def test_undo_restores_the_whole_state_log_included() -> None:
    """Undo leaves the game exactly as before the undone action: its save (log, seed, options
    and every field) too. (The compiled base class once kept the old log on a plain-source Living
    Forest: the undone stop stayed logged and random games never ended.)"""
    rng = random.Random(5)
    for seed in range(4):
        g = fresh(seed=seed)
        undone = 0
        while not g.is_over and undone < 6:
            seat = rng.choice(list(g.to_act))
            before = g.to_json()
            actions = g.legal_actions(seat)
            action = rng.choice([a for a in actions if a != Action("undo")] or actions)
            g.apply(seat, action)
            if g.can_undo(seat):
                g.apply(seat, {"type": "undo"})
                assert g.to_json() == before
                assert len(g.log) == len(before["log"])
                undone += 1
        assert undone == 6


def test_draws_and_fragments_cannot_be_undone_but_a_stop_can() -> None:
    g = fresh(seed=3)
    g.apply(0, {"type": "draw"})
    assert not g.can_undo(0)
    before = g.fingerprint()
    g.apply(0, {"type": "stop"})
    assert g.can_undo(0)
    g.apply(0, {"type": "undo"})
    assert g.fingerprint() == before
    g.apply(1, {"type": "draw"})
    g.apply(0, {"type": "stop"})
    g.apply(1, {"type": "stop"})
    assert g.phase == 1 and not g.can_undo(1)  # the phase moved on


def test_fragment_use_is_not_undoable() -> None:
    g = glade.new_game("living-forest", players=2, seed=8)
    # play until spirit 0 has a fragment, via the take-fragment action
    start_actions(g)
    g.apply(0, {"type": "choose_action", "action": "fragment"})
    g.apply(0, {"type": "end_actions"})
    g.apply(1, {"type": "end_actions"})
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "use_fragment"})
    assert not g.can_undo(0)


def test_view_hides_draw_stack_order() -> None:
    g = fresh(seed=2)
    h = g.copy()
    state_of(h).draw_stacks[0] = list(reversed(state_of(h).draw_stacks[0]))
    for seat in (0, 1, None):
        assert g.view(seat) == h.view(seat)
    v = g.view(0)
    text = repr(v)
    assert "decks" not in text and v["spirits"][0]["draw_stack_count"] == 14
    assert v["phase"] == "draw" and v["to_act"] == [0, 1]
    assert g.to_json() != h.to_json()


def test_view_contents() -> None:
    g = fresh(3, seed=2)
    start_actions(g, {0: ["Bear", "Fawn"]})
    g.apply(0, {"type": "choose_action", "action": "fragment"})
    v = g.view(None)
    assert v["seat"] is None and v["current"] == 0 and v["actions_left"] == 1
    assert v["actions_used"] == ["fragment"]
    s0 = v["spirits"][0]
    assert s0["help_line"] == ["Bear", "Fawn"] and s0["solitary"] == 1
    assert s0["elements"] == {"sun": 0, "water": 1, "plant": 2, "spiral": 0, "flower": 1}
    assert s0["progress"] == {"trees": 2, "fires": 1, "flowers": 2}
    assert s0["forest"][1][2] == "start" and s0["fragments"] == 1
    assert [len(row) for row in v["display"]] == [4, 4, 4]
    assert v["centre_fires"] == [2] and v["result"] is None
    assert v["circle"][2]["spirit"] == 0 and v["circle"][2]["bonus"] == "attract"
    import json

    json.dumps(v)
    g.apply(0, {"type": "end_actions"}) if g.current_spirit == 0 else None
    assert g.view(1)["in_progress"] is None


def test_log_records_what_draws_revealed() -> None:
    g = fresh(seed=6)
    top = state_of(g).draw_stacks[0][-1]
    g.apply(0, {"type": "draw"})
    assert state_of(g).help_lines[0] == [top]
    log = g.log_json(1)
    assert log[0] == {
        "seat": 0,
        "action": {"type": "draw"},
        "chance": {"card": CARDS.names[top], "reshuffled": False},
    }


def test_load_game_round_trip_mid_game() -> None:
    g = fresh(3, seed=12)
    rng = random.Random(5)
    for _ in range(300):
        if g.is_over:
            break
        s = rng.choice([s for s in g.to_act if g.legal_action_ids(s)])
        g.apply_action_id(s, rng.choice(g.legal_action_ids(s)))
        check_invariants(g)
    loaded = glade.load_game(g.to_json())
    assert loaded.fingerprint() == g.fingerprint()


def test_round_end_logs_the_refill_and_cannot_be_undone() -> None:
    g = fresh(seed=6)
    start_actions(g)
    g.apply(0, {"type": "end_actions"})
    state_of(g).draw_stacks[0].append(state_of(g).display[0])  # as if spirit 0 had attracted it
    state_of(g).display[0] = -1
    g.apply(1, {"type": "end_actions"})
    assert g.phase == 0 and not g.can_undo(1)
    entry = g.log_json(None)[-1]
    assert entry["seat"] == 1 and entry["action"] == {"type": "end_actions"}
    assert entry["chance"] == {"revealed": [CARDS.names[state_of(g).display[0]]]}
    check_invariants(g)
