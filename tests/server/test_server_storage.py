"""Storage on SQLite and PostgreSQL: migrations, rebuilding from snapshots, failed writes."""

from __future__ import annotations

import asyncio
import json
import queue
import random
import time
from concurrent.futures import Future
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_support import (
    GAMES,
    bearer,
    db_url,
    drop_pg_database,
    finish_in_process,
    fresh_pg_database,
    make_settings,
    new_table,
    pg_url,
    play_one_move,
)

import glade
from glade.server import create_app
from glade.server.storage import MIGRATIONS, SCHEMA_VERSION, Storage, StorageError, dialect_for

__all__ = ["db_url", "pg_url"]


def test_migrations_are_numbered_and_applied_once(db_url: str) -> None:
    numbers = [n for n, _ in MIGRATIONS]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1
    first = Storage(db_url)
    try:
        assert first.schema_version() == SCHEMA_VERSION
    finally:
        first.close()
    again = Storage(db_url)  # a second start finds the schema in place and changes nothing
    try:
        rows = again.db.read_now(
            lambda c: c.query("SELECT version FROM schema_migrations ORDER BY version")
        )
        assert [r[0] for r in rows] == numbers
    finally:
        again.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_restarted_app_rebuilds_every_game_from_snapshots_and_actions(
    db_url: str, game: str
) -> None:
    rng = random.Random(11)
    with TestClient(create_app(make_settings(db_url, snapshot_every=7))) as c:
        game_id, tokens = new_table(c, game)
        for _ in range(30):  # part of a game: several snapshots plus actions after the last one
            play_one_move(c, game_id, tokens, rng)
        before = c.app.state.services.tables.tables[game_id].state.fingerprint()  # type: ignore[attr-defined]
        views = [c.get(f"/api/games/{game_id}", headers=bearer(t)).json() for t in tokens]
        storage = c.app.state.services.tables.storage  # type: ignore[attr-defined]
        snaps = storage.db.read_now(
            lambda conn: conn.query("SELECT version FROM snapshots WHERE game_id = ?", (game_id,))
        )
        assert sorted(r[0] for r in snaps) == [7, 14, 21, 28]
    with TestClient(create_app(make_settings(db_url, snapshot_every=7))) as c:
        assert [c.get(f"/api/games/{game_id}", headers=bearer(t)).json() for t in tokens] == views
        rebuilt = c.app.state.services.tables.tables[game_id].state  # type: ignore[attr-defined]
        assert rebuilt.fingerprint() == before
        # the game goes on to its end and replays exactly from the seed and the history
        finish_in_process(c, game_id, rng)
        log = c.get(f"/api/games/{game_id}/log").json()
        replay = glade.new_game(game, seed=log["seed"], **log["options"])
        for entry in log["history"]:
            replay.apply(entry["seat"], entry["action"])
        assert (
            replay.fingerprint() == c.app.state.services.tables.tables[game_id].state.fingerprint()
        )  # type: ignore[attr-defined]


def test_tokens_are_stored_only_as_hashes(db_url: str) -> None:
    with TestClient(create_app(make_settings(db_url))) as c:
        game_id, tokens = new_table(c, "harmonies")
        storage = c.app.state.services.tables.storage  # type: ignore[attr-defined]
        rows = storage.db.read_now(
            lambda conn: conn.query("SELECT token_hash FROM seats WHERE game_id = ?", (game_id,))
        )
        stored = json.dumps([r[0] for r in rows])
        for token in tokens:
            assert token is not None and token not in stored
        assert all(len(r[0]) == 64 for r in rows)


def test_a_refused_write_changes_nothing_and_says_so(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(make_settings(db_url))) as c:
        game_id, tokens = new_table(c, "harmonies", humans=1)
        storage = c.app.state.services.tables.storage  # type: ignore[attr-defined]
        state = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()

        def refuse(statements: object) -> Future[None]:
            fut: Future[None] = Future()
            fut.set_exception(StorageError("disk full"))
            return fut

        def refuse_soon(statements: object) -> asyncio.Future[None]:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            fut.set_exception(StorageError("disk full"))
            return fut

        monkeypatch.setattr(storage.db, "write", refuse)
        monkeypatch.setattr(storage.db, "write_soon", refuse_soon)
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": state["legal_actions"][0], "version": 0},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 503 and "nothing changed" in r.json()["error"]
        assert c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json() == state
        monkeypatch.undo()
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": state["legal_actions"][0], "version": 0},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 200 and r.json()["version"] == 1


INSERT_GAME = (
    "INSERT INTO games (id, game, options, seed, version, over, open_seats, client, created_at, "
    "updated_at) VALUES (?, 'harmonies', '{}', '1', 0, 0, 0, 't', 1.0, 1.0)"
)


