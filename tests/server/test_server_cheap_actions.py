"""What makes an action cheap (docs/server.md, "Cheaper actions"), each shown to keep its promise:
writes handed to the writer thread in bunches, pushes written straight to an idle socket, and the
garbage collector run on a timer."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
import weakref
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_support import ServerProcess, bearer, db_url, new_table, pg_url, pick
from websockets.frames import Opcode
from websockets.protocol import CLIENT, Protocol

import glade
from glade.core.game import UNDO
from glade.server.api.protocol import text_frame
from glade.server.cli import collect_garbage
from glade.server.domain import Connection
from glade.server.domain.pictures import dumps, encoded_legal
from glade.server.storage import NewGame, Storage, StorageConflict, StorageError, StoredSeat
from glade.server.storage import writer as writer_module

__all__ = ["db_url", "pg_url"]


# ---------------------------------------------------------------- writes in bunches


def _new_game(game_id: str) -> NewGame:
    return NewGame(
        id=game_id,
        game="harmonies",
        options={"players": 1},
        seed=1,
        over=False,
        client="t",
        at=time.time(),
        seats=[StoredSeat(0, "human", "x", None, "h")],
    )


def _counting(storage: Storage) -> list[int]:
    """How many writes each item handed to the writer thread held."""
    sizes: list[int] = []
    put = storage.db.writer.writes.put

    def counted(item: Any) -> None:
        if item is not None:
            sizes.append(len(item))
        put(item)

    storage.db.writer.writes.put = counted  # type: ignore[method-assign]
    return sizes


def test_writes_of_one_turn_of_the_loop_reach_the_writer_as_one_bunch(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        ids = [f"bunch{i}" for i in range(6)]
        for game_id in ids:
            storage.tables.add(_new_game(game_id)).result(10)
        sizes = _counting(storage)

        async def run() -> None:
            futures = [
                storage.tables.record_action(g, 1, 0, '{"type": "end_turn"}', False, time.time())
                for g in ids
            ]
            await asyncio.gather(*futures)

        asyncio.run(run())
        assert sizes == [6]  # six actions, one item for the writer
        for game_id in ids:
            stored = storage.tables.load(game_id).result(10)
            assert stored is not None and stored.version == 1
            assert stored.actions == [(1, 0, {"type": "end_turn"})]
    finally:
        storage.close()


def test_a_refused_write_in_a_bunch_fails_alone(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        for game_id in ("one", "two", "three"):
            storage.tables.add(_new_game(game_id)).result(10)

        async def first() -> None:
            await storage.tables.record_action("two", 1, 0, '{"type": "a"}', False, time.time())

        asyncio.run(first())
        sizes = _counting(storage)

        async def run() -> list[Any]:
            futures = [
                storage.tables.record_action("one", 1, 0, '{"type": "b"}', False, time.time()),
                storage.tables.record_action("two", 1, 0, '{"type": "c"}', False, time.time()),
                storage.tables.record_action("three", 1, 0, '{"type": "d"}', False, time.time()),
            ]
            return await asyncio.gather(*futures, return_exceptions=True)

        outcomes = asyncio.run(run())
        assert sizes == [3]
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], StorageConflict)  # version 1 of "two" was stored before
        two = storage.tables.load("two").result(10)
        assert two is not None and two.actions == [(1, 0, {"type": "a"})]
        for game_id, kind in (("one", "b"), ("three", "d")):
            stored = storage.tables.load(game_id).result(10)
            assert stored is not None and stored.actions == [(1, 0, {"type": kind})]
    finally:
        storage.close()


def test_under_load_bunches_are_handed_over_at_most_every_few_milliseconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer_module, "HAND_OVER_SECONDS", 0.05)
    storage = Storage(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        storage.tables.add(_new_game("w")).result(10)
        handed: list[float] = []
        hand_over = storage.db.writer.hand_over

        def timed(loop: asyncio.AbstractEventLoop) -> None:
            handed.append(loop.time())
            hand_over(loop)

        storage.db.writer.hand_over = timed  # type: ignore[method-assign]
        sizes = _counting(storage)

        async def run() -> None:
            loop = asyncio.get_running_loop()
            waits = []
            start = loop.time()
            for version in range(1, 13):  # a write every 10 ms for 120 ms
                waits.append(
                    storage.tables.record_action(
                        "w", version, 0, '{"type": "x"}', False, time.time()
                    )
                )
                await asyncio.sleep(0.01)
            await asyncio.gather(*waits)
            assert handed[0] - start < 0.01  # the first write of a quiet loop goes at once

        asyncio.run(run())
        gaps = [b - a for a, b in zip(handed, handed[1:], strict=False)]
        assert all(gap >= 0.049 for gap in gaps), gaps
        assert sum(sizes) == 12 and len(sizes) < 6  # bunched, every write stored once
        stored = storage.tables.load("w").result(10)
        assert stored is not None and stored.version == 12
    finally:
        storage.close()


def test_writes_not_yet_handed_over_fail_when_storage_closes(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'c.db'}")
    storage.tables.add(_new_game("c")).result(10)

    async def run() -> BaseException | None:
        fut = storage.tables.record_action("c", 1, 0, '{"type": "x"}', False, time.time())
        storage.close()  # before the loop's turn ends: the write never reached the writer
        try:
            await asyncio.wait_for(fut, 5)
        except StorageError as exc:
            return exc
        return None

    refused = asyncio.run(run())
    assert isinstance(refused, StorageError)
    reopened = Storage(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        stored = reopened.tables.load("c").result(10)
        assert stored is not None and stored.version == 0
    finally:
        reopened.close()


# ---------------------------------------------------------------- pushes written at once


@pytest.mark.parametrize("size", [0, 1, 125, 126, 5_000, 65_535, 65_536, 70_000])
def test_a_text_frame_is_read_back_whole_by_a_websocket_client(size: int) -> None:
    text = "".join(random.Random(size).choice("ab{}é😀") for _ in range(size))
    data = text.encode()
    client = Protocol(CLIENT, max_size=None)
    client.receive_data(text_frame(data))
    events = client.events_received()
    assert len(events) == 1
    frame = events[0]
    assert frame.opcode is Opcode.TEXT and frame.fin and bytes(frame.data).decode() == text


def test_a_connection_writes_at_once_only_when_nothing_waits_before_it() -> None:
    async def run() -> tuple[list[str], list[str], list[str]]:
        direct: list[str] = []
        queued: list[str] = []
        writable = True
        release = asyncio.Event()

        def send_now(text: str) -> bool:
            if writable:
                direct.append(text)
            return writable

        async def send(text: str) -> None:
            await release.wait()  # the socket's buffer is full: the ASGI send waits
            queued.append(text)

        conn = Connection(send, 0, send_now=send_now)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        conn.offer("a")
        conn.offer("b")
        writable = False
        conn.offer("c")  # not writable: queued for the pump
        writable = True
        conn.offer("d")  # writable again, but "c" waits: "d" goes after it
        for _ in range(5):
            await asyncio.sleep(0)
        assert conn.sending and not queued
        conn.offer("e")
        release.set()
        for _ in range(20):
            await asyncio.sleep(0)
        conn.offer("f")  # everything sent: at once again
        order = list(direct)
        conn.closed = True
        conn.ready.set()
        await pump
        return order, queued, list(conn.queue)

    direct, queued, left = asyncio.run(run())
    assert direct == ["a", "b", "f"]
    assert queued == ["c", "d", "e"]
    assert left == []


@pytest.mark.parametrize("compression", [None, "deflate"])
def test_every_push_of_a_live_server_arrives_whole_and_in_order(
    tmp_path: Path, compression: str | None
) -> None:
    """Two seats on a real server (uvicorn, the pushes written at once), with and without
    permessage-deflate: a game played on the sockets, every version pushed to both seats."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'p.db'}", "--access-log", "off")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as h:
            game_id, tokens = new_table(h, "harmonies", humans=2)
        ws = f"ws://127.0.0.1:{server.port}/api/games/{game_id}/ws?token="

        async def play() -> tuple[list[list[int]], dict[str, Any]]:
            rng = random.Random(5)
            seen: list[list[int]] = [[], []]
            async with (
                websockets.connect(ws + tokens[0], compression=compression) as s0,
                websockets.connect(ws + tokens[1], compression=compression) as s1,
            ):
                sockets = [s0, s1]
                latest: list[dict[str, Any]] = [{}, {}]
                for i, s in enumerate(sockets):
                    latest[i] = json.loads(await s.recv())
                    seen[i].append(latest[i]["version"])
                for ref in range(40):
                    seat = latest[0]["to_act"][0]
                    action = pick(latest[seat], rng)
                    message = {"type": "action", "ref": ref, "action": action}
                    await sockets[seat].send(json.dumps({**message, "version": ref}))
                    for i, s in enumerate(sockets):
                        push = json.loads(await asyncio.wait_for(s.recv(), 10))
                        assert push["type"] == "state"
                        assert ("acted" in push) == (i == seat)
                        latest[i] = push
                        seen[i].append(push["version"])
            return seen, latest[0]

        seen, last = asyncio.run(play())
        assert seen == [list(range(41)), list(range(41))]
        with httpx.Client(base_url=server.url, timeout=10) as h:
            now = h.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
        assert now["version"] == 40
        assert now["view"] == last["view"] and now["legal_actions"] == last["legal_actions"]
    finally:
        server.stop()


