"""Table clocks, bot takeover on a timeout or a leave, rematches and table chat (SQLite and
PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import (
    bearer,
    client,
    db_url,
    finish_in_process,
    make_settings,
    new_table,
    pg_url,
    pick,
)

from glade.server import create_app

__all__ = ["client", "db_url", "pg_url"]  # fixtures used by name


def fast(db_url: str, **changes: Any) -> TestClient:
    """An app whose clocks may be a second long and are looked at ten times a second."""
    settings = {"clock_min_seconds": 0.5, "clock_poll_seconds": 0.1, **changes}
    return TestClient(create_app(make_settings(db_url, **settings)))


@pytest.fixture
def fast_client(db_url: str) -> Iterator[TestClient]:
    with fast(db_url) as c:
        yield c


def clocked(
    c: TestClient, clock: dict[str, Any], game: str = "harmonies", humans: int = 2
) -> tuple[str, list[str | None]]:
    seats = [{"kind": "human", "name": f"p{i}"} for i in range(humans)]
    r = c.post("/api/games", json={"game": game, "seats": seats, "clock": clock})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], [s["token"] for s in body["seats"]]


def first_move(c: TestClient, game_id: str, tokens: list[str | None]) -> None:
    """The game's first action (a real-time clock runs only once the game has begun)."""
    seat = c.get(f"/api/games/{game_id}").json()["to_act"][0]
    mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
    r = c.post(
        f"/api/games/{game_id}/actions",
        json={"action": pick(mine, random.Random(0)), "version": mine["version"]},
        headers=bearer(tokens[seat]),
    )
    assert r.status_code == 200, r.text


def wait_for(check: Any, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("it did not happen in time")


def social(c: TestClient, game_id: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}/social")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


# ---------------------------------------------------------------------- clocks
@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"kind": "realtime", "base": 0}, "base"),
        ({"kind": "realtime", "base": 30}, "from 60 to 10800 seconds"),  # under the server's 60
        ({"kind": "realtime", "base": 300, "increment": 601}, "increment"),
        ({"kind": "realtime", "base": 300.5}, "base"),
        ({"kind": "correspondence", "days": 4}, "days"),
        ({"kind": "sundial"}, "clock"),
        ({"kind": "realtime", "base": 300, "extra": 1}, "extra"),
    ],
)
def test_bad_clocks_are_refused(client: TestClient, clock: dict[str, Any], words: str) -> None:
    r = client.post(
        "/api/games",
        json={"game": "harmonies", "seats": [{"kind": "human", "name": "a"}], "clock": clock},
    )
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]
    assert client.get("/api/lobby").json()["games"] == []


def test_no_clock_by_default(client: TestClient) -> None:
    game_id, _ = new_table(client, "harmonies")
    assert social(client, game_id)["clock"] is None
    r = client.post(
        "/api/games",
        json={"game": "harmonies", "seats": [{"kind": "human"}], "clock": {"kind": "none"}},
    )
    assert r.status_code == 201 and social(client, r.json()["id"])["clock"] is None


def test_realtime_clock_runs_for_the_seat_to_act_and_gains_the_increment(
    client: TestClient,
) -> None:
    game_id, tokens = clocked(client, {"kind": "realtime", "base": 300, "increment": 20})
    clock = social(client, game_id)["clock"]
    assert clock["kind"] == "realtime" and clock["base"] == 300 and clock["increment"] == 20
    # nobody's clock runs before the game's first move (as on lichess or Board Game Arena)
    assert not any(s["running"] for s in clock["seats"])
    first_move(client, game_id, tokens)
    first, second = social(client, game_id)["clock"]["seats"]
    assert first["running"] and not second["running"] and second["remaining"] == 300
    assert 299 < first["remaining"] <= 300
    rng = random.Random(1)
    # play seat 0's whole turn: its clock stops with what was left plus 20 s
    while True:
        mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
        if 0 not in mine["to_act"]:
            break
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(mine, rng), "version": mine["version"]},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 200, r.text
    first, second = social(client, game_id)["clock"]["seats"]
    assert not first["running"] and 315 < first["remaining"] <= 320
    assert second["running"] and second["deadline"] > time.time() + 290


