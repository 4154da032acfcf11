"""Ratings: rated tables move OpenSkill ratings exactly as openskill computes, exactly once."""

from __future__ import annotations

import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from server_support import bearer, client, db_url, make_settings, pg_url, play_random  # noqa: F401

from glade.arena.ratings import load_calibration, ranks_of
from glade.server import create_app
from glade.server.ratings import prior
from glade.server.storage import Storage

GAME = "harmonies"


def add_user(c: TestClient, name: str) -> str:
    """An account row, as the accounts part stores one (the tests need no password); the name
    gets a random tail (PostgreSQL tests share one database)."""
    name = f"{name}{secrets.token_hex(3)}"
    uid = f"u-{name}"
    storage = c.app.state.tables.storage  # type: ignore[attr-defined]
    storage.write(
        [
            (
                "INSERT INTO users (id, name, name_key, password_hash, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (uid, name, name.lower(), "not-a-hash", time.time()),
            )
        ]
    ).result()
    return uid


def name_of(uid: str) -> str:
    return uid[2:]


def give_seat(c: TestClient, game_id: str, seat: int, uid: str, name: str) -> None:
    """The seat belongs to the account (what claiming it while logged in does)."""
    tables = c.app.state.tables  # type: ignore[attr-defined]
    tables.storage.write(
        [
            (
                "UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ?",
                (uid, name, game_id, seat),
            )
        ]
    ).result()
    room = tables.rooms[game_id]
    room.seats[seat].user_id = uid
    room.seats[seat].name = name


def rated_table(
    c: TestClient, seats: list[dict[str, Any]], rated: bool = True
) -> tuple[str, list[str | None]]:
    r = c.post("/api/games", json={"game": GAME, "seats": seats, "rated": rated})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], [s["token"] for s in body["seats"]]


def wait_rated(c: TestClient, game_id: str, identity: str, games: int) -> dict[str, Any]:
    for _ in range(400):
        board = c.get(f"/api/ratings/{GAME}").json()["entries"]
        found = [e for e in board if e["identity"] == identity and e["games"] >= games]
        if found:
            return found[0]
        time.sleep(0.02)
    raise AssertionError(f"{identity} was not rated")


def test_rated_game_moves_ratings_as_openskill_computes(client: TestClient) -> None:  # noqa: F811
    ann = add_user(client, "Ann")
    gid, tokens = rated_table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    give_seat(client, gid, 0, ann, name_of(ann))
    play_random(client, gid, tokens, random.Random(1))
    final = client.get(f"/api/games/{gid}").json()
    places = ranks_of(final["result"]["scores"], final["result"]["winners"])
    got = wait_rated(client, gid, f"user:{ann}", 1)
    board = client.get(f"/api/ratings/{GAME}").json()["entries"]
    bot = [e for e in board if e["name"] == "random"]

    model = PlackettLuce()
    start_bot = prior(GAME, "bot:random")
    calibrated = load_calibration().get(GAME, {}).get("random")
    if calibrated is not None:
        assert (start_bot.mu, start_bot.sigma) == (calibrated.mu, calibrated.sigma)
    expected = model.rate(
        [[model.rating()], [model.rating(mu=start_bot.mu, sigma=start_bot.sigma)]],
        ranks=[float(p) for p in places],
    )
    assert got["mu"] == pytest.approx(expected[0][0].mu, abs=1e-6)
    assert got["sigma"] == pytest.approx(expected[0][0].sigma, abs=1e-6)
    assert got["mu"] != 25.0
    assert bot[0]["mu"] == pytest.approx(expected[1][0].mu, abs=1e-6)
    assert bot[0]["games"] >= 1
    # the profile (its name in any case) shows the game, its result and the rating history
    prof = client.get(f"/api/profiles/{name_of(ann).lower()}").json()
    assert prof["name"] == name_of(ann) and prof["kind"] == "user"
    assert [h["game_id"] for h in prof["history"]] == [gid]
    assert prof["history"][0]["mu"] == pytest.approx(expected[0][0].mu, abs=1e-6)
    assert prof["games"][0]["id"] == gid
    assert prof["games"][0]["result"]["place"] == places[0]
    assert prof["ratings"][GAME]["games"] == 1


def test_a_game_is_rated_exactly_once_across_processes(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(make_settings(db_url))) as c:
        ann, bob = add_user(c, "Ann"), add_user(c, "Bob")
        gid, tokens = rated_table(c, [{"kind": "human"}, {"kind": "human"}])
        give_seat(c, gid, 0, ann, name_of(ann))
        give_seat(c, gid, 1, bob, name_of(bob))
        play_random(c, gid, tokens, random.Random(2))
        wait_rated(c, gid, f"user:{ann}", 1)
        final = c.get(f"/api/games/{gid}").json()
        places = ranks_of(final["result"]["scores"], final["result"]["winners"])
        # four more "processes" race to rate the same game again: the database says no to all
        others = [Storage(db_url) for _ in range(4)]
        try:
            with ThreadPoolExecutor(4) as pool:
                answers = list(
                    pool.map(
                        lambda s: s.rate_game(gid, places, prior, time.time()).result(), others
                    )
                )
        finally:
            for s in others:
                s.close()
        assert answers == [None, None, None, None]
        board = c.get(f"/api/ratings/{GAME}").json()["entries"]
        people = {e["name"]: e for e in board if e["kind"] == "user"}
        assert people[name_of(ann)]["games"] == 1 and people[name_of(bob)]["games"] == 1
        prof = c.get(f"/api/profiles/{name_of(bob)}").json()
        assert len(prof["history"]) == 1


