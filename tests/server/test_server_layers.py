"""The server's layers: the engine alone judges actions, refusals carry their code, bugs are 500s."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import (
    GAMES,
    bearer,
    client,
    db_url,
    make_settings,
    new_table,
    pg_url,
    until_one_seat_acts,
)

import glade
from glade.server import create_app
from glade.server.errors import capitalised

__all__ = ["client", "db_url", "pg_url"]

SERVER = Path(__file__).resolve().parents[2] / "glade" / "server"


def _misspelt(action: dict[str, Any]) -> list[dict[str, Any]]:
    """The action with each field written the wrong way: true for 1, 1.0 for 1, "1", [x] …"""
    out = []
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, list):
            alts: list[Any] = [
                [float(x) if isinstance(x, int) else x for x in value],
                [bool(x) if x in (0, 1) else str(x) for x in value],
                value[:-1],
                [value],
            ]
        else:
            alts = [True, False, str(value), [value], None, {"v": value}]
            if isinstance(value, int) and not isinstance(value, bool):
                alts.append(float(value))
        for alt in alts:
            if alt != value or type(alt) is not type(value):
                out.append({**action, key: alt})
        out.append({k: v for k, v in action.items() if k != key})
    out.append({**action, "extra": 1})
    return out


@pytest.mark.parametrize("game", GAMES)
def test_actions_written_unlike_the_game_writes_them_are_refused_422_with_a_code(
    client: TestClient, game: str
) -> None:
    """The engine refuses these on its own (the server no longer compares against the offer)."""
    game_id, tokens = new_table(client, game)
    rng = random.Random(3)
    tried = 0
    for _ in range(200):
        if tried >= 30:
            break
        seat = until_one_seat_acts(client, game_id, tokens, rng)
        h = bearer(tokens[seat])
        mine = client.get(f"/api/games/{game_id}", headers=h).json()
        for action in mine["legal_actions"][:4]:
            for bad in _misspelt(action) if action["type"] != "undo" else []:
                if bad in mine["legal_actions"]:
                    continue
                r = client.post(
                    f"/api/games/{game_id}/actions",
                    json={"action": bad, "version": mine["version"]},
                    headers=h,
                )
                assert r.status_code == 422, (bad, r.text)
                body = r.json()
                assert isinstance(body["error"], str) and body["error"]
                assert isinstance(body["code"], str) and body["code"], (bad, body)
                assert isinstance(body["params"], dict)
                tried += 1
        assert client.get(f"/api/games/{game_id}", headers=h).json() == mine
        plain = [a for a in mine["legal_actions"] if a["type"] != "undo"]
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": rng.choice(plain), "version": mine["version"]},
            headers=h,
        )
        assert r.status_code == 200, r.text
    assert tried >= 30


def test_a_refusal_answers_the_engines_code_and_params(client: TestClient) -> None:
    game_id, tokens = new_table(client, "harmonies")
    state = client.app.state.services.tables.tables[game_id].state  # type: ignore[attr-defined]
    mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    bad = {"type": "take_tokens", "space": 99}
    with pytest.raises(glade.IllegalAction) as refused:
        state.copy().apply(0, bad)
    r = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": bad, "version": mine["version"]},
        headers=bearer(tokens[0]),
    )
    assert r.status_code == 422
    # the engine's refusal, its sentence starting with a capital as every server sentence does
    engine = refused.value.to_json()
    assert r.json() == {**engine, "error": capitalised(engine["error"])}


def test_an_engine_bug_is_a_logged_500_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(make_settings(f"sqlite:///{tmp_path / 'bug.db'}"))
    with TestClient(app, raise_server_exceptions=False) as c:
        game_id, tokens = new_table(c, "harmonies")
        table = c.app.state.services.tables.tables[game_id]  # type: ignore[attr-defined]
        mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()

        def broken(self: Any, seat: int, action: Any) -> None:
            raise ZeroDivisionError("a bug deep in the engine")

        monkeypatch.setattr(type(table.state), "apply", broken)
        with caplog.at_level(logging.ERROR, logger="glade.server"):
            r = c.post(
                f"/api/games/{game_id}/actions",
                json={"action": mine["legal_actions"][0], "version": mine["version"]},
                headers=bearer(tokens[0]),
            )
        assert r.status_code == 500 and "nothing changed" in r.json()["error"]
        logged = [rec for rec in caplog.records if rec.exc_info]
        assert logged and logged[0].exc_info is not None
        assert logged[0].exc_info[0] is ZeroDivisionError
        monkeypatch.undo()
        assert c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json() == mine
        assert c.get(f"/api/games/{game_id}/log").json()["history"] == []


def test_sql_lives_only_in_storage() -> None:
    sql = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b")
    checked = 0
    for path in SERVER.rglob("*.py"):
        if "storage" in path.relative_to(SERVER).parts:
            continue
        assert not sql.search(path.read_text("utf-8")), f"SQL in {path.name}"
        checked += 1
    assert checked > 20
    assert "_offered" not in (SERVER / "domain" / "tables.py").read_text("utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_an_action_answers_alike_through_the_fast_path_and_the_full_route(
    client: TestClient, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``POST …/actions`` with a plain JSON body skips FastAPI's routing and model
    (``guard.fast_action``); the same body sent as another JSON type takes the full route. Every
    answer, refusals and the move itself, is the same both ways."""
    import json

    from glade.server.api import guard

    fast: list[bool] = []
    real = guard.fast_action

    async def spy(*args: Any) -> bool:
        taken = await real(*args)
        fast.append(taken)
        return taken

    monkeypatch.setattr(guard, "fast_action", spy)

    def post(url: str, body: dict[str, Any], token: str | None, plain: bool) -> tuple[int, Any]:
        headers = bearer(token)
        if plain:
            r = client.post(url, json=body, headers=headers)
        else:  # a "+json" type: FastAPI reads it as JSON, through the route
            headers["Content-Type"] = "application/x-glade+json"
            r = client.post(url, content=json.dumps(body).encode(), headers=headers)
        return r.status_code, r.json()

    answers: dict[bool, list[tuple[int, Any]]] = {True: [], False: []}
    for plain in (True, False):
        game_id, tokens = new_table(client, game)
        url = f"/api/games/{game_id}/actions"
        seat = until_one_seat_acts(client, game_id, tokens, random.Random(1))
        mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        v = mine["version"]
        action = [a for a in mine["legal_actions"] if a["type"] != "undo"][0]
        fast.clear()
        got = answers[plain]
        for body, token in (
            ({"action": action, "version": v + 5}, tokens[seat]),  # stale: 409
            ({"action": action, "version": v}, tokens[1 - seat]),  # not its turn: 403
            ({"action": action, "version": v}, None),  # a spectator: 403
            ({"action": action, "version": v}, "not-a-token"),  # no seat: 403
            ({"action": {"type": action["type"], "bogus": 1}, "version": v}, tokens[seat]),
        ):
            got.append(post(url, body, token, plain))
        status, after = post(url, {"action": action, "version": v}, tokens[seat], plain)
        assert status == 200 and after["version"] == v + 1, (plain, got, after)
        assert after == client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        got.append((status, {k: after[k] for k in ("version", "seat", "to_act", "over")}))
        assert fast == [plain] * 6  # the plain form took the fast path, the other did not
    assert [s for s, _ in answers[True]] == [409, 403, 403, 403, 422, 200]
    assert answers[True][1:] == answers[False][1:]  # the same sentences and codes
    assert answers[True][0][0] == answers[False][0][0] == 409