def test_clock_waits_for_every_seat_to_have_a_player(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={
            "game": "harmonies",
            "seats": [{"kind": "human", "name": "a"}, {"kind": "human"}],
            "clock": {"kind": "correspondence", "days": 2},
        },
    )
    game_id = r.json()["id"]
    assert not any(s["running"] for s in social(client, game_id)["clock"]["seats"])
    r = client.post(f"/api/games/{game_id}/join", json={"name": "b"})
    assert r.status_code == 200, r.text
    seats = social(client, game_id)["clock"]["seats"]
    assert seats[0]["running"] and not seats[1]["running"]
    assert seats[0]["deadline"] == pytest.approx(time.time() + 2 * 86_400, abs=30)


def test_living_forest_clocks_run_for_every_seat_with_a_move(client: TestClient) -> None:
    game_id, tokens = clocked(
        client, {"kind": "realtime", "base": 600}, game="living-forest", humans=3
    )
    first_move(client, game_id, tokens)
    state = client.get(f"/api/games/{game_id}").json()
    seats = social(client, game_id)["clock"]["seats"]
    running = {s["seat"] for s in seats if s["running"]}
    assert len(state["to_act"]) > 1  # the draw: every spirit at once
    assert running == set(state["to_act"])


def test_realtime_timeout_hands_the_seat_to_a_bot_and_the_game_goes_on(
    fast_client: TestClient,
) -> None:
    c = fast_client
    game_id, tokens = clocked(c, {"kind": "realtime", "base": 1})
    first_move(c, game_id, tokens)  # the clocks run from the first move on
    seat = c.get(f"/api/games/{game_id}").json()["to_act"][0]
    before = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
    gone = wait_for(
        lambda: (s := c.get(f"/api/games/{game_id}").json())["seats"][seat]["status"] and s
    )
    info = gone["seats"][seat]
    assert info["status"] == "timed out" and info["kind"] == "bot" and info["bot"] == "greedy"
    # the bot plays the seat's turn: the game goes on to the other seat
    after = wait_for(lambda: (s := c.get(f"/api/games/{game_id}").json())["to_act"] != [seat] and s)
    assert after["version"] > before["version"] and not after["over"]
    # a move by the timed-out player: a clear 4xx, nothing changed
    version = c.get(f"/api/games/{game_id}").json()["version"]
    r = c.post(
        f"/api/games/{game_id}/actions",
        json={"action": pick(before, random.Random(0)), "version": before["version"]},
        headers=bearer(tokens[seat]),
    )
    assert r.status_code in (403, 409)
    if r.status_code == 403:
        assert "clock ran out" in r.json()["error"]
    r = c.post(
        f"/api/games/{game_id}/actions",
        json={"action": {"type": "end_turn"}, "version": version},
        headers=bearer(tokens[seat]),
    )
    assert r.status_code == 403 and "clock ran out" in r.json()["error"]
    # the seat's player still sees the game as that seat, and the log records it
    assert c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()["seat"] == seat
    assert c.get(f"/api/games/{game_id}/log").json()["seats"][seat]["status"] == "timed out"
    # the other player's clock still runs: it too runs out, and the bots finish the game
    other = 1 - seat
    wait_for(lambda: c.get(f"/api/games/{game_id}").json()["seats"][other]["status"])
    assert wait_for(lambda: c.get(f"/api/games/{game_id}").json()["over"], seconds=120)


