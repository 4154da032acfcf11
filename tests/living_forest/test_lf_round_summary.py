"""The engine's public record of each end of round (``last_round``), the move previews, the
refusals the page shows on unavailable moves, and who has reached 12."""

from __future__ import annotations

import json
import random

import pytest
from lf_helpers import fresh, state_of

import glade
from glade.core.actions import Action
from glade.living_forest import rules
from glade.living_forest.data import CARDS, VARAN, WATER
from glade.living_forest.game import ACTIONS, DRAW, OVER, S_MOVE, LivingForestGame


def _random_step(g: LivingForestGame, rng: random.Random) -> tuple[int, int]:
    seat = g.to_act[0]
    ids = g.legal_action_ids(seat)
    # plant and attract more than a uniform choice would, so that games reach their end
    code = rng.choice(ids)
    return seat, code


def _check_summary(
    before: LivingForestGame, after: LivingForestGame, start_shuffles: list[int]
) -> None:
    s = after.last_round
    assert s is not None
    n = before.num_players
    centre = list(state_of(before).centre_fires)
    power = sum(centre)
    assert s["round"] == before.round == after.round - 1
    assert s["onibi"] == {"fires": centre, "power": power}
    assert s["sacred_tree"] == {
        "from": state_of(before).sacred_tree,
        "to": state_of(after).sacred_tree,
    }
    assert state_of(after).sacred_tree == (state_of(before).sacred_tree + 1) % n
    dealt = 0
    for seat in range(n):
        row = s["spirits"][seat]
        water = before.element(seat, WATER)
        assert row["seat"] == seat and row["water"] == water
        assert row["attacked"] == (bool(centre) and water < power)
        had = state_of(before).discards[seat].count(VARAN) + state_of(before).help_lines[
            seat
        ].count(VARAN)
        assert row["varans"] == state_of(after).discards[seat].count(VARAN) - had
        assert row["varans"] == (
            len(centre) if row["attacked"] and not s["varans_short"] else row["varans"]
        )
        assert row["reshuffles"] == state_of(before).shuffles_dealt[seat] - start_shuffles[seat]
        dealt += row["varans"]
    assert state_of(before).varan_supply - dealt == state_of(after).varan_supply
    refire = [] if s["centre_refired"] is None else [s["centre_refired"]]
    assert list(state_of(after).centre_fires) == centre + s["fires_added"] + refire
    assert s["taken"] == list(state_of(before).taken_this_round)
    refilled = [
        {"level": i // 4 + 1, "slot": i % 4, "card": CARDS.names[state_of(after).display[i]]}
        for i in range(12)
        if state_of(before).display[i] < 0 and state_of(after).display[i] >= 0
    ]
    assert s["refilled"] == refilled
    assert s["empty_slots"] == sum(1 for c in state_of(after).display if c < 0)
    if not s["fires_capped"]:
        assert len(s["fires_added"]) == sum(state_of(before).taken_this_round)
    json.dumps(s)  # plain JSON


def entering_end_of_round(
    before: LivingForestGame, seat: int, code: int
) -> LivingForestGame | None:
    """The state as the end-of-round steps find it after move ``code`` of ``seat`` from
    ``before`` (an action-phase move): the move played on a copy up to the end of the round
    (``rules.act``: its step, the bonuses it starts, the end of the turn), the end of the round
    not run; None if the move does not end the round."""
    game = before.copy()
    with game.edit() as state:
        state.log.append((seat, code, None))
        due = rules.act(state, seat, code)
    return game if due else None


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 5), (4, 9), (2, 21)])
def test_every_end_of_round_records_what_it_did(players: int, seed: int) -> None:
    g = fresh(players, seed)
    rng = random.Random(seed)
    assert g.last_round is None and g.view(0)["last_round"] is None
    start_shuffles = list(state_of(g).shuffles_dealt)
    rounds = 0
    for _ in range(4000):
        if g.phase == OVER:
            break
        seat, code = _random_step(g, rng)
        before = g.copy()
        # the state the end of round will find, if this move ends the round
        entering = entering_end_of_round(before, seat, code) if g.phase == ACTIONS else None
        g.apply_action_id(seat, code)
        if g.round != before.round:
            rounds += 1
            assert entering is not None
            _check_summary(entering, g, start_shuffles)
            start_shuffles = list(state_of(g).shuffles_dealt)
            view = g.view(None)
            assert view["last_round"] == g.last_round
            # a game loaded from its save derives the same record from its log
            loaded = glade.load_game(json.loads(json.dumps(g.to_json())))
            assert isinstance(loaded, LivingForestGame)
            assert loaded.last_round == g.last_round
            assert loaded.fingerprint() == g.fingerprint()
        elif g.phase == OVER:
            # the last round has no end-of-round steps (the victory check ends the game first)
            assert entering is not None
            assert g.last_round is before.last_round
        else:
            assert entering is None
            assert g.last_round is before.last_round
    assert rounds >= 3


