"""Hints for the seat to move, game options in every answer, past positions of finished games."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from server_support import bearer, client, db_url, new_table, pg_url, play_random  # noqa: F401

import glade
from glade.learn.gains import harmonies_page_cell, lesson


def test_a_hint_is_a_legal_move_for_the_seat_to_play(client: TestClient) -> None:  # noqa: F811
    game_id, tokens = new_table(client, "harmonies", humans=2, options={"players": 2})
    state = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    assert state["options"] == {"players": 2, "side": "A", "spirits": False}
    r = client.get(f"/api/games/{game_id}/hint?lang=ko", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == state["version"] and body["actions"] == body["hints"][0]["actions"]
    # each move's lesson: its teach lines in the asked language, cells named as the page does
    # (a move may gain nothing yet, a brown token alone: then no lesson)
    for item in body["hints"]:
        want = lesson("harmonies", item["teach"], "ko", harmonies_page_cell)
        assert item["lesson"] == (want if item["teach"] else None), item
        cells = [c for line in item["teach"] for c in line["params"].get("cells", [])]
        if cells:
            assert harmonies_page_cell(cells[0]) in item["lesson"], item
    bad = client.get(f"/api/games/{game_id}/hint?lang=fr", headers=bearer(tokens[0]))
    assert bad.status_code == 422
    assert body["actions"][0] in state["legal_actions"]
    # the whole suggested turn is playable, action by action
    version = state["version"]
    for action in body["actions"]:
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": action, "version": version},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 200, (action, r.text)
        version = r.json()["version"]
    assert r.json()["to_act"] == [1]
    # not your turn, a spectator, a stranger
    assert client.get(f"/api/games/{game_id}/hint", headers=bearer(tokens[0])).status_code == 409
    assert client.get(f"/api/games/{game_id}/hint").status_code == 403
    assert client.get(f"/api/games/{game_id}/hint", headers=bearer("nope")).status_code == 403


def test_past_positions_only_after_the_end_and_they_replay_the_game(client: TestClient) -> None:  # noqa: F811
    game_id, tokens = new_table(client, "harmonies", humans=1, options={"players": 1})
    r = client.get(f"/api/games/{game_id}/past/0")
    assert r.status_code == 403 and "once the game is over" in r.json()["error"]
    play_random(client, game_id, tokens, random.Random(3))
    log = client.get(f"/api/games/{game_id}/log").json()
    final = client.get(f"/api/games/{game_id}").json()
    moves = len(log["moves"])
    start = client.get(f"/api/games/{game_id}/past/0").json()
    assert start["view"] == log["initial_view"]
    end = client.get(f"/api/games/{game_id}/past/{moves}").json()
    assert end["view"] == final["view"] and end["to_act"] == []
    middle = client.get(f"/api/games/{game_id}/past/7").json()
    game = glade.new_game("harmonies", seed=log["seed"], **log["options"])
    for entry in log["moves"][:7]:
        game.apply(entry["seat"], entry["action"])
    assert middle["move"] == 7 and middle["view"] == game.view(None)
    for bad in (-1, moves + 1):
        r = client.get(f"/api/games/{game_id}/past/{bad}")
        assert r.status_code == 422, r.text


@pytest.mark.parametrize("game", ["harmonies", "living-forest"])
def test_openapi_describes_the_new_routes(client: TestClient, game: str) -> None:  # noqa: F811
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/games/{game_id}/hint" in paths and "/api/games/{game_id}/past/{move}" in paths
    game_id, _ = new_table(client, game, humans=2)
    assert client.get(f"/api/games/{game_id}").json()["options"]["players"] == 2
