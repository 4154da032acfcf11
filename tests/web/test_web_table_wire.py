"""Light on the wire: what a whole game costs the page (WebSocket + API bytes, redraws per move).

A 2-player Harmonies game, one seat played by clicks, the other the greedy bot, measured with
chromium's own network events. The page reads the whole log once (on load) and then lives on the
pushes' deltas. Run as a script against any server to measure another version of the page:

    python tests/web/test_web_table_wire.py http://127.0.0.1:8000
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_support import Server, new_page, play_harmonies_turn  # noqa: E402

COUNT_REDRAWS = """() => {
  window.__redraws = 0;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes)
      if (n.nodeType === 1 && n.matches('[data-testid=table]')) window.__redraws += 1;
  }).observe(document.getElementById('app'), {childList: true});
}"""


class Wire:
    """Bytes the page received: WebSocket frames and the bodies (+ headers) of /api/ answers."""

    def __init__(self, page: Page) -> None:
        self.ws = 0
        self.frames = 0
        self.http = 0
        self.requests = 0
        self.log_reads = 0
        self.action_posts = 0  # POST …/actions: none while the socket is open
        self.urls: dict[str, str] = {}
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketFrameReceived", self.frame)
        cdp.on("Network.requestWillBeSent", self.request)
        cdp.on("Network.loadingFinished", self.finished)

    def frame(self, event: dict[str, Any]) -> None:
        self.ws += len(event["response"]["payloadData"].encode("utf-8"))
        self.frames += 1

    def request(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]
        if event["request"]["method"] == "POST" and event["request"]["url"].endswith("/actions"):
            self.action_posts += 1

    def finished(self, event: dict[str, Any]) -> None:
        url = self.urls.get(event["requestId"], "")
        if "/api/" in url:
            self.http += int(event["encodedDataLength"])
            self.requests += 1
            self.log_reads += url.endswith("/log")


def measure_game(browser: Browser, base: str, seed: int = 3) -> dict[str, Any]:
    """Play one whole game by clicks against the greedy bot; the page's traffic and redraws."""
    context, page, watch = new_page(browser, 1280, 800)
    wire = Wire(page)
    page.add_init_script(f"window.addEventListener('DOMContentLoaded', {COUNT_REDRAWS})")
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
    body = httpx.post(f"{base}/api/games", json={"game": "harmonies", "seats": seats}).json()
    page.goto(body["seats"][0]["url"])
    page.wait_for_selector("[data-testid=table]")
    rng = random.Random(seed)
    for _ in range(200):
        if page.locator("[data-testid=end-screen]").count():
            break
        page.wait_for_selector("[data-testid=end-screen], [data-testid=status] b")
        if page.locator("[data-testid=end-screen]").count():
            break
        play_harmonies_turn(page, rng)
    page.wait_for_selector("[data-testid=end-screen]")
    page.wait_for_timeout(500)
    log = httpx.get(f"{base}/api/games/{body['id']}/log").json()
    moves = int(log["version"])
    redraws = int(page.evaluate("window.__redraws"))
    figures = {
        "moves": moves,
        "ws_bytes": wire.ws,
        "ws_frames": wire.frames,
        "http_bytes": wire.http,
        "http_requests": wire.requests,
        "log_reads": wire.log_reads,
        "action_posts": wire.action_posts,
        "total_bytes": wire.ws + wire.http,
        "redraws": redraws,
        "redraws_per_move": round(redraws / moves, 2),
        "errors": watch.errors,
    }
    context.close()
    return figures


def test_a_game_costs_pushes_not_logs(server: Server, browser: Browser) -> None:
    figures = measure_game(browser, server.url)
    print(json.dumps(figures))
    assert not figures["errors"], figures["errors"]
    moves = figures["moves"]
    assert moves > 50
    assert figures["log_reads"] == 1  # the whole log once, on load; then the pushes' deltas
    assert figures["ws_frames"] >= moves  # a push per action (and the first)
    # the page's own clicks redraw once each, a push at most once more: no re-fetch loops
    assert figures["redraws_per_move"] < 2.5
    # the page's actions go on its socket (answered by the push of the new state), not POST
    assert figures["action_posts"] == 0
    # the API's share never grows with the log
    assert figures["http_bytes"] < figures["ws_bytes"] * 1.5


if __name__ == "__main__":
    from playwright.sync_api import sync_playwright
    from web_support import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        print(json.dumps(measure_game(b, sys.argv[1])))
        b.close()
