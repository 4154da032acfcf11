"""Every row of the contract's web API table, for each game, against SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import (
    GAMES,
    bearer,
    client,
    db_url,
    finish_in_process,
    make_settings,
    new_table,
    pg_url,
    pick,
    play_random,
    replay_history,
    replay_with_seed,
    until_one_seat_acts,
)

import glade
from glade.server import create_app
from glade.server.errors import capitalised

__all__ = ["client", "db_url", "pg_url"]  # fixtures used by name


def until_bots_rest(c: TestClient, game_id: str, bots: set[int], seconds: float = 20.0) -> None:
    """Wait until no bot seat has a move (the game is over or only humans are to move; a Living
    Forest bot that stopped drawing stays in to_act, only to undo)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        state = c.get(f"/api/games/{game_id}").json()
        game = engine_state(c, game_id)
        if state["over"] or not any(game.legal_action_ids(s) for s in set(state["to_act"]) & bots):
            return
        time.sleep(0.01)
    raise AssertionError("the bot seats never finished their moves")


def engine_state(c: TestClient, game_id: str) -> glade.Game:
    return c.app.state.services.tables.tables[game_id].state  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("game", GAMES)
def test_create_answers_tokens_and_links_for_human_seats_only(
    client: TestClient, game: str
) -> None:
    r = client.post(
        "/api/games",
        json={
            "game": game,
            "seats": [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "random"}],
        },
    )
    assert r.status_code == 201
    body = r.json()
    assert [s["seat"] for s in body["seats"]] == [0, 1]
    human, bot = body["seats"]
    assert len(human["token"]) >= 32 and human["url"].endswith(
        f"?game={body['id']}#token={human['token']}"
    )
    assert bot["token"] is None and bot["url"] is None
    state = client.get(f"/api/games/{body['id']}").json()
    assert state["game"] == game
    assert [s["kind"] for s in state["seats"]] == ["human", "bot"]
    assert state["seats"][0]["name"] == "ann"


