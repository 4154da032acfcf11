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
from glade.server.features.ratings import rating_json

sys.path.insert(0, str(ROOT / "tests" / "server"))
from server_support import make_settings, play_random  # noqa: E402
from test_server_accounts import PASSWORD, claim, signup  # noqa: E402
from test_server_accounts import Browser as Account  # noqa: E402

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
        # a rated table of which Mira holds both seats: it does not count, and says why
        r = mira.post(
            "/api/games",
            json={
                "game": "harmonies",
                "rated": True,
                "seats": [{"kind": "human", "name": NAME}, {"kind": "human", "name": "Mira 2"}],
            },
            headers={"X-CSRF-Token": csrf},
        )
        assert r.status_code == 201, r.text
        for seat in r.json()["seats"]:
            got = claim(mira, r.json()["id"], seat["token"], csrf)
            assert got.status_code == 200, got.text
        tables["harmonies"]["same_account"] = r.json()["id"]
        # an unrated game Mira left at once: a bot played her seat to the end for her
        gid, tokens = _table(c, mira, csrf, "harmonies", "greedy", rated=False)
        left = mira.post(
            f"/api/games/{gid}/leave",
            headers={"Authorization": f"Bearer {tokens[0]}", "X-CSRF-Token": csrf},
        )
        assert left.status_code == 200, left.text
        play_random(c, gid, [None, None], random.Random(9))
        tables["harmonies"]["left"] = gid
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
    # per game, a "rated" and an "unrated" table in play; Harmonies also a rated table of two
    # seats of one account ("same_account", that does not count) and a finished unrated game
    # that Mira left ("left")
    tables: dict[str, dict[str, str]]


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
    # a level no rated game here has moved stands at its calibration, on the display scale
    greedy = page.locator("tr[data-identity='bot:greedy']")
    expect(greedy.locator("[data-testid=rating]")).to_have_text(
        _shown(_rating(cal["greedy"].mu, cal["greedy"].sigma, cal["greedy"].games))
    )
    expect(greedy).to_contain_text(f"{cal['greedy'].games} bot-vs-bot games")
    for level in cal:
        expect(page.locator(f"tr[data-identity='bot:{level}']")).to_have_count(1)
    expect(page.locator(f"tr[data-identity='user:{user_id}']")).to_contain_text(NAME)
    # every row as the server ranks it (by μ − 3σ), each rating on the display scale with "?"
    # while provisional (Mira, three games in: σ above 4) and its μ ± σ beside it
    entries = httpx.get(f"{srv.url}/api/ratings/harmonies", timeout=10).json()["entries"]
    rows = page.locator("tbody tr[data-identity]")
    expect(rows).to_have_count(len(entries))
    assert [rows.nth(i).get_attribute("data-identity") for i in range(len(entries))] == [
        e["identity"] for e in entries
    ]
    shown = page.locator("tbody tr [data-testid=rating]").all_inner_texts()
    assert shown == [_shown(e) for e in entries]
    mira = next(e for e in entries if e["identity"] == f"user:{user_id}")
    assert mira["provisional"] and _shown(mira).endswith("?")
    expect(page.locator(f"tr[data-identity='user:{user_id}']")).to_contain_text(
        f"{_fmt(mira['mu'])} ± {_fmt(mira['sigma'])}"
    )
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
    # the rating on the display scale, provisional after three games, its μ/σ detail beside it
    profile = httpx.get(f"{srv.url}/api/profiles/{NAME}", timeout=10).json()
    r = profile["ratings"]["harmonies"]
    expect(page.locator("[data-testid=rating-harmonies]")).to_have_text(_shown(r))
    expect(page.locator("[data-testid=rating-detail-harmonies]")).to_have_text(
        f"μ {_fmt(r['mu'])} ± σ {_fmt(r['sigma'])} · 3 rated games"
    )
    expect(page.locator("[data-testid=provisional-harmonies]")).to_contain_text("provisional")
    # the chart on that scale: its points at the displayed ratings after each game
    labels = chart.locator("circle[data-point] title").all_text_contents()
    for h in profile["history"]:
        assert any(f": {h['display']} (place" in x for x in labels), (h, labels)
    # every game listed, with its result and its change on the display scale
    by_id = {g["id"]: g for g in profile["games"]}
    for gid in games:
        row = page.locator(f"tr[data-game-id='{gid}']")
        expect(row).to_contain_text("place")
        change = by_id[gid]["rating"]["display_after"] - by_id[gid]["rating"]["display_before"]
        expect(row.locator("[data-testid=delta]")).to_have_text(_delta(change))
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
        expect(option).to_contain_text(f"rating {_shown(_rating(r.mu, r.sigma, r.games))}")
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


