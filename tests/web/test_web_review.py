"""The review in the browser: started from a finished game, its chart, marks and best moves."""

from __future__ import annotations

import os

from playwright.sync_api import Browser, expect
from test_web_replay import play_against_greedy
from web_support import Server, new_page, shot

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
    shot(page, "review-page.png")
    # a point of the chart opens the replay at that move, with the move's mark and best move
    points.nth(3).click()
    expect(page.locator("[data-testid=replay]")).to_have_attribute(
        "data-loaded", "yes", timeout=60_000
    )
    mark = page.locator("[data-testid=replay-mark]")
    expect(mark).to_be_visible(timeout=30_000)
    assert "take space" in mark.inner_text()
    shot(page, "review-replay-mark.png")
    # the Korean page has the review's words too
    page.select_option("#lang-select", "ko")
    expect(page.locator("[data-testid=replay-mark]")).to_contain_text("복기")
    assert not watch.errors, watch.errors
    context.close()
