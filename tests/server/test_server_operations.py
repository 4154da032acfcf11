"""Running glade serve: the address it prints, its access log, health, SIGTERM, the proxy file."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from server_support import ROOT, bearer, make_settings, new_table, pick

from glade.server import create_app
from glade.server.cli import main
from glade.server.storage import Storage
from tests.live_server import free_port

CLF = re.compile(
    r'^127\.0\.0\.1 - - \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] "(\w+) (\S+) HTTP/1\.1" '
    r"(\d{3}) (\d+|-)$"
)


def _serve(db: str, *extra: str) -> tuple[subprocess.Popen[str], int, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "glade.server", "--port", str(port), "--db", db, *extra],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    return proc, port, first


def _end(proc: subprocess.Popen[str]) -> tuple[str, str]:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=40)
    return out, err


def test_serve_says_where_to_go_and_logs_each_request_in_common_log_format(
    tmp_path: Path,
) -> None:
    proc, port, first = _serve(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        assert first == f"glade: serving on http://127.0.0.1:{port}/\n"
        base = f"http://127.0.0.1:{port}"
        game = httpx.post(
            f"{base}/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}]}
        ).json()
        token = game["seats"][0]["token"]
        httpx.get(f"{base}/api/games/nosuch")

        async def socket() -> None:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/api/games/{game['id']}/ws?token={token}"
            ) as ws:
                await ws.recv()

        asyncio.run(socket())
    finally:
        out, _err = _end(proc)
    lines = out.splitlines()
    assert token not in out
    found = [CLF.match(line) for line in lines]
    assert all(found), lines
    seen = [(m.group(1), m.group(2), m.group(3)) for m in found if m]
    assert ("POST", "/api/games", "201") in seen
    assert ("GET", "/api/games/nosuch", "404") in seen
    assert ("WS", f"/api/games/{game['id']}/ws?token=-", "101") in seen


def test_the_access_log_takes_a_format_of_its_own_or_none(tmp_path: Path) -> None:
    proc, port, _ = _serve(
        f"sqlite:///{tmp_path / 'b.db'}", "--access-log", "{status} {method} {path} {ms}"
    )
    try:
        httpx.get(f"http://127.0.0.1:{port}/api/lobby")
    finally:
        out, _ = _end(proc)
    assert re.search(r"^200 GET /api/lobby [\d.]+$", out, re.M), out
    proc, port, _ = _serve(f"sqlite:///{tmp_path / 'b.db'}", "--access-log", "off")
    try:
        httpx.get(f"http://127.0.0.1:{port}/api/lobby")
    finally:
        out, _ = _end(proc)
    assert out == ""


def test_a_bad_access_log_format_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--db", f"sqlite:///{tmp_path}/c.db", "--access-log", "{client} {password}"])
    err = capsys.readouterr().err
    assert code == 2 and "password" in err and err.count("\n") == 1


def test_health_says_ok_and_503_when_the_database_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'h.db'}"))) as c:
        r = c.get("/api/health")
        assert r.status_code == 200 and r.json()["status"] == "ok"
        assert r.json()["database"] == "sqlite"
        storage = c.app.state.services.tables.storage  # type: ignore[attr-defined]

        def down() -> Future[None]:
            fut: Future[None] = Future()
            fut.set_exception(OSError("connection refused"))
            return fut

        monkeypatch.setattr(storage, "ping", down)
        r = c.get("/api/health")
        assert r.status_code == 503 and "database" in r.json()["error"]
        c.app.state.services.draining = True  # type: ignore[attr-defined]
        monkeypatch.undo()
        assert c.get("/api/health").status_code == 503


def test_sigterm_tells_sockets_to_reconnect_and_keeps_every_acknowledged_action(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    proc, port, _ = _serve(db, "--access-log", "off")
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=10) as h:
        game_id, tokens = new_table(h, "harmonies", humans=1)
        import random

        rng = random.Random(2)
        acknowledged = 0
        for _ in range(5):
            mine = h.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
            r = h.post(
                f"/api/games/{game_id}/actions",
                json={"action": pick(mine, rng), "version": mine["version"]},
                headers=bearer(tokens[0]),
            )
            assert r.status_code == 200
            acknowledged = r.json()["version"]

    async def watch() -> int | None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws") as ws:
            await ws.recv()
            proc.send_signal(signal.SIGTERM)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 30)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

    code = asyncio.run(watch())
    assert code == 1012  # "service restart": the page reconnects (to another process)
    # uvicorn ends by re-raising the SIGTERM it caught, once everything is closed
    assert proc.wait(40) in (0, -signal.SIGTERM)
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    storage = Storage(db)
    try:
        stored = storage.tables.load(game_id).result(10)
        assert stored is not None and stored.version == acknowledged
    finally:
        storage.close()


def test_the_caddy_file_of_the_deployment_is_valid() -> None:
    assert shutil.which("caddy"), "caddy is missing: `make browser` installs it"
    r = subprocess.run(
        [
            "caddy",
            "validate",
            "--adapter",
            "caddyfile",
            "--config",
            str(ROOT / "deploy" / "Caddyfile"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and "Valid configuration" in r.stdout + r.stderr, r.stderr
