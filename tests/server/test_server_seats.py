"""The server side of issue 31: a seat keeps its player through a takeover, a rematch keeps the
accounts, and a logged-in player sits under the account's name."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from server_support import bearer, client, client_from, db_url, pg_url, play_random  # noqa: F401
from test_server_accounts import Browser, cheap_hashes, claim, login, signup  # noqa: F401
from test_server_ratings import Player

__all__ = ["cheap_hashes", "client", "db_url", "pg_url"]


def test_a_seat_a_bot_took_over_keeps_its_players_name_and_says_so(client: TestClient) -> None:  # noqa: F811
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
    r = client.post("/api/games", json={"game": "harmonies", "seats": seats})
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    before = client.get(f"/api/games/{gid}").json()["seats"][1]
    assert before["taken_over"] is False
    r = client.post(f"/api/games/{gid}/leave", headers=bearer(tokens[1]))
    assert r.status_code == 200, r.text
    for seat in (
        client.get(f"/api/games/{gid}").json()["seats"][1],
        client.get(f"/api/games/{gid}/log").json()["seats"][1],
    ):
        assert seat["name"] == "Bo" and seat["taken_over"] is True
        assert seat["kind"] == "bot" and seat["bot"] == "greedy" and seat["status"] == "left"
    play_random(client, gid, [tokens[0], None], random.Random(1))
    final = client.get(f"/api/games/{gid}/log").json()
    assert final["over"] and final["seats"][1]["name"] == "Bo"
    assert [s["name"] for s in client.get(f"/api/games/{gid}").json()["seats"]] == ["Ann", "Bo"]


def test_a_rematch_keeps_each_seats_account(client: TestClient) -> None:  # noqa: F811
    ann, bo = Player(client, "Ann"), Player(client, "Bo")
    gid, invites = ann.create(
        [{"kind": "human", "name": "x"}, {"kind": "human", "name": "y"}], rated=False
    )
    tokens = [ann.claim(gid, invites[0]), bo.claim(gid, invites[1])]
    play_random(client, gid, tokens, random.Random(2))
    r = ann.browser.post(
        f"/api/games/{gid}/rematch",
        headers={**bearer(tokens[0]), "X-CSRF-Token": ann.csrf},
    )
    assert r.status_code == 200, r.text
    new_id = r.json()["id"]
    seats = client.get(f"/api/games/{new_id}").json()["seats"]
    assert [s["user_id"] for s in seats] == [bo.id, ann.id]  # rotated, each its account's
    # Bo's other device, logged in to his account, lists the rematch among his games
    other = Browser(client_from(client))
    login(other, bo.name)
    mine = {g["id"]: g for g in other.get("/api/account/games").json()["games"]}
    assert new_id in mine and mine[new_id]["mine"] == [0]


def test_a_logged_in_player_sits_under_the_accounts_name(client: TestClient) -> None:  # noqa: F811
    ann = Player(client, "Ann")
    # the page names seats "Player 1", "Player 2" when nobody typed a name
    seats = [{"kind": "human", "name": "Player 1"}, {"kind": "human", "name": "Player 2"}]
    gid, invites = ann.create(seats, rated=False)
    ann.claim(gid, invites[0])
    names = [s["name"] for s in client.get(f"/api/games/{gid}").json()["seats"]]
    assert names == [ann.name, "Player 2"]
    # the same account taking the other seat too (one browser, hot seat) keeps its given name
    ann.claim(gid, invites[1])
    names = [s["name"] for s in client.get(f"/api/games/{gid}").json()["seats"]]
    assert names == [ann.name, "Player 2"]
    # a guest keeps the name given to the seat
    guest = Browser(client_from(client))
    gid, invites = ann.create(seats, rated=False)
    assert claim(guest, gid, invites[1], None).status_code == 200
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["name"] == "Player 2"