def test_a_move_after_the_deadline_is_refused_before_the_sweep(db_url: str) -> None:
    with fast(db_url, clock_poll_seconds=3600) as c:  # the sweep never comes by itself
        game_id, tokens = clocked(c, {"kind": "realtime", "base": 1})
        first_move(c, game_id, tokens)  # seat 0's first action: its clock runs from here
        mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
        assert mine["to_act"] == [0]
        time.sleep(1.2)
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(mine, random.Random(0)), "version": mine["version"]},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 403 and "clock ran out" in r.json()["error"]
        assert c.get(f"/api/games/{game_id}").json()["version"] == mine["version"]
        # the refused move started a sweep: the seat is the bot's now
        wait_for(lambda: c.get(f"/api/games/{game_id}").json()["seats"][0]["status"])


def _set_deadline(db_url: str, game_id: str, seat: int, deadline: float) -> None:
    if db_url.startswith("sqlite"):
        with sqlite3.connect(db_url[len("sqlite:///") :]) as conn:
            conn.execute(
                "UPDATE clocks SET deadline = ? WHERE game_id = ? AND seat = ?",
                (deadline, game_id, seat),
            )
        return
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE clocks SET deadline = %s WHERE game_id = %s AND seat = %s",
            (deadline, game_id, seat),
        )


def test_correspondence_deadlines_survive_a_restart(db_url: str) -> None:
    rng = random.Random(3)
    with fast(db_url) as c:
        game_id, tokens = clocked(c, {"kind": "correspondence", "days": 1})
        while (
            0
            in (mine := c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json())["to_act"]
        ):
            r = c.post(
                f"/api/games/{game_id}/actions",
                json={"action": pick(mine, rng), "version": mine["version"]},
                headers=bearer(tokens[0]),
            )
            assert r.status_code == 200, r.text
        before = social(c, game_id)["clock"]
    running = [s for s in before["seats"] if s["running"]]
    assert [s["seat"] for s in running] == [1]
    assert running[0]["deadline"] == pytest.approx(time.time() + 86_400, abs=60)
    with fast(db_url) as c:  # a new server on the same database
        after = social(c, game_id)["clock"]
        assert [s["deadline"] for s in after["seats"]] == [s["deadline"] for s in before["seats"]]
        assert after["seats"][0]["remaining"] == 86_400
    # while no server runs, seat 1's day passes: the next server to start times it out
    _set_deadline(db_url, game_id, 1, time.time() - 5)
    with fast(db_url) as c:
        state = wait_for(
            lambda: (s := c.get(f"/api/games/{game_id}").json())["seats"][1]["status"] and s
        )
        assert state["seats"][1]["status"] == "timed out"
        assert state["seats"][0]["status"] is None
        # the bot plays seat 1's turn; then seat 0 has a fresh day
        wait_for(lambda: 0 in c.get(f"/api/games/{game_id}").json()["to_act"])
        seats = social(c, game_id)["clock"]["seats"]
        assert seats[0]["running"] and seats[0]["deadline"] > time.time() + 86_000


# ---------------------------------------------------------------------- leaving
def test_leave_hands_the_seat_to_a_bot(client: TestClient) -> None:
    game_id, tokens = new_table(client, "harmonies")
    assert client.post(f"/api/games/{game_id}/leave").status_code == 403  # a spectator
    r = client.post(f"/api/games/{game_id}/leave", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][0]
    assert seat["status"] == "left" and seat["kind"] == "bot" and seat["bot"] == "greedy"
    r = client.post(f"/api/games/{game_id}/leave", headers=bearer(tokens[0]))
    assert r.status_code == 409 and "bot already plays" in r.json()["error"]
    assert r.status_code == 409 and "bot already plays" in r.json()["error"]
    mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    assert mine["seat"] == 0 and mine["legal_actions"] == []  # no move is the player's now
    # the bot plays seat 0's turn; seat 0's own token may no longer move
    state = wait_for(
        lambda: (s := client.get(f"/api/games/{game_id}").json())["to_act"] == [1] and s
    )
    r = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": {"type": "end_turn"}, "version": state["version"]},
        headers=bearer(tokens[0]),
    )
    assert r.status_code == 403 and "You left" in r.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["version"] == state["version"]


