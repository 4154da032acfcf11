"""The WebSocket's pushes: one per accepted action, in order, none dropped, each with its log delta.

A burst of actions (with undos) through a real server: every socket sees every version once, in
order, and the log rebuilt from the pushes' deltas equals ``GET …/log``. The queue of a
connection that does not read is bounded: past the bound it is told to re-read. Actions caught
up from storage (stored by another process) are pushed one by one.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
from web_support import Server

from glade.server.domain import RESYNC, Connection, Tables
from glade.server.storage import Storage
from tests.server.server_support import busy_pick, make_settings


def strip(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k not in ("move", "version")}


class Listener:
    """A WebSocket read on its own thread: every message, in the order it came."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, max_size=2**24)
        self.messages: list[dict[str, Any]] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        try:
            for text in self.ws:
                self.messages.append(json.loads(text))
        except Exception:  # noqa: BLE001 - closed
            pass
        self.done.set()

    def wait_version(self, version: int, seconds: float = 60.0) -> None:
        for _ in range(int(seconds * 20)):
            if any(m.get("version") == version for m in self.messages):
                return
            threading.Event().wait(0.05)
        raise AssertionError(f"version {version} was never pushed")

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


def test_a_burst_of_actions_is_pushed_whole_and_in_order(server: Server) -> None:
    rng = random.Random(7)
    h = httpx.Client(base_url=server.url, timeout=30)
    seats = [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}]
    body = h.post("/api/games", json={"game": "living-forest", "seats": seats}).json()
    gid, tokens = body["id"], [s["token"] for s in body["seats"]]
    ws = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    listeners = [Listener(f"{ws}?token={tokens[0]}"), Listener(ws)]  # a seat and a spectator
    try:
        for lis in listeners:
            lis.wait_version(0)
        version = 0
        undos = 0
        for _ in range(80):  # as fast as the server answers, undos among them
            state = h.get(f"/api/games/{gid}").json()
            seat = state["to_act"][0]
            mine = h.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[seat]}"})
            legal = mine.json()["legal_actions"]
            # the first undo offered is taken (the deal is random: a chance of 1/4 alone could
            # leave the burst without one), later ones a quarter of the time
            undo = {"type": "undo"} in legal and (not undos or rng.random() < 0.25)
            action = {"type": "undo"} if undo else busy_pick(legal, rng)
            r = h.post(
                f"/api/games/{gid}/actions",
                json={"action": action, "version": version},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert r.status_code == 200, r.text
            version += 1
            undos += undo
        assert undos > 0
        final = h.get(f"/api/games/{gid}/log").json()
        assert final["version"] == version
        for lis in listeners:
            lis.wait_version(version)
            states = [m for m in lis.messages if m.get("type") == "state"]
            assert [m["version"] for m in states] == list(range(version + 1))
            assert not [m for m in lis.messages if m.get("type") == "resync"]
            log: list[dict[str, Any]] = []
            at = -1
            for m in states:
                if m["version"] > 0:
                    assert m["log_base"] == at == m["version"] - 1
                assert 0 <= m["log_from"] <= len(log)
                assert all(e["version"] == m["version"] for e in m["log"])
                assert [e["move"] for e in m["log"]] == list(
                    range(m["log_from"] + 1, m["log_from"] + 1 + len(m["log"]))
                )
                log = log[: m["log_from"]] + m["log"]
                at = m["version"]
            assert [strip(e) for e in log] == final["moves"]
    finally:
        for lis in listeners:
            lis.close()


def test_a_connection_that_does_not_read_is_told_to_resync() -> None:
    async def run() -> tuple[list[str], list[str]]:
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        whole = Connection(send, None, limit=10)
        for i in range(10):
            whole.offer(f"p{i}")
        over = Connection(send, None, limit=3)
        for i in range(5):
            over.offer(f"q{i}")
        for conn in (whole, over):
            task = asyncio.get_running_loop().create_task(conn.pump())
            for _ in range(50):
                await asyncio.sleep(0)
            conn.closed = True
            conn.ready.set()
            await task
        return sent, list(over.queue)

    sent, left = asyncio.run(run())
    assert sent == [*(f"p{i}" for i in range(10)), RESYNC, "q4"]
    assert left == []


def test_actions_stored_by_another_process_are_pushed_one_by_one(tmp_path: Path) -> None:
    """Two tables over one SQLite file: what B stores, A catches up and pushes action by action."""

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        a = Tables(make_settings(db), Storage(db, "normal"))
        b = Tables(make_settings(db), Storage(db, "normal"))
        room_a, tokens = await a.create(
            "harmonies", {}, [{"kind": "human", "name": "x"}, {"kind": "human", "name": "y"}], "t"
        )
        pushed: list[str] = []

        async def send(text: str) -> None:
            pushed.append(text)

        conn = Connection(send, 0)
        a.subscribe(room_a, conn)
        room_b = await b.get(room_a.id)
        rng = random.Random(3)
        for _ in range(6):
            seat = room_b.state.to_act[0]
            legal = [x.to_json() for x in room_b.state.legal_actions(seat)]
            await b.act(room_b, seat, busy_pick(legal, rng), room_b.version)
        async with room_a.lock:
            await a.catch_up(room_a)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        for _ in range(50):
            await asyncio.sleep(0)
        conn.closed = True
        conn.ready.set()
        await pump
        moves = room_a.state.log_json(None)
        version = room_a.version
        a.storage.close()
        b.storage.close()
        del tokens
        return [json.loads(t) for t in pushed], moves, version

    pushes, moves, version = asyncio.run(run())
    assert version == 6
    assert [p["version"] for p in pushes] == list(range(7))  # the hello, then one per action
    assert all(p["type"] == "state" for p in pushes)
    assert [len(p["log"]) for p in pushes] == [0, 1, 1, 1, 1, 1, 1]
    assert [strip(p["log"][0]) for p in pushes[1:]] == moves
    # each push shows the board as it was after its own action, not the last one
    stacks = [sum(len(s) for s in p["view"]["boards"][0]["stacks"].values()) for p in pushes]
    assert stacks == sorted(stacks) and len(set(stacks)) > 1
