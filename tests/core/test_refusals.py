"""Refusals carry a stable code and params; the catalogue doc is generated from the catalogues."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import glade
from glade.core import Action, BadInput, Catalogue, IllegalAction, Refusal
from glade.core.refusals import CORE, all_catalogues, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "refusals.md"


def test_refusal_is_the_english_sentence_with_code_and_params() -> None:
    cat = Catalogue("t", {"hand.left": "you still have {n} {n:token|tokens} to place"})
    one = cat.refuse("hand.left", n=1)
    two = cat.refuse("hand.left", n=2)
    assert isinstance(one, Refusal) and isinstance(one, str)
    assert one == "you still have 1 token to place"
    assert two == "you still have 2 tokens to place"
    assert (two.code, two.params) == ("hand.left", {"n": 2})
    assert pickle.loads(pickle.dumps(two)).params == {"n": 2}
    exc = IllegalAction(two)
    assert (str(exc), exc.code, exc.params) == (two, "hand.left", {"n": 2})
    assert exc.to_json() == {"error": str(two), "code": "hand.left", "params": {"n": 2}}


def test_unknown_code_or_missing_param_is_a_programming_error() -> None:
    cat = Catalogue("t", {"a.b": "cell {cell}"})
    with pytest.raises(KeyError):
        cat.refuse("nope")
    with pytest.raises(KeyError):
        cat.refuse("a.b")
    with pytest.raises(ValueError):
        Catalogue("t", {"has space": "x"})


def test_core_refusals_have_codes() -> None:
    game = glade.new_game("harmonies", players=2, seed=1)
    cases = [
        (lambda: Action.from_json(5), "action.not_object"),
        (lambda: Action.from_json({"type": ""}), "action.no_type"),
        (lambda: Action.from_json({"type": "x", "a": [[1]]}), "action.plain_values"),
        (lambda: game.apply(9, {"type": "end_turn"}), "seat.unknown"),
        (lambda: game.apply(0, {"type": "undo", "x": 1}), "undo.args"),
        (lambda: game.apply(0, {"type": "undo"}), "undo.nothing"),
    ]
    for call, code in cases:
        with pytest.raises(IllegalAction) as err:
            call()
        assert err.value.code == code, (code, err.value)
    with pytest.raises(BadInput) as bad:
        glade.new_game("chess")
    assert bad.value.code == "game.unknown" and bad.value.params["name"] == "'chess'"
    with pytest.raises(BadInput) as bad:
        glade.load_game({})
    assert bad.value.code == "save.not_glade"


def test_every_code_is_unique_across_catalogues_and_core_is_listed() -> None:
    cats = all_catalogues()
    assert cats[0] is CORE
    seen: set[str] = set()
    for cat in cats:
        for code in cat:
            assert code not in seen, code
            seen.add(code)


def test_refusal_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == markdown(), (
        "docs/refusals.md is stale: python -m glade.core.refusals > docs/refusals.md"
    )


def test_view_header_names_the_same_fields_in_both_games() -> None:
    for name, opts in (("harmonies", {"players": 2}), ("living-forest", {"players": 2})):
        game = glade.new_game(name, seed=3, **opts)
        head = game.view_header(1)
        assert list(head) == [
            "game",
            "options",
            "seat",
            "players",
            "to_act",
            "over",
            "can_undo",
            "result",
        ]
        assert head["game"] == name and head["seat"] == 1 and head["players"] == 2
        assert head["to_act"] == list(game.to_act) and head["over"] is False
        assert head["result"] is None and game.view_header(None)["can_undo"] is False


def test_undo_of_a_log_that_cannot_be_replayed_refuses_and_changes_nothing() -> None:
    # Game.undo (core) replays the log for both games; a Harmonies token take is undoable
    game = glade.new_game("harmonies", seed=5, players=2)
    game.apply(0, {"type": "take_tokens", "space": 0})
    assert game.can_undo(0)
    game.log.insert(0, (0, 10**6, None))  # a damaged history: an action id that is no move
    before = game.fingerprint()
    with pytest.raises(IllegalAction) as err:
        game.undo(0)
    assert err.value.code == "undo.unreplayable"
    assert game.fingerprint() == before