# ---------------------------------------------------------------------- rematch
def _finished(c: TestClient, clock: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    body: dict[str, Any] = {
        "game": "harmonies",
        "seats": [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bo"}],
    }
    if clock is not None:
        body["clock"] = clock
    r = c.post("/api/games", json=body)
    game_id = r.json()["id"]
    finish_in_process(c, game_id, random.Random(5))
    return game_id, [s["token"] for s in r.json()["seats"]]


def test_rematch_starts_a_new_table_for_both(client: TestClient) -> None:
    game_id, tokens = _finished(client, {"kind": "realtime", "base": 300, "increment": 5})
    pushes: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[1]}") as ws:
        ws.receive_json()  # the state
        r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
        offer = r.json()
        while not pushes:
            message = ws.receive_json()
            if message.get("type") == "rematch":
                pushes.append(message)
    new_id = offer["id"]
    assert offer["seat"] == 1 and offer["offered"] and offer["url"].endswith(offer["token"])
    push = pushes[0]
    assert push["id"] == new_id and push["by"] == 0
    assert push["accepted"] == [0] and push["waiting"] == [1]
    assert tokens[0] not in str(push) and offer["token"] not in str(push)
    # the new table: seats rotated, clocks stopped until the other player accepts
    state = client.get(f"/api/games/{new_id}", headers=bearer(offer["token"])).json()
    assert state["seat"] == 1 and [s["name"] for s in state["seats"]] == ["bo", "ann"]
    assert not any(s["running"] for s in social(client, new_id)["clock"]["seats"])
    assert social(client, game_id)["rematch"]["waiting"] == [1]
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[1]))
    assert r.status_code == 200, r.text
    accepted = r.json()
    assert accepted["id"] == new_id and accepted["seat"] == 0 and not accepted["offered"]
    assert accepted["token"] != offer["token"]
    mine = client.get(f"/api/games/{new_id}", headers=bearer(accepted["token"])).json()
    assert mine["seat"] == 0 and mine["legal_actions"]  # bo plays first now
    # every seat has its player; the clocks start with the first move
    assert not any(s["running"] for s in social(client, new_id)["clock"]["seats"])
    r = client.post(
        f"/api/games/{new_id}/actions",
        json={"action": pick(mine, random.Random(0)), "version": mine["version"]},
        headers=bearer(accepted["token"]),
    )
    assert r.status_code == 200, r.text
    assert social(client, new_id)["clock"]["seats"][0]["running"]
    assert social(client, game_id)["rematch"] == {
        "id": new_id,
        "by": 0,
        "accepted": [0, 1],
        "waiting": [],
        "declined": [],
        "withdrawn": False,
    }
    # accepting twice: a clear 409, one table, nothing changed
    for token in tokens:
        r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(token))
        assert r.status_code == 409 and new_id in r.json()["error"]
    assert client.get(f"/api/games/{new_id}", headers=bearer(accepted["token"])).json()["seat"] == 0
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 403  # a spectator


def test_rematch_offered_by_both_at_once_makes_one_table(client: TestClient) -> None:
    game_id, tokens = _finished(client)
    services = client.app.state.services  # type: ignore[attr-defined]
    table = services.tables.tables[game_id]

    async def both() -> list[Any]:
        return await asyncio.gather(
            services.social.rematch(table, 0, "a"),
            services.social.rematch(table, 1, "b"),
            return_exceptions=True,
        )

    answers = client.portal.call(both)
    assert all(isinstance(a, dict) for a in answers), answers
    assert answers[0]["id"] == answers[1]["id"]
    assert sorted(a["offered"] for a in answers) == [False, True]
    assert {a["seat"] for a in answers} == {0, 1}


def _finished_three(c: TestClient) -> tuple[str, list[str]]:
    names = ["ann", "bo", "cy"]
    r = c.post(
        "/api/games",
        json={"game": "harmonies", "seats": [{"kind": "human", "name": n} for n in names]},
    )
    game_id = r.json()["id"]
    finish_in_process(c, game_id, random.Random(6))
    return game_id, [s["token"] for s in r.json()["seats"]]


