"""Actions sent on the seat's WebSocket (the browser's path): answered as ``POST …/actions``
answers them, refused alike with nothing changed, and a hostile client on that path neither
crashes the server nor changes a table."""

from __future__ import annotations

import json
import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import (
    GAMES,
    LiveClient,
    ServerProcess,
    any_client,
    bearer,
    client,
    db_url,
    live_client,
    make_settings,
    new_table,
    pg_url,
    until_one_seat_acts,
)
from starlette.websockets import WebSocketDisconnect

from glade.server import create_app

__all__ = ["any_client", "client", "db_url", "live_client", "pg_url"]  # fixtures used by name


def _answer(ws: Any) -> dict[str, Any]:
    """The next message that is not a state push (pushes of the table are skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") != "state":
            return message


def _same_table(c: Any, game_id: str, token: str | None, before: dict[str, Any]) -> None:
    assert c.get(f"/api/games/{game_id}", headers=bearer(token)).json() == before
    assert len(c.get(f"/api/games/{game_id}/log").json()["history"]) == before["version"]


def _closed_by(c: Any, url: str, token: str, message: dict[str, Any], times: int = 1) -> int:
    """The close code of a socket of ``token`` that sends ``message`` ``times`` times, reading an
    answer after each (the socket must close before the last)."""
    with c.websocket_connect(f"{url}/ws?token={token}") as ws:
        ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(times):
                ws.send_text(json.dumps(message))
                ws.receive_json()
        return int(closed.value.code)


@pytest.mark.parametrize("game", GAMES)
def test_socket_actions_answer_as_post_does(any_client: Any, game: str) -> None:
    """The same refusals (status, sentence, code, params) as POST; an accepted action is pushed
    to every socket, and the push to the socket it came on is its answer (``"acted": ref``).
    In process and on a live server (whose protocol hands messages over as they arrive)."""
    client = any_client
    answers: dict[str, list[tuple[int, Any]]] = {"post": [], "ws": []}
    for how in ("post", "ws"):
        game_id, tokens = new_table(client, game)
        seat = until_one_seat_acts(client, game_id, tokens, random.Random(1))
        url = f"/api/games/{game_id}"
        mine = client.get(url, headers=bearer(tokens[seat])).json()
        v = mine["version"]
        action = [a for a in mine["legal_actions"] if a["type"] != "undo"][0]
        cases: list[tuple[dict[str, Any], str | None]] = [
            ({"action": action, "version": v + 5}, tokens[seat]),  # stale: 409
            ({"action": action, "version": v}, tokens[1 - seat]),  # not its turn: 403
            ({"action": action, "version": v}, None),  # a spectator: 403
            ({"action": {"type": action["type"], "bogus": 1}, "version": v}, tokens[seat]),
            ({"action": {"type": "no such move"}, "version": v}, tokens[seat]),
        ]
        got = answers[how]
        if how == "post":
            for body, token in cases:
                r = client.post(url + "/actions", json=body, headers=bearer(token))
                got.append((r.status_code, r.json()))
            continue
        q = {t: f"?token={t}" if t else "" for t in tokens + [None]}
        with (
            client.websocket_connect(f"{url}/ws{q[tokens[seat]]}") as me,
            client.websocket_connect(f"{url}/ws{q[tokens[1 - seat]]}") as other,
            client.websocket_connect(f"{url}/ws") as watcher,
        ):
            sockets = {tokens[seat]: me, tokens[1 - seat]: other, None: watcher}
            for ws in sockets.values():
                assert ws.receive_json()["version"] == v
            for ref, (body, token) in enumerate(cases):
                sockets[token].send_text(json.dumps({"type": "action", "ref": ref, **body}))
                answer = _answer(sockets[token])
                assert answer.pop("type") == "refused" and answer.pop("ref") == ref, answer
                got.append((answer.pop("status"), answer))
            _same_table(client, game_id, tokens[seat], mine)
            me.send_text(json.dumps({"type": "action", "ref": 77, "action": action, "version": v}))
            push = me.receive_json()  # the answer: the push of the new state, with its ref
            assert push["type"] == "state" and push["version"] == v + 1
            assert next(iter(push)) == "acted" and push.pop("acted") == 77
            now = client.get(url, headers=bearer(tokens[seat])).json()
            assert {k: push[k] for k in now} == now
            for ws in (other, watcher):
                theirs = ws.receive_json()
                assert theirs["version"] == v + 1 and "acted" not in theirs
                assert theirs["log"] == push["log"]
            # the same action again: the version moved on
            me.send_text(json.dumps({"type": "action", "action": action, "version": v}))
            stale = me.receive_json()
            assert stale["type"] == "refused" and stale["ref"] is None and stale["status"] == 409
            assert stale["code"] == "server.table.stale" and stale["params"] == {"version": v + 1}
    assert [s for s, _ in answers["ws"]] == [409, 403, 403, 422, 422]
    assert answers["ws"] == answers["post"]


def test_a_hostile_client_on_the_socket_changes_nothing(any_client: Any) -> None:
    client = any_client
    game_id, tokens = new_table(client, "harmonies")
    url = f"/api/games/{game_id}"
    mine = client.get(url, headers=bearer(tokens[0])).json()
    v = mine["version"]
    action = mine["legal_actions"][0]
    shape = "An action sent on the WebSocket is"
    with client.websocket_connect(f"{url}/ws?token={tokens[0]}") as ws:
        assert ws.receive_json()["version"] == v
        not_action = [
            "not json",
            "",
            "[]",
            '"text"',
            "1e999999",
            "[" * 5000 + "]" * 5000,  # past any nesting limit
            '{"type": "dance"}',
            '{"type": ["action"]}',
        ]
        for text in not_action:
            ws.send_text(text)
            answer = ws.receive_json()
            assert set(answer) == {"error"} and "ping" in answer["error"], (text, answer)
        bad: list[Any] = [
            {"type": "action"},
            {"type": "action", "action": action},
            {"type": "action", "version": v},
            {"type": "action", "action": action, "version": str(v)},
            {"type": "action", "action": action, "version": True},
            {"type": "action", "action": action, "version": -1},
            {"type": "action", "action": action, "version": 10**30},
            {"type": "action", "action": action, "version": float(v)},
            {"type": "action", "action": [action], "version": v},
            {"type": "action", "action": {f"k{i}": i for i in range(9)}, "version": v},
            {"type": "action", "action": action, "version": v, "extra": 1},
            {"type": "action", "action": action, "version": v, "ref": "x"},
            {"type": "action", "action": action, "version": v, "ref": 2.5},
            {"type": "action", "action": action, "version": v, "ref": -1},
            {"type": "action", "action": action, "version": v, "ref": 2**60},
            {"type": "action", "action": action, "version": v, "ref": True},
        ]
        for message in bad:
            ws.send_text(json.dumps(message))
            answer = ws.receive_json()
            assert answer["type"] == "refused" and answer["status"] == 422, (message, answer)
            assert answer["ref"] is None and answer["error"].startswith(shape)
        # a good shape with a move the engine does not know: the engine's refusal
        ws.send_text(
            json.dumps({"type": "action", "ref": 5, "action": {"type": "x"}, "version": v})
        )
        answer = ws.receive_json()
        assert answer["type"] == "refused" and answer["ref"] == 5 and answer["status"] == 422
        assert answer["code"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # the socket still serves
    _same_table(client, game_id, tokens[0], mine)
    # a seat acting on the other's socket: the socket's token decides, not the message
    with client.websocket_connect(f"{url}/ws?token={tokens[1]}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "action", "ref": 1, "action": action, "version": v}))
        answer = ws.receive_json()
        assert answer["status"] == 403 and answer["code"] == "server.seat.not_turn"
    _same_table(client, game_id, tokens[0], mine)


def test_oversized_and_flooding_socket_clients_are_closed_and_change_nothing(
    tmp_path: Path,
) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'g.db'}", max_body_bytes=4096)
    with TestClient(create_app(settings)) as c:
        game_id, tokens = new_table(c, "harmonies")
        url = f"/api/games/{game_id}"
        mine = c.get(url, headers=bearer(tokens[0])).json()
        action = mine["legal_actions"][0]
        big = {"type": "action", "action": action, "version": 0, "ref": 1, "pad": "x" * 5000}
        for size in (5000, 70_000):  # over the body limit; over the frame limit
            big["pad"] = "x" * size
            assert _closed_by(c, url, tokens[0], big) in (1008, 1009)
        _same_table(c, game_id, tokens[0], mine)
    settings = make_settings(f"sqlite:///{tmp_path / 'h.db'}", messages_per_second=5)
    with TestClient(create_app(settings)) as c:
        game_id, tokens = new_table(c, "harmonies")
        url = f"/api/games/{game_id}"
        mine = c.get(url, headers=bearer(tokens[1])).json()
        action = mine["legal_actions"][0] if mine["legal_actions"] else {"type": "x"}
        stale = {"type": "action", "action": action, "version": 99}
        assert _closed_by(c, url, tokens[1], stale, times=200) == 1008
        table = c.app.state.services.tables.tables[game_id]  # type: ignore[attr-defined]
        assert table.version == mine["version"] == 0 and table.state.log == []


def test_an_engine_bug_on_a_socket_action_is_a_logged_refusal_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'b.db'}"))) as c:
        game_id, tokens = new_table(c, "harmonies")
        table = c.app.state.services.tables.tables[game_id]  # type: ignore[attr-defined]
        url = f"/api/games/{game_id}"
        mine = c.get(url, headers=bearer(tokens[0])).json()

        def broken(self: Any, seat: int, action: Any) -> None:
            raise ZeroDivisionError("a bug deep in the engine")

        with c.websocket_connect(f"{url}/ws?token={tokens[0]}") as ws:
            ws.receive_json()
            monkeypatch.setattr(type(table.state), "apply", broken)
            body = {"type": "action", "ref": 3, "action": mine["legal_actions"][0], "version": 0}
            with caplog.at_level(logging.ERROR, logger="glade.server"):
                ws.send_text(json.dumps(body))
                answer = ws.receive_json()
            monkeypatch.undo()
            assert answer["type"] == "refused" and answer["status"] == 500
            assert answer["ref"] == 3 and "nothing changed" in answer["error"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        assert any(r.exc_info and r.exc_info[0] is ZeroDivisionError for r in caplog.records)
        _same_table(c, game_id, tokens[0], mine)


def test_oversized_and_flooding_clients_of_a_live_server_are_closed_and_change_nothing(
    tmp_path: Path,
) -> None:
    """The live protocol's path: a message over the body limit (16 KiB) or the frame limit
    (64 KiB), or past the per-address rate, closes the socket and changes nothing."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'f.db'}", "--messages-per-second", "5")
    server.start()
    try:
        with LiveClient(server) as c:
            game_id, tokens = new_table(c, "harmonies")
            url = f"/api/games/{game_id}"
            mine = c.get(url, headers=bearer(tokens[0])).json()
            action = mine["legal_actions"][0]
            for size in (20_000, 70_000):
                big = {"type": "action", "action": action, "version": 0, "pad": "x" * size}
                assert _closed_by(c, url, tokens[0], big) in (1008, 1009)
            time.sleep(3)  # the rate limit's bucket fills again
            stale = {"type": "action", "action": action, "version": 99}
            assert _closed_by(c, url, tokens[1], stale, times=200) == 1008
            time.sleep(3)
            _same_table(c, game_id, tokens[0], mine)
            assert mine["version"] == 0
    finally:
        server.stop()
