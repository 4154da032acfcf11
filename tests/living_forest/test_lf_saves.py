"""The explicit save format (version 2) and the loading of version-1 saves of earlier releases."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from lf_helpers import check_invariants, fresh

import glade
from glade.core.errors import BadInput
from glade.living_forest.game import SAVE_VERSION, LivingForestGame

V1 = Path(__file__).parent / "data" / "saves-v1.json"


def _cases() -> list[dict]:  # type: ignore[type-arg]
    return json.loads(V1.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("index", range(len(_cases())))
def test_a_version_1_save_loads_and_plays_on_identically(index: int) -> None:
    """Each case was written by the code before the change: a mid-game save, the moves played
    after it, and the save and result those moves reached then."""
    case = _cases()[index]
    assert case["state"]["version"] == 1 and "hel" in case["state"]
    game = glade.load_game(case["state"])
    assert isinstance(game, LivingForestGame)
    check_invariants(game)
    # the loaded state is the one its log replays to
    replayed = LivingForestGame.replay(
        case["state"]["seed"], case["state"]["options"], [tuple(e) for e in case["state"]["log"]]
    )
    assert game.fingerprint() == replayed.fingerprint()
    for seat, code in case["then"]:
        assert game.why_illegal(seat, code) is None, (seat, code)
        game.apply_action_id(seat, code)
    assert game.fingerprint() == glade.load_game(case["final"]).fingerprint()
    result = game.result()
    for entry in result["breakdown"]:  # (the parts came later: their sums are the counts)
        parts = entry.pop("parts")
        for category in ("trees", "fires", "flowers"):
            assert sum(p["points"] for p in parts if p["category"] == category) == entry[category]
    assert result == case["final_result"]
    # and it saves in the current format, which loads back to the same state
    data = game.to_json()
    assert data["version"] == SAVE_VERSION
    assert glade.load_game(json.loads(json.dumps(data))).fingerprint() == game.fingerprint()


def test_the_save_names_every_part_in_the_game_s_words() -> None:
    g = fresh(3, seed=4)
    rng = random.Random(2)
    for _ in range(120):
        seat = g.to_act[0]
        g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
    data = g.to_json()
    assert data["version"] == 2
    assert set(data) == {
        "game", "version", "seed", "options", "round", "phase", "sacred_tree", "draw_start",
        "turn", "spirits", "display", "animal_stacks", "centre_fires", "fire_supply",
        "tree_supply", "fragment_supply", "varan_supply", "taken_this_round", "winners", "log",
    }  # fmt: skip
    assert set(data["turn"]) == {
        "spirit", "turns_done", "start", "actions_left", "actions_used", "step", "bonus_step",
        "spend_left", "taken_in_step", "bonuses_pending", "steal_from",
    }  # fmt: skip
    sp = data["spirits"][0]
    assert set(sp) == {
        "draw_stack", "help_line", "discard", "drawing", "just_drawn", "shuffles_dealt",
        "fragments", "rock", "forest", "fires_kept", "victory_tiles",
    }  # fmt: skip
    assert all(isinstance(c, str) for c in sp["draw_stack"] + sp["discard"])
    assert sp["forest"][1][2] == "start" and set(sp["victory_tiles"]) == {"fire", "flower", "tree"}
    assert data["phase"] in ("draw", "actions", "over")
    assert glade.load_game(data).fingerprint() == g.fingerprint()


@pytest.mark.parametrize(
    ("edit", "code", "field"),
    [
        (lambda d: d.update(version=3), "lf_save.version", None),
        (lambda d: d.update(version=True), "lf_save.version", None),
        (lambda d: d["spirits"][0]["help_line"].append("Unicorn"), "lf_save.damaged", "spirits"),
        (lambda d: d["spirits"].pop(), "lf_save.damaged", "spirits"),
        (lambda d: d.update(phase="lunch"), "lf_save.damaged", "phase"),
        (lambda d: d["turn"].update(step=9), "lf_save.damaged", "turn"),
        (lambda d: d.update(round="1"), "lf_save.damaged", "round"),
        (lambda d: d.pop("tree_supply"), "lf_save.damaged", "tree_supply"),
        (lambda d: d["display"].pop(), "lf_save.damaged", "display"),
        (lambda d: d.update(log=[[0, "x", None]]), "lf_save.damaged", "log"),
        (lambda d: d.update(seed="7"), "seed.not_int", None),
        (lambda d: d.update(options={"players": 9}), "lf_options.players", None),
    ],
)
def test_a_damaged_save_is_refused_with_a_code(edit, code, field) -> None:  # type: ignore[no-untyped-def]
    data = fresh(2, seed=3).to_json()
    edit(data)
    with pytest.raises(BadInput) as err:
        glade.load_game(data)
    assert err.value.code == code
    if field is not None:
        assert err.value.params == {"field": field}


def test_another_game_s_save_is_refused() -> None:
    data = fresh(2, seed=3).to_json()
    data["game"] = "harmonies"
    with pytest.raises(BadInput) as err:
        LivingForestGame.from_json(data)
    assert err.value.code == "lf_save.not_living_forest"


def test_a_damaged_version_1_save_is_refused() -> None:
    data = dict(_cases()[0]["state"])
    data.pop("hel")
    data.pop("decks")
    with pytest.raises(BadInput) as err:
        glade.load_game(data)
    assert err.value.code == "lf_save.damaged" and err.value.params == {"field": "decks"}
