"""The review in the browser: started from a finished game, its chart, marks and best moves, and
in the replay each decision's mark and the best alternative drawn beside the move played."""

from __future__ import annotations

import json
import os
import time

import httpx
import pytest
from playwright.sync_api import Browser, Route, expect
from test_web_replay import play_against_greedy
from web_support import ROOT, Server, new_page, replay_log, shot

CARD_NAMES = {
    k.removeprefix("card."): v["en"]
    for k, v in json.loads((ROOT / "glade/web/i18n/glossary.json").read_text("utf-8"))[
        "terms"
    ].items()
    if k.startswith("card.")
}

# one sample a decision: the page is what is tested here, not the strength of the review
os.environ.setdefault("GLADE_REVIEW_SAMPLES", "1")


def test_a_finished_game_is_reviewed_and_shown(server: Server, browser: Browser) -> None:
    gid = play_against_greedy(server.url, 31, spirits=False)
    context, page, watch = new_page(browser)
    page.goto(f"{server.url}/#/watch/{gid}")
    link = page.locator("[data-testid=end-screen] [data-testid=review-link]")
    expect(link).to_be_visible()
    shot(page, "review-end-screen.png")
    link.click()
    review = page.locator("[data-testid=review]")
    expect(review).to_be_visible()
    expect(review).to_have_attribute("data-status", "done", timeout=600_000)
    expect(page.locator("[data-testid=review-chart]")).to_be_visible()
    points = page.locator("[data-testid=chart-point]")
    assert points.count() >= 10
    rows = page.locator("[data-testid=review-row]")
    assert rows.count() == points.count()
    assert page.locator("[data-testid=review-summary]").count() == 2
    assert "%" in page.locator("[data-testid=review-summary]").first.inner_text()
    assert "take space" in rows.first.inner_text()
    # players by name, the chart with its legend and axis titles (issue 31)
    expect(rows.first).to_contain_text("Ana")
    expect(page.locator("[data-testid=review-row][data-seat='1']").first).to_contain_text(
        "Greedy bot"
    )
    assert "Seat" not in review.inner_text() and "Player 1" not in review.inner_text()
    legend = page.locator("[data-testid=chart-legend]")
    expect(legend).to_contain_text("Ana")
    expect(legend).to_contain_text("Greedy bot")
    expect(page.locator("[data-testid=chart-y-title]")).to_have_text("Expected points")
    expect(page.locator("[data-testid=chart-x-title]")).to_have_text("Decision")
    shot(page, "review-page.png")
    data = httpx.get(f"{server.url}/api/games/{gid}/review").json()["review"]
    # a card taken is named, as the hint names it, never "the card in slot N"
    engine = replay_log(server.url, gid)
    log = engine.log_json(None)
    taking = [
        t for t in data["turns"] if any(a["type"] == "take_card" for a in t["played"]["actions"])
    ]
    assert taking, "nobody took a card"
    for t in taking[:3]:
        took = next(
            e["chance"]["card"]
            for e in log[t["log"][0] : t["log"][1]]
            if e["action"]["type"] == "take_card"
        )
        row = page.locator("[data-testid=review-row]").nth(t["index"])
        expect(row).to_contain_text(f"take the {CARD_NAMES[took]}")
    assert "slot" not in review.inner_text()
    worse = next(t for t in data["turns"] if not t["is_best"])
    # a point of the chart opens the replay at that move, with the move's mark and best move
    points.nth(3).click()
    expect(page.locator("[data-testid=replay]")).to_have_attribute(
        "data-loaded", "yes", timeout=60_000
    )
    mark = page.locator("[data-testid=replay-mark]")
    expect(mark).to_be_visible(timeout=30_000)
    assert "take space" in mark.inner_text()
    assert page.locator("[data-testid=log-mark]").count() >= 2
    # the replay's own chart jumps to a decision that was not the best: both boards side by side
    page.locator(f"[data-testid=replay-chart] [data-jump='{worse['log'][1]}']").click()
    replay = page.locator("[data-testid=replay]")
    expect(replay).to_have_attribute("data-step", str(worse["log"][1]), timeout=60_000)
    assert page.url.endswith(f"#/replay/{gid}/{worse['log'][1]}")  # the address names the move
    best = page.locator("[data-testid=compare-best]")
    expect(best).to_have_attribute("data-loaded", "yes", timeout=60_000)
    played = page.locator("[data-testid=compare-played]")
    expect(played.locator("svg").first).to_be_visible()
    expect(best.locator("svg").first).to_be_visible()
    assert played.inner_text() != best.inner_text()
    shot(page, "review-replay-compare.png")

    # a decision of the other seat: both panels draw that seat's board (issue 31, 2), the move
    # played as the engine played it and the best move as the server worked it out
    # (their boards may be alike: two moves may take different spaces and lay the same colours
    # on the same cells; the positions differ)
    theirs = next(t for t in data["turns"] if not t["is_best"] and t["seat"] == 1)
    page.goto(f"{server.url}/#/replay/{gid}/{theirs['log'][1]}")
    # the panels of that step (the previous step's, loaded, stay until it is drawn: checked
    # before it was, they showed seat 0's board when the machine was loaded)
    expect(replay).to_have_attribute("data-step", str(theirs["log"][1]), timeout=60_000)
    expect(best).to_have_attribute("data-loaded", "yes", timeout=60_000)
    after_played = httpx.get(f"{server.url}/api/games/{gid}/past/{theirs['log'][1]}").json()
    after_best = httpx.get(f"{server.url}/api/games/{gid}/review/{theirs['index']}/best").json()
    for panel, view in ((played, after_played["view"]), (best, after_best["view"])):
        big = panel.locator(".mine[data-board-seat]")
        expect(big).to_have_attribute("data-board-seat", "1")
        expect(big.locator("h2")).to_contain_text("Greedy bot")
        stacks = view["boards"][1]["stacks"]
        cells = big.locator(".cell")
        shown = {
            cells.nth(i).get_attribute("data-cell"): int(
                cells.nth(i).get_attribute("data-height") or 0
            )
            for i in range(cells.count())
        }
        assert {c: h for c, h in shown.items() if h} == {c: len(s) for c, s in stacks.items() if s}
    assert after_played["view"] != after_best["view"]  # a move other than the best found
    shot(page, "review-replay-compare-other-seat.png")
    # the Korean page has the review's words too, the move words included
    page.select_option("#lang-select", "ko")
    expect(page.locator("[data-testid=replay-mark]")).to_contain_text("복기")
    expect(best).to_contain_text("중앙판")
    shot(page, "review-replay-compare-ko.png")
    assert not watch.errors, watch.errors
    context.close()


