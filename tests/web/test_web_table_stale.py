"""A click that reaches the server after the game moved on (issue 31, 3). The server refuses a move
sent against an old version (409); the page then reads the game again and sends the move against
the newer version when that version still offers it, so no legal click is lost; a move the newer
version no longer offers is said in a sentence, and the table shows the game as it is.

The test holds back the pushes of the table's socket (Playwright routes it), so that the page
still shows the old version when another move lands: the race the browser review saw in Living
Forest, where every spirit draws at the same time, made certain."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from web_support import Server, new_page, version

STATE_TYPES = ("state",)


class HeldPushes:
    """The table's socket through the test: while ``hold`` is on, the server's state pushes wait
    (answers to the page's own moves and refusals pass at once); ``release`` sends them in order."""

    def __init__(self, page: Page) -> None:
        self.hold = False
        self.held: list[str] = []
        self.stale_refusals = 0
        self.routes: list[WebSocketRoute] = []
        page.route_web_socket("**/api/games/*/ws*", self._relay)

    def _relay(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.routes.append(ws)

        def from_server(message: str | bytes) -> None:
            data: dict[str, Any] = json.loads(message)
            if data.get("type") == "refused" and data.get("status") == 409:
                self.stale_refusals += 1
            push = data.get("type", "state") in STATE_TYPES and "acted" not in data
            if self.hold and push and ws is self.routes[-1]:
                self.held.append(str(message))
                return
            ws.send(message)

        server.on_message(from_server)

    def release(self) -> None:
        self.hold = False
        for message in self.held:
            self.routes[-1].send(message)
        self.held.clear()


def create(base: str, game: str, seats: list[dict[str, Any]], options: dict[str, Any]) -> dict:
    made: dict[str, Any] = httpx.post(
        f"{base}/api/games", json={"game": game, "options": options, "seats": seats}, timeout=20
    ).json()
    return made


def state(base: str, gid: str, token: str) -> dict[str, Any]:
    got: dict[str, Any] = httpx.get(
        f"{base}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=20
    ).json()
    return got


def act(base: str, gid: str, token: str, action: dict[str, Any]) -> None:
    v = state(base, gid, token)["version"]
    r = httpx.post(
        f"{base}/api/games/{gid}/actions",
        headers={"Authorization": f"Bearer {token}"},
        json={"action": action, "version": v},
        timeout=20,
    )
    assert r.status_code == 200, r.text


def open_seat(page: Page, base: str, url: str) -> None:
    page.goto(f"{base}/#/")
    page.wait_for_selector("[data-testid=create]")
    page.goto(url)
    page.wait_for_selector("[data-testid=table]")


def test_a_draw_sent_on_an_old_version_is_played(server: Server, browser: Browser) -> None:
    """Living Forest: the other spirit draws while the page still shows the old version; each of
    the player's draw clicks is played all the same, and no red sentence appears."""
    context, page, watch = new_page(browser, 1280, 800)
    relay = HeldPushes(page)
    made = create(
        server.url,
        "living-forest",
        [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        {"players": 2},
    )
    gid, me, other = made["id"], made["seats"][0], made["seats"][1]
    open_seat(page, server.url, me["url"])
    token = json.loads(page.evaluate("localStorage.getItem('glade.seats')"))[gid]["tokens"]["0"]
    clicks = 0
    for _ in range(3):
        drawable = page.locator("[data-key=draw]")
        if not drawable.count():
            break
        relay.hold = True
        shown = version(page)
        act(server.url, gid, other["token"], {"type": "draw"})  # the page does not see it yet
        before = len(state(server.url, gid, token)["view"]["spirits"][0]["help_line"])
        drawable.click()
        clicks += 1
        page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
            arg=shown + 1,
        )
        after = state(server.url, gid, token)["view"]["spirits"][0]["help_line"]
        assert len(after) == before + 1 or state(server.url, gid, token)["view"]["phase"] != "draw"
        relay.release()
    assert clicks >= 2
    assert relay.stale_refusals >= clicks  # each click met the race, and was played after it
    mine = [
        e
        for e in httpx.get(f"{server.url}/api/games/{gid}/log", timeout=20).json()["moves"]
        if e["seat"] == 0 and e["action"]["type"] == "draw"
    ]
    assert len(mine) == clicks
    toast = page.locator("#toast")
    assert toast.is_hidden() or "toast error" not in (toast.get_attribute("class") or "")
    assert watch.errors == []
    context.close()


def test_a_move_no_longer_offered_is_said_and_the_table_catches_up(
    server: Server, browser: Browser
) -> None:
    """Harmonies: the same seat takes a space elsewhere (another device) while the page still
    offers the spaces; the page's click cannot be played any more: a sentence says so, nothing
    is played twice, and the page shows the new version."""
    context, page, watch = new_page(browser, 1280, 800)
    relay = HeldPushes(page)
    made = create(
        server.url,
        "harmonies",
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}],
        {"side": "A", "spirits": False},
    )
    gid, me = made["id"], made["seats"][0]
    open_seat(page, server.url, me["url"])
    token = json.loads(page.evaluate("localStorage.getItem('glade.seats')"))[gid]["tokens"]["0"]
    expect(page.locator(".space.legal").first).to_be_visible()
    relay.hold = True
    shown = version(page)
    act(server.url, gid, token, {"type": "take_tokens", "space": 0})
    page.locator(".space.legal").nth(1).click()
    toast = page.locator("#toast")
    expect(toast).to_have_text(
        "The game moved on before your move arrived, and that move can no longer be played;"
        " the table shows the game as it is now."
    )
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=shown,
    )
    assert relay.stale_refusals == 1
    taken = [
        e
        for e in httpx.get(f"{server.url}/api/games/{gid}/log", timeout=20).json()["moves"]
        if e["action"]["type"] == "take_tokens"
    ]
    assert len(taken) == 1
    expect(page.locator("[data-testid=hand]")).to_be_visible()  # the tokens taken, to place
    relay.release()
    assert watch.errors == []
    context.close()
