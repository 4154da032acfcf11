"""A save is judged at the door: a log that does not replay to the stored state is refused at
load, naming the first entry that does not replay; what a load lets in never fails later."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from lf_helpers import fresh

import glade
from glade.core.errors import BadInput
from glade.living_forest.game import A_DRAW, LivingForestGame

DAMAGED = "lf_save.damaged"


def _played(players: int, seed: int, moves: int) -> LivingForestGame:
    g = fresh(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = rng.choice([s for s in g.to_act if g.legal_action_ids(s)])
        ids = g.legal_action_ids(seat)
        g.apply_action_id(seat, 0 if 0 in ids and rng.random() < 0.6 else rng.choice(ids))
    return g


def _refused(data: dict[str, Any]) -> str:
    with pytest.raises(BadInput) as err:
        glade.load_game(json.loads(json.dumps(data)))
    assert err.value.code == DAMAGED
    field: str = err.value.params["field"]
    return field


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sound_save_loads_as_the_replay_of_its_log(players: int) -> None:
    g = _played(players, 7, 250)
    loaded = glade.load_game(json.loads(json.dumps(g.to_json())))
    assert isinstance(loaded, LivingForestGame)
    assert loaded.fingerprint() == g.fingerprint()
    assert loaded.last_round == g.last_round  # known at once: the load replayed the log
    for seat in (*range(players), None):
        assert loaded.view(seat) == g.view(seat)


@pytest.mark.parametrize("cut", [1, 5, 40])
def test_a_log_cut_short_is_refused(cut: int) -> None:
    g = _played(2, 3, 200)
    data = g.to_json()
    data["log"] = data["log"][:-cut]
    # every entry left replays, but not to the stored state: the log stops short at its end
    assert _refused(data) == f"log[{len(data['log'])}]"


def test_the_old_bug_a_cut_log_can_no_longer_break_a_view_later() -> None:
    # before: such a save loaded, played a move, then view() raised from a lazy replay
    g = _played(2, 11, 150)
    while g.to_act[0] != g.current_spirit or g.phase != 1:
        seat = g.to_act[0]
        g.apply_action_id(seat, g.legal_action_ids(seat)[0])
    data = g.to_json()
    data["log"] = data["log"][:-3]
    assert _refused(data).startswith("log[")


def test_an_entry_altered_to_a_move_that_is_not_allowed_is_named() -> None:
    g = _played(2, 4, 120)
    data = g.to_json()
    at = next(i for i, e in enumerate(data["log"]) if i > 30 and e[1] != A_DRAW)
    data["log"][at][1] = len(g.action_table()) - 1  # a plant, never allowed then
    assert _refused(data) == f"log[{at}]"


def test_an_entry_whose_chance_was_altered_is_named() -> None:
    g = _played(3, 6, 160)
    data = g.to_json()
    at = next(i for i, e in enumerate(data["log"]) if e[1] == A_DRAW and i > 20)
    data["log"][at][2][0] = (data["log"][at][2][0] + 1) % 14  # another card drawn
    assert _refused(data) == f"log[{at}]"


def test_an_entry_of_another_seat_is_named() -> None:
    g = _played(2, 8, 120)
    data = g.to_json()
    at = next(i for i, e in enumerate(data["log"]) if i > 40 and e[1] > A_DRAW + 2)
    data["log"][at][0] = 1 - data["log"][at][0]  # the other spirit: not its turn then
    assert _refused(data) == f"log[{at}]"


def test_a_reordered_log_is_refused_at_the_first_entry_out_of_place() -> None:
    g = _played(3, 9, 200)
    data = g.to_json()
    log = data["log"]
    # two neighbouring draw-phase entries of different spirits, swapped
    at = next(
        i
        for i in range(len(log) - 1)
        if log[i][1] == A_DRAW and log[i + 1][1] == A_DRAW and log[i][0] != log[i + 1][0]
    )
    log[at], log[at + 1] = log[at + 1], log[at]
    assert _refused(data) == f"log[{at}]"
    # and an action-phase entry moved one place back
    data = g.to_json()
    log = data["log"]
    at = next(i for i in range(60, len(log) - 1) if log[i][1] > 2 and log[i + 1][1] > 2)
    log[at], log[at + 1] = log[at + 1], log[at]
    assert _refused(data) == f"log[{at}]"


def test_a_state_field_altered_under_a_sound_log_is_refused() -> None:
    g = _played(2, 12, 180)
    data = g.to_json()
    data["spirits"][0]["fragments"] += 1
    data["fragment_supply"] -= 1
    assert _refused(data) == f"log[{len(data['log'])}]"


def test_a_version_1_save_with_a_cut_log_is_refused() -> None:
    from pathlib import Path

    case = json.loads((Path(__file__).parent / "data" / "saves-v1.json").read_text())["cases"][0]
    data = dict(case["state"])
    data["log"] = data["log"][:-2]
    assert _refused(data) == f"log[{len(data['log'])}]"
