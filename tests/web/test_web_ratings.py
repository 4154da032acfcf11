"""The ratings pages: the leaderboard (bots at their calibrated ratings) and a profile's chart."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect
from web_support import ROOT, Server, new_page, shot

from glade.arena.ratings import load_calibration
from glade.server import create_app

sys.path.insert(0, str(ROOT / "tests" / "server"))
from server_support import make_settings, play_random  # noqa: E402
from test_server_accounts import Browser as Account  # noqa: E402
from test_server_accounts import claim, signup  # noqa: E402

NAME = "Mira"


def _rated_games(db: Path) -> tuple[list[str], str]:
    """Rated games of one account against bots, played through the API into ``db``: the
    account signs up, makes each rated table and claims its seat with the invite link."""
    played = []
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as c:
        mira = Account(c)
        csrf = signup(mira, NAME)
        user_id = mira.get("/api/account").json()["user"]["id"]
        plan = [("harmonies", "random")] * 3  # greedy plays none: it stays at its calibration
        plan.append(("living-forest", "random"))
        for i, (game, bot) in enumerate(plan):
            r = mira.post(
                "/api/games",
                json={
                    "game": game,
                    "rated": True,
                    "seats": [{"kind": "human", "name": NAME}, {"kind": "bot", "bot": bot}],
                },
                headers={"X-CSRF-Token": csrf},
            )
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            tokens = [s["token"] for s in r.json()["seats"]]
            claimed = claim(mira, gid, tokens[0], csrf)
            assert claimed.status_code == 200, claimed.text
            tokens[0] = claimed.json()["token"]
            play_random(c, gid, tokens, random.Random(i))
            played.append(gid)
        for _ in range(500):  # every rating has landed
            prof = c.get(f"/api/profiles/{NAME}").json()
            if len(prof["history"]) == len(plan):
                break
            time.sleep(0.02)
        assert len(prof["history"]) == len(plan)
    return played, user_id


@pytest.fixture(scope="module")
def rated_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Server, list[str], str]]:
    db = tmp_path_factory.mktemp("ratings") / "glade.sqlite3"
    games, user_id = _rated_games(db)
    srv = Server(db)
    yield srv, games, user_id
    srv.stop()


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "mobile"])
def test_leaderboard_shows_the_bots_calibrated_ratings(
    browser: Browser, rated_server: tuple[Server, list[str], str], size: tuple[int, int]
) -> None:
    srv, _, user_id = rated_server
    cal = load_calibration()["harmonies"]
    context, page, watch = new_page(browser, *size)
    page.goto(f"{srv.url}/#/leaderboard/harmonies")
    board = page.locator("[data-testid=leaderboard]")
    expect(board).to_be_visible()
    # a level no rated game here has moved stands at its calibration, shown to one decimal
    greedy = page.locator("tr[data-identity='bot:greedy']")
    expect(greedy.locator("[data-testid=ordinal]")).to_have_text(
        f"{cal['greedy'].ordinal:.1f}".replace("-", "\u2212")
    )
    expect(greedy).to_contain_text(f"{cal['greedy'].games} bot-vs-bot games")
    for level in cal:
        expect(page.locator(f"tr[data-identity='bot:{level}']")).to_have_count(1)
    expect(page.locator(f"tr[data-identity='user:{user_id}']")).to_contain_text(NAME)
    rows = page.locator("tbody tr [data-testid=ordinal]").all_inner_texts()
    values = [float(v.replace("\u2212", "-")) for v in rows]
    assert values == sorted(values, reverse=True)
    shot(page, f"ratings-leaderboard-{'desktop' if size[0] > 400 else 'mobile'}.png")
    # the other game's board is one click away
    page.get_by_role("link", name="Living Forest").click()
    expect(page.locator("tr[data-identity='bot:greedy']")).to_have_count(1)
    assert not watch.errors, watch.errors
    context.close()


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "mobile"])
def test_profile_draws_the_rating_chart(
    browser: Browser, rated_server: tuple[Server, list[str], str], size: tuple[int, int]
) -> None:
    srv, games, user_id = rated_server
    context, page, watch = new_page(browser, *size)
    page.goto(f"{srv.url}/#/leaderboard/harmonies")
    page.locator(f"tr[data-identity='user:{user_id}'] a").click()
    expect(page.locator("[data-testid=profile]")).to_contain_text(NAME)
    chart = page.locator("svg[data-testid=rating-chart]")
    expect(chart).to_be_visible()
    # one line per game, one point per rated game: 3 of Harmonies, 1 of Living Forest
    expect(chart.locator("polyline[data-game=harmonies]")).to_have_count(1)
    expect(chart.locator("polyline[data-game=living-forest]")).to_have_count(1)
    expect(chart.locator("circle[data-point]")).to_have_count(4)
    points = chart.locator("polyline[data-game=harmonies]").get_attribute("points") or ""
    assert len(points.split()) == 4  # the start and the three games
    box = chart.bounding_box()
    assert box is not None and box["width"] <= size[0] and box["height"] > 60
    # every game listed, with its result and rating change
    for gid in games:
        row = page.locator(f"tr[data-game-id='{gid}']")
        expect(row).to_contain_text("place")
        expect(row.locator("[data-testid=delta]")).to_have_count(1)
    shot(page, f"ratings-profile-{'desktop' if size[0] > 400 else 'mobile'}.png")
    assert not watch.errors, watch.errors
    context.close()


def test_lobby_shows_bot_ratings_and_bot_profiles(
    browser: Browser, rated_server: tuple[Server, list[str], str]
) -> None:
    srv, _, user_id = rated_server
    cal = load_calibration()["harmonies"]
    context, page, watch = new_page(browser)
    page.goto(f"{srv.url}/#/")
    for level, r in cal.items():
        option = page.locator(f"select[data-seat-kind] option[value='{level}']").first
        expect(option).to_contain_text(f"rating {r.ordinal:.1f}".replace("-", "\u2212"))
    page.locator("[data-testid=leaderboard-link]").click()
    page.locator("tr[data-identity='bot:greedy'] a").click()
    expect(page.locator("[data-testid=profile]")).to_contain_text("bot-vs-bot")
    expect(page.locator("[data-testid=rating-harmonies]")).to_be_visible()
    assert not watch.errors, watch.errors
    context.close()


def test_a_logged_in_player_makes_a_rated_table_in_the_lobby(
    browser: Browser, rated_server: tuple[Server, list[str], str]
) -> None:
    srv, _, _ = rated_server
    context, page, watch = new_page(browser)
    page.goto(f"{srv.url}/#/")
    expect(page.locator("[data-testid=create]")).to_be_visible()
    expect(page.locator("[data-testid=rated]")).to_have_count(0)  # guests play unrated
    r = page.request.post(
        f"{srv.url}/api/account/signup", data={"name": "Rafa", "password": "a long enough pass"}
    )
    assert r.status == 201, r.text()
    page.reload()
    page.locator("[data-testid=rated]").check()
    page.locator("select[data-seat-kind='1']").select_option("greedy")
    page.locator("[data-testid=create]").click()
    page.wait_for_url("**/#/play/*")
    gid = page.url.rsplit("/", 1)[1]
    games = page.request.get(f"{srv.url}/api/profiles/Rafa").json()["games"]
    assert [(g["id"], g["rated"]) for g in games] == [(gid, True)]
    assert not watch.errors, watch.errors
    context.close()
