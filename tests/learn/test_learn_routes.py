"""The learning routes: the rules content with the page's words, and a guided game played through
``POST /api/learn/{game}/check`` from its first step to the end of the game (the server plays the
script's replies, then the bot), refusals that change nothing, and bad saves refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from glade.bots.teach import gained
from glade.learn import section_ids
from glade.learn.gains import lesson, page_cell
from glade.learn.tutorial import Tutorial
from glade.server import Settings, create_app

GAMES = ["harmonies", "living-forest"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("learn") / "glade.sqlite3"
    settings = Settings(db=f"sqlite:///{db}", messages_per_second=100_000)
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_rules_route_gives_every_section_and_the_page_words(
    client: TestClient, game: str, lang: str
) -> None:
    r = client.get(f"/api/rules/{game}", params={"lang": lang})
    assert r.status_code == 200
    page = r.json()
    assert [s["id"] for s in page["sections"]] == section_ids(game)
    assert page["lang"] == lang
    assert page["ui"]["step"] and "{k}" in page["ui"]["step"]


def test_words_route_gives_every_string_in_three_languages(client: TestClient) -> None:
    texts = client.get("/api/rules").json()["texts"]
    assert texts["learn.restart"]["ko"] and texts["rules.link"]["zh"]
    assert all(set(text) == {"en", "ko", "zh"} for text in texts.values())


def test_rules_route_refuses_an_unknown_game_and_language(client: TestClient) -> None:
    r = client.get("/api/rules/chess")
    assert r.status_code == 422 and "chess" in r.json()["error"] and r.json()["code"]
    r = client.get("/api/rules/harmonies", params={"lang": "fr"})
    assert r.status_code == 422 and "fr" in r.json()["error"]


def wrong_move(answer: dict[str, Any]) -> dict[str, Any] | None:
    """A legal move the current step does not teach, if there is one."""
    expected = answer["step"]["next"]
    for a in answer["legal_actions"]:
        if a != expected and a["type"] != "undo":
            return a
    return None


@pytest.mark.parametrize("game", GAMES)
def test_a_guided_game_is_played_to_its_end_through_the_route(
    client: TestClient, game: str
) -> None:
    r = client.get(f"/api/learn/{game}", params={"lang": "ko"})
    assert r.status_code == 200
    answer = r.json()
    assert answer["step"]["index"] == 0 and answer["verdict"] is None
    assert answer["view"] and answer["legal_actions"]
    steps_seen = set()
    refusals = 0
    moves = 0
    lessons = 0
    while not answer["over"]:
        assert moves < 1000
        state = answer["state"]
        if answer["step"] is not None:
            steps_seen.add(answer["step"]["index"])
            other = wrong_move(answer)
            if other is not None:
                refused = client.post(
                    f"/api/learn/{game}/check", json={"state": state, "action": other, "lang": "ko"}
                ).json()
                verdict = refused["verdict"]
                assert verdict["code"] == "tutorial.step"
                assert verdict["explanation"] and verdict["expected"] == [answer["step"]["next"]]
                assert refused["state"] == state  # nothing changed
                refusals += 1
            action = answer["step"]["next"]
        else:
            assert answer["free"] and answer["seat"] in answer["to_act"]
            action = next(a for a in answer["legal_actions"] if a["type"] != "undo")
        seat = answer["seat"]
        before = Tutorial.from_json(state).game
        r = client.post(
            f"/api/learn/{game}/check", json={"state": state, "action": action, "lang": "en"}
        )
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["verdict"] is None
        # what the move gained, in words, as the one scorer's parts measure it
        lines = gained(before, seat, action)
        assert answer["gained"] == (lesson(game, lines, "en", page_cell(game)) if lines else None)
        lessons += bool(lines)
        moves += 1
    assert steps_seen == set(range(answer["steps"]))
    assert refusals > 0
    assert lessons >= 5  # the guided game tells what its moves gained
    assert answer["view"]["result"]["winners"] and answer["legal_actions"] == []
    # the save the page keeps resumes the same game
    again = client.post(f"/api/learn/{game}/check", json={"state": answer["state"]}).json()
    assert again["over"] and again["view"] == answer["view"]


def test_free_play_refusal_is_the_engines_and_changes_nothing(client: TestClient) -> None:
    done = Tutorial.replay("harmonies")
    state = done.to_json()
    r = client.post(
        "/api/learn/harmonies/check",
        json={"state": state, "action": {"type": "place_token", "cell": "0,0", "color": "red"}},
    )
    assert r.status_code == 422 and r.json()["code"] and r.json()["code"] != "tutorial.step"


def test_bad_saves_are_refused(client: TestClient, tmp_path: Path) -> None:
    r = client.post("/api/learn/harmonies/check", json={"state": {"format": "nope"}})
    assert r.status_code == 422 and "saved guided game" in r.json()["error"]
    lf = Tutorial("living-forest").to_json()
    r = client.post("/api/learn/harmonies/check", json={"state": lf})
    assert r.status_code == 422 and "living-forest" in r.json()["error"]
    r = client.post("/api/learn/harmonies/check", json={"state": lf, "extra": 1})
    assert r.status_code == 422