# ---------------------------------------------------------------- the collector on a timer


def test_the_timed_collector_frees_cycles_the_automatic_one_no_longer_sees() -> None:
    class Node:
        other: Any = None

    freed = asyncio.Event()

    async def run() -> bool:
        loop = asyncio.get_running_loop()
        a, b = Node(), Node()
        a.other, b.other = b, a
        weakref.finalize(a, lambda: loop.call_soon(freed.set))
        del a, b  # a cycle: reference counting alone never frees it
        task = loop.create_task(collect_garbage(every=0.05))
        try:
            await asyncio.wait_for(freed.wait(), 5)
        finally:
            task.cancel()
        return freed.is_set()

    was = gc.isenabled()
    gc.disable()
    try:
        assert asyncio.run(run())
    finally:
        if was:
            gc.enable()


# ---------------------------------------------------------------- the legal actions' JSON


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("harmonies", 1),
        ("harmonies", 2),
        ("harmonies", 4),
        ("living-forest", 2),
        ("living-forest", 4),
    ],
)
def test_the_legal_actions_fragment_is_the_json_of_the_legal_actions(
    game: str, players: int
) -> None:
    rng = random.Random(players)
    state = glade.new_game(game, seed=players, players=players)
    undos = 0
    for _ in range(150):
        if state.is_over:
            break
        for seat in range(players):
            ids, undo = state.legal_moves(seat)
            legal = state.legal_actions(seat)
            table = state.action_table()
            assert legal == [table[i] for i in ids] + ([UNDO] if undo else [])
            encoded = json.loads(dumps({"legal": encoded_legal(state, seat)}))["legal"]
            assert encoded == [a.to_json() for a in legal]
            undos += undo
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert undos > 0  # undo was offered, and listed last