def test_undo_of_the_round_s_last_action_takes_the_summary_back() -> None:
    g = fresh(2, 3)
    rng = random.Random(3)
    while g.round == 1:
        seat, code = _random_step(g, rng)
        before = g.copy()
        g.apply_action_id(seat, code)
    assert g.last_round is not None and before.last_round is None
    # the round's end is no longer undoable by the spirit (a new turn began); a replay of the
    # log without that last action is the state before it, with no summary
    past = LivingForestGame.replay(g.seed, g.options, g.log[:-1])
    assert past.last_round is None and past.fingerprint() == before.fingerprint()


def test_a_move_preview_is_where_the_move_really_goes() -> None:
    for players, seed in ((2, 4), (3, 6), (4, 8)):
        g = fresh(players, seed)
        rng = random.Random(seed)
        seen = 0
        for _ in range(3000):
            if g.phase == OVER:
                break
            if g.phase == ACTIONS and g.step == S_MOVE:
                seat = g.current_spirit
                previews = g.view(seat)["in_progress"]["moves"]
                legal = [a for a in g.legal_actions(seat) if a.type == "move"]
                assert [p["steps"] for p in previews] == [a["steps"] for a in legal]
                for p in previews:
                    trial = g.copy()
                    trial.apply(seat, Action("move", steps=p["steps"]))
                    assert state_of(trial).rocks[seat] == p["rock"]
                    assert list(state_of(trial).steal_from) == p["steal_from"]
                    assert set(p["steal_from"]) <= set(p["jumped"])
                    assert all(
                        state_of(trial).rocks[o] != p["rock"] for o in range(players) if o != seat
                    )
                    seen += 1
            seat, code = _random_step(g, rng)
            g.apply_action_id(seat, code)
        assert seen > 0


def test_the_refusals_are_the_engine_s_own_and_name_no_legal_move() -> None:
    for players, seed in ((2, 2), (3, 3), (4, 4)):
        g = fresh(players, seed)
        rng = random.Random(seed)
        for _ in range(1500):
            if g.phase == OVER:
                break
            for seat in range(players):
                legal = {json.dumps(a.to_json(), sort_keys=True) for a in g.legal_actions(seat)}
                for item in g.refusals(seat):
                    action = item["action"]
                    assert set(item) == {"action", "code", "params"}
                    key = json.dumps(action, sort_keys=True)
                    assert key not in legal
                    if action["type"] == "plant" and len(action) < 4:
                        # a tree or a space: no legal plant uses that tree / that space
                        fields = {k: v for k, v in action.items() if k != "type"}
                        for a in g.legal_actions(seat):
                            if a.type == "plant":
                                assert any(a[k] != v for k, v in fields.items())
                        continue
                    why = g.why_illegal(seat, g.action_id(Action.from_json(action)))
                    assert (
                        why is not None
                        and why.code == item["code"]
                        and why.params == item["params"]
                    )
                if g.phase == DRAW and not state_of(g).drawing[seat]:
                    codes = {r["code"] for r in g.refusals(seat)}
                    assert "draw.stopped" in codes
            seat, code = _random_step(g, rng)
            g.apply_action_id(seat, code)


def test_a_spirit_waiting_is_told_whose_turn_it_is() -> None:
    g = fresh(2, 1)
    while g.phase == DRAW:
        seat = g.to_act[0]
        g.apply_action_id(seat, 1 if 1 in g.legal_action_ids(seat) else g.legal_action_ids(seat)[0])
    other = 1 - g.current_spirit
    found = g.view(other)["refusals"]
    picks = [r for r in found if r["action"]["type"] == "pick_card"]
    assert len(picks) == 12 and {r["code"] for r in picks} == {"round.other_spirit"}
    assert g.view(None)["refusals"] == []


def test_reached_names_who_has_12_of_what() -> None:
    g = fresh(2, 1)
    assert g.reached() == [] and g.view(0)["target"] == 12
    with g.edit() as state:
        state.victory_tiles[0] = [1, 1, 1]
        state.fires_kept[0] = [11, 0, 0]  # 11 fires + the fire victory tile
    assert g.reached() == [{"seat": 0, "kinds": ["fires"], "total": sum(g.counts(0))}]


def test_a_resampled_copy_of_a_loaded_game_keeps_the_true_summary() -> None:
    g = fresh(3, 2)
    rng = random.Random(2)
    while g.round < 3:
        seat, code = _random_step(g, rng)
        g.apply_action_id(seat, code)
    loaded = glade.load_game(g.to_json())
    assert isinstance(loaded, LivingForestGame)
    sample = loaded.resample_hidden(0, random.Random(9))
    assert sample.last_round == g.last_round is not None