def test_first_rating_races_rate_once(db_url: str) -> None:  # noqa: F811
    """Several processes see the same rated game end: exactly one rates it."""
    with TestClient(create_app(make_settings(db_url))) as c:
        ann = add_user(c, "Ann")
        gid, tokens = rated_table(c, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        give_seat(c, gid, 0, ann, name_of(ann))
        tables = c.app.state.tables  # type: ignore[attr-defined]
        tables.game_over_hooks.clear()  # this process does not rate: the racers below do
        play_random(c, gid, tokens, random.Random(3))
        final = c.get(f"/api/games/{gid}").json()
        places = ranks_of(final["result"]["scores"], final["result"]["winners"])
        others = [Storage(db_url) for _ in range(4)]
        try:
            with ThreadPoolExecutor(4) as pool:
                answers = list(
                    pool.map(
                        lambda s: s.rate_game(gid, places, prior, time.time()).result(), others
                    )
                )
        finally:
            for s in others:
                s.close()
        assert sum(a is not None for a in answers) == 1
        entry = wait_rated(c, gid, f"user:{ann}", 1)
        assert entry["games"] == 1


def test_unrated_tables_do_not_move_ratings(client: TestClient) -> None:  # noqa: F811
    ann = add_user(client, "Ann")
    gid, tokens = rated_table(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], rated=False
    )
    give_seat(client, gid, 0, ann, name_of(ann))
    before = client.get(f"/api/ratings/{GAME}").json()["entries"]
    play_random(client, gid, tokens, random.Random(4))
    time.sleep(0.3)
    board = client.get(f"/api/ratings/{GAME}").json()["entries"]
    assert [e for e in board if e["identity"] == f"user:{ann}"] == []
    assert board == before  # the bot kept its rating too
    prof = client.get(f"/api/profiles/{name_of(ann)}").json()
    assert prof["history"] == [] and prof["ratings"] == {}
    assert prof["games"][0]["id"] == gid and prof["games"][0]["rated"] is False


def test_rated_refused_with_a_guest_seat(client: TestClient) -> None:  # noqa: F811
    # a named guest seat
    r = client.post(
        "/api/games",
        json={
            "game": GAME,
            "rated": True,
            "seats": [{"kind": "human", "name": "guest"}, {"kind": "bot", "bot": "random"}],
        },
    )
    assert r.status_code == 403 and "account" in r.json()["error"]
    # a guest taking an open seat of a rated table
    gid, tokens = rated_table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    r = client.post(f"/api/games/{gid}/join", json={"name": "guest"})
    assert r.status_code == 403 and "log in" in r.json()["error"]
    # nor may the seat's invite token play it before an account holds it
    mine = client.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()
    if 0 in mine["to_act"]:
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"action": mine["legal_actions"][0], "version": mine["version"]},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 403 and "rated" in r.json()["error"]
    # bots without a rating, one level twice, a table of one
    for seats, word in [
        ([{"kind": "human"}, {"kind": "bot", "bot": "mcts:nope"}], "level"),
        (
            [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
            "once",
        ),
        ([{"kind": "human"}], "two"),
    ]:
        r = client.post("/api/games", json={"game": GAME, "rated": True, "seats": seats})
        assert r.status_code in (403, 422) and word in r.json()["error"], r.text


def test_leaderboard_shows_calibrated_bots(client: TestClient) -> None:  # noqa: F811
    cal = load_calibration()
    for game in ("harmonies", "living-forest"):
        board = client.get(f"/api/ratings/{game}").json()
        bots = {e["name"]: e for e in board["entries"] if e["kind"] == "bot"}
        assert set(bots) == set(cal[game])
        for level, r in cal[game].items():
            assert bots[level]["mu"] == pytest.approx(r.mu)
            assert bots[level]["calibration"]["games"] == r.games > 0
        ordinals = [e["ordinal"] for e in board["entries"]]
        assert ordinals == sorted(ordinals, reverse=True)
    assert client.get("/api/ratings/chess").status_code == 404
    assert client.get("/api/profiles/nobody").status_code == 404
    bots = client.get("/api/ratings/bots").json()["games"]
    assert set(bots["harmonies"]) == set(cal["harmonies"])
    prof = client.get("/api/profiles/bot:greedy").json()
    assert prof["kind"] == "bot" and prof["ratings"]["harmonies"]["mu"] == pytest.approx(
        cal["harmonies"]["greedy"].mu
    )
