"""The guided first games: each script replays from its seed and every claim its texts make holds;
the one check allows the step's move and refuses any other with the step's explanation; progress
is kept; free play goes to the end."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from glossary_check import forbidden

from glade.core import Action, BadInput, IllegalAction
from glade.learn.tutorial import REFUSAL, Tutorial, matches, script, texts
from glade.learn.values import values

GAMES = ("harmonies", "living-forest")
LANGS = ("en", "ko", "zh")
LANDSCAPES = ("trees", "mountains", "fields", "buildings", "water")


def at(view: dict[str, Any], path: list[Any]) -> Any:
    here: Any = view
    for key in path:
        here = here[key]
    return here


def walk(game: str) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(step entry, the player's view before it, after it) of every scripted step, played."""
    t = Tutorial(game)
    out = []
    while not t.free_play:
        entry = t.current()
        assert entry is not None
        before = t.game.view(t.seat)
        for move in entry["moves"]:
            assert t.check(t.seat, move) is None
            t.play(t.seat, move)
        out.append((entry, before, t.game.view(t.seat)))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_claim_of_the_script_holds_on_replay(game: str) -> None:
    claims = 0
    for entry, _, after in walk(game):
        for claim in entry["claims"]:
            assert at(after, claim["path"]) == claim["value"], (entry["id"], claim)
            claims += 1
    assert claims >= 12


def test_harmonies_meets_every_landscape_an_animal_card_and_its_cube() -> None:
    steps = walk("harmonies")
    final = steps[-1][2]["boards"][0]["score"]
    for category in (*LANDSCAPES, "animals"):
        assert final[category] > 0, category
    kinds = [e["say"] for e, _, _ in steps]
    assert "take_card" in kinds and "place_cube" in kinds
    first: dict[str, str] = {}
    for entry, before, after in steps:
        b, a = before["boards"][0]["score"], after["boards"][0]["score"]
        why, params = entry["why"], entry["params"]
        category = {
            "tree": "trees",
            "mountain": "mountains",
            "field": "fields",
            "river": "water",
            "building": "buildings",
            "cube": "animals",
        }.get(why.split("_")[0])
        if why in ("mountain_lone", "field_lone", "river_start"):
            assert a[category] == b[category] == 0, entry["id"]  # "scores nothing yet"
        elif why in ("red_lone", "trunk"):
            assert a["total"] == b["total"], entry["id"]  # "not a building / tree yet"
        elif category is not None and why != "building":
            assert a[category] > b[category] or why == "field_same", entry["id"]
            if "points" in params:
                assert a[category] == params["points"], entry["id"]
            first.setdefault(category, entry["id"])
        if why in ("tree_new", "tree_more", "tree_taller"):
            cell = entry["moves"][0]["cell"]
            tree = next(p for p in a["parts"] if p["category"] == "trees" and cell in p["cells"])
            assert tree["params"]["height"] == params["height"], entry["id"]
        if why == "building_score":
            part = max(
                (p for p in a["parts"] if p["category"] == "buildings"), key=lambda p: p["points"]
            )
            assert (
                len(part["params"]["colors"])
                == params["seen"]
                >= int(values("harmonies")["rule.building.colours"])
            )
        if why == "river":
            river = max((p for p in a["parts"] if p["what"] == "river"), key=lambda p: p["points"])
            assert river["params"]["length"] == params["length"]
    assert set(first) == {*LANDSCAPES, "animals"}


def test_living_forest_meets_the_limit_every_action_and_onibi() -> None:
    steps = walk("living-forest")
    limit = int(values("living-forest")["rule.solitary_limit"])
    at_limit = int(values("living-forest")["rule.actions_at_limit"])
    limits = [(e, a) for e, _, a in steps if e["why"] == "draw_limit"]
    assert limits
    entry, after = limits[0]
    me = after["spirits"][0]
    assert me["solitary"] == limit and after["phase"] == "actions"
    assert after["current"] == 0 and after["actions_left"] == at_limit
    assert after["spirits"][0]["help_line"] and len(entry["moves"]) == entry["params"]["n"]
    chosen = {e["params"]["action"] for e, _, _ in steps if e["say"] == "choose_action"}
    assert chosen == {"fragment", "attract", "extinguish", "move", "plant"}
    onibi = [(e, b) for e, b, _ in steps if e["why"] == "onibi"]
    assert onibi
    entry, before = onibi[0]
    last = before["last_round"]
    me = last["spirits"][0]
    assert me["attacked"] and me["varans"] == entry["params"]["varans"] > 0
    assert (
        me["water"] == entry["params"]["water"] < last["onibi"]["power"] == entry["params"]["power"]
    )
    for entry, before, after in steps:
        if entry["why"].startswith("choose_") and entry["params"]["element"]:
            element = entry["params"]["element"]
            assert before["spirits"][0]["elements"][element] == entry["params"]["strength"]
        if entry["why"] == "stop":
            assert after["spirits"][0]["solitary"] == entry["params"]["solitary"] == limit - 1


