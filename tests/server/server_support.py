"""Shared fixtures and helpers of the server tests (imported by each test_server_*.py)."""

from __future__ import annotations

import importlib
import json
import os
import random
import secrets
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import glade
from glade.server import Settings, create_app
from tests.live_server import free_port, start_server

ROOT = Path(__file__).resolve().parents[2]


def available_games() -> list[str]:
    """Every game whose engine this checkout has (Living Forest joins once it lands)."""
    names = []
    for name, target in glade.GAMES.items():
        try:
            importlib.import_module(target.split(":")[0])
        except ImportError:
            continue
        names.append(name)
    return names


GAMES = available_games()


def _pg_base() -> str | None:
    return os.environ.get("GLADE_TEST_PG") or None


def fresh_pg_database(base: str) -> tuple[str, str]:
    """Create an empty database on the test server; returns (its URL, its name).

    Fails (does not skip) when GLADE_TEST_PG is set and the server cannot be reached.
    """
    import psycopg

    name = "glade_test_" + secrets.token_hex(6)
    with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    head, _, _ = base.rpartition("/")
    return f"{head}/{name}", name


def drop_pg_database(base: str, name: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _pg_database() -> Iterator[str]:
    """A fresh database on the test PostgreSQL while the fixture lives (skips without one)."""
    base = _pg_base()
    if base is None:
        pytest.skip("GLADE_TEST_PG is not set (make test sets it and starts PostgreSQL)")
    url, name = fresh_pg_database(base)
    yield url
    drop_pg_database(base, name)


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    yield from _pg_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'glade.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


def make_settings(db: str, **changes: Any) -> Settings:
    settings = Settings(
        db=db, messages_per_second=100_000, max_games_per_client=10_000, bot_seconds=0.05
    )
    for key, value in changes.items():
        setattr(settings, key, value)
    return settings


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(db_url))) as c:
        yield c


class LiveSocket:
    """A WebSocket to a live server with the methods of TestClient's (``receive_json``,
    ``send_text``, ``send_json``); a close is starlette's ``WebSocketDisconnect`` with its code."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, max_size=None, open_timeout=10)

    def __enter__(self) -> LiveSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.close()

    def _closed(self, exc: Any) -> Exception:
        from starlette.websockets import WebSocketDisconnect

        return WebSocketDisconnect(exc.rcvd.code if exc.rcvd else 1006)

    def receive_json(self) -> Any:
        from websockets.exceptions import ConnectionClosed

        try:
            return json.loads(self.ws.recv(timeout=10))
        except ConnectionClosed as exc:
            raise self._closed(exc) from None

    def send_text(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            self.ws.send(text)
        except ConnectionClosed as exc:
            raise self._closed(exc) from None

    def send_json(self, data: Any) -> None:
        self.send_text(json.dumps(data))


class LiveClient(httpx.Client):
    """httpx against a live server (uvicorn, the protocol glade serve runs), with TestClient's
    ``websocket_connect``: a test written for TestClient runs against it unchanged."""

    def __init__(self, server: ServerProcess) -> None:
        super().__init__(base_url=server.url, timeout=10)
        self.ws_base = f"ws://127.0.0.1:{server.port}"

    def websocket_connect(self, path: str) -> LiveSocket:
        return LiveSocket(self.ws_base + path)


@pytest.fixture
def live_client(tmp_path: Path) -> Iterator[LiveClient]:
    """A live ``glade serve`` on SQLite (a fresh file) and a client of it."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'live.sqlite3'}", "--access-log", "off")
    server.start()
    try:
        with LiveClient(server) as c:
            yield c
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql", "live"])
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """The app in process (TestClient, on SQLite and on PostgreSQL) and a live server (uvicorn:
    its WebSockets take the protocol's shorter paths)."""
    if request.param == "live":
        yield request.getfixturevalue("live_client")
        return
    db = (
        f"sqlite:///{tmp_path / 'glade.sqlite3'}"
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    with TestClient(create_app(make_settings(db))) as c:
        yield c


ADDRESSES = iter(range(1, 1 << 24))


def client_from(c: TestClient, address: str | None = None) -> TestClient:
    """Another client of the app ``c`` serves, on the same event loop, from its own address
    (a new one unless given): as a person on another machine would be."""
    if address is None:
        n = next(ADDRESSES)
        address = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
    other = TestClient(c.app, client=(address, 50000))
    other.portal = c.portal
    return other


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def new_table(
    c: TestClient | httpx.Client,
    game: str,
    humans: int = 2,
    bots: tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
) -> tuple[str, list[str | None]]:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": f"p{i}"} for i in range(humans)]
    seats += [{"kind": "bot", "bot": b} for b in bots]
    r = c.post("/api/games", json={"game": game, "options": options or {}, "seats": seats})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], [s["token"] for s in body["seats"]]