@pytest.mark.parametrize(
    ("options", "humans"),
    [({}, 1), ({"side": "B"}, 2), ({"spirits": True}, 3), ({"side": "B", "spirits": True}, 4)],
)
def test_every_harmonies_option_is_hosted(
    client: TestClient, options: dict[str, Any], humans: int
) -> None:
    game_id, tokens = new_table(client, "harmonies", humans=humans, options=options)
    state = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    assert state["view"]["options"] == {"players": humans, "side": "A", "spirits": False, **options}
    assert state["to_act"] == list(engine_state(client, game_id).to_act)
    assert state["legal_actions"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.skipif("living-forest" not in GAMES, reason="Living Forest is not in this checkout")
def test_living_forest_is_hosted_for_two_to_four_players(client: TestClient, players: int) -> None:
    game_id, tokens = new_table(client, "living-forest", humans=players)
    for seat, token in enumerate(tokens):
        state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        assert state["view"] == engine_state(client, game_id).view(seat)
    assert len(state["seats"]) == players
    solo = client.post("/api/games", json={"game": "living-forest", "seats": [{"kind": "human"}]})
    assert solo.status_code == 422 and "2 to 4 players" in solo.json()["error"]
    side = client.post(
        "/api/games",
        json={"game": "living-forest", "options": {"side": "A"}, "seats": [{"kind": "human"}] * 2},
    )
    assert side.status_code == 422 and "side" in side.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [{"kind": "human"}]}, "game"),
        ({"game": "harmonies", "options": {"side": "C"}, "seats": [{"kind": "human"}]}, "side"),
        ({"game": "harmonies", "options": {"colour": 1}, "seats": [{"kind": "human"}]}, "colour"),
        (
            {"game": "harmonies", "options": {"players": 3}, "seats": [{"kind": "human"}]},
            "one seat per player (3), not 1",
        ),
        (
            {
                "game": "harmonies",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "deep-blue"}],
            },
            "deep-blue",
        ),
        ({"game": "harmonies", "seats": []}, "seats"),
        ({"game": "harmonies", "seats": [{"kind": "alien"}]}, "seats"),
    ],
)
def test_create_refuses_bad_games_options_and_bots_with_a_sentence(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 422
    assert words in r.json()["error"]
    assert client.get("/api/lobby").json()["games"] == [] or all(
        g["game"] == "harmonies" for g in client.get("/api/lobby").json()["games"]
    )


@pytest.mark.parametrize("game", GAMES)
def test_get_shows_each_seat_its_own_view_and_spectators_the_public_one(
    client: TestClient, game: str
) -> None:
    game_id, tokens = new_table(client, game)
    state = engine_state(client, game_id)
    for seat, token in enumerate(tokens):
        answer = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        assert answer["seat"] == seat
        assert answer["version"] == 0
        assert answer["view"] == state.view(seat)
        assert answer["legal_actions"] == [a.to_json() for a in state.legal_actions(seat)]
    spectator = client.get(f"/api/games/{game_id}").json()
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"] == state.view(None)
    assert client.get("/api/games/nosuchgame").status_code == 404
    wrong = client.get(f"/api/games/{game_id}", headers=bearer("not-a-token"))
    assert wrong.status_code == 403 and "token" in wrong.json()["error"]


@pytest.mark.parametrize("game", GAMES)
def test_post_action_answers_the_new_state_and_refuses_stale_foreign_and_illegal_moves(
    client: TestClient, game: str
) -> None:
    game_id, tokens = new_table(client, game)
    url = f"/api/games/{game_id}/actions"
    seat = until_one_seat_acts(client, game_id, tokens, random.Random(1))
    other = 1 - seat
    mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
    v = mine["version"]
    action = pick(mine, random.Random(1))

    # not your turn (the other seat's token) and spectators: 403, nothing changes
    r = client.post(url, json={"action": action, "version": v}, headers=bearer(tokens[other]))
    assert r.status_code == 403 and "turn" in r.json()["error"]
    r = client.post(url, json={"action": action, "version": v})
    assert r.status_code == 403 and "Spectators" in r.json()["error"]

    # an illegal action: 422 with the engine's own sentence
    bad = {"type": mine["legal_actions"][0]["type"], "bogus": 1}
    probe = engine_state(client, game_id).copy()
    with pytest.raises(glade.IllegalAction) as refused:
        probe.apply(seat, bad)
    r = client.post(url, json={"action": bad, "version": v}, headers=bearer(tokens[seat]))
    # (the server starts every sentence with a capital letter)
    assert r.status_code == 422 and r.json()["error"] == capitalised(str(refused.value))

    # the move itself
    r = client.post(url, json={"action": action, "version": v}, headers=bearer(tokens[seat]))
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == v + 1 and after["seat"] == seat
    assert after["view"] == engine_state(client, game_id).view(seat)

    # the same version again is stale: 409 and the state stays where it is
    r = client.post(url, json={"action": action, "version": v}, headers=bearer(tokens[seat]))
    assert r.status_code == 409 and f"version {v + 1}" in r.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["version"] == v + 1


@pytest.mark.parametrize("game", GAMES)
def test_log_replays_the_game_and_reveals_the_seed_only_at_the_end(
    client: TestClient, game: str
) -> None:
    game_id, tokens = new_table(client, game)
    rng = random.Random(7)
    start = client.get(f"/api/games/{game_id}").json()["view"]
    state = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    seat = state["to_act"][0]
    state = client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
    client.post(
        f"/api/games/{game_id}/actions",
        json={"action": pick(state, rng), "version": 0},
        headers=bearer(tokens[seat]),
    )
    running = client.get(f"/api/games/{game_id}/log").json()
    assert running["seed"] is None and running["over"] is False
    assert running["initial_view"] == start
    assert [h["version"] for h in running["history"]] == [1]
    play_random(client, game_id, tokens, rng, max_actions=20)
    finish_in_process(client, game_id, rng)
    log = client.get(f"/api/games/{game_id}/log").json()
    assert log["over"] is True and isinstance(log["seed"], int)
    assert [h["version"] for h in log["history"]] == list(range(1, log["version"] + 1))
    replayed = replay_history(log)
    assert replayed.fingerprint() == engine_state(client, game_id).fingerprint()
    assert replayed.result() == log["result"]
    assert replayed.log_json(None) == log["moves"]
    # a finished game stays readable, also for its players
    final = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    assert final["over"] is True and final["to_act"] == [] and final["result"] == log["result"]


@pytest.mark.parametrize("game", GAMES)
def test_websocket_pushes_each_connection_its_own_view_after_every_change(
    client: TestClient, game: str
) -> None:
    game_id, tokens = new_table(client, game)
    first = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
    seat = first["to_act"][0]
    other = 1 - seat
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[other]}") as ws_other,
        client.websocket_connect(f"/api/games/{game_id}/ws") as ws_watch,
    ):
        hello = ws_other.receive_json()
        assert hello["version"] == 0 and hello["seat"] == other
        assert ws_watch.receive_json()["seat"] is None
        mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(mine, random.Random(3)), "version": 0},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 200
        state = engine_state(client, game_id)
        push = ws_other.receive_json()
        assert push["version"] == 1 and push["view"] == state.view(other)
        assert push["to_act"] == list(state.to_act)
        assert push["legal_actions"] == [a.to_json() for a in state.legal_actions(other)]
        watch = ws_watch.receive_json()
        assert watch["version"] == 1 and watch["view"] == state.view(None)
        ws_other.send_json({"type": "ping"})
        assert ws_other.receive_json() == {"type": "pong"}
    # a client that reconnects gets the current state at once
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[seat]}") as again:
        now = again.receive_json()
        assert now["version"] == 1 and now["view"] == engine_state(client, game_id).view(seat)


