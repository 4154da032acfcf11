"""SIGKILL a real server in the middle of games, start it again: nothing acknowledged is lost."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import (
    GAMES,
    ServerProcess,
    bearer,
    db_url,
    new_table,
    pg_url,
    pick,
    play_random,
    replay_with_seed,
)

from glade.server.storage import Storage

__all__ = ["db_url", "pg_url"]


def _player(
    base: str,
    game_id: str,
    tokens: list[str | None],
    acked: list[dict[str, Any]],
    stop: threading.Event,
    seed: int,
) -> None:
    """Play random moves until the server dies; record every acknowledged action."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=5) as c:
        try:
            while not stop.is_set():
                state = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
                if state["over"]:
                    return
                humans = [s for s in state["to_act"] if tokens[s] is not None]
                if not humans:
                    time.sleep(0.005)
                    continue
                seat = humans[0]
                mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
                action = pick(mine, rng, undo=rng.random() < 0.1)
                r = c.post(
                    f"/api/games/{game_id}/actions",
                    json={"action": action, "version": mine["version"]},
                    headers=bearer(tokens[seat]),
                )
                if r.status_code == 200:
                    acked.append({"version": r.json()["version"], "seat": seat, "action": action})
        except httpx.HTTPError:
            return  # the server was killed


def _stored_seed(db: str, game_id: str) -> int:
    """The game's seed straight from the database (the API keeps it secret while it runs)."""
    storage = Storage(db)
    try:
        rows = storage.db.read_now(
            lambda c: c.query("SELECT seed FROM games WHERE id = ?", (game_id,))
        )
        return int(rows[0][0])
    finally:
        storage.close()


@pytest.mark.parametrize("game", GAMES)
def test_sigkill_mid_game_loses_no_acknowledged_action(
    db_url: str, game: str, tmp_path: Path
) -> None:
    server = ServerProcess(db_url)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=5) as c:
            tables = [new_table(c, game) for _ in range(3)]
            tables += [new_table(c, game, humans=1, bots=("random",))]
        acked: list[list[dict[str, Any]]] = [[] for _ in tables]
        stop = threading.Event()
        players = [
            threading.Thread(
                target=_player, args=(server.url, gid, tokens, acked[i], stop, i), daemon=True
            )
            for i, (gid, tokens) in enumerate(tables)
        ]
        for p in players:
            p.start()
        deadline = time.monotonic() + 20
        while min(len(a) for a in acked) < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert min(len(a) for a in acked) >= 8, "the tables did not get going"
        server.kill()  # SIGKILL while requests are in flight
        stop.set()
        for p in players:
            p.join(10)

        server.start()
        with httpx.Client(base_url=server.url, timeout=10) as c:
            for (gid, tokens), mine in zip(tables, acked, strict=True):
                log = c.get(f"/api/games/{gid}/log").json()
                history = log["history"]
                last = max(a["version"] for a in mine)
                # every acknowledged action is there, at its version, unchanged
                assert log["version"] >= last
                stored = {h["version"]: h for h in history}
                for a in mine:
                    assert stored[a["version"]]["seat"] == a["seat"]
                    assert stored[a["version"]]["action"] == a["action"]
                assert [h["version"] for h in history] == list(range(1, log["version"] + 1))
                # the stored game is sound: its history replays from the seed to what is shown
                seed = _stored_seed(db_url, gid)
                replay = replay_with_seed(game, seed, log["options"], history)
                assert replay.view(None) == c.get(f"/api/games/{gid}").json()["view"]
                # and it goes on
                play_random(c, gid, tokens, random.Random(gid), max_actions=15)
                assert c.get(f"/api/games/{gid}/log").json()["version"] > log["version"]
    finally:
        server.stop()
