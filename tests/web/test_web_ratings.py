"""The ratings pages: the leaderboard (bots at their calibrated ratings), a profile's chart and
games (a player's and a bot level's), and the table's badge that says whether it is rated."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect
from web_support import ROOT, Server, new_page, shot

from glade.arena.ratings import load_calibration
from glade.server import create_app

sys.path.insert(0, str(ROOT / "tests" / "server"))
from server_support import make_settings, play_random  # noqa: E402
from test_server_accounts import Browser as Account  # noqa: E402
from test_server_accounts import claim, signup  # noqa: E402

NAME = "Mira"
GAMES = ("harmonies", "living-forest")
LANGS = ("en", "ko", "zh")


def _table(c: TestClient, mira: Account, csrf: str, game: str, bot: str, rated: bool) -> Any:
    """A table of Mira (seat 0, claimed with its invite link) and a bot: (id, seat tokens)."""
    r = mira.post(
        "/api/games",
        json={
            "game": game,
            "rated": rated,
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
    return gid, tokens


def _rated_games(db: Path) -> tuple[list[str], str, dict[str, dict[str, str]]]:
    """Rated games of one account against bots, played through the API into ``db``: the
    account signs up, makes each rated table and claims its seat with the invite link. Then
    a rated and an unrated table of each game that are still being played."""
    played = []
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as c:
        mira = Account(c)
        csrf = signup(mira, NAME)
        user_id = mira.get("/api/account").json()["user"]["id"]
        plan = [("harmonies", "random")] * 3  # greedy plays none: it stays at its calibration
        plan.append(("living-forest", "random"))
        for i, (game, bot) in enumerate(plan):
            gid, tokens = _table(c, mira, csrf, game, bot, rated=True)
            play_random(c, gid, tokens, random.Random(i))
            played.append(gid)
        tables = {
            game: {
                kind: _table(c, mira, csrf, game, "greedy", rated=kind == "rated")[0]
                for kind in ("rated", "unrated")
            }
            for game in GAMES
        }
        for _ in range(500):  # every rating has landed
            prof = c.get(f"/api/profiles/{NAME}").json()
            if len(prof["history"]) == len(plan):
                break
            time.sleep(0.02)
        assert len(prof["history"]) == len(plan)
    return played, user_id, tables


class Rated(NamedTuple):
    srv: Server
    games: list[str]  # Mira's finished rated games: 3 of Harmonies, 1 of Living Forest
    user_id: str
    tables: dict[str, dict[str, str]]  # per game, a "rated" and an "unrated" table in play


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rated]:
    db = tmp_path_factory.mktemp("ratings") / "glade.sqlite3"
    games, user_id, tables = _rated_games(db)
    srv = Server(db)
    yield Rated(srv, games, user_id, tables)
    srv.stop()


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "mobile"])
def test_leaderboard_shows_the_bots_calibrated_ratings(
    browser: Browser, rated_server: Rated, size: tuple[int, int]
) -> None:
    srv, _, user_id, _ = rated_server
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
    browser: Browser, rated_server: Rated, size: tuple[int, int]
) -> None:
    srv, games, user_id, _ = rated_server
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


def test_lobby_shows_bot_ratings_and_bot_profiles(browser: Browser, rated_server: Rated) -> None:
    srv, _, user_id, _ = rated_server
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
    browser: Browser, rated_server: Rated
) -> None:
    srv = rated_server.srv
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


def _fmt(x: float) -> str:
    """The page's number: one decimal, a real minus sign."""
    return f"{x:.1f}".replace("-", "\u2212")


def _strings(lang: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        (ROOT / "glade" / "web" / "i18n" / f"{lang}.json").read_text()
    )
    return found


def _in(browser: Browser, lang: str, size: tuple[int, int] = (1280, 900)) -> tuple[Any, Page, Any]:
    context, page, watch = new_page(browser, *size)
    context.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
    return context, page, watch