def decline(c: TestClient, game_id: str, token: str | None) -> Any:
    headers = {} if token is None else bearer(token)
    return c.post(f"/api/games/{game_id}/rematch/decline", headers=headers)


def test_a_declined_rematch_is_heard_by_the_offerer_once(client: TestClient) -> None:
    game_id, tokens = _finished_three(client)
    # before any offer: nothing to decline, and spectators never may
    r = decline(client, game_id, tokens[1])
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.none"
    assert decline(client, game_id, None).json()["code"] == "server.rematch.spectator"
    offer = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0])).json()
    pushes: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[0]}") as ws:
        ws.receive_json()  # the state
        r = decline(client, game_id, tokens[1])
        assert r.status_code == 200, r.text
        while not pushes:  # the offerer's page hears it
            message = ws.receive_json()
            if message.get("type") == "rematch" and message["declined"]:
                pushes.append(message)
    status = {
        "id": offer["id"],
        "by": 0,
        "accepted": [0],
        "waiting": [2],
        "declined": [1],
        "withdrawn": False,
    }
    assert r.json() == status and pushes[0] == {"type": "rematch", **status}
    assert social(client, game_id)["rematch"] == status
    # "My games" drops the rematch table that will never start (ann holds a seat in it)
    held = [{"id": game_id, "token": tokens[0]}, {"id": offer["id"], "token": offer["token"]}]
    listed = client.post("/api/my-games", json={"games": held}).json()
    assert [g["id"] for g in listed["games"]] == [game_id] and listed["gone"] == []
    # a second decline changes nothing and answers the same; the declined seat cannot accept
    again = decline(client, game_id, tokens[1])
    assert again.status_code == 200 and again.json() == status
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.declined"
    # cy accepts: cy cannot decline any more, and the offerer cannot withdraw
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[2]))
    assert r.status_code == 200, r.text
    r = decline(client, game_id, tokens[2])
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.accepted"
    assert offer["id"] in r.json()["error"]
    r = decline(client, game_id, tokens[0])
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.taken_up"
    assert social(client, game_id)["rematch"] == {
        **status,
        "accepted": [0, 2],
        "waiting": [],
    }
    # the new table: bo's seat still has no credential
    seats = client.get(f"/api/games/{offer['id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["cy", "ann", "bo"]


def test_the_offerer_withdraws_the_rematch_before_anyone_accepts(client: TestClient) -> None:
    game_id, tokens = _finished_three(client)
    offer = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0])).json()
    r = decline(client, game_id, tokens[2])
    assert r.status_code == 200, r.text
    r = decline(client, game_id, tokens[0])  # the offerer's decline: the offer withdrawn
    assert r.status_code == 200, r.text
    status = {
        "id": offer["id"],
        "by": 0,
        "accepted": [0],
        "waiting": [],
        "declined": [2],
        "withdrawn": True,
    }
    assert r.json() == status and social(client, game_id)["rematch"] == status
    assert decline(client, game_id, tokens[0]).json() == status  # idempotent
    for token in tokens[1:]:  # nobody can accept it now; a new offer is the same one
        r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(token))
        assert r.status_code == 409 and r.json()["code"] == "server.rematch.withdrawn"
    assert social(client, game_id)["rematch"] == status
    held = [{"id": offer["id"], "token": offer["token"]}]
    assert client.post("/api/my-games", json={"games": held}).json()["games"] == []