def test_a_games_row_is_marked_over_with_its_last_action_only(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'o.db'}")
    try:
        storage.tables.add(_new_game("o")).result(10)

        async def act(version: int, over: bool) -> None:
            await storage.tables.record_action("o", version, 0, '{"type": "x"}', over, time.time())

        def over() -> tuple[int, int]:
            row = storage.db.read_now(
                lambda c: c.query("SELECT version, over FROM games WHERE id = 'o'")
            )
            return int(row[0][0]), int(row[0][1])

        asyncio.run(act(1, False))
        assert over() == (1, 0)
        asyncio.run(act(2, True))
        assert over() == (2, 1)
    finally:
        storage.close()


# ---------------------------------------------------------------- a process hears itself


def test_a_process_does_not_read_back_the_actions_it_announced_itself(pg_url: str) -> None:
    """On PostgreSQL every stored action is announced to every process, the one that stored it
    too; that one already has it (its announcement may arrive before its own commit is
    answered, while the table is still busy with it) and reads nothing back."""
    from fastapi.testclient import TestClient
    from server_support import make_settings, play_one_move

    from glade.server import create_app

    with TestClient(create_app(make_settings(pg_url))) as c:
        storage = c.app.state.services.tables.storage  # type: ignore[attr-defined]
        reads: list[tuple[str, int]] = []
        changes_since = storage.tables.changes_since

        def counted(game_id: str, version: int) -> Any:
            reads.append((game_id, version))
            return changes_since(game_id, version)

        storage.tables.changes_since = counted
        game_id, tokens = new_table(c, "harmonies")
        rng = random.Random(4)
        for _ in range(40):
            play_one_move(c, game_id, tokens, rng)
        time.sleep(1.0)  # the last announcements arrive
        assert c.get(f"/api/games/{game_id}").json()["version"] == 40
        assert reads == []
