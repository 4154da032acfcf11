"""Accounts (issue 14): sign up, log in, sessions, CSRF, refused log-ins, claimed invites, my games.

Every test runs on SQLite and, with GLADE_TEST_PG, on PostgreSQL (the ``client`` fixture).
"""

from __future__ import annotations

import json
import logging
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from glade.server import create_app
from glade.server.api import deps
from glade.server.features import accounts
from tests.server.server_support import (
    ServerProcess,
    bearer,
    db_url,
    drop_pg_database,
    fresh_pg_database,
    make_settings,
    pg_url,
    pick,
)

__all__ = ["db_url", "pg_url"]

PASSWORD = "correct horse battery"
CODED_NAME_REFUSALS = {
    "server.account.name_control",
    "server.account.name_length",
    "server.account.name_chars",
}


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2id still, at a cost a shared test machine affords (the server's default is 64 MiB)."""
    monkeypatch.setattr(
        accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    )
    # every test signs up from the same address (and PostgreSQL's database is shared by them)
    monkeypatch.setattr(accounts, "SIGNUPS_PER_ADDRESS", 10_000)


@pytest.fixture
def app(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(db_url))) as client:
        forget_all_failures(client)  # PostgreSQL's database is shared by the tests
        yield client


class Browser:
    """A separate browser: its own cookie jar, the same server (and the same event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = httpx.Cookies()

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        self.client.cookies = self.cookies
        try:
            return self.client.request(method, url, **kw)
        finally:
            self.cookies = self.client.cookies
            self.client.cookies = httpx.Cookies()

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)


def browser(app: TestClient) -> Browser:
    return Browser(app)


def signup(c: Browser, name: str, password: str = PASSWORD) -> str:
    r = c.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    csrf: str = r.json()["csrf"]
    return csrf


def login(c: Browser, name: str, password: str = PASSWORD) -> str:
    r = c.post("/api/account/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    csrf: str = r.json()["csrf"]
    return csrf


def new_game(c: Browser, humans: int = 2, names: bool = True) -> tuple[str, list[str]]:
    seats = [{"kind": "human", **({"name": f"p{i}"} if names else {})} for i in range(humans)]
    r = c.post("/api/games", json={"game": "harmonies", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def claim(
    c: Browser, game_id: str, token: str | None, csrf: str | None = None, **body: Any
) -> httpx.Response:
    headers = bearer(token)
    if csrf is not None:
        headers["X-CSRF-Token"] = csrf
    return c.post(f"/api/games/{game_id}/claim", json=body, headers=headers)


def test_sign_up_then_a_second_browser_logs_in_and_plays_the_same_games(app: TestClient) -> None:
    first = browser(app)
    csrf = signup(first, "Ann")
    assert first.get("/api/account").json()["user"]["name"] == "Ann"
    game_id, tokens = new_game(first)
    mine = claim(first, game_id, tokens[0], csrf)
    assert mine.status_code == 200 and mine.json()["seat"] == 0
    assert mine.json()["token"] != tokens[0]  # the invite was exchanged for a fresh credential

    second = browser(app)
    assert second.get("/api/account").json() == {"user": None, "csrf": None}
    assert second.get("/api/account/games").status_code == 401
    csrf2 = login(second, "ann")  # names are compared without case
    listed = second.get("/api/account/games").json()["games"]
    assert [(g["id"], g["mine"], g["your_turn"], g["over"]) for g in listed] == [
        (game_id, [0], True, False)
    ]
    keys = second.post(f"/api/account/games/{game_id}/keys", headers={"X-CSRF-Token": csrf2})
    assert keys.status_code == 200, keys.text
    key = keys.json()["tokens"]["0"]
    state = second.get(f"/api/games/{game_id}", headers=bearer(key)).json()
    assert state["seat"] == 0
    action = pick(state, random.Random(1))
    played = second.post(
        f"/api/games/{game_id}/actions",
        json={"action": action, "version": state["version"]},
        headers=bearer(key),
    )
    assert played.status_code == 200, played.text
    # the first browser sees the move, and its last-move time
    seen = first.get(f"/api/games/{game_id}", headers=bearer(mine.json()["token"])).json()
    assert seen["version"] == 1
    again = first.get("/api/account/games").json()["games"][0]
    assert again["version"] == 1 and again["last_move_at"] is not None


def test_wrong_password_and_unknown_user_change_nothing(app: TestClient) -> None:
    c = browser(app)
    signup(c, "Bea")
    c.post("/api/account/logout", headers={"X-CSRF-Token": c.get("/api/account").json()["csrf"]})
    other = browser(app)
    for name, password in (("Bea", "not the password"), ("Nobody", PASSWORD)):
        r = other.post("/api/account/login", json={"name": name, "password": password})
        assert r.status_code == 401
        assert r.json() == {
            "error": "The user name or the password is wrong",
            "code": "server.account.wrong",
            "params": {},
        }
        assert "set-cookie" not in r.headers
        assert other.get("/api/account").json()["user"] is None
    login(other, "BEA")


def test_duplicate_names_are_refused_whatever_their_case(app: TestClient) -> None:
    c = browser(app)
    signup(c, "Cleo", "first password")
    for name in ("cleo", "CLEO", "Ｃｌｅｏ"):  # the fullwidth form folds to the same name
        r = browser(app).post(
            "/api/account/signup", json={"name": name, "password": "second password"}
        )
        assert r.status_code == 409, name
        assert "is taken" in r.json()["error"]
        # the name as it would be stored: PRECIS maps the fullwidth letters to their usual form
        shown = "Cleo" if name == "Ｃｌｅｏ" else name
        assert (r.json()["code"], r.json()["params"]) == ("server.account.taken", {"user": shown})
    login(browser(app), "cleo", "first password")
    r = browser(app).post(
        "/api/account/login", json={"name": "cleo", "password": "second password"}
    )
    assert r.status_code == 401


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a\x00b", "control characters"),
        ("nul\x00", "control characters"),
        ("line\nbreak", "control characters"),
        ("del\x7fete", "control characters"),
        ("\ud800abc", "control characters"),  # a lone surrogate
        ("x" * 25, "3 to 24 characters"),
        ("x" * 10_000, "3 to 24 characters"),
        ("ab", "3 to 24 characters"),
        ("with space", "only letters"),
        ("<script>", "only letters"),
    ],
)
def test_bad_user_names_are_refused_with_422(app: TestClient, name: str, words: str) -> None:
    c = browser(app)
    raw = json.dumps({"name": name, "password": PASSWORD})  # \uXXXX escapes, lone ones too
    headers = {"Content-Type": "application/json"}
    r = c.post("/api/account/signup", content=raw, headers=headers)
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]
    # coded, so the page says it in its language (the length refusal names the bounds)
    assert r.json()["code"] in CODED_NAME_REFUSALS, r.json()
    if r.json()["code"] == "server.account.name_length":
        assert r.json()["params"] == {"min": 3, "max": 24}
    assert c.get("/api/account").json()["user"] is None
    # a log-in with such a name is a wrong name, never a crash
    raw = json.dumps({"name": name[:96], "password": PASSWORD})
    r = c.post("/api/account/login", content=raw, headers=headers)
    assert r.status_code in (401, 422)


def test_names_in_any_script_and_bad_passwords(app: TestClient) -> None:
    signup(browser(app), "숲지기")
    signup(browser(app), "森林_1.a")
    for password, words, code in (
        ("short", "8 to 200 characters", "server.account.password_length"),
        ("x" * 201, "8 to 200 characters", "server.account.password_length"),
        ("nul\x00in password", "control", "server.account.password_control"),
    ):
        r = browser(app).post("/api/account/signup", json={"name": "Dora", "password": password})
        assert r.status_code == 422 and words in r.json()["error"], r.text
        assert r.json()["code"] == code, r.text


def test_a_stolen_cookie_opens_nothing_after_logout(app: TestClient) -> None:
    c = browser(app)
    csrf = signup(c, "Eve")
    game_id, tokens = new_game(c)
    claim(c, game_id, tokens[0], csrf)
    stolen = c.cookies.get(deps.COOKIE)
    assert stolen
    out = c.post("/api/account/logout", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 200 and out.json() == {"user": None, "csrf": None}
    thief = browser(app)
    thief.cookies.set(deps.COOKIE, stolen)
    assert thief.get("/api/account").json()["user"] is None
    for method, path in (
        ("GET", "/api/account/games"),
        ("POST", f"/api/account/games/{game_id}/keys"),
        ("POST", "/api/account/logout"),
        ("POST", "/api/account/logout-everywhere"),
    ):
        r = thief.request(method, path, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 401, (path, r.text)
        assert "not logged in" in r.json()["error"]
    r = thief.post(
        "/api/account/password",
        json={"old": PASSWORD, "new": "a new password"},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 401
    login(browser(app), "Eve")  # the password did not change


def test_device_keys_die_with_their_session(app: TestClient) -> None:
    c = browser(app)
    csrf = signup(c, "Finn")
    game_id, tokens = new_game(c)
    claim(c, game_id, tokens[0], csrf)
    other = browser(app)
    csrf2 = login(other, "Finn")
    key = other.post(f"/api/account/games/{game_id}/keys", headers={"X-CSRF-Token": csrf2}).json()[
        "tokens"
    ]["0"]
    assert other.get(f"/api/games/{game_id}", headers=bearer(key)).json()["seat"] == 0
    everywhere = c.post("/api/account/logout-everywhere", headers={"X-CSRF-Token": csrf})
    assert everywhere.status_code == 200
    assert other.get("/api/account/games").status_code == 401
    r = other.get(f"/api/games/{game_id}", headers=bearer(key))
    assert r.status_code == 403 and "does not open any seat" in r.json()["error"]


def test_state_changing_requests_need_the_csrf_token(app: TestClient) -> None:
    c = browser(app)
    csrf = signup(c, "Gus")
    game_id, tokens = new_game(c, names=False)
    for headers in ({}, {"X-CSRF-Token": "not-the-token"}):
        r = c.post(f"/api/games/{game_id}/claim", json={}, headers={**bearer(tokens[0]), **headers})
        assert r.status_code == 403 and "X-CSRF-Token" in r.json()["error"]
        assert c.post("/api/account/logout", headers=headers).status_code == 403
        assert c.post("/api/account/logout-everywhere", headers=headers).status_code == 403
        r = c.post(
            "/api/account/password", json={"old": PASSWORD, "new": "another one"}, headers=headers
        )
        assert r.status_code == 403
        r = c.post(f"/api/account/games/{game_id}/keys", headers=headers)
        assert r.status_code == 403
    # nothing changed: still logged in, seat still open, old password still good
    assert c.get("/api/account").json()["user"]["name"] == "Gus"
    seats = c.get(f"/api/games/{game_id}").json()["seats"]
    assert [s["open"] for s in seats] == [True, True]
    assert c.get("/api/account/games").json()["games"] == []
    login(browser(app), "Gus")
    # with the token it works; a plain guest needs none (no cookie, nothing to forge)
    assert claim(c, game_id, tokens[0], csrf, name="Gus").status_code == 200
    assert claim(browser(app), game_id, tokens[1], name="Guest").status_code == 200


def test_a_claimed_invite_cannot_take_the_seat_in_another_browser(app: TestClient) -> None:
    host = browser(app)
    game_id, tokens = new_game(host, names=False)
    mine = claim(host, game_id, tokens[0], name="Host").json()["token"]
    friend = browser(app)
    got = claim(friend, game_id, tokens[1], name="Friend")
    assert got.status_code == 200 and got.json()["seat"] == 1
    friend_token = got.json()["token"]
    before = host.get(f"/api/games/{game_id}").json()

    third = browser(app)
    again = claim(third, game_id, tokens[1], name="Mallory")
    assert again.status_code == 409
    assert "already claimed" in again.json()["error"] and "watch" in again.json()["error"]
    seen = third.get(f"/api/games/{game_id}", headers=bearer(tokens[1]))
    assert seen.status_code == 403 and "already claimed" in seen.json()["error"]
    r = third.post(
        f"/api/games/{game_id}/actions",
        json={"action": {"type": "undo"}, "version": 0},
        headers=bearer(tokens[1]),
    )
    assert r.status_code == 403
    joined = third.post(
        f"/api/games/{game_id}/join", json={"name": "Mallory"}, headers=bearer(tokens[1])
    )
    assert joined.status_code == 409
    # the link now offers to watch: the spectator's view works
    assert third.get(f"/api/games/{game_id}").json()["seat"] is None
    after = host.get(f"/api/games/{game_id}").json()
    assert after == before  # nothing changed
    assert [s["name"] for s in after["seats"]] == ["Host", "Friend"]
    # the holders still play: claiming again with one's own credential returns it unchanged
    assert claim(friend, game_id, friend_token).json()["token"] == friend_token
    state = host.get(f"/api/games/{game_id}", headers=bearer(mine)).json()
    r = host.post(
        f"/api/games/{game_id}/actions",
        json={"action": pick(state, random.Random(2)), "version": 0},
        headers=bearer(mine),
    )
    assert r.status_code == 200


def test_joining_an_open_seat_spends_its_invite_link_too(app: TestClient) -> None:
    host = browser(app)
    game_id, tokens = new_game(host, names=False)
    taken = claim(browser(app), game_id, None, name="Walk-in")
    assert taken.status_code == 200 and taken.json()["seat"] == 0
    late = claim(browser(app), game_id, tokens[0], name="Late")
    assert late.status_code == 409 and "already claimed" in late.json()["error"]
    no_name = claim(browser(app), game_id, tokens[1])
    assert no_name.status_code == 422 and "name" in no_name.json()["error"]
    assert host.get(f"/api/games/{game_id}").json()["seats"][1]["open"] is True


def test_a_guest_seat_joins_the_account_that_claims_it_again(app: TestClient) -> None:
    c = browser(app)
    game_id, tokens = new_game(c)
    mine = claim(c, game_id, tokens[0]).json()["token"]
    csrf = signup(c, "Hana")
    again = claim(c, game_id, mine, csrf)
    assert again.status_code == 200 and again.json()["token"] == mine
    listed = c.get("/api/account/games").json()["games"]
    assert [g["mine"] for g in listed] == [[0]]
    # another account cannot take it over
    other = browser(app)
    csrf2 = signup(other, "Ivo")
    r = claim(other, game_id, mine, csrf2)
    assert r.status_code == 403 and "another account" in r.json()["error"]


def forget_all_failures(app: TestClient) -> None:
    storage = app.app.state.services.tables.storage  # type: ignore[attr-defined]
    storage.limits.prune(time.time() + 1).result()


def test_refused_log_ins_are_limited_per_name_and_per_address(app: TestClient) -> None:
    signup(browser(app), "Jade")
    c = browser(app)
    for _ in range(accounts.FAILURES_PER_NAME):
        r = c.post("/api/account/login", json={"name": "Jade", "password": "guess guess"})
        assert r.status_code == 401
    r = c.post("/api/account/login", json={"name": "jade", "password": PASSWORD})
    assert r.status_code == 429
    assert "Too many refused log-ins for this user name" in r.json()["error"]
    assert "minutes" in r.json()["error"]
    assert c.get("/api/account").json()["user"] is None
    # per address: many names guessed from one address
    left = accounts.FAILURES_PER_ADDRESS - accounts.FAILURES_PER_NAME
    for i in range(left):
        c.post("/api/account/login", json={"name": f"guess{i}", "password": "guess guess"})
    signup(browser(app), "Kim")
    r = c.post("/api/account/login", json={"name": "Kim", "password": PASSWORD})
    assert r.status_code == 429 and "from your address" in r.json()["error"]


def test_password_change_ends_other_sessions(app: TestClient) -> None:
    c = browser(app)
    csrf = signup(c, "Lena")
    other = browser(app)
    login(other, "Lena")
    wrong = c.post(
        "/api/account/password",
        json={"old": "not it at all", "new": "brand new secret"},
        headers={"X-CSRF-Token": csrf},
    )
    assert wrong.status_code == 403 and "current password is wrong" in wrong.json()["error"]
    assert other.get("/api/account").json()["user"] is not None
    ok = c.post(
        "/api/account/password",
        json={"old": PASSWORD, "new": "brand new secret"},
        headers={"X-CSRF-Token": csrf},
    )
    assert ok.status_code == 200
    assert c.get("/api/account").json()["user"]["name"] == "Lena"
    assert other.get("/api/account").json()["user"] is None
    assert (
        browser(app)
        .post("/api/account/login", json={"name": "Lena", "password": PASSWORD})
        .status_code
        == 401
    )
    login(browser(app), "Lena", "brand new secret")


def test_guest_games_come_from_the_seats_kept_in_the_browser(app: TestClient) -> None:
    c = browser(app)
    game_id, tokens = new_game(c)
    mine = claim(c, game_id, tokens[0]).json()["token"]
    other_id, other_tokens = new_game(c)
    r = c.post(
        "/api/my-games",
        json={
            "games": [
                {"id": game_id, "token": mine},
                {"id": other_id, "token": "not-a-token"},
                {"id": "no-such-game", "token": "x"},
            ]
        },
    )
    assert r.status_code == 200
    body = r.json()
    assert [(g["id"], g["mine"], g["your_turn"]) for g in body["games"]] == [(game_id, [0], True)]
    assert body["gone"] == sorted([other_id, "no-such-game"])
    r = c.post("/api/my-games", json={"games": [{"id": "x" * 65, "token": "y"}]})
    assert r.status_code == 422


def test_finished_games_show_their_result(app: TestClient) -> None:
    c = browser(app)
    csrf = signup(c, "Milo")
    r = c.post(
        "/api/games",
        json={"game": "harmonies", "seats": [{"kind": "human", "name": "Milo"}]},
    )
    game_id, token = r.json()["id"], r.json()["seats"][0]["token"]
    mine = claim(c, game_id, token, csrf).json()["token"]
    rng = random.Random(3)
    for _ in range(400):
        state = c.get(f"/api/games/{game_id}", headers=bearer(mine)).json()
        if state["over"]:
            break
        c.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(state, rng), "version": state["version"]},
            headers=bearer(mine),
        )
    listed = c.get("/api/account/games").json()["games"]
    assert listed[0]["over"] is True and listed[0]["your_turn"] is False
    assert listed[0]["result"]["scores"] == state["result"]["scores"]


def test_nothing_shows_secrets_or_passwords(
    app: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret_password = "a very secret password 123"
    c = browser(app)
    csrf = signup(c, "Nora", secret_password)
    cookie = c.cookies.get(deps.COOKIE)
    game_id, tokens = new_game(c)
    mine = claim(c, game_id, tokens[0], csrf).json()["token"]
    friend = browser(app)
    csrf_f = signup(friend, "Otto", secret_password)
    theirs = claim(friend, game_id, tokens[1], csrf_f).json()["token"]
    answers = [
        friend.get(f"/api/games/{game_id}", headers=bearer(theirs)).text,
        friend.get(f"/api/games/{game_id}/log").text,
        friend.get("/api/lobby").text,
        friend.get("/api/account/games").text,
        friend.get("/api/account").text,
        friend.post("/api/my-games", json={"games": [{"id": game_id, "token": theirs}]}).text,
        c.get(f"/api/games/{game_id}").text,
        friend.get(f"/api/games/{game_id}/ratings").text,
        friend.get("/api/profiles/Nora").text,
        friend.get("/api/ratings/harmonies").text,
    ]
    for text in [*answers, caplog.text]:
        for secret in (secret_password, "$argon2", cookie, mine, tokens[0], csrf):
            assert secret not in text


def test_sessions_survive_a_restart(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'glade.sqlite3'}"
    with TestClient(create_app(make_settings(url))) as client:
        first = Browser(client)
        signup(first, "Pia")
        cookie = first.cookies.get(deps.COOKIE)
    with TestClient(create_app(make_settings(url))) as client:
        again = Browser(client)
        again.cookies.set(deps.COOKIE, cookie or "")
        assert again.get("/api/account").json()["user"]["name"] == "Pia"


def test_sign_ups_are_limited_per_address(app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    forget_all_failures(app)
    monkeypatch.setattr(accounts, "SIGNUPS_PER_ADDRESS", 2)
    signup(browser(app), "Quin")
    signup(browser(app), "Rosa")
    r = browser(app).post("/api/account/signup", json={"name": "Sami", "password": PASSWORD})
    assert r.status_code == 429 and "Too many accounts" in r.json()["error"]
    r = browser(app).post("/api/account/login", json={"name": "Sami", "password": PASSWORD})
    assert r.status_code == 401  # not made


def test_an_ended_session_is_refused(app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    c = browser(app)
    signup(c, "Tove")
    assert c.get("/api/account").json()["user"]["name"] == "Tove"
    monkeypatch.setattr(accounts, "SESSION_SECONDS", -1)  # every session is past its age now
    r = c.get("/api/account")
    assert r.json() == {"user": None, "csrf": None}
    assert deps.COOKIE in r.headers.get("set-cookie", "")  # the cookie is cleared
    assert c.get("/api/account/games").status_code == 401


def _until(check: Any, seconds: float = 45.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the other process did not catch up"
        time.sleep(0.1)


def test_two_processes_share_sessions_keys_and_claims() -> None:
    """On one PostgreSQL: a device key made on one process opens the seat on the other, dies on
    both at log-out, and an invite claimed on one is refused on the other."""
    base = os.environ.get("GLADE_TEST_PG")
    if not base:
        pytest.skip("GLADE_TEST_PG is not set (make test sets it and starts PostgreSQL)")
    url, name = fresh_pg_database(base)
    first, second = ServerProcess(url), ServerProcess(url)
    try:
        first.start()
        second.start()
        with (
            httpx.Client(base_url=first.url, timeout=60) as a,
            httpx.Client(base_url=second.url, timeout=60) as b,
            httpx.Client(base_url=second.url, timeout=60) as guest,
        ):
            csrf = a.post("/api/account/signup", json={"name": "Uma", "password": PASSWORD}).json()[
                "csrf"
            ]
            made = a.post(
                "/api/games",
                json={
                    "game": "harmonies",
                    "seats": [{"kind": "human", "name": "Uma"}, {"kind": "human"}],
                },
            ).json()
            gid, invites = made["id"], [s["token"] for s in made["seats"]]
            own = a.post(
                f"/api/games/{gid}/claim",
                json={},
                headers={**bearer(invites[0]), "X-CSRF-Token": csrf},
            )
            assert own.status_code == 200
            assert a.get(f"/api/games/{gid}").status_code == 200  # the table is in A's memory
            csrf_b = b.post(
                "/api/account/login", json={"name": "uma", "password": PASSWORD}
            ).json()["csrf"]
            key = b.post(f"/api/account/games/{gid}/keys", headers={"X-CSRF-Token": csrf_b}).json()[
                "tokens"
            ]["0"]
            assert b.get(f"/api/games/{gid}", headers=bearer(key)).json()["seat"] == 0
            _until(lambda: a.get(f"/api/games/{gid}", headers=bearer(key)).status_code == 200)
            # an invite claimed on B is refused on A
            got = guest.post(
                f"/api/games/{gid}/claim", json={"name": "Vic"}, headers=bearer(invites[1])
            )
            assert got.status_code == 200
            _until(
                lambda: (
                    a.post(
                        f"/api/games/{gid}/claim",
                        json={"name": "Wes"},
                        headers={**bearer(invites[1]), "X-CSRF-Token": csrf},  # A is logged in
                    ).status_code
                    == 409
                )
            )
            # log out everywhere on A: B's key opens nothing on either process
            assert (
                a.post("/api/account/logout-everywhere", headers={"X-CSRF-Token": csrf}).status_code
                == 200
            )
            assert b.get("/api/account/games").status_code == 401
            _until(lambda: b.get(f"/api/games/{gid}", headers=bearer(key)).status_code == 403)
            _until(lambda: a.get(f"/api/games/{gid}", headers=bearer(key)).status_code == 403)
    finally:
        first.stop()
        second.stop()
        drop_pg_database(base, name)
