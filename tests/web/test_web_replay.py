"""The replays show the server's position at every step (GET …/past/{move}).

A 2-player game (a person playing through the API against the greedy bot) is played to the end;
its replay is then stepped through from the first move to the last, and at every step the scores,
the pouch's token count, the draw pile's card count and every stack on every board on the page
must equal the server's ``past`` view of that step.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from web_support import Server, new_page, shot

GATHER = """() => {
  const num = (sel, root = document) => {
    const el = root.querySelector(sel);
    const m = el && el.textContent.match(/-?\\d+/);
    return m ? Number(m[0]) : null;
  };
  const boards = {};
  for (const panel of document.querySelectorAll("[data-testid=replay] [data-board]")) {
    const seat = Number(panel.dataset.board);
    const heights = {};
    for (const cell of panel.querySelectorAll(".cell")) heights[cell.dataset.cell] = Number(cell.dataset.height);
    boards[seat] = { points: num("h2 .muted, h3 .muted", panel), heights };
  }
  const totals = {};
  for (const td of document.querySelectorAll(".side .scores [data-total-seat]")) totals[td.dataset.totalSeat] = Number(td.textContent);
  return {
    step: Number(document.querySelector("[data-testid=replay]").dataset.step),
    pouch: num("[data-testid=pouch]"),
    deck: num("#row-title .muted"),
    boards,
    totals,
  };
}"""


def _api(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=30)


def _wait_turn(client: httpx.Client, gid: str, token: str, seat: int) -> dict[str, Any]:
    """The state once ``seat`` may act or the game is over (the bot plays in between)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state: dict[str, Any] = client.get(
            f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        if state["over"] or seat in state["to_act"]:
            return state
        time.sleep(0.05)
    raise AssertionError("the bot did not finish its turn within 120 s")


def play_against_greedy(base: str, seed: int, spirits: bool) -> str:
    """A finished 2-player game: seat 0 plays random legal actions through the API."""
    rng = random.Random(seed)
    with _api(base) as client:
        created = client.post(
            "/api/games",
            json={
                "game": "harmonies",
                "options": {"side": "A", "spirits": spirits},
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}],
            },
        )
        assert created.status_code == 201, created.text
        gid: str = created.json()["id"]
        token: str = created.json()["seats"][0]["token"]
        state = _wait_turn(client, gid, token, 0)
        for _ in range(2000):
            if state["over"]:
                return gid
            legal = [a for a in state["legal_actions"] if a["type"] != "undo"]
            # take a card now and then, end the turn as soon as it may end
            ends = [a for a in legal if a["type"] == "end_turn"]
            action = ends[0] if ends and rng.random() < 0.8 else rng.choice(legal)
            answer = client.post(
                f"/api/games/{gid}/actions",
                headers={"Authorization": f"Bearer {token}"},
                json={"action": action, "version": state["version"]},
            )
            assert answer.status_code == 200, answer.text
            state = _wait_turn(client, gid, token, 0)
    raise AssertionError("the game did not end")


def expected(view: dict[str, Any]) -> dict[str, Any]:
    """What the page must show of a server view."""
    return {
        "pouch": view["pouch"]["count"],
        "deck": view["deck"],
        "points": [b["score"]["total"] for b in view["boards"]],
        "stacks": [
            {cell: len(tokens) for cell, tokens in b["stacks"].items()} for b in view["boards"]
        ],
    }


def shown(page: Page) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(GATHER)
    seats = sorted(got["boards"], key=int)
    return {
        "step": got["step"],
        "pouch": got["pouch"],
        "deck": got["deck"],
        "points": [got["boards"][s]["points"] for s in seats],
        "totals": [got["totals"].get(str(s)) for s in seats],
        "stacks": [{c: h for c, h in got["boards"][s]["heights"].items() if h} for s in seats],
    }


def open_step(page: Page, step: int) -> None:
    """Wait until the replay shows ``step`` with its position drawn."""
    page.wait_for_selector(f"[data-testid=replay][data-step='{step}']:not([data-loaded=no])")


