"""Each attack of issue 16, reproduced: what a hostile client tried, and what it gets now."""

from __future__ import annotations

import concurrent.futures
import json
import resource
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_support import (
    ROOT,
    ServerProcess,
    bearer,
    client,
    db_url,
    gated_hint,
    make_settings,
    new_table,
    pg_url,
    sleepy_choose,
    sleepy_hint,
    wait_until,
)

from glade.server import create_app
from glade.server.api.guard import RateLimiter
from glade.server.features import analysis, bots
from tests.live_server import free_port

__all__ = ["client", "db_url", "pg_url"]


# ---------------------------------------------------------------------- 1. options.seed
def test_a_seed_or_any_keyword_in_options_is_a_422_not_a_500(client: TestClient) -> None:
    for options in ({"seed": 1}, {"name": "x"}, {"players": 2, "seed": 3}):
        r = client.post(
            "/api/games",
            json={"game": "harmonies", "options": options, "seats": [{"kind": "human"}] * 2},
        )
        assert r.status_code == 422, r.text
        assert "option" in r.json()["error"] and "code" in r.json()
    assert client.get("/api/lobby").status_code == 200  # the connection still serves


# ---------------------------------------------------------------------- 2. hints
def _hint_app(tmp_path: Path, hint_seconds: float = 1.0, **changes: Any) -> TestClient:
    settings = make_settings(f"sqlite:///{tmp_path / 'h.db'}", hint_seconds=hint_seconds, **changes)
    return TestClient(create_app(settings))


def _warm(c: TestClient, workers: int) -> None:
    """Start the hint workers, and import this module in them, before the timed part."""
    pool = c.app.state.services.analysis.workers()  # type: ignore[attr-defined]
    for f in [pool.submit(sleepy_hint, {}, 0, 1.0, 0) for _ in range(workers)]:
        f.result(60)


def _hints_at_once(c: TestClient, game_id: str, token: str | None, n: int) -> list[httpx.Response]:
    with concurrent.futures.ThreadPoolExecutor(n) as pool:
        futures = [
            pool.submit(c.get, f"/api/games/{game_id}/hint", headers=bearer(token))
            for _ in range(n)
        ]
        return [f.result() for f in futures]


def test_one_client_has_one_hint_in_flight_and_the_rest_get_429(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis, "hint_moves", sleepy_hint)
    with _hint_app(tmp_path, hints_per_client=1, hint_queue=8) as c:
        _warm(c, 1)
        game_id, tokens = new_table(c, "harmonies", humans=1)
        answers = _hints_at_once(c, game_id, tokens[0], 3)
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200, 429, 429], [r.text for r in answers]
        for r in answers:
            if r.status_code == 429:
                assert "still being worked out" in r.json()["error"]


def test_a_full_hint_queue_answers_503_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis, "hint_moves", sleepy_hint)
    with _hint_app(tmp_path, hints_per_client=10, hint_queue=2, hint_workers=2) as c:
        _warm(c, 2)
        game_id, tokens = new_table(c, "harmonies", humans=1)
        answers = _hints_at_once(c, game_id, tokens[0], 5)
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200, 200, 503, 503, 503], [r.text for r in answers]
        assert all("busy" in r.json()["error"] for r in answers if r.status_code == 503)


def test_a_hint_that_takes_too_long_is_a_503_not_a_500(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis, "hint_moves", sleepy_hint)  # 3 s, the timeout is 2.1 s
    with _hint_app(tmp_path, hint_seconds=0.05) as c:
        _warm(c, 1)
        game_id, tokens = new_table(c, "harmonies", humans=1)
        r = c.get(f"/api/games/{game_id}/hint", headers=bearer(tokens[0]))
        assert r.status_code == 503 and "too long" in r.json()["error"]