def test_websocket_refuses_unknown_games_and_tokens(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    game_id, _ = new_table(client, "harmonies")
    for path, code in (
        (f"/api/games/{game_id}/ws?token=wrong", 4403),
        ("/api/games/nope/ws", 4404),
    ):
        with client.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == code


def test_undo_takes_back_the_last_action_of_the_turn_and_the_log_keeps_it(
    client: TestClient,
) -> None:
    game_id, tokens = new_table(client, "harmonies", humans=1)
    h = bearer(tokens[0])
    start = client.get(f"/api/games/{game_id}", headers=h).json()
    take = next(a for a in start["legal_actions"] if a["type"] == "take_tokens")
    after = client.post(
        f"/api/games/{game_id}/actions", json={"action": take, "version": 0}, headers=h
    ).json()
    assert {"type": "undo"} in after["legal_actions"]
    undone = client.post(
        f"/api/games/{game_id}/actions", json={"action": {"type": "undo"}, "version": 1}, headers=h
    )
    assert undone.status_code == 200
    back = undone.json()
    assert back["version"] == 2
    assert back["view"] == start["view"]
    assert {"type": "undo"} not in back["legal_actions"]
    nothing = client.post(
        f"/api/games/{game_id}/actions", json={"action": {"type": "undo"}, "version": 2}, headers=h
    )
    assert nothing.status_code == 422 and "undo" in nothing.json()["error"]
    log = client.get(f"/api/games/{game_id}/log").json()
    assert [h["action"] for h in log["history"]] == [take, {"type": "undo"}]
    assert log["moves"] == []


def test_lobby_lists_open_seats_and_join_claims_them(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={
            "game": "harmonies",
            "seats": [{"kind": "human", "name": "host"}, {"kind": "human"}, {"kind": "human"}],
        },
    )
    game_id = r.json()["id"]
    invite = r.json()["seats"][2]["token"]
    listed = {g["id"]: g for g in client.get("/api/lobby").json()["games"]}
    assert [s["open"] for s in listed[game_id]["seats"]] == [False, True, True]

    joined = client.post(f"/api/games/{game_id}/join", json={"name": "bea"}).json()
    assert joined["seat"] == 1 and joined["token"]
    seat_view = client.get(f"/api/games/{game_id}", headers=bearer(joined["token"])).json()
    assert seat_view["seat"] == 1 and seat_view["seats"][1]["name"] == "bea"

    # the invite token of seat 2 names its own seat and is spent for a fresh credential
    named = client.post(
        f"/api/games/{game_id}/join", json={"name": "cy"}, headers=bearer(invite)
    ).json()
    assert named["seat"] == 2 and named["token"] != invite
    assert client.get(f"/api/games/{game_id}", headers=bearer(named["token"])).json()["seat"] == 2
    spent = client.get(f"/api/games/{game_id}", headers=bearer(invite))
    assert spent.status_code == 403 and "already claimed" in spent.json()["error"]
    assert game_id not in {g["id"] for g in client.get("/api/lobby").json()["games"]}
    full = client.post(f"/api/games/{game_id}/join", json={"name": "dan"})
    assert full.status_code == 409 and "open seat" in full.json()["error"]


@pytest.mark.parametrize("game", GAMES)
def test_bot_seats_play_by_themselves(client: TestClient, game: str) -> None:
    game_id, tokens = new_table(client, game, humans=1, bots=("random",))
    play_random(client, game_id, [tokens[0], None], random.Random(5), max_actions=40)
    until_bots_rest(client, game_id, {1})  # a bot still moving would change the state under us
    log = client.get(f"/api/games/{game_id}/log").json()
    assert {h["seat"] for h in log["history"]} == {0, 1}
    table = client.app.state.services.tables.tables[game_id]  # type: ignore[attr-defined]
    replay = replay_with_seed(game, table.seed, log["options"], log["history"])
    assert replay.fingerprint() == engine_state(client, game_id).fingerprint()
    finish_in_process(client, game_id, random.Random(6))
    final = client.get(f"/api/games/{game_id}/log").json()
    assert final["over"] and replay_history(final).result() == final["result"]


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_bots_plays_to_the_end_alone(client: TestClient, game: str) -> None:
    game_id, _ = new_table(client, game, humans=0, bots=("random", "random"))
    deadline = time.monotonic() + 60
    while not client.get(f"/api/games/{game_id}").json()["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_openapi_describes_every_endpoint_with_schemas(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert set(paths) >= {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/log",
        "/api/games/{game_id}/join",
        "/api/lobby",
    }
    schemas = spec["components"]["schemas"]
    assert {
        "CreateGame",
        "Created",
        "GameState",
        "PostAction",
        "GameLog",
        "Lobby",
        "Join",
        "Joined",
        "Error",
    } <= set(schemas)
    post = paths["/api/games/{game_id}/actions"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "PostAction"
    )
    assert {"200", "403", "409", "422"} <= set(post["responses"])


def test_static_web_table_is_served_at_the_root_when_present(tmp_path: Any) -> None:
    from glade.server import app as app_module

    if not (app_module.WEB_DIR / "index.html").is_file():
        with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'a.db'}"))) as c:
            assert c.get("/").status_code == 404
            assert "error" in c.get("/").json()
        return
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'a.db'}"))) as c:
        r = c.get("/")
        assert r.status_code == 200 and "html" in r.headers["content-type"]