def _rating(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A calibration's rating as the server shows it (its display scale and provisional mark,
    from the server's own function)."""
    return rating_json(mu, sigma, games)


def _shown(r: dict[str, Any]) -> str:
    """A rating as the page shows it: the display scale, "?" while provisional."""
    return f"{r['display']}{'?' if r['provisional'] else ''}"


def _delta(n: int) -> str:
    return f"+{n}" if n >= 0 else f"\u2212{-n}"


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
    # whether it counts is decided at the first move: Mira never moves at the Harmonies table,
    # so it is still open there (the badge says so); Living Forest's bot draws at once (wait
    # for it), which decides it
    gid = rated_server.tables[game]["rated"]
    for _ in range(300):
        decided = httpx.get(f"{srv.url}/api/games/{gid}/ratings", timeout=10).json()["decided"]
        if decided or game == "harmonies":
            break
        time.sleep(0.1)
    assert decided == (game == "living-forest")
    page.goto(f"{srv.url}/#/watch/{gid}")
    expect(badge).to_have_text("Rated")
    expect(badge).to_have_attribute("data-rated", "true")
    expect(badge).to_have_attribute("data-counts", "true")
    title = badge.get_attribute("title") or ""
    assert ("decided at its first move" in title) == (not decided), title
    mira = httpx.get(f"{srv.url}/api/profiles/{NAME}", timeout=10).json()["ratings"][game]
    expect(page.locator("[data-testid=seat-rating-0]")).to_have_text(_shown(mira))
    expect(page.locator("[data-testid=seat-rating-0]")).to_have_attribute(
        "title",
        re.compile(f"μ {_fmt(mira['mu'])} ± σ {_fmt(mira['sigma'])} · {mira['games']} rated game"),
    )
    if mira["provisional"]:
        expect(page.locator("[data-testid=seat-rating-0]")).to_have_attribute(
            "title", re.compile("provisional")
        )
    greedy = load_calibration()[game]["greedy"]
    expect(page.locator("[data-testid=seat-rating-1]")).to_have_text(
        _shown(_rating(greedy.mu, greedy.sigma, greedy.games))
    )
    expect(page.locator("[data-testid=rated-why]")).to_be_hidden()
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
        mark = "?" if seat["rating"]["provisional"] else ""
        delta = change["display_after"] - change["display_before"]
        expect(page.locator(f"[data-testid=seat-rating-{i}]")).to_have_text(
            f"{change['display_after']}{mark} ({_delta(delta)})"
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


@pytest.mark.parametrize("lang", LANGS)
def test_a_rated_table_that_does_not_count_says_why(
    browser: Browser, rated_server: Rated, lang: str
) -> None:
    """A rated table of which one account holds both seats: the server decides it does not
    count (``counts`` false, ``reason`` server.unrated.same_account). The badge says "Not
    counted", the reason stands in words under the seats (a phone has no tooltip), no rating
    is shown at stake; desktop and phone."""
    srv = rated_server.srv
    gid = rated_server.tables["harmonies"]["same_account"]
    stake = httpx.get(f"{srv.url}/api/games/{gid}/ratings", timeout=10).json()
    assert stake["rated"] and not stake["counts"]
    assert stake["reason"] == "server.unrated.same_account"
    words = _strings(lang)
    for size in [(1280, 800), (390, 844)]:
        context, page, watch = _in(browser, lang, size)
        page.goto(f"{srv.url}/#/watch/{gid}")
        badge = page.locator("[data-testid=table] [data-testid=rated-badge]")
        expect(badge).to_have_text(words["rating.badgeNotCounted"])
        expect(badge).to_have_attribute("data-counts", "false")
        why = words["refusal.server.unrated.same_account"]
        expect(badge).to_have_attribute("title", why)
        expect(page.locator("[data-testid=rated-why]")).to_have_text(why)
        expect(page.locator("[data-testid=rated-why]")).to_be_visible()
        expect(page.locator("[data-testid^=seat-rating-]")).to_have_count(0)
        shot(page, f"rated-table-not-counted-{lang}-{size[0]}.png", full_page=False)
        assert not watch.errors, watch.errors
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_a_bot_finished_for_mira_says_so_in_her_profile_and_games(
    browser: Browser, rated_server: Rated, lang: str
) -> None:
    """Mira left a game and a bot played her seat to the end (the server's ``taken_over``
    seat): her profile's games and her account's My games in the lobby name her seat "Mira
    (Greedy bot plays for them)", the profile with why ("left the game")."""
    srv = rated_server.srv
    gid = rated_server.tables["harmonies"]["left"]
    seat = httpx.get(f"{srv.url}/api/games/{gid}", timeout=10).json()["seats"][0]
    assert seat["taken_over"] and seat["name"] == NAME and ":" not in seat["bot"]
    words = _strings(lang)
    title = words["seat.takenOver"].format(name=NAME, bot=words[f"bot.{seat['bot']}"])
    context, page, watch = _in(browser, lang, (1280, 800))
    page.goto(f"{srv.url}/#/profile/{NAME}")
    row = page.locator(f"[data-testid=profile-games] tr[data-game-id='{gid}']")
    expect(row).to_contain_text(f"{title} · {words['seat.whyLeft']}")
    r = page.request.post(f"{srv.url}/api/account/login", data={"name": NAME, "password": PASSWORD})
    assert r.status == 200, r.text()
    page.goto(f"{srv.url}/#/")
    page.reload()  # the page reads its session when it loads
    mine = page.locator(f"[data-mygame='{gid}']")
    expect(mine).to_contain_text(title)
    # scrolled to in one step (the list may be drawn again as the session's games arrive)
    page.evaluate("id => document.querySelector(`[data-mygame='${id}']`).scrollIntoView()", gid)
    expect(mine).to_contain_text(title)
    shot(page, f"mygames-taken-over-{lang}.png", full_page=False)
    assert not watch.errors, watch.errors
    context.close()