def pick(state: dict[str, Any], rng: random.Random, undo: bool = False) -> dict[str, Any]:
    """A random legal action of a state answer (undo only when asked for, or when it is the only
    one: a Living Forest spirit that stopped drawing may only take its stop back)."""
    actions = [a for a in state["legal_actions"] if undo or a["type"] != "undo"]
    return rng.choice(actions or state["legal_actions"])


def play_random(
    c: TestClient | httpx.Client,
    game_id: str,
    tokens: list[str | None],
    rng: random.Random,
    max_actions: int = 100_000,
) -> list[dict[str, Any]]:
    """Play the human seats at random until the game ends (or ``max_actions``); returns every
    answer received."""
    answers = []
    state = c.get(f"/api/games/{game_id}").json()
    for _ in range(max_actions):
        if state["over"]:
            return answers
        movers = [i for i in state["to_act"] if tokens[i] is not None]
        if not movers:  # bots to move
            time.sleep(0.005)
            state = c.get(f"/api/games/{game_id}").json()
            continue
        seat = rng.choice(movers)
        mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        answers.append(mine)
        if mine["over"] or seat not in mine["to_act"]:
            state = mine
            continue
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(mine, rng), "version": mine["version"]},
            headers=bearer(tokens[seat]),
        )
        if r.status_code == 409:  # a bot moved in between
            state = c.get(f"/api/games/{game_id}").json()
            continue
        assert r.status_code == 200, r.text
        state = r.json()
        answers.append(state)
    if max_actions >= 100_000:
        raise AssertionError("the game did not end")
    return answers


def replay_history(log: dict[str, Any]) -> glade.Game:
    """Rebuild a finished game from its public log and the revealed seed."""
    state = glade.new_game(log["game"], seed=log["seed"], **log["options"])
    for entry in log["history"]:
        state.apply(entry["seat"], entry["action"])
    return state


