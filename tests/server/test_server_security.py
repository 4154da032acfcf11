"""Hidden information, concurrent actions, bad input and limits."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_support import (
    GAMES,
    ServerProcess,
    bearer,
    busy_pick,
    client,
    db_url,
    make_settings,
    new_table,
    pg_url,
    pick,
)
from starlette.websockets import WebSocketDisconnect

import glade
from glade.server import create_app

__all__ = ["client", "db_url", "pg_url"]


# ---------------------------------------------------------------------- hidden information
def _lists(data: Any) -> list[list[Any]]:
    """Every JSON list inside ``data``."""
    found: list[list[Any]] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            found.append(item)
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


def _strings(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            found.update(k for k in item if isinstance(k, str))
    return found


class Secrets:
    """What a seat may not see in one full game state."""

    def __init__(self, state: glade.Game, seat: int | None) -> None:
        full = state.to_json()
        self.seed = str(state.seed)
        self.orders: list[tuple[list[str], int]] = []  # (hidden order, shortest telling prefix)
        self.names: set[str] = set()
        if state.game_name == "harmonies":
            from glade.harmonies.data import CARDS, COLORS

            self.orders.append(([COLORS[c] for c in full["pouch"]], 6))
            self.orders.append(([CARDS[c].id for c in full["deck"]], 3))
            for t, board in enumerate(full["boards"]):
                if t != seat:
                    self.names.update(CARDS[c].id for c in board["offer"])
        else:
            from glade.living_forest.game import CARDS as LF_CARDS

            names = LF_CARDS.names
            for key in ("decks", "stacks"):
                for pile in full.get(key, []):
                    order = [names[c] for c in pile]
                    self.orders.append((order, 6))
                    self.orders.append((order[::-1], 6))

    def check(self, answer: Any, where: str) -> None:
        text = json.dumps(answer)
        assert self.seed not in text, f"{where}: the seed leaked"
        for lst in _lists(answer):
            if not lst or not all(isinstance(x, str) for x in lst) or lst == sorted(lst):
                continue
            for order, shortest in self.orders:
                if len(lst) >= shortest and lst == order[: len(lst)]:
                    raise AssertionError(f"{where}: a hidden order leaked: {lst}")
        leaked = self.names & _strings(answer)
        assert not leaked, f"{where}: face-down cards of another seat leaked: {leaked}"


def _state_at(snapshots: dict[int, dict[str, Any]], version: int) -> glade.Game:
    return glade.load_game(snapshots[version])


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [("harmonies", {"spirits": True}, 2), ("harmonies", {"spirits": True, "side": "B"}, 3)]
    + [(g, {}, 2) for g in GAMES if g != "harmonies"],
)
def test_no_answer_push_or_log_ever_holds_hidden_information(
    tmp_path: Path, game: str, options: dict[str, Any], players: int
) -> None:
    rng = random.Random(2024)
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'h.db'}"))) as c:
        game_id, tokens = new_table(c, game, humans=players, options=options)
        table = c.app.state.services.tables.tables[game_id]  # type: ignore[attr-defined]
        snapshots = {0: table.state.to_json()}
        sockets = [c.websocket_connect(f"/api/games/{game_id}/ws?token={t}") for t in tokens] + [
            c.websocket_connect(f"/api/games/{game_id}/ws")
        ]
        seats: list[int | None] = [*range(players), None]
        for ws in sockets:
            ws.__enter__()
        try:
            checked = 0
            # Living Forest's random games run to thousands of moves: a long stretch is enough
            budget = 150 if game == "living-forest" else 10_000
            while not table.state.is_over and table.version < budget:
                version = table.version
                for seat, token in zip(seats, [*tokens, None], strict=True):
                    answer = c.get(f"/api/games/{game_id}", headers=bearer(token)).json()
                    assert answer["view"] == table.state.view(seat)
                    Secrets(table.state, seat).check(answer, f"GET seat {seat} v{version}")
                    checked += 1
                seat = rng.choice(list(table.state.to_act))
                mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
                undo = {"type": "undo"} in mine["legal_actions"] and rng.random() < 0.2
                action = {"type": "undo"} if undo else busy_pick(mine["legal_actions"], rng)
                r = c.post(
                    f"/api/games/{game_id}/actions",
                    json={"action": action, "version": version},
                    headers=bearer(tokens[seat]),
                )
                assert r.status_code == 200, r.text
                snapshots[table.version] = table.state.to_json()
                Secrets(table.state, seat).check(r.json(), f"POST seat {seat} v{table.version}")
                if table.version % 10 == 0 or table.state.is_over:
                    log = c.get(f"/api/games/{game_id}/log").json()
                    if table.state.is_over:  # the seed is revealed once the game is over
                        assert log["seed"] == table.seed
                        log["seed"] = None
                    else:
                        assert log["seed"] is None
                    Secrets(table.state, None).check(log, f"log v{table.version}")
                    Secrets(_state_at(snapshots, 0), None).check(
                        log["initial_view"], "initial view"
                    )
            final = table.version
            # every push each socket received was that seat's own, clean view of its version
            for ws, seat in zip(sockets, seats, strict=True):
                version = -1
                while version != final:
                    push = ws.receive_json()
                    version = push["version"]
                    state = _state_at(snapshots, version)
                    assert push["view"] == state.view(seat)
                    Secrets(state, seat).check(push, f"push seat {seat} v{version}")
                    checked += 1
            assert checked > 100
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)


# ---------------------------------------------------------------------- concurrency
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_simultaneous_actions_on_one_version_exactly_one_wins(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = (
        f"sqlite:///{tmp_path / 'c.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    server = ServerProcess(db)
    server.start()
    try:
        for game in GAMES:
            asyncio.run(_race(server.url, game))
    finally:
        server.stop()


async def _race(base: str, game: str) -> None:
    """Both requests carry the same version: one seat twice, or two seats of a simultaneous
    phase (Living Forest's draw). Exactly one may win."""
    rng = random.Random(9)
    async with httpx.AsyncClient(base_url=base, timeout=10) as c:
        r = await c.post(
            "/api/games",
            json={"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        game_id = r.json()["id"]
        tokens = [s["token"] for s in r.json()["seats"]]
        pairs = 0
        for _ in range(15):
            state = (await c.get(f"/api/games/{game_id}", headers=bearer(tokens[0]))).json()
            if state["over"]:
                break
            seats = state["to_act"][:2] if len(state["to_act"]) > 1 else state["to_act"] * 2
            pairs += seats[0] != seats[1]
            mine = [
                (await c.get(f"/api/games/{game_id}", headers=bearer(tokens[s]))).json()
                for s in seats
            ]
            assert mine[0]["version"] == mine[1]["version"]
            answers = await asyncio.gather(
                *(
                    c.post(
                        f"/api/games/{game_id}/actions",
                        json={"action": pick(m, rng), "version": m["version"]},
                        headers=bearer(tokens[s]),
                    )
                    for s, m in zip(seats, mine, strict=True)
                )
            )
            codes = sorted(x.status_code for x in answers)
            assert codes == [200, 409], [x.text for x in answers]
            log = (await c.get(f"/api/games/{game_id}/log")).json()
            assert log["version"] == mine[0]["version"] + 1
            winner = next(x for x in answers if x.status_code == 200).json()
            assert winner["version"] == log["version"]
        if game == "living-forest":
            assert pairs > 0, "no round raced two different seats"


# ---------------------------------------------------------------------- bad input
BAD_BODIES: list[tuple[bytes, int, str]] = [
    (b"{bad", 400, "not valid JSON"),
    (b"", 422, "needs a body"),
    (b"[]", 422, "JSON object"),
    (b'{"action": {"type": "take_tokens", "space": 0}}', 422, "'version'"),
    (
        b'{"action": {"type": "take_tokens", "space": 0}, "version": 0, "x": 1}',
        422,
        "Unknown field 'x'",
    ),
    (b'{"action": {"type": "take_tokens", "space": 0}, "version": "0"}', 422, "'version'"),
    (b'{"action": {"type": "take_tokens", "space": 0}, "version": 1e400}', 422, "'version'"),
    (
        b'{"action": {"type": "take_tokens", "space": 0}, "version": 12345678901234567890123}',
        422,
        "'version'",
    ),
    (b'{"action": {"type": "take_tokens", "space": 0}, "version": -1}', 422, "'version'"),
    (
        b'{"action": {"type": "take_tokens", "space": 99999999999999999999999}, "version": 0}',
        422,
        "space",
    ),
    (
        b'{"action": {"type": "take_tokens", "space": ' + b"9" * 5000 + b'}, "version": 0}',
        400,
        "JSON",
    ),
    (b'{"action": {"type": "take_tokens", "space": NaN}, "version": 0}', 422, "space"),
    (b'{"action": {"type": "take_tokens", "space": true}, "version": 0}', 422, "whole number"),
    (b'{"action": {"type": "take_tokens", "space": [1, [2]]}, "version": 0}', 422, "plain values"),
    (b'{"action": {"type": 7}, "version": 0}', 422, "type"),
    (b'{"action": {"type": "fly_away"}, "version": 0}', 422, ""),
    (b'{"action": "take", "version": 0}', 422, "'action'"),
    (b"[" * 3000 + b"]" * 3000, 400, "JSON"),
    (
        b'{"action": {"type": "place_token", "color": "\\ud800", "cell": "1,2"}, "version": 0}',
        422,
        "colour",
    ),
]


def test_bad_input_gets_a_clear_4xx_and_changes_nothing(client: TestClient) -> None:
    game_id, tokens = new_table(client, "harmonies")
    h = {**bearer(tokens[0]), "content-type": "application/json"}
    before = client.get(f"/api/games/{game_id}", headers=h).json()
    for body, status, words in BAD_BODIES:
        r = client.post(f"/api/games/{game_id}/actions", content=body, headers=h)
        assert r.status_code == status, (body[:80], r.text)
        error = r.json()["error"]
        assert isinstance(error, str) and words in error, (body[:80], error)
    huge = client.post(f"/api/games/{game_id}/actions", content=b"x" * 100_000, headers=h)
    assert huge.status_code == 413 and "bytes" in huge.json()["error"]
    assert client.get(f"/api/games/{game_id}", headers=h).json() == before
    assert client.get(f"/api/games/{game_id}/log").json()["history"] == []
    long_id = client.get("/api/games/" + "x" * 5000)
    assert long_id.status_code == 404
    basic = client.get(f"/api/games/{game_id}", headers={"Authorization": "Basic abc"})
    assert basic.status_code == 403 and "Bearer" in basic.json()["error"]
    assert client.put("/api/games").status_code == 405
    big_name = client.post(
        "/api/games", json={"game": "harmonies", "seats": [{"kind": "human", "name": "n" * 500}]}
    )
    assert big_name.status_code == 422 and "name" in big_name.json()["error"]
    many = client.post("/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}] * 9})
    assert many.status_code == 422 and "seats" in many.json()["error"]


def test_a_token_of_another_game_opens_nothing(client: TestClient) -> None:
    one, tokens_one = new_table(client, "harmonies")
    two, _ = new_table(client, "harmonies")
    state = client.get(f"/api/games/{one}", headers=bearer(tokens_one[0])).json()
    r = client.post(
        f"/api/games/{two}/actions",
        json={"action": state["legal_actions"][0], "version": 0},
        headers=bearer(tokens_one[0]),
    )
    assert r.status_code == 403
    assert client.get(f"/api/games/{two}").json()["version"] == 0


# ---------------------------------------------------------------------- limits
def test_games_per_client_are_limited(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'l.db'}", max_games_per_client=2)
    with TestClient(create_app(settings)) as c:
        new_table(c, "harmonies")
        new_table(c, "harmonies")
        r = c.post("/api/games", json={"game": "harmonies", "seats": [{"kind": "human"}]})
        assert r.status_code == 429 and "2 unfinished games" in r.json()["error"]


def test_requests_and_websocket_messages_per_second_are_limited(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'r.db'}", messages_per_second=3.0)
    with TestClient(create_app(settings)) as c:
        game_id, _ = new_table(c, "harmonies")
        codes = [c.get(f"/api/games/{game_id}").status_code for _ in range(12)]
        assert 429 in codes and codes[0] == 200
        refused = c.get(f"/api/games/{game_id}")
        assert refused.status_code == 429 and "slow down" in refused.json()["error"]
    settings = make_settings(f"sqlite:///{tmp_path / 'w.db'}", messages_per_second=3.0)
    with TestClient(create_app(settings)) as c:
        game_id, _ = new_table(c, "harmonies")
        with c.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(20):
                    ws.send_json({"type": "ping"})
                    ws.receive_json()
            assert closed.value.code == 1008
