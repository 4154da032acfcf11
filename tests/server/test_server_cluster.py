"""Several server processes, one game state: two real processes on one PostgreSQL."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import httpx
import websockets
from server_support import (
    SocketLoop,
    bearer,
    busy_pick,
    cluster_db,
    replay_history,
    server_pair,
)

from glade.server.storage import Storage

__all__ = ["cluster_db"]  # the fixture, used by name


class Pushes(SocketLoop):
    """WebSockets of several seats on their processes, on one background loop: which versions
    each socket was pushed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[str, int], set[int]] = {}

    def watch(self, url: str, game_id: str, seat: int, token: str) -> None:
        key = (game_id, seat)
        with self.lock:
            self.seen.setdefault(key, set())

        async def run() -> None:
            ws_url = url.replace("http://", "ws://") + f"/api/games/{game_id}/ws?token={token}"
            try:
                async with websockets.connect(ws_url) as ws:
                    async for message in ws:
                        version = json.loads(message)["version"]
                        with self.lock:
                            self.seen[key].add(version)
            except (OSError, websockets.ConnectionClosed):
                pass

        self.spawn(run())

    def wait(self, game_id: str, seat: int, version: int, seconds: float = 15.0) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                if version in self.seen[(game_id, seat)]:
                    return True
            time.sleep(0.01)
        return False


def _create(h: httpx.Client, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    r = h.post("/api/games", json={"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_two_processes_share_every_game_and_survive_a_sigkill(cluster_db: str) -> None:
    a, b = server_pair(cluster_db, "--access-log", "off")
    pushes = Pushes()
    rng = random.Random(16)
    try:
        ha = httpx.Client(base_url=a.url, timeout=20)
        hb = httpx.Client(base_url=b.url, timeout=20)
        games: list[dict[str, Any]] = []
        for game in ("harmonies", "living-forest", "harmonies", "living-forest"):
            body = _create(ha, game, [{"kind": "human"}, {"kind": "human"}])
            games.append({"id": body["id"], "tokens": [s["token"] for s in body["seats"]]})
        bot = _create(hb, "harmonies", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        games.append({"id": bot["id"], "tokens": [bot["seats"][0]["token"], None]})
        # seat 0 of every game plays through process A, seat 1 through B (the bot game: B)
        route: dict[tuple[str, int], httpx.Client] = {}
        for g in games:
            for seat, token in enumerate(g["tokens"]):
                if token is None:
                    continue
                client = ha if seat == 0 and g is not games[-1] else hb
                route[(g["id"], seat)] = client
                pushes.watch(str(client.base_url), g["id"], seat, token)
        time.sleep(0.5)

        acknowledged: dict[str, int] = {g["id"]: 0 for g in games}
        crossed = 0
        killed = False
        for step in range(20_000):
            live = [g for g in games if not g.get("over")]
            if not live:
                break
            if not killed and step == 300:
                b.kill()  # SIGKILL: B's seats reconnect to A and go on
                killed = True
                for key, client in route.items():
                    if client is hb:
                        route[key] = ha
                        seat = key[1]
                        game = next(g for g in games if g["id"] == key[0])
                        pushes.watch(a.url, key[0], seat, game["tokens"][seat])
            g = rng.choice(live)
            h0 = route.get((g["id"], 0), ha)
            state = h0.get(f"/api/games/{g['id']}", headers=bearer(g["tokens"][0])).json()
            if state["over"]:
                g["over"] = True
                continue
            humans = [s for s in state["to_act"] if g["tokens"][s] is not None]
            if not humans:
                time.sleep(0.01)  # a bot to move
                continue
            seat = rng.choice(humans)
            h = route[(g["id"], seat)]
            mine = h.get(f"/api/games/{g['id']}", headers=bearer(g["tokens"][seat])).json()
            if seat not in mine["to_act"] or mine["over"]:
                continue
            r = h.post(
                f"/api/games/{g['id']}/actions",
                json={"action": busy_pick(mine["legal_actions"], rng), "version": mine["version"]},
                headers=bearer(g["tokens"][seat]),
            )
            if r.status_code == 409:
                continue
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            acknowledged[g["id"]] = max(acknowledged[g["id"]], version)
            other = 1 - seat
            if g["tokens"][other] is not None and not killed:
                # the other seat, on the other process, is pushed the new version
                assert pushes.wait(g["id"], other, version), (g["id"], other, version)
                crossed += 1
        assert killed and crossed >= 100
        for g in games:
            log = ha.get(f"/api/games/{g['id']}/log").json()
            assert log["over"], g["id"]
            assert log["version"] >= acknowledged[g["id"]]
            versions = [e["version"] for e in log["history"]]
            assert versions == list(range(1, log["version"] + 1))  # each move stored once
            replayed = replay_history(log)
            assert replayed.is_over and replayed.result() == log["result"]
        ha.close()
        hb.close()
    finally:
        pushes.close()
        a.stop()
        b.kill()


def test_two_processes_racing_on_one_version_give_one_winner(cluster_db: str) -> None:
    a, b = server_pair(cluster_db, "--access-log", "off")
    try:
        with (
            httpx.Client(base_url=a.url, timeout=20) as ha,
            httpx.Client(base_url=b.url, timeout=20) as hb,
        ):
            body = _create(ha, "harmonies", [{"kind": "human"}])
            game_id, token = body["id"], body["seats"][0]["token"]
            rng = random.Random(5)
            wins = 0
            for _ in range(15):
                mine = ha.get(f"/api/games/{game_id}", headers=bearer(token)).json()
                if mine["over"]:
                    break
                plain = [x for x in mine["legal_actions"] if x["type"] != "undo"]
                picks = [rng.choice(plain), rng.choice(plain)]
                results: list[httpx.Response] = []

                def post(
                    h: httpx.Client,
                    action: dict[str, Any],
                    version: int = mine["version"],
                    out: list[httpx.Response] = results,
                ) -> None:
                    out.append(
                        h.post(
                            f"/api/games/{game_id}/actions",
                            json={"action": action, "version": version},
                            headers=bearer(token),
                        )
                    )

                threads = [
                    threading.Thread(target=post, args=(ha, picks[0])),
                    threading.Thread(target=post, args=(hb, picks[1])),
                ]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                statuses = sorted(r.status_code for r in results)
                assert statuses == [200, 409], [r.text for r in results]
                wins += 1
                # both processes hear of the winner (LISTEN/NOTIFY) before the next race
                deadline = time.monotonic() + 15
                for h in (ha, hb):
                    while h.get(f"/api/games/{game_id}").json()["version"] != mine["version"] + 1:
                        assert time.monotonic() < deadline, "a process never heard of the move"
                        time.sleep(0.01)
            assert wins >= 10
            log = ha.get(f"/api/games/{game_id}/log").json()
            assert [e["version"] for e in log["history"]] == list(range(1, log["version"] + 1))
    finally:
        a.stop()
        b.stop()
    storage = Storage(cluster_db)
    try:
        stored = storage.tables.load(game_id).result(10)
        assert stored is not None and stored.version == log["version"]
    finally:
        storage.close()
