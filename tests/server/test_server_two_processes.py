"""Issue 30, failure 3 and every "exactly once": two server processes on one database race for
the same thing, and the database lets exactly one win.

- an invite claimed on both processes at once: one 200, one 409 (the invite is spent), the
  winner's credential opens the seat on both processes and the seat carries the winner's name
  (on SQLite, two processes on one file; on PostgreSQL, two processes on one database);
- a rematch offered on both processes at once: one table;
- a rematch declined on one process: the offerer's socket on the other hears it (PostgreSQL);
- a rated game rated by two processes at once: one rating.
(A clock's takeover by two processes: ``test_server_clock_cluster.py``.)
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_support import (  # noqa: F401
    LiveSocket,
    ServerProcess,
    bearer,
    client_from,
    cluster_db,
    make_settings,
    play_random,
    wait_until,
)
from test_server_accounts import Browser, claim, signup

from glade.server import create_app
from glade.server.domain import EventBus, GameOver, Tables
from glade.server.features.ratings import Ratings
from glade.server.storage import Storage

ROUNDS = 12


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh SQLite file or a fresh PostgreSQL database, for two processes to share."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'two.sqlite3'}"
    found: str = request.getfixturevalue("cluster_db")
    return found


@pytest.fixture
def pair(database: str) -> Iterator[tuple[str, str]]:
    """Two live server processes on one database: their URLs."""
    db = database
    a, b = ServerProcess(db, "--access-log", "off"), ServerProcess(db, "--access-log", "off")
    a.start()
    b.start()
    try:
        yield a.url, b.url
    finally:
        a.stop()
        b.stop()


def together(*calls: Any) -> list[Any]:
    """Run the calls on threads released at the same moment; their results in order."""
    gate = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        gate.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_an_invite_claimed_on_two_processes_at_once_is_claimed_once(
    pair: tuple[str, str],
) -> None:
    url_a, url_b = pair
    with (
        httpx.Client(base_url=url_a, timeout=30) as a,
        httpx.Client(base_url=url_b, timeout=30) as b,
    ):
        for round_ in range(ROUNDS):
            seats = [{"kind": "human", "name": "host"}, {"kind": "human"}]
            r = a.post("/api/games", json={"game": "harmonies", "seats": seats})
            assert r.status_code == 201, r.text
            gid, invite = r.json()["id"], r.json()["seats"][1]["token"]
            # both processes hold the table before the race (as a player's page would)
            assert a.get(f"/api/games/{gid}").status_code == 200
            assert b.get(f"/api/games/{gid}").status_code == 200
            names = (f"alice{round_}", f"bruno{round_}")
            url = f"/api/games/{gid}/claim"
            answers = together(
                partial(a.post, url, json={"name": names[0]}, headers=bearer(invite)),
                partial(b.post, url, json={"name": names[1]}, headers=bearer(invite)),
            )
            statuses = sorted(r.status_code for r in answers)
            assert statuses == [200, 409], [r.text for r in answers]
            loser = next(r for r in answers if r.status_code == 409)
            assert loser.json()["code"] == "server.seat.invite_spent"
            won = next(i for i, r in enumerate(answers) if r.status_code == 200)
            token = answers[won].json()["token"]
            for client in (a, b):  # the winner's credential opens the seat on both processes
                mine = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
                assert mine["seat"] == 1 and mine["seats"][1]["name"] == names[won]
                spent = client.get(f"/api/games/{gid}", headers=bearer(invite))
                assert spent.status_code == 403
                assert spent.json()["code"] == "server.seat.invite_spent"


def test_a_rematch_offered_on_two_processes_at_once_makes_one_table(
    pair: tuple[str, str], database: str
) -> None:
    url_a, url_b = pair
    with (
        httpx.Client(base_url=url_a, timeout=30) as a,
        httpx.Client(base_url=url_b, timeout=30) as b,
    ):
        for _ in range(4):
            seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bo"}]
            r = a.post("/api/games", json={"game": "harmonies", "seats": seats})
            gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
            play_random(a, gid, tokens, random.Random(len(gid)))
            assert b.get(f"/api/games/{gid}").json()["over"]
            url = f"/api/games/{gid}/rematch"
            answers = together(
                partial(a.post, url, headers=bearer(tokens[0])),
                partial(b.post, url, headers=bearer(tokens[1])),
            )
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            got = [r.json() for r in answers]
            assert got[0]["id"] == got[1]["id"]  # one rematch table
            assert sorted(g["offered"] for g in got) == [False, True]
            by = 0 if got[0]["offered"] else 1  # the seat (of the old table) that offered
            if database.startswith("postgresql"):  # SQLite's processes hear nothing of each
                # other's changes: PostgreSQL's announce them
                want = {
                    "id": got[0]["id"],
                    "by": by,
                    "accepted": [0, 1],
                    "waiting": [],
                    "declined": [],
                    "withdrawn": False,
                }
                for client in (a, b):
                    wait_until(
                        partial(rematch_is, client, f"/api/games/{gid}/social", want),
                        what="both processes hearing of the acceptance",
                    )


def test_a_rematch_declined_on_one_process_is_heard_on_the_other(
    cluster_db: str,  # noqa: F811
) -> None:
    """Bo declines on process B; Ann's socket on process A hears the new status (PostgreSQL
    announces it; SQLite's processes hear nothing of each other)."""
    a, b = ServerProcess(cluster_db, "--access-log", "off"), ServerProcess(cluster_db)
    a.start()
    b.start()
    try:
        with (
            httpx.Client(base_url=a.url, timeout=30) as ca,
            httpx.Client(base_url=b.url, timeout=30) as cb,
        ):
            seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bo"}]
            r = ca.post("/api/games", json={"game": "harmonies", "seats": seats})
            gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
            play_random(ca, gid, tokens, random.Random(7))
            offer = ca.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0])).json()
            assert cb.get(f"/api/games/{gid}").json()["over"]
            ws_url = a.url.replace("http", "ws", 1) + f"/api/games/{gid}/ws?token={tokens[0]}"
            with LiveSocket(ws_url) as ws:
                ws.receive_json()  # the state
                r = cb.post(f"/api/games/{gid}/rematch/decline", headers=bearer(tokens[1]))
                assert r.status_code == 200, r.text
                while (message := ws.receive_json()).get("type") != "rematch" or not message[
                    "declined"
                ]:
                    pass
            assert message == {
                "type": "rematch",
                "id": offer["id"],
                "by": 0,
                "accepted": [0],
                "waiting": [],
                "declined": [1],
                "withdrawn": False,
            }
            r = ca.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[1]))
            assert r.status_code == 409 and r.json()["code"] == "server.rematch.declined"
    finally:
        a.stop()
        b.stop()