# ---------------------------------------------------------------------- a real server process
class ServerProcess:
    """``python -m glade.server`` in a child process."""

    def __init__(self, db: str, *extra: str) -> None:
        self.db = db
        self.extra = extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        args = ["--db", self.db, "--messages-per-second", "100000"]
        args += ["--max-games-per-client", "10000", "--bot-seconds", "0.05", *self.extra]
        self.proc = start_server(self.port, args, probe="/openapi.json")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def sleepy_choose(
    state_json: dict[str, Any], spec: str, seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """A bot that thinks for 1.5 s before a random move (runs in the server's bot workers)."""
    from glade.server.features.bots import choose_actions

    time.sleep(1.5)
    return choose_actions(state_json, "random", seat, seconds, seed)


def gated_choose(
    gate: str, state_json: dict[str, Any], spec: str, seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """A bot (``functools.partial(gated_choose, folder)``, run in the server's bot workers) that
    writes ``folder/thinking``, then waits for ``folder/go`` (at most 20 s, so a test that goes
    wrong ends) and writes ``folder/released`` or ``folder/gave-up`` before a random move;
    once it gave up it no longer waits."""
    from glade.server.features.bots import choose_actions

    folder = Path(gate)
    (folder / "thinking").touch()
    if (folder / "gave-up").exists():
        return choose_actions(state_json, "random", seat, seconds, seed)
    deadline = time.monotonic() + 20.0
    while not (folder / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    (folder / ("released" if (folder / "go").exists() else "gave-up")).touch()
    return choose_actions(state_json, "random", seat, seconds, seed)


def play_one_move(
    c: TestClient | httpx.Client, game_id: str, tokens: list[str | None], rng: random.Random
) -> None:
    """The seat to act (the first, if several may) plays one random legal move."""
    state = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    seat = state["to_act"][0]
    mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
    r = c.post(
        f"/api/games/{game_id}/actions",
        json={"action": pick(mine, rng), "version": mine["version"]},
        headers=bearer(tokens[seat]),
    )
    assert r.status_code == 200, r.text


def until_one_seat_acts(
    c: TestClient | httpx.Client, game_id: str, tokens: list[str | None], rng: random.Random
) -> int:
    """Play random moves until exactly one seat may act (Living Forest draws simultaneously)."""
    for _ in range(500):
        state = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
        assert not state["over"]
        if len(state["to_act"]) == 1:
            seat: int = state["to_act"][0]
            return seat
        seat = rng.choice(state["to_act"])
        mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(mine, rng), "version": mine["version"]},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 200, r.text
    raise AssertionError("no state with a single seat to act")


def busy_pick(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random action that mostly does something (shortens random Living Forest games)."""
    plain = [a for a in actions if a["type"] != "undo"] or actions  # (undo: see pick)
    keen = [a for a in plain if a["type"] not in ("stop", "end_actions", "end_turn")]
    return rng.choice(keen) if keen and rng.random() < 0.9 else rng.choice(plain)


def finish_in_process(c: TestClient, game_id: str, rng: random.Random) -> None:
    """Play a game to its end through the server's own action path (no HTTP per move)."""
    tables = c.app.state.services.tables  # type: ignore[attr-defined]
    table = tables.tables[game_id]
    for _ in range(20_000):
        if table.state.is_over:
            return
        seats = [s for s in table.state.to_act if table.seats[s].kind == "human"]
        if not seats:
            time.sleep(0.002)
            continue
        seat = rng.choice(seats)
        action = busy_pick([a.to_json() for a in table.state.legal_actions(seat)], rng)
        try:
            c.portal.call(tables.act, table, seat, action, table.version)
        except Exception as exc:  # a bot moved in between: try again
            if getattr(exc, "status", None) != 409:
                raise
    raise AssertionError("the game did not end")


def replay_with_seed(
    game: str, seed: int, options: dict[str, Any], history: list[Any]
) -> glade.Game:
    state = glade.new_game(game, seed=seed, **options)
    for entry in history:
        state.apply(entry["seat"], entry["action"])
    return state


def sleepy_hint(
    state_json: dict[str, Any], seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """A hint that takes 1.5 s, or 3 s when its budget is under 0.5 s (past its timeout of
    2 s + 2 × budget), in the server's hint workers."""
    time.sleep(3.0 if seconds < 0.5 else 1.5)
    return [{"actions": [], "score": None, "win": None}]


@pytest.fixture
def cluster_db() -> Iterator[str]:
    """A fresh PostgreSQL database for tests of several real server processes."""
    yield from _pg_database()


def server_pair(db: str, *flags: str) -> tuple[ServerProcess, ServerProcess]:
    """Two server processes on one database, both started (the caller stops them)."""
    a, b = ServerProcess(db, *flags), ServerProcess(db, *flags)
    a.start()
    b.start()
    return a, b


class SocketLoop:
    """An event loop on a thread of its own, for WebSockets a test watches while it goes on;
    ``close`` cancels whatever runs there and ends the loop."""

    def __init__(self) -> None:
        import asyncio
        import threading

        self.loop = asyncio.new_event_loop()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def spawn(self, coro: Any) -> Any:
        import asyncio

        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def close(self) -> None:
        import asyncio

        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.spawn(cancel_all()).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def gated_judge(gate: str, *args: Any) -> dict[str, Any]:
    """A review decision (``functools.partial(gated_judge, folder)``, run in the analysis
    workers) that writes ``folder/judging``, then waits for ``folder/go`` (at most 20 s) and
    writes ``folder/released`` or ``folder/gave-up`` before judging."""
    from glade.server.features.reviews import judge_position

    folder = Path(gate)
    (folder / "judging").touch()
    deadline = time.monotonic() + 20.0
    while not (folder / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    (folder / ("released" if (folder / "go").exists() else "gave-up")).touch()
    return judge_position(*args)


def wait_until(check: Any, seconds: float = 60.0, what: str = "it") -> Any:
    """Poll ``check`` until it is true (a bound against a hang, not a timing assumption)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"{what} did not happen"
        time.sleep(0.02)


def gated_hint(
    gate: str, state_json: dict[str, Any], seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """A hint (``functools.partial(gated_hint, folder)``, in the analysis workers) that writes
    ``folder/hinting``, waits for ``folder/go`` (at most 60 s) and writes ``folder/released`` or
    ``folder/gave-up``."""
    folder = Path(gate)
    (folder / "hinting").touch()
    deadline = time.monotonic() + 60.0
    while not (folder / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    (folder / ("released" if (folder / "go").exists() else "gave-up")).touch()
    return [{"actions": [], "score": None, "win": None}]
