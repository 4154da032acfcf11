"""Issue 30, failure 7, and the static files of issue 31: HTTP as a live server speaks it.

A request refused before its body was read (413: too large) gets its answer and then the
connection is closed, gently: the client reads the whole answer, and what is left of the body is
never read as a next request (before, it was, and answered 431 on the same connection). On
SQLite and PostgreSQL, as every failure of issue 30.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_support import ServerProcess, cluster_db  # noqa: F401

# a body that reads as requests if the server ever parsed it as the next one
SMUGGLED = b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n\r\n" * 600


@pytest.fixture(params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    if request.param == "sqlite":
        db = f"sqlite:///{tmp_path / 'http.sqlite3'}"
    else:
        db = request.getfixturevalue("cluster_db")
    server = ServerProcess(db, "--access-log", "off")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def read_all(sock: socket.socket, seconds: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (bounded by ``seconds``)."""
    sock.settimeout(seconds)
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"the connection stayed open; read: {got[:300]!r}") from None
        if not chunk:
            return got
        got += chunk
    raise AssertionError("the connection stayed open")


@pytest.mark.parametrize("sent", ["part", "all"])
def test_a_413_closes_the_connection_and_the_rest_of_the_body_is_never_a_request(
    live: ServerProcess, sent: str
) -> None:
    body = b'{"game": "harmonies", "pad": "' + SMUGGLED + b'"}'
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as sock:
        sock.sendall(head)
        if sent == "all":  # the whole body at once, before any answer
            sock.sendall(body)
        else:  # part of it, then the rest after the answer has come
            sock.sendall(body[:1000])
            time.sleep(0.2)
            # the server may have stopped reading: fine, as long as it answered first
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(body[1000:])
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert answer.count(b"HTTP/1.1 ") == 1, answer  # one answer: no 431, no smuggled 200s
    assert b"connection: close" in answer.lower()
    head_end = answer.index(b"\r\n\r\n")
    sentence = json.loads(answer[head_end + 4 :])["error"]
    assert sentence.startswith("The request body is over") and "bytes" in sentence
    # the server goes on serving others
    assert httpx.get(f"{live.url}/api/lobby").status_code == 200


def test_a_request_after_a_small_body_still_shares_its_connection(live: ServerProcess) -> None:
    """Keep-alive is untouched for requests whose body was read: two on one connection."""
    with httpx.Client(base_url=live.url) as h:
        r = h.post("/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}]})
        assert r.status_code == 201 and r.headers.get("connection", "") != "close"
        assert h.get("/api/lobby").status_code == 200


def test_static_files_are_served_compressed_to_who_asks(live: ServerProcess) -> None:
    for path in ("/", "/i18n/glossary.json", "/js/main.js"):
        plain = httpx.get(f"{live.url}{path}", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and "content-encoding" not in plain.headers
        raw = httpx.get(f"{live.url}{path}", headers={"Accept-Encoding": "gzip"})
        assert raw.status_code == 200
        assert raw.headers["content-encoding"] == "gzip"
        assert "accept-encoding" in raw.headers["vary"].lower()
        # httpx decoded it: the same bytes, and fewer of them went over the wire
        assert raw.content == plain.content
        wire = len(gzip.compress(plain.content))
        assert int(raw.headers.get("content-length", wire)) < len(plain.content)