@pytest.mark.parametrize("game", GAMES)
def test_the_table_says_whether_it_is_rated_and_what_is_at_stake(
    browser: Browser, rated_server: Rated, game: str
) -> None:
    srv = rated_server.srv
    context, page, watch = new_page(browser)
    badge = page.locator("[data-testid=table] [data-testid=rated-badge]")
    # a rated table in play: the badge in its title, each seat's rating now beside its name
    page.goto(f"{srv.url}/#/watch/{rated_server.tables[game]['rated']}")
    expect(badge).to_have_text("Rated")
    expect(badge).to_have_attribute("data-rated", "true")
    mira = httpx.get(f"{srv.url}/api/profiles/{NAME}", timeout=10).json()["ratings"][game]
    expect(page.locator("[data-testid=seat-rating-0]")).to_have_text(_fmt(mira["ordinal"]))
    expect(page.locator("[data-testid=seat-rating-0]")).to_have_attribute(
        "title", re.compile(f"{mira['games']} rated game")
    )
    greedy = load_calibration()[game]["greedy"]
    expect(page.locator("[data-testid=seat-rating-1]")).to_have_text(_fmt(greedy.ordinal))
    # an unrated table says so, and puts no rating at stake
    page.goto(f"{srv.url}/#/watch/{rated_server.tables[game]['unrated']}")
    expect(badge).to_have_text("Unrated")
    expect(badge).to_have_attribute("data-rated", "false")
    expect(page.locator("[data-testid^=seat-rating-]")).to_have_count(0)
    # a rated game that ended: each seat's rating after it and its change
    finished = rated_server.games[0 if game == "harmonies" else 3]
    seats = httpx.get(f"{srv.url}/api/games/{finished}/ratings", timeout=10).json()["seats"]
    page.goto(f"{srv.url}/#/watch/{finished}")
    expect(badge).to_have_text("Rated")
    for i, seat in enumerate(seats):
        change = seat["change"]
        delta = change["after"] - change["before"]
        expect(page.locator(f"[data-testid=seat-rating-{i}]")).to_have_text(
            f"{_fmt(change['after'])} ({'+' if delta >= 0 else ''}{_fmt(delta)})"
        )
    assert not watch.errors, watch.errors
    context.close()


def test_a_bot_profile_lists_its_rated_games_and_chart(
    browser: Browser, rated_server: Rated
) -> None:
    srv, games, _, _ = rated_server
    context, page, watch = new_page(browser)
    page.goto(f"{srv.url}/#/leaderboard/harmonies")
    page.locator("tr[data-identity='bot:random'] a").click()
    profile = page.locator("[data-testid=profile]")
    expect(profile).to_contain_text("Random bot")
    # its rating chart: the four rated games it played against Mira
    chart = page.locator("svg[data-testid=rating-chart]")
    expect(chart.locator("circle[data-point]")).to_have_count(4)
    expect(chart.locator("polyline[data-game=living-forest]")).to_have_count(1)
    # and those games, each with its opponent, its result, the rating change and its replay
    rows = page.locator("[data-testid=profile-games] tbody tr[data-game-id]")
    expect(rows).to_have_count(4)
    for gid in games:
        row = page.locator(f"tr[data-game-id='{gid}']")
        expect(row).to_contain_text(NAME)
        expect(row).to_contain_text("place")
        expect(row.locator("[data-testid=delta]")).to_have_count(1)
        expect(row.locator(f"a[href='#/replay/{gid}']")).to_have_count(1)
    page.locator(f"tr[data-game-id='{games[0]}'] a[href^='#/replay/']").click()
    page.wait_for_url(f"**/#/replay/{games[0]}")
    assert not watch.errors, watch.errors
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_rated_tables_profiles_and_leaderboard_in_every_language(
    browser: Browser, rated_server: Rated, lang: str
) -> None:
    """Screenshots (tests/artifacts/) of what a player sees, at a desktop's and a phone's size."""
    srv = rated_server.srv
    words = _strings(lang)
    for size in [(1280, 800), (390, 844)]:
        context, page, watch = _in(browser, lang, size)
        tag = f"{lang}-{size[0]}"
        for game in GAMES:
            page.goto(f"{srv.url}/#/watch/{rated_server.tables[game]['rated']}")
            badge = page.locator("[data-testid=table] [data-testid=rated-badge]")
            expect(badge).to_have_text(words["rating.badgeRated"])
            expect(page.locator("[data-testid=seat-rating-1]")).to_be_visible()
            assert (badge.bounding_box() or {"x": -1})["x"] >= 0  # in the window
            shot(page, f"rated-table-{game}-{tag}.png", full_page=False)
        page.goto(f"{srv.url}/#/watch/{rated_server.games[0]}")  # ended: each seat's change
        page.locator("[data-close-end]").click()
        expect(page.locator("[data-testid=seat-rating-0]")).to_contain_text("(")
        shot(page, f"rated-table-finished-harmonies-{tag}.png", full_page=False)
        page.goto(f"{srv.url}/#/watch/{rated_server.tables['harmonies']['unrated']}")
        expect(page.locator("[data-testid=rated-badge]")).to_have_text(words["rating.badgeUnrated"])
        shot(page, f"unrated-table-harmonies-{tag}.png", full_page=False)
        page.goto(f"{srv.url}/#/profile/bot:random")
        expect(page.locator("[data-testid=profile-games] tr[data-game-id]")).to_have_count(4)
        shot(page, f"ratings-bot-profile-{tag}.png")
        page.goto(f"{srv.url}/#/leaderboard/harmonies")
        expect(page.locator("tr[data-identity='bot:greedy']")).to_have_count(1)
        shot(page, f"ratings-leaderboard-{tag}.png")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], f"the leaderboard is wider than the window: {width}"
        assert not watch.errors, watch.errors
        context.close()