def test_a_living_forest_review_draws_the_alternative(server: Server, browser: Browser) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        r = c.post(
            "/api/games",
            json={
                "game": "living-forest",
                "options": {"players": 2},
                "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
            },
        )
        assert r.status_code in (200, 201), r.text
        gid = r.json()["id"]
        for _ in range(1200):
            if c.get(f"/api/games/{gid}").json().get("over"):
                break
            time.sleep(0.25)
    context, page, watch = new_page(browser)
    page.goto(f"{server.url}/#/review/{gid}")
    review = page.locator("[data-testid=review]")
    expect(review).to_have_attribute("data-status", "done", timeout=600_000)
    data = httpx.get(f"{server.url}/api/games/{gid}/review").json()["review"]
    worse = next(t for t in data["turns"] if not t["is_best"])
    page.goto(f"{server.url}/#/replay/{gid}/{worse['log'][1]}")
    best = page.locator("[data-testid=compare-best]")
    expect(best).to_have_attribute("data-loaded", "yes", timeout=60_000)
    shot(page, "review-lf-compare.png")
    page.select_option("#lang-select", "zh")
    expect(page.locator("[data-testid=replay-mark]")).to_contain_text("复盘")
    shot(page, "review-lf-compare-zh.png")
    assert not watch.errors, watch.errors
    context.close()


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_a_queued_review_says_how_many_jobs_go_first(
    server: Server, browser: Browser, lang: str
) -> None:
    """While the server's analysis queue holds other work, the review's progress carries
    ``queued`` (how many jobs go before its next decision): the page says so in words and
    keeps polling; once it is worked on (``queued`` 0) the line goes. The server's answers are
    stood in for here (a queue of other addresses' reviews cannot be made from one machine:
    the server refuses a second review of one address); the server's field is tested in
    tests/server."""
    words = json.loads((ROOT / "glade" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
    answers = [
        {"status": "running", "done": 0, "total": 0, "queued": 3},
        {"status": "running", "done": 0, "total": 0, "queued": 1},
        {"status": "running", "done": 2, "total": 40, "queued": 0},
    ]
    seen: list[str] = []

    def answer(route: Route) -> None:
        seen.append(route.request.method)
        body = answers[min(len(seen) - 1, len(answers) - 1)]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    context, page, watch = new_page(browser)
    context.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
    page.route("**/api/games/queued-game/review", answer)
    page.goto(f"{server.url}/#/review/queued-game")
    queued = page.locator("[data-testid=review-queued]")
    one_of = words["review.queued"]
    first = one_of["other"] if isinstance(one_of, dict) else one_of
    expect(queued).to_have_text(first.format(n=3))
    shot(page, f"review-queued-{lang}.png")
    second = one_of["one"] if isinstance(one_of, dict) else one_of
    expect(queued).to_have_text(second.format(n=1), timeout=15_000)
    expect(queued).to_have_count(0, timeout=15_000)
    expect(page.locator("[data-testid=review-progress]")).to_have_attribute("value", "2")
    assert seen[0] == "POST" and set(seen[1:]) == {"GET"}
    assert not watch.errors, watch.errors
    context.close()
