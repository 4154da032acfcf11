"""Every refusal Living Forest can give carries a code of its catalogue (or of the core one)."""

from __future__ import annotations

import random

import pytest
from lf_helpers import fresh

from glade.core.errors import BadInput, IllegalAction, Refusal
from glade.core.refusals import CORE
from glade.living_forest import data
from glade.living_forest.game import LivingForestGame
from glade.living_forest.refusals import REFUSALS

LANGUAGE_NEUTRAL = (int, str, type(None))


def _check(reason: object) -> None:
    assert isinstance(reason, Refusal), reason
    catalogue = REFUSALS if reason.code in REFUSALS else CORE
    assert reason.code in catalogue, reason.code
    assert set(reason.params) == catalogue.fields(reason.code), reason.code
    assert str(reason) == catalogue.text(reason.code, reason.params)
    for value in reason.params.values():
        assert isinstance(value, LANGUAGE_NEUTRAL) and not isinstance(value, bool)


def _check_error(exc: IllegalAction | BadInput) -> None:
    _check(Refusal(exc.code, exc.message, exc.params))


GARBAGE: list[object] = [
    {"type": "fly"},
    {"type": "draw", "x": 1},
    {"type": "done", "steps": 1},
    {"type": "choose_action"},
    {"type": "choose_action", "action": "sing"},
    {"type": "choose_action", "action": 1},
    {"type": "pick_card", "level": 4, "slot": 0},
    {"type": "pick_card", "level": 1, "slot": True},
    {"type": "pick_card", "level": 1},
    {"type": "pick_fire", "index": 7},
    {"type": "pick_fire", "index": 1.0},
    {"type": "steal", "tile": "gold"},
    {"type": "move", "steps": 0},
    {"type": "move", "steps": "3"},
    {"type": "move", "steps": 11},
    {"type": "plant", "tree": "T99", "row": 0, "column": 0},
    {"type": "plant", "tree": "T3a", "row": 1, "column": 2},
    {"type": "plant", "tree": "T3a", "row": 0},
    {"type": "undo", "x": 1},
    {"type": ""},
    {"nothing": 1},
    5,
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_refusal_at_many_states_has_a_code(players: int) -> None:
    rng = random.Random(players)
    seen: set[str] = set()
    for seed in range(3):
        g = fresh(players, seed=seed)
        size = len(g.action_table())
        steps = 0
        while not g.is_over and steps < 900:
            if steps % 7 == 0:
                for seat in (*range(players), players, -1, True):
                    for code in (*range(size), size, -1, "3", None, 2.0):
                        reason = g.why_illegal(seat, code)  # type: ignore[arg-type]
                        if reason is None:
                            continue
                        _check(reason)
                        seen.add(reason.code)
                        if code in (0, size - 1) and seat in range(players):
                            before = g.fingerprint()
                            with pytest.raises(IllegalAction) as err:
                                g.apply_action_id(seat, code)
                            assert err.value.code == reason.code
                            assert g.fingerprint() == before
                    if seat in range(players):
                        for bad in GARBAGE:
                            with pytest.raises(IllegalAction) as err:
                                g.apply(seat, bad)  # type: ignore[arg-type]
                            _check_error(err.value)
                            seen.add(err.value.code)
            seat = g.to_act[0]
            g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
            steps += 1
    # the random games reach most of the catalogue (the rest have their own tests)
    assert len(seen & set(REFUSALS)) >= 30, sorted(set(REFUSALS) - seen)


def test_every_raised_refusal_keeps_its_code_and_params() -> None:
    g = fresh()
    with pytest.raises(IllegalAction) as err:
        g.apply(0, {"type": "stop"})
    assert err.value.code == "draw.stop_empty" and err.value.params == {}
    with pytest.raises(IllegalAction) as err:
        g.apply(0, {"type": "move", "steps": 99})
    assert err.value.code == "lf_action.move" and err.value.params == {"most": 10}
    assert err.value.to_json()["code"] == "lf_action.move"


@pytest.mark.parametrize(
    ("seed", "options", "code"),
    [
        ("1", {"players": 2}, "seed.not_int"),
        (1, [], "lf_options.not_mapping"),
        (1, {"colour": "red"}, "lf_options.unknown"),
        (1, {"players": 5}, "lf_options.players"),
        (1, {"players": True}, "lf_options.players"),
    ],
)
def test_bad_options_are_coded(seed: object, options: object, code: str) -> None:
    with pytest.raises(BadInput) as err:
        LivingForestGame.new(seed, options)  # type: ignore[arg-type]
    assert err.value.code == code
    _check_error(err.value)


def test_a_malformed_data_file_is_coded() -> None:
    with pytest.raises(BadInput) as err:
        data.load({"schema": "x"})
    assert err.value.code == "lf_data.malformed"


def test_codes_do_not_use_generic_names() -> None:
    for code in REFUSALS:
        assert code.split(".")[0] in {
            "lf_action", "round", "draw", "actions", "fragment", "attract", "extinguish", "move",
            "steal", "plant", "bonus", "lf_options", "lf_save", "lf_data",
        }, code  # fmt: skip
        assert code not in CORE
