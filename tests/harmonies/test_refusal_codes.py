"""Every refusal the Harmonies package can give has a code in a catalogue and params for it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import glade
from glade.core import BadInput, IllegalAction, Refusal
from glade.core.refusals import CORE
from glade.harmonies import HarmoniesGame, score_board
from glade.harmonies.refusals import PREFIX, REFUSALS

from .helpers import set_cell

MODES = [
    {"players": p, "side": side, "spirits": spirits}
    for p in (1, 2, 3, 4)
    for side in ("A", "B")
    for spirits in (False, True)
]


def check_coded(reason: Any) -> str:
    """``reason`` (a Refusal or a coded error) names a catalogued code and carries its params."""
    if isinstance(reason, IllegalAction | BadInput):
        code, params, text = reason.code, reason.params, reason.message
    else:
        assert isinstance(reason, Refusal), f"an uncoded refusal: {reason!r}"
        code, params, text = reason.code, reason.params, str(reason)
    cat = CORE if code in CORE else REFUSALS
    assert code in cat, f"the code {code!r} of {text!r} is in no catalogue"
    assert code in CORE or code.startswith(PREFIX), code
    missing = cat.fields(code) - set(params)
    assert not missing, f"{code}: params {sorted(params)} lack {sorted(missing)}"
    assert cat.text(code, params) == text
    json.dumps(params)  # language-neutral plain values, as the server sends them
    for value in params.values():
        assert not isinstance(value, str) or len(value.split()) <= 3, (code, value)
    return code


BAD_ACTIONS: list[dict[str, Any]] = [
    {"type": "dance"},
    {"type": "take_tokens"},
    {"type": "take_tokens", "space": 1, "slot": 2},
    {"type": "take_tokens", "space": "one"},
    {"type": "take_tokens", "space": True},
    {"type": "take_tokens", "space": 7},
    {"type": "take_card", "slot": -1},
    {"type": "discard_card", "slot": 5},
    {"type": "place_token", "color": "purple", "cell": "0,0"},
    {"type": "place_token", "color": 3, "cell": "0,0"},
    {"type": "place_token", "color": "blue", "cell": 5},
    {"type": "place_token", "color": "blue", "cell": "9,9"},
    {"type": "place_token", "color": "blue", "cell": "zero"},
    {"type": "place_cube", "card": "unicorn", "cell": "0,0"},
    {"type": "place_cube", "card": 4, "cell": "0,0"},
    {"type": "place_cube", "card": "frog", "cell": "0,9"},
    {"type": "choose_spirit", "card": "frog"},
    {"type": "choose_spirit", "card": "nobody"},
    {"type": "end_turn", "now": True},
    {"type": "undo", "please": 1},
    {"type": "undo"},
    {"type": "place_token", "color": "blue", "cell": "0,0"},
    {"type": "place_cube", "card": "frog", "cell": "0,0"},
    {"type": "choose_spirit", "card": "owl_spirit"},
    {"type": "discard_card", "slot": 0},
    {"type": "take_card", "slot": 4},
    {"type": "end_turn"},
    {"type": "take_tokens", "space": 4},
]


def _probe(game: HarmoniesGame, rng: random.Random, seen: set[str]) -> None:
    """Ask about every action id for the seat to act and one other seat; try bad JSON actions."""
    seats = sorted({game.current, rng.randrange(game.players)})
    for seat in seats:
        for code in range(game.space.size):
            reason = game.why_illegal(seat, code)
            if reason is not None:
                seen.add(check_coded(reason))
        for code in (-1, game.space.size, "x"):
            seen.add(check_coded(game.why_illegal(seat, code)))  # type: ignore[arg-type]
    before = game.fingerprint()
    for action in BAD_ACTIONS:
        try:
            game.apply(rng.randrange(game.players), action)
        except IllegalAction as exc:
            seen.add(check_coded(exc))
            assert game.fingerprint() == before
        else:  # a legal move after all: go back to the probed state
            game = HarmoniesGame.from_json(json.loads(before))
    for seat in (-1, game.players, "0", None):
        with pytest.raises(IllegalAction) as err:
            game.apply(seat, {"type": "end_turn"})  # type: ignore[arg-type]
        seen.add(check_coded(err.value))


def test_every_refusal_of_random_games_in_every_mode_is_coded() -> None:
    seen: set[str] = set()
    rng = random.Random(12)
    for n, options in enumerate(MODES):
        game = glade.new_game("harmonies", seed=n, **options)
        assert isinstance(game, HarmoniesGame)
        step = 0
        while True:
            if step % 9 == 0 or game.is_over:
                _probe(game, rng, seen)
            if game.is_over:
                break
            seat = game.current
            game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
            step += 1
    # the probes met the refusals of every kind of move, not a few of them
    expected = {
        "game.over",
        "move.unknown",
        "seat.unknown",
        "undo.args",
        "undo.nothing",
        *(
            PREFIX + c
            for c in (
                "turn.not_yours",
                "spirit.choose_first",
                "tokens.already_taken",
                "tokens.no_space",
                "token.take_first",
                "token.not_in_hand",
                "token.on_cube",
                "stack.building",
                "stack.blue",
                "stack.gray",
                "stack.brown",
                "stack.green",
                "stack.yellow",
                "stack.red",
                "card.already_taken",
                "card.hand_full",
                "card.no_slot",
                "card.slot_empty",
                "cube.no_spirit",
                "cube.not_held",
                "cube.occupied",
                "cube.no_habitat",
                "spirit.nothing_to_choose",
                "spirit.not_dealt",
                "discard.not_solo",
                "discard.tokens_first",
                "end.take_first",
                "end.tokens_left",
                "action.unknown",
                "action.missing_field",
                "action.extra_field",
                "action.not_number",
                "action.out_of_range",
                "color.unknown",
                "card.unknown",
                "spirit.is_animal",
                "cell.not_text",
                "cell.off_board",
            )
        ),
    }
    assert expected <= seen, sorted(expected - seen)


def test_rarer_refusals_are_coded() -> None:
    g = HarmoniesGame.new(3, {"players": 2})
    g.central[1] = ()
    assert check_coded(g.why_illegal(0, 1)) == PREFIX + "tokens.space_empty"
    set_cell(g, 0, "0,0", "gray", "gray", "gray")
    set_cell(g, 0, "0,1", "brown", "brown")
    g.central[0], g.hand, g.took = (), [1, 2], True
    sp = g.space
    for color, cell, code in ((1, 0, "stack.mountain_full"), (2, 1, "stack.trunk_full")):
        reason = g.why_illegal(0, sp.PLACE + color * sp.n + cell)
        assert check_coded(reason) == PREFIX + code


def test_bad_options_saves_and_boards_are_coded() -> None:
    for options in (
        {"colour": "red"},
        {"players": 5},
        {"players": True},
        {"side": "C"},
        {"spirits": "yes"},
    ):
        with pytest.raises(BadInput) as err:
            HarmoniesGame.new(1, options)
        check_coded(err.value)
    save = HarmoniesGame.new(1, {}).to_json()
    del save["pouch"]
    with pytest.raises(BadInput) as err:
        HarmoniesGame.from_json(save)
    assert check_coded(err.value) == PREFIX + "save.damaged"
    boards: list[Any] = [
        [],
        {"side": "C"},
        {"stacks": []},
        {"stacks": {"0,0": "blue"}},
        {"stacks": {"0,0": ["pink"]}},
        {"stacks": {"0,0": ["blue", "blue"]}},
        {"stacks": {"x": ["blue"]}},
        {"stacks": {"9,9": ["blue"]}},
        {"cubes": "0,0"},
        {"stacks": {"0,0": ["blue"]}, "cubes": ["0,0", "0,0"]},
        {"cubes": ["0,0"]},
        {"cards": {}},
        {"cards": [5]},
        {"cards": [{"card": "owl_spirit"}]},
        {"cards": [{"card": "frog"}, {"card": "frog"}]},
        {"cards": [{"card": "frog", "placed": -1}]},
        {"cards": [{"card": "frog", "placed": 9}]},
        {"spirit": "owl"},
        {"spirit": {"card": "frog"}},
        {"cards": [{"card": "frog", "placed": 1}]},
    ]
    for board in boards:
        with pytest.raises(BadInput) as err:
            score_board(board)
        check_coded(err.value)
    with pytest.raises(BadInput) as err:
        score_board({}, solo="yes")  # type: ignore[arg-type]
    check_coded(err.value)