def test_every_replay_step_shows_the_servers_position(server: Server, browser: Browser) -> None:
    gid = play_against_greedy(server.url, seed=3, spirits=True)
    with _api(server.url) as client:
        log = client.get(f"/api/games/{gid}/log").json()
        total = len(log["moves"])
        pasts = [client.get(f"/api/games/{gid}/past/{n}").json()["view"] for n in range(total + 1)]
    assert total > 40 and log["over"]

    context, page, watch = new_page(browser, 1280, 800)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{server.url}/#/replay/{gid}")
    open_step(page, total)
    expect(page.locator("[data-testid=replay] .end-inline")).to_be_visible()
    page.keyboard.press("Home")
    open_step(page, 0)
    seen_pouch = set()
    for step in range(total + 1):
        if step:
            page.click("[data-testid=replay-next]")
            open_step(page, step)
        want = expected(pasts[step])
        got = shown(page)
        assert got["step"] == step
        assert got["pouch"] == want["pouch"], f"step {step}: pouch"
        assert got["deck"] == want["deck"], f"step {step}: draw pile"
        assert got["points"] == want["points"], f"step {step}: points on the boards"
        assert got["totals"] == want["points"], f"step {step}: score table"
        assert got["stacks"] == want["stacks"], f"step {step}: stacks"
        seen_pouch.add(got["pouch"])
        if step == total // 2:
            shot(page, "harmonies-replay-desktop.png", full_page=False)
    # the numbers move along the game (once they were stuck at the first position's)
    assert len(seen_pouch) > 5
    assert max(pasts[total // 2]["boards"][s]["score"]["total"] for s in (0, 1)) > 0
    # every position came from the server, none was rebuilt by the page
    asked = {int(m.group(1)) for u in requests if (m := re.search(r"/past/(\d+)$", u))}
    assert set(range(1, total)) <= asked
    # and the last step is the finished game with its end screen
    assert page.locator("[data-testid=replay] .end-inline [data-testid=winner]").count() == 1
    # playing moves on by itself, one drawn position after the other, until paused
    page.keyboard.press("Home")
    open_step(page, 0)
    page.click("[data-go=play]")
    open_step(page, 1)
    open_step(page, 2)
    page.click("[data-go=play]")
    page.wait_for_timeout(500)  # a step already on its way may still land
    paused = int(page.get_attribute("[data-testid=replay]", "data-step") or -1)
    page.wait_for_timeout(1500)
    assert page.get_attribute("[data-testid=replay]", "data-step") == str(paused)
    got = shown(page)
    assert got["pouch"] == expected(pasts[paused])["pouch"]
    assert not watch.errors, watch.errors
    context.close()

    # on a phone, a step in the middle: the same numbers, nothing wider than the screen
    context, page, watch = new_page(browser, 390, 844)
    page.goto(f"{server.url}/#/replay/{gid}")
    open_step(page, total)
    slider = page.locator("[data-testid=replay-slider]")
    slider.fill(str(total // 2))
    open_step(page, total // 2)
    got = shown(page)
    want = expected(pasts[total // 2])
    assert (got["pouch"], got["deck"], got["points"]) == (
        want["pouch"],
        want["deck"],
        want["points"],
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the replay is {width} px wide on a 390 px phone"
    shot(page, "harmonies-replay-phone.png", full_page=False)
    shot(page, "harmonies-replay-phone-full.png")
    assert not watch.errors, watch.errors
    context.close()


def test_an_unfinished_game_replays_only_its_current_position(
    server: Server, browser: Browser
) -> None:
    with _api(server.url) as client:
        created = client.post(
            "/api/games",
            json={
                "game": "harmonies",
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}],
            },
        ).json()
        gid, token = created["id"], created["seats"][0]["token"]
        state = _wait_turn(client, gid, token, 0)
        take = next(a for a in state["legal_actions"] if a["type"] == "take_tokens")
        after = client.post(
            f"/api/games/{gid}/actions",
            headers={"Authorization": f"Bearer {token}"},
            json={"action": take, "version": state["version"]},
        ).json()
        place = next(a for a in after["legal_actions"] if a["type"] == "place_token")
        client.post(
            f"/api/games/{gid}/actions",
            headers={"Authorization": f"Bearer {token}"},
            json={"action": place, "version": after["version"]},
        ).raise_for_status()
        now = client.get(f"/api/games/{gid}").json()["view"]
        assert client.get(f"/api/games/{gid}/past/0").status_code == 403
    context, page, watch = new_page(browser, 1280, 800)
    page.goto(f"{server.url}/#/replay/{gid}")
    open_step(page, 2)
    got = shown(page)
    assert (got["pouch"], got["deck"]) == (now["pouch"]["count"], now["deck"])
    assert got["stacks"][0] == {place["cell"]: 1}
    # the position between is the server's to show, and it shows none before the end
    page.click("[data-testid=replay-prev]")
    page.wait_for_selector("[data-testid=replay][data-step='1'][data-loaded=no]")
    expect(page.locator("[data-testid=replay-unavailable]")).to_contain_text(
        "once the game is over"
    )
    expect(page.locator("[data-testid=replay-move]")).to_contain_text("1. Ana")
    page.click("[data-testid=replay-prev]")
    open_step(page, 0)  # the first position comes with the log
    assert shown(page)["stacks"] == [{}, {}]
    page.keyboard.press("End")
    open_step(page, 2)
    assert not watch.errors, watch.errors
    context.close()


LF_GATHER = """() => {
  const nums = (el) => (el ? (el.textContent.match(/-?\\d+/g) || []).map(Number) : []);
  const table = document.querySelector(".side .scores table.breakdown");
  const rows = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => Number(td.textContent)));
  const stacks = [...document.querySelectorAll(".display-row h3 .muted")].map((el) => nums(el)[0]);
  const occupied = [...document.querySelectorAll("svg.ring g.pawn")].map((g) => Number(g.dataset.rock));
  return { step: Number(document.querySelector("[data-testid=replay]").dataset.step), rows, stacks, occupied };
}"""


def lf_expected(view: dict[str, Any]) -> dict[str, Any]:
    progress = [s["progress"] for s in view["spirits"]]
    return {
        "rows": [
            [p["trees"] for p in progress],
            [p["fires"] for p in progress],
            [p["flowers"] for p in progress],
            [p["trees"] + p["fires"] + p["flowers"] for p in progress],
        ],
        "stacks": list(view["stack_counts"]),
        "occupied": sorted(r["rock"] for r in view["circle"] if r["spirit"] is not None),
    }


def test_every_living_forest_replay_step_shows_the_servers_position(
    server: Server, browser: Browser
) -> None:
    """The greedy and the random bot play Living Forest on the server; its replay, step by step,
    shows each spirit's trees, fires and flowers, the guardian stacks and the spirits on the
    circle as the server's ``past`` view has them."""
    with _api(server.url) as client:
        created = client.post(
            "/api/games",
            json={
                "game": "living-forest",
                "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
            },
        )
        assert created.status_code == 201, created.text
        gid = created.json()["id"]
        deadline = time.monotonic() + 300
        while not client.get(f"/api/games/{gid}").json()["over"]:
            assert time.monotonic() < deadline, "the bots did not finish within 300 s"
            time.sleep(0.2)
        total = len(client.get(f"/api/games/{gid}/log").json()["moves"])
        pasts = [client.get(f"/api/games/{gid}/past/{n}").json()["view"] for n in range(total + 1)]
    context, page, watch = new_page(browser, 1280, 800)
    page.goto(f"{server.url}/#/replay/{gid}")
    open_step(page, total)
    page.keyboard.press("Home")
    open_step(page, 0)
    rounds = set()
    for step in range(total + 1):
        if step:
            page.keyboard.press("ArrowRight")
            open_step(page, step)
        got = page.evaluate(LF_GATHER)
        want = lf_expected(pasts[step])
        assert got["step"] == step
        assert got["rows"] == want["rows"], f"step {step}: trees, fires, flowers"
        assert got["stacks"] == want["stacks"], f"step {step}: guardian stacks"
        assert sorted(got["occupied"]) == want["occupied"], f"step {step}: circle of spirits"
        rounds.add(pasts[step]["round"])
        if step == total // 2:
            shot(page, "living-forest-replay-step.png", full_page=False)
    assert len(rounds) > 3
    assert not watch.errors, watch.errors
    context.close()