def rematch_is(client: httpx.Client, url: str, want: dict[str, Any]) -> bool:
    found: dict[str, Any] = client.get(url).json()["rematch"]
    return found == want


def rate_in_a_process(db: str, game_id: str) -> list[dict[str, Any]] | None:
    """Another server process seeing a rated game end: it rates it (runs in a child process)."""

    async def run() -> list[dict[str, Any]] | None:
        storage = Storage(db)
        try:
            events = EventBus()
            tables = Tables(make_settings(db), storage, events)
            ratings = Ratings(make_settings(db), storage, tables, events)
            return await ratings.rate(await tables.get(game_id))
        finally:
            storage.close()

    return asyncio.run(run())


def test_a_rated_game_seen_ending_by_two_processes_is_rated_once(database: str) -> None:
    """A rated game that its server did not rate (as if it stopped as the game ended) is rated
    by two other processes at once: one rating, never two."""
    with TestClient(create_app(make_settings(database))) as c:
        services = c.app.state.services  # type: ignore[attr-defined]
        services.tables.events.unsubscribe(GameOver, services.ratings.game_over)
        people = []
        for who in ("ann", "bo"):  # two people on two machines
            browser = Browser(client_from(c))
            people.append((browser, signup(browser, f"{who}{secrets.token_hex(3)}")))
        (ann, ann_csrf), (bo, bo_csrf) = people
        seats = [{"kind": "human", "name": "x"}, {"kind": "human"}]
        r = ann.post(
            "/api/games",
            json={"game": "harmonies", "seats": seats, "rated": True},
            headers={"X-CSRF-Token": ann_csrf},
        )
        assert r.status_code == 201, r.text
        gid, invites = r.json()["id"], [s["token"] for s in r.json()["seats"]]
        tokens = [
            claim(ann, gid, invites[0], ann_csrf).json()["token"],
            claim(bo, gid, invites[1], bo_csrf).json()["token"],
        ]
        play_random(c, gid, tokens, random.Random(9))
        assert c.get(f"/api/games/{gid}/ratings").json()["counts"] is True
        with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
            answers = list(pool.map(rate_in_a_process, [database] * 2, [gid] * 2))
        assert sum(a is not None for a in answers) == 1, answers
        rated = next(a for a in answers if a is not None)
        board = {e["identity"]: e for e in c.get("/api/ratings/harmonies").json()["entries"]}
        for change in rated:
            assert board[change["identity"]]["games"] == 1
            assert board[change["identity"]]["mu"] == pytest.approx(change["after"]["mu"])
        seats_now = c.get(f"/api/games/{gid}/ratings").json()["seats"]
        assert all(s["change"] is not None for s in seats_now)