@pytest.mark.parametrize("game", GAMES)
def test_the_check_refuses_every_other_move_with_the_steps_explanation(game: str) -> None:
    t = Tutorial(game)
    rng = random.Random(5)
    refused = 0
    while not t.free_play:
        expected = t.expected()
        assert expected is not None
        others = [
            a for a in t.game.legal_actions(t.seat) if a.type != "undo" and not matches(expected, a)
        ]
        for a in rng.sample(others, min(3, len(others))):
            before = t.game.fingerprint()
            for lang in LANGS:
                why = t.check(t.seat, a, lang)
                assert why is not None and why["code"] == REFUSAL
                assert why["engine"] is None  # legal in the game, not the move of this step
                assert why["expected"] == [expected] and why["step"] == t.current()["id"]  # type: ignore[index]
                assert why["explanation"] and "{" not in why["explanation"]
            with pytest.raises(IllegalAction) as exc:
                t.play(t.seat, a)
            assert exc.value.code == REFUSAL
            assert t.game.fingerprint() == before
            refused += 1
        t.play(t.seat, expected)
    assert refused > 20


@pytest.mark.parametrize("game", GAMES)
def test_illegal_moves_undo_and_the_other_seat_are_refused_too(game: str) -> None:
    t = Tutorial(game)
    wrong = (
        {"type": "take_tokens", "space": 9} if game == "harmonies" else {"type": "move", "steps": 1}
    )
    why = t.check(t.seat, wrong, "ko")
    assert why is not None and why["engine"] is not None and why["engine"]["code"]
    assert re.search(r"[가-힣]", why["explanation"])
    assert t.check(1, t.expected() or {}, "en")["explanation"].startswith("The bot's moves")  # type: ignore[index]
    assert "Undo" in t.check(t.seat, {"type": "undo"})["explanation"]  # type: ignore[index]
    with pytest.raises(IllegalAction):
        t.play(1, t.expected() or {})


@pytest.mark.parametrize("game", GAMES)
def test_progress_is_kept_and_resumes_where_it_was(game: str) -> None:
    whole = Tutorial.replay(game)
    half = Tutorial.replay(game, upto=len(whole.steps()) // 2)
    t = half
    first = t.expected()
    assert first is not None
    t.play(t.seat, first)  # inside a step of several moves (Living Forest's draws) too
    saved = t.to_json()
    resumed = Tutorial.from_json(saved)
    assert resumed.game.fingerprint() == t.game.fingerprint()
    assert (resumed.entry, resumed.done) == (t.entry, t.done)
    for s in (t, resumed):
        while not s.free_play:
            s.play(s.seat, s.expected())  # type: ignore[arg-type]
    assert resumed.game.fingerprint() == t.game.fingerprint() == whole.game.fingerprint()
    with pytest.raises(BadInput):
        Tutorial.from_json({**saved, "entry": 10_000})
    with pytest.raises(BadInput):
        Tutorial.from_json({"format": "something else"})


@pytest.mark.parametrize("game", GAMES)
def test_free_play_goes_to_the_end_with_any_legal_move(game: str) -> None:
    from glade.bots import make_bot

    t = Tutorial.replay(game)
    assert t.free_play and t.step() is None and t.check(t.seat, {"type": "nothing"}) is None
    bot = make_bot(t.opponent["bot"], game, seed=t.opponent["seed"])
    rng = random.Random(1)
    for _ in range(5000):
        if t.game.is_over:
            break
        seat = t.game.to_act[0]
        if seat == t.seat:
            moves = [a for a in t.game.legal_actions(seat) if a.type != "undo"]
            t.play(seat, rng.choice(moves))
        else:
            for a in bot.choose(t.game, seat):
                if seat in t.game.to_act:
                    t.play(seat, a)
    assert t.game.is_over


@pytest.mark.parametrize("game", GAMES)
def test_every_step_reads_in_three_languages_in_the_glossarys_words(game: str) -> None:
    t = Tutorial(game)
    keys = {"intro", "free", "over", "refuse.not_you", "refuse.undo"}
    found = []
    while not t.free_play:
        entry = t.current()
        assert entry is not None
        keys |= {f"say.{entry['say']}", f"why.{entry['why']}", f"refuse.{entry['say']}"}
        for lang in LANGS:
            step = t.step(lang)
            assert step is not None
            for text in (step["say"], step["why"]):
                assert text and not re.search(r"\{[^}]*\}", text), (lang, entry["id"], text)
                if lang != "en":
                    found += forbidden(game, lang, entry["id"], text)
                    assert not re.findall(r"[A-Za-z]{3,}", text), (lang, text)
        t.play(t.seat, t.expected())  # type: ignore[arg-type]
    table = texts(game)
    assert keys <= set(table), keys - set(table)
    for key, text in table.items():
        assert set(text) == set(LANGS), key
        for lang in ("ko", "zh"):
            found += forbidden(game, lang, key, text[lang])
    assert not found, "\n".join(found)


def test_scripts_name_their_seed_options_and_opponent() -> None:
    for game in GAMES:
        data = script(game)
        assert isinstance(data["seed"], int) and data["opponent"]["bot"] == "greedy"
        assert data["entries"] and "found_by" in data
        assert data["options"]["players"] == 2
    assert matches(
        {"type": "place_token", "cell": "2,1"}, Action("place_token", color="red", cell="2,1")
    )
    assert matches({"type": "move", "steps": [1, 2]}, Action("move", steps=2))
    assert not matches({"type": "move", "steps": [1, 2]}, Action("move", steps=3))