def test_a_hint_flood_does_not_queue_a_bot_turn_of_another_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every analysis worker holds a hint at a gate the test opens; a bot on another table still
    plays its moves meanwhile, because bots and hints do not share workers (were they to, the
    bot's move would wait at the gate: the test fails by order, not by time)."""
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setattr(analysis, "hint_moves", partial(gated_hint, str(gate)))
    monkeypatch.setattr(bots, "FAST_BOTS", set())  # the random bot thinks in a worker too
    with _hint_app(tmp_path, hints_per_client=10, hint_queue=4) as c:
        game_id, tokens = new_table(c, "harmonies", humans=1)
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            hints = [
                pool.submit(c.get, f"/api/games/{game_id}/hint", headers=bearer(tokens[0]))
                for _ in range(4)
            ]
            wait_until(lambda: (gate / "hinting").exists(), what="a hint reaching its worker")
            bots_id, _ = new_table(c, "harmonies", humans=0, bots=("random", "random"))
            wait_until(
                lambda: c.get(f"/api/games/{bots_id}").json()["version"] >= 3,
                what="the bots' moves",
            )
            assert not (gate / "released").exists() and not (gate / "gave-up").exists()
            (gate / "go").touch()
            for h in hints:
                assert h.result().status_code in (200, 503)


def test_sleepy_helpers_are_importable_by_workers() -> None:
    assert sleepy_choose.__module__ == sleepy_hint.__module__ == "server_support"


# ---------------------------------------------------------------------- 3. idle sockets
def _limited_server(db: str, *extra: str, files: int = 1024) -> tuple[subprocess.Popen[bytes], int]:
    """A server process whose file-descriptor limit is ``files`` (as ``ulimit -n`` would)."""
    port = free_port()

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    proc = subprocess.Popen(
        [sys.executable, "-m", "glade.server", "--port", str(port), "--db", db, *extra],
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lower,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    assert f"http://127.0.0.1:{port}/" in line, proc.stderr.read().decode() if proc.stderr else ""
    return proc, port


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _closed_by_peer(sock: socket.socket) -> bool:
    try:
        return sock.recv(1024) == b""
    except (ConnectionResetError, TimeoutError, BlockingIOError):
        return isinstance(sys.exc_info()[1], ConnectionResetError)


def test_a_thousand_idle_sockets_do_not_stop_normal_requests(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 4096:
        pytest.skip("this test needs 1,100 sockets of its own")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 4096), hard))
    proc, port = _limited_server(
        f"sqlite:///{tmp_path / 'idle.db'}",
        "--header-timeout",
        "4",
        "--messages-per-second",
        "1000",
    )
    idle: list[socket.socket] = []
    try:
        for _ in range(1100):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            idle.append(s)
        # normal requests are answered while the idle sockets are there
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as h:
            for _ in range(20):
                r = h.get("/api/lobby")
                assert r.status_code == 200
            game = h.post("/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}]})
            assert game.status_code == 201
        # and every idle socket is closed by the server within a bounded time
        deadline = time.monotonic() + 30
        for s in idle:
            s.settimeout(max(0.1, deadline - time.monotonic()))
            assert _closed_by_peer(s), "an idle socket stayed open"
    finally:
        for s in idle:
            s.close()
        _stop(proc)


def _answer(s: socket.socket) -> str:
    """A whole HTTP answer: its head and body may come in separate segments."""
    data = b""
    while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < _length(data):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode()


def _length(data: bytes) -> int:
    for line in data.partition(b"\r\n\r\n")[0].split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def test_trickled_headers_and_slow_bodies_are_cut_off(tmp_path: Path) -> None:
    proc, port = _limited_server(f"sqlite:///{tmp_path / 'slow.db'}", "--header-timeout", "2")
    try:
        # headers one byte every 0.3 s: closed although it keeps sending
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
        request = b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        closed = False
        started = time.monotonic()
        for byte in request:
            try:
                s.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            time.sleep(0.3)
            if time.monotonic() - started > 30:
                break
        s.close()
        assert closed, "a connection trickling its headers was never closed"
        # a body that never finishes: 408 with a sentence
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        answer = _answer(s)
        s.close()
        assert answer.startswith("HTTP/1.1 408") and "did not arrive" in answer
    finally:
        _stop(proc)


def test_request_headers_over_the_limit_get_431(tmp_path: Path) -> None:
    proc, port = _limited_server(f"sqlite:///{tmp_path / 'big.db'}")
    try:
        url = f"http://127.0.0.1:{port}/api/lobby"
        r = httpx.get(url, headers={f"x-h{i}": "v" * 1000 for i in range(40)})
        assert r.status_code == 431 and "headers" in r.json()["error"]
        assert httpx.get(url, headers={"x-h": "v" * 4000}).status_code == 200
    finally:
        _stop(proc)


# ---------------------------------------------------------------------- 4. X-Forwarded-For
def test_forwarded_for_is_trusted_only_from_the_proxies_named(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'xff.db'}"
    body = {"game": "harmonies", "seats": [{"kind": "human"}]}
    for flags, expected in (((), 5), (("--forwarded-allow-ips", "127.0.0.1"), 12)):
        server = ServerProcess(db, "--max-games-per-client", "5", *flags)
        server.start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as h:
                created = 0
                for i in range(12):
                    r = h.post("/api/games", json=body, headers={"X-Forwarded-For": f"10.0.0.{i}"})
                    assert r.status_code in (201, 429), r.text
                    created += r.status_code == 201
            assert created == expected
        finally:
            server.stop()
        db = f"sqlite:///{tmp_path / 'xff2.db'}"


def test_forwarded_for_does_not_escape_the_rate_limit(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'rate.db'}", "--messages-per-second", "2")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as h:
            statuses = [
                h.get("/api/lobby", headers={"X-Forwarded-For": f"10.1.0.{i}"}).status_code
                for i in range(30)
            ]
        assert statuses.count(429) >= 20, statuses
    finally:
        server.stop()


# ---------------------------------------------------------------------- 5. NUL in a name
@pytest.mark.parametrize("name", ["a\u0000b", "tab\there", "line\nbreak", "\u007f", "  "])
def test_control_characters_in_a_name_are_refused_on_every_database(
    client: TestClient, name: str
) -> None:
    r = client.post(
        "/api/games", json={"game": "harmonies", "seats": [{"kind": "human", "name": name}]}
    )
    assert r.status_code == 422 and "name" in r.json()["error"], r.text
    game_id, _ = new_table(client, "harmonies", humans=0, bots=("random",))
    open_id = client.post(
        "/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}]}
    ).json()["id"]
    r = client.post(f"/api/games/{open_id}/join", json={"name": name})
    assert r.status_code == 422 and "name" in r.json()["error"], r.text
    assert client.post(f"/api/games/{open_id}/join", json={"name": "Ada"}).status_code == 200
    assert game_id


def test_a_lone_surrogate_in_a_name_or_a_nul_in_an_id_is_refused(client: TestClient) -> None:
    raw = b'{"game": "harmonies", "seats": [{"kind": "human", "name": "x\\ud800"}]}'
    r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "name" in r.json()["error"], r.text
    assert client.get("/api/games/ab%00cd").status_code == 404
    assert client.get("/api/games/ab%00cd/log").status_code == 404


# ---------------------------------------------------------------------- smaller ones
def test_join_seat_false_is_not_seat_zero(client: TestClient) -> None:
    open_id = client.post(
        "/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}] * 2}
    ).json()["id"]
    for seat in (False, True, 0.0, "0"):
        r = client.post(f"/api/games/{open_id}/join", json={"name": "Ada", "seat": seat})
        assert r.status_code == 422 and "seat" in r.json()["error"], (seat, r.text)
    assert (
        client.post(f"/api/games/{open_id}/join", json={"name": "Ada", "seat": 0}).json()["seat"]
        == 0
    )


def test_405_answers_say_which_methods_are_allowed(client: TestClient) -> None:
    for method, path, allow in (
        ("PUT", "/api/games", "POST"),
        ("DELETE", "/api/games/abc/actions", "POST"),
        ("POST", "/api/lobby", "GET"),
        ("POST", "/index.html", "GET"),
    ):
        r = client.request(method, path)
        assert r.status_code == 405, (method, path)
        assert allow in r.headers["allow"].split(", "), (path, r.headers.get("allow"))
        assert method in r.json()["error"]


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/lobby", "/api/games/nosuch", "/openapi.json"):
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert "unsafe-eval" not in csp and "script-src 'self' 'unsafe-inline'" not in csp


def test_the_rate_limiter_forgets_clients_a_few_at_a_time() -> None:
    now = [0.0]
    limiter = RateLimiter(20.0, clock=lambda: now[0])
    for i in range(20_000):
        assert limiter.allow(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter.buckets) == 20_000
    now[0] = 100.0  # every bucket is full again
    limiter.allow("fresh")
    # one call looked at a few of the oldest, not the whole table
    assert 20_001 - limiter.sweep <= len(limiter.buckets) < 20_001
    for _ in range(20_000 // limiter.sweep + 1):
        limiter.allow("fresh")
    assert list(limiter.buckets) == ["fresh"]
    # a client that is still limited is remembered
    now[0] = 200.0
    for _ in range(40):
        limiter.allow("busy")
    assert not limiter.allow("busy") and "busy" in limiter.buckets


def test_openapi_still_lists_every_route(client: TestClient) -> None:
    paths = json.loads(client.get("/openapi.json").text)["paths"]
    assert "/api/games/{game_id}/hint" in paths