def test_a_failing_write_in_a_group_commit_does_not_take_the_others_down(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        tag = db_url[-6:]
        ok = [storage.db.write([(INSERT_GAME, (f"group-{i}-{tag}",))]) for i in range(5)]
        dup = storage.db.write([(INSERT_GAME, (f"group-0-{tag}",))])
        for fut in ok:
            fut.result(10)
        with pytest.raises(StorageError):
            dup.result(10)
    finally:
        storage.close()


def _heard_until(heard: queue.Queue[tuple[str, str]], last: str) -> list[str]:
    """What a listener heard, in order, up to and including ``last`` (10 s at most)."""
    got: list[str] = []
    while last not in got:
        got.append(heard.get(timeout=10)[1])
    return got


def test_changes_reach_the_other_processes_in_order_and_not_a_process_its_own_actions(
    pg_url: str,
) -> None:
    one, two = Storage(pg_url), Storage(pg_url)
    heard: dict[Storage, queue.Queue[tuple[str, str]]] = {one: queue.Queue(), two: queue.Queue()}
    try:
        for storage in (one, two):
            storage.listen(lambda g, w, q=heard[storage]: q.put((g, w)), lambda: None)
        game = f"told-{random.getrandbits(32):x}"
        one.db.write([(INSERT_GAME, (game,))]).result(10)
        n = 0  # the listeners LISTEN on threads of their own: chat until both hear
        while heard[one].empty() or heard[two].empty():
            n += 1
            one.chat.add(game, n, 0, None, "hello", 1.0).result(10)
            time.sleep(0.2)
        for q in heard.values():
            _heard_until(q, f"chat {n}")

        async def three_actions() -> None:  # one bunch of writes: one transaction
            await asyncio.gather(
                *(
                    one.tables.record_action(game, v, v % 2, f'{{"v": {v}}}', False, 1.0)
                    for v in (1, 2, 3)
                )
            )

        asyncio.run(three_actions())
        one.chat.add(game, n + 1, 0, None, "bye", 1.0).result(10)
        chat = f"chat {n + 1}"
        assert _heard_until(heard[two], chat) == [
            '1 1 {"v": 1}',
            '2 0 {"v": 2}',
            '3 1 {"v": 3}',
            chat,
        ]
        assert _heard_until(heard[one], chat) == [chat]  # its own actions are not heard back
    finally:
        one.close()
        two.close()


def test_database_urls_are_checked(tmp_path: Path) -> None:
    assert dialect_for(f"sqlite:///{tmp_path}/x.db").kind == "sqlite"
    assert dialect_for("postgresql://u@localhost/db").kind == "postgresql"
    for bad in ("mysql://x/y", "sqlite://", "glade.db"):
        with pytest.raises(ValueError):
            dialect_for(bad)


def test_an_unreachable_postgresql_fails_loudly() -> None:
    import psycopg

    with pytest.raises(psycopg.OperationalError):
        Storage("postgresql://postgres@127.0.0.1:1/nothing?connect_timeout=2")


def test_a_postgresql_test_database_is_really_there(pg_url: str) -> None:
    base = pg_url.rpartition("/")[0] + "/postgres"
    url, name = fresh_pg_database(base)
    storage = Storage(url)
    try:
        assert storage.kind == "postgresql" and storage.schema_version() == SCHEMA_VERSION
    finally:
        storage.close()
        from server_support import drop_pg_database

        drop_pg_database(base, name)


def test_idle_tables_leave_memory_and_come_back_from_storage(db_url: str) -> None:
    with TestClient(create_app(make_settings(db_url))) as c:
        game_id, tokens = new_table(c, "harmonies")
        state = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": state["legal_actions"][0], "version": 0},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 200
        tables = c.app.state.services.tables  # type: ignore[attr-defined]
        before = tables.tables[game_id].state.fingerprint()
        # on PostgreSQL the table's own change notification may still be catching it up
        deadline = time.monotonic() + 10
        while not tables.tables[game_id].idle and time.monotonic() < deadline:
            time.sleep(0.02)
        assert tables.evict_idle(0.0) >= 1 and game_id not in tables.tables
        assert c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json() == r.json()
        assert tables.tables[game_id].state.fingerprint() == before


def _open_together(url: str, n: int) -> tuple[list[Storage], list[BaseException]]:
    """``n`` threads open ``url`` at the same moment."""
    import threading

    opened: list[Storage] = []
    failed: list[BaseException] = []
    go = threading.Barrier(n)

    def start() -> None:
        go.wait()
        try:
            opened.append(Storage(url))
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            failed.append(exc)

    threads = [threading.Thread(target=start) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return opened, failed


def test_servers_starting_together_on_a_new_postgresql_database_all_open_it(pg_url: str) -> None:
    """Several processes of a cluster start at once on an empty database: the schema is made
    once and every one of them opens it (CREATE TABLE IF NOT EXISTS alone races in PostgreSQL:
    "duplicate key value violates unique constraint pg_type_typname_nsp_index")."""
    base = pg_url.rpartition("/")[0] + "/postgres"
    for _ in range(3):
        url, name = fresh_pg_database(base)
        try:
            opened, failed = _open_together(url, 4)
            assert failed == [] and len(opened) == 4
            assert {s.schema_version() for s in opened} == {SCHEMA_VERSION}
            for s in opened:
                s.close()
        finally:
            drop_pg_database(base, name)
