"""The server's own refusals carry codes (glade/server/refusals.py), so the clients say them in the
player's language: every ``ApiError`` the server builds names a code, and the answers a player
meets at a table (out of turn, a stale version, a spectator acting, chatting or asking for a hint,
an unknown game) carry the code, its params and the catalogue's sentence.

Runs on SQLite and, with GLADE_TEST_PG, on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from glade.server import create_app
from glade.server.refusals import SERVER
from tests.server.server_support import bearer, db_url, make_settings, new_table, pg_url, pick

__all__ = ["db_url", "pg_url"]

SERVER_DIR = Path(__file__).resolve().parents[2] / "glade" / "server"


def test_every_api_error_the_server_builds_names_a_code() -> None:
    """No ``ApiError(status, "sentence")`` without a code: such an answer reaches a Korean page
    in English (or as a generic sentence)."""
    uncoded = []
    built = []
    for path in sorted(SERVER_DIR.rglob("*.py")):
        if path.parent == SERVER_DIR and path.name in ("errors.py", "refusals.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id != "ApiError":
                continue
            built.append(path.relative_to(SERVER_DIR))
            coded = len(node.args) >= 3 or any(k.arg == "code" for k in node.keywords)
            if not coded:
                uncoded.append(f"{path.relative_to(SERVER_DIR)}:{node.lineno}")
    assert uncoded == []
    assert any(len(p.parts) > 1 for p in built), built  # the layers' folders are searched


def test_every_server_sentence_starts_with_a_capital_letter() -> None:
    """The catalogue's sentences and the page's English for them (issue 31); Korean and
    Chinese have no capitals. A sentence may start with a name written as the API writes it."""
    low = [code for code in SERVER if not SERVER[code][:1].isupper()]
    assert low == []
    words = json.loads((SERVER_DIR.parent / "web" / "i18n" / "en.json").read_text("utf-8"))
    page = {k: v for k, v in words.items() if k.startswith("refusal.server.")}
    assert len(page) >= len(SERVER)
    for key, text in page.items():
        forms = [v for k, v in text.items() if k != "$n"] if isinstance(text, dict) else [text]
        for form in forms:
            assert form[:1].isupper(), (key, form)


@pytest.fixture
def app(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(db_url))) as client:
        yield client


def refused(r: httpx.Response, status: int, code: str, **params: Any) -> None:
    """``r`` is the coded refusal: its status, code, params and the catalogue's sentence."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body == {"error": SERVER.text(code, params), "code": code, "params": params}, body


def test_the_refusals_a_player_meets_at_a_table_are_coded(app: TestClient) -> None:
    game_id, tokens = new_table(app, "harmonies", humans=2)
    base = f"/api/games/{game_id}"
    state = app.get(base, headers=bearer(tokens[0])).json()
    version = state["version"]
    action = pick(state, random.Random(1))
    # the seat not to act
    r = app.post(
        base + "/actions",
        json={"action": action, "version": version},
        headers=bearer(tokens[1]),
    )
    refused(r, 403, "server.seat.not_turn")
    # a spectator (no token) acting, chatting, asking for a hint
    r = app.post(base + "/actions", json={"action": action, "version": version})
    refused(r, 403, "server.seat.spectator")
    refused(app.post(base + "/chat", json={"text": "hello"}), 403, "server.chat.spectator")
    refused(app.get(base + "/hint"), 403, "server.hint.spectator")
    # a move sent against an old version, after the game moved on
    r = app.post(
        base + "/actions", json={"action": action, "version": version}, headers=bearer(tokens[0])
    )
    assert r.status_code == 200, r.text
    r = app.post(
        base + "/actions", json={"action": action, "version": version}, headers=bearer(tokens[0])
    )
    refused(r, 409, "server.table.stale", version=version + 1)
    after = app.get(base, headers=bearer(tokens[0])).json()
    assert after["version"] == version + 1  # the refusals changed nothing
    # a game that does not exist
    refused(app.get("/api/games/nosuchgame"), 404, "server.table.not_found")
