"""Clocks and chat with two server processes on one PostgreSQL: each timeout runs once."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from typing import Any

import httpx
import websockets
from server_support import SocketLoop, bearer, cluster_db, server_pair

__all__ = ["cluster_db"]  # the fixture, used by name


class Messages(SocketLoop):
    """WebSockets on a background loop, keeping every non-state message each one is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, list[dict[str, Any]]] = {}

    def watch(self, name: str, url: str) -> None:
        self.seen[name] = []

        async def run() -> None:
            try:
                async with websockets.connect(url) as ws:
                    async for text in ws:
                        message = json.loads(text)
                        with self.lock:
                            self.seen[name].append(
                                message if "type" in message else {"type": "state"}
                            )
            except (OSError, websockets.ConnectionClosed):
                pass

        self.spawn(run())

    def wait(self, name: str, kind: str, seconds: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                for message in self.seen[name]:
                    if message["type"] == kind:
                        return message
            time.sleep(0.02)
        raise AssertionError(f"{name} was never sent a {kind!r} message")


def test_each_timeout_runs_once_across_two_processes(cluster_db: str) -> None:
    flags = ("--access-log", "off", "--log-level", "info", "--clock-min-seconds", "0.5")
    flags += ("--clock-poll-seconds", "0.05")
    a, b = server_pair(cluster_db, *flags)
    messages = Messages()
    games: list[tuple[str, list[str]]] = []
    try:
        with (
            httpx.Client(base_url=a.url, timeout=20) as ha,
            httpx.Client(base_url=b.url, timeout=20) as hb,
        ):
            for _ in range(6):
                r = ha.post(
                    "/api/games",
                    json={
                        "game": "harmonies",
                        "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}],
                        "clock": {"kind": "realtime", "base": 1},
                    },
                )
                assert r.status_code == 201, r.text
                body = r.json()
                tokens = [s["token"] for s in body["seats"]]
                games.append((body["id"], tokens))
                # the first move: a real-time clock runs from the game's first move on
                mine = ha.get(f"/api/games/{body['id']}", headers=bearer(tokens[0])).json()
                action = [a for a in mine["legal_actions"] if a["type"] != "undo"][0]
                r = ha.post(
                    f"/api/games/{body['id']}/actions",
                    json={"action": action, "version": mine["version"]},
                    headers=bearer(tokens[0]),
                )
                assert r.status_code == 200, r.text
                # both processes hold the table: each sweeps, each may try the timeout
                for seat, url in enumerate((a.url, b.url)):
                    ws = url.replace("http://", "ws://")
                    messages.watch(
                        f"{body['id']}/{seat}",
                        f"{ws}/api/games/{body['id']}/ws?token={tokens[seat]}",
                    )
            for game_id, _ in games:  # every socket is connected (it was sent the state)
                for seat in (0, 1):
                    messages.wait(f"{game_id}/{seat}", "state")
            # chat said on A reaches the seat connected to B
            game_id, tokens = games[0]
            r = ha.post(
                f"/api/games/{game_id}/chat", json={"text": "gl hf"}, headers=bearer(tokens[0])
            )
            assert r.status_code == 200, r.text
            heard = messages.wait(f"{game_id}/1", "chat")
            assert heard["text"] == "gl hf" and heard["seat"] == 0
            # every clock runs out in turn; the bots play both seats to the end
            deadline = time.monotonic() + 240
            for game_id, _ in games:
                while True:
                    assert time.monotonic() < deadline, "a game did not end"
                    state = hb.get(f"/api/games/{game_id}").json()
                    if state["over"]:
                        break
                    time.sleep(0.2)
                assert [s["status"] for s in state["seats"]] == ["timed out", "timed out"]
                assert [s["kind"] for s in state["seats"]] == ["bot", "bot"]
                assert ha.get(f"/api/games/{game_id}").json()["seats"] == state["seats"]
                log = ha.get(f"/api/games/{game_id}/log").json()
                versions = [e["version"] for e in log["history"]]
                assert versions == list(range(1, log["version"] + 1))
            assert messages.wait(f"{games[0][0]}/1", "clock")["kind"] == "realtime"
    finally:
        messages.close()
        a.stop()
        b.stop()
    said = []
    for server in (a, b):
        assert server.proc is not None and server.proc.stderr is not None
        said.append(server.proc.stderr.read().decode())
    found = [re.findall(r"table (\S+): seat (\d) timed out", text) for text in said]
    timeouts = Counter(found[0] + found[1])
    expected = {(game_id, str(seat)) for game_id, _ in games for seat in (0, 1)}
    assert set(timeouts) == expected, "".join(said)[-3000:]
    assert all(n == 1 for n in timeouts.values()), timeouts
    print("timeouts carried out by A and by B:", len(found[0]), len(found[1]))