def test_a_decline_and_an_acceptance_at_once_store_one_reply(client: TestClient) -> None:
    """The same seat's decline and acceptance, and the offerer's withdrawal and another's
    acceptance, race: one wins, the other is refused, and the status says which."""
    services = client.app.state.services  # type: ignore[attr-defined]
    for _ in range(3):
        game_id, tokens = _finished(client)
        table = services.tables.tables[game_id]
        client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))

        async def both(at: Any, first: int) -> list[Any]:
            return await asyncio.gather(
                services.social.decline(at, first),
                services.social.rematch(at, 1, "b"),
                return_exceptions=True,
            )

        answers = client.portal.call(both, table, 1)
        status = social(client, game_id)["rematch"]
        won = [a for a in answers if isinstance(a, dict)]
        assert len(won) == 1, answers
        if status["declined"] == [1]:
            assert answers[1].code == "server.rematch.declined"
        else:
            assert status["accepted"] == [0, 1] and answers[0].code == "server.rematch.accepted"
        game_id, tokens = _finished(client)
        table = services.tables.tables[game_id]
        offer = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0])).json()
        answers = client.portal.call(both, table, 0)
        status = social(client, game_id)["rematch"]
        assert status["id"] == offer["id"]
        if status["withdrawn"]:
            assert answers[1].code == "server.rematch.withdrawn" and status["accepted"] == [0]
        else:
            assert status["accepted"] == [0, 1] and answers[0].code == "server.rematch.taken_up"


def test_no_rematch_before_the_end(client: TestClient) -> None:
    game_id, tokens = new_table(client, "harmonies")
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert r.status_code == 409 and "over" in r.json()["error"]
    r = decline(client, game_id, tokens[1])
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.not_over"


# ---------------------------------------------------------------------- chat
def test_chat_is_stored_pushed_and_read_only_for_spectators(client: TestClient) -> None:
    game_id, tokens = new_table(client, "harmonies")
    evil = '<img src=x onerror="alert(1)"> & <b>hi</b>'
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:  # a spectator
        ws.receive_json()
        r = client.post(
            f"/api/games/{game_id}/chat", json={"text": evil}, headers=bearer(tokens[1])
        )
        assert r.status_code == 200, r.text
        while (message := ws.receive_json()).get("type") != "chat":
            pass
    assert message["text"] == evil and message["seat"] == 1 and message["name"] == "p1"
    assert tokens[1] not in str(message)
    r = client.post(f"/api/games/{game_id}/chat", json={"text": "me too"})
    assert r.status_code == 403 and "Spectators" in r.json()["error"]
    stored = client.get(f"/api/games/{game_id}/chat").json()["messages"]
    assert [m["text"] for m in stored] == [evil]
    assert (
        client.get(f"/api/games/{game_id}/chat")
        .headers["content-type"]
        .startswith("application/json")
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "at least 1"),
        ("   ", "visible"),
        ("x" * 201, "at most 200"),
        ("bell\x07", "control"),
        ("nul\x00", "control"),
        ("two\nlines", "control"),
        ("sep\u2028", "control"),
    ],
)
def test_bad_chat_is_refused(client: TestClient, text: str, words: str) -> None:
    game_id, tokens = new_table(client, "harmonies")
    r = client.post(f"/api/games/{game_id}/chat", json={"text": text}, headers=bearer(tokens[0]))
    assert r.status_code == 422 and words in r.json()["error"], r.text
    assert client.get(f"/api/games/{game_id}/chat").json()["messages"] == []


def test_chat_is_rate_limited_per_client(client: TestClient) -> None:
    game_id, tokens = new_table(client, "harmonies")
    codes = [
        client.post(
            f"/api/games/{game_id}/chat", json={"text": f"m{i}"}, headers=bearer(tokens[0])
        ).status_code
        for i in range(8)
    ]
    assert codes[:5] == [200] * 5 and 429 in codes[5:]
    r = client.post(f"/api/games/{game_id}/chat", json={"text": "again"}, headers=bearer(tokens[1]))
    assert r.status_code == 429 and "too fast" in r.json()["error"]  # the same client
    kept = client.get(f"/api/games/{game_id}/chat").json()["messages"]
    assert [m["n"] for m in kept] == list(range(1, 1 + codes.count(200)))
