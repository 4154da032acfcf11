"""The table at the sizes it must fit (issue 31): 1280×800 and 1440×900, 2 to 4 players, English,
Korean and Chinese, at the start and in the middle of a game (a Living Forest draw phase with its
end-of-round summary open, and an action phase): the page never scrolls, no name is cut
("Playe…"), no score header or label breaks inside a word, and Living Forest's forest cells hold
their words. On a phone (390×844), Harmonies shows the central board and the cards above your
board when you must take tokens, and the circle's labels are readable.

Each case is drawn to tests/artifacts/layout-<game>-<players>p-<lang>-<size>-<moment>.png."""

from __future__ import annotations

import json
import random
import time
from functools import cache
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page
from web_support import BROKEN_WORDS, ROOT, Server, new_page, shot

NAMES = {"en": ["Annabelle", "Bartholomew"], "ko": ["하나", "두리"], "zh": ["小林", "大卫"]}
BONUSES = ["attract", "extinguish", "plant", "take_fragment"]


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The page's catalogue of ``lang`` as the server sends it."""
    path = ROOT / "glade" / "web" / "i18n" / f"{lang}.json"
    found: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return found


MEASURE = """() => {
  const d = document.documentElement;
  const out = { height: d.scrollHeight, vh: innerHeight, width: d.scrollWidth, vw: innerWidth,
    cut: [], cramped: [] };
  const visible = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
  // a name or a label cut by its box (text-overflow or overflow hidden)
  const names = '.breakdown thead th, .breakdown th[scope=row], .other h3, .mine h2, .spirit h2, '
    + '.hcard h3, .lfcard h4, .social-seats .seat-name, .board-tabs button, .prog-label';
  for (const el of document.querySelectorAll(names)) {
    if (!visible(el) || el.closest('.hcard-zoom, .board-zoom, .lf-zoom')) continue;
    for (const x of [el, ...el.querySelectorAll('*')]) {
      if (x.closest('.sr-only')) continue;  // words for a screen reader only
      if (x.scrollWidth > x.clientWidth + 1 && getComputedStyle(x).overflow !== 'visible')
        out.cut.push(el.innerText.trim());
    }
  }
  // a forest cell's words wider than the cell
  for (const el of document.querySelectorAll('.forest .slot')) {
    if (!visible(el)) continue;
    for (const x of el.querySelectorAll('.corner-name, .corner-plus, .tree-cost')) {
      const a = x.getBoundingClientRect(), b = el.getBoundingClientRect();
      if (a.width > 0 && (a.left < b.left - 0.5 || a.right > b.right + 0.5)) out.cramped.push(x.innerText);
    }
  }
  // the circle of spirits: its height and its rocks' icons (the rocks' words were 5 px)
  const ring = document.querySelector('.circle-panel .ring');
  out.ring = ring ? ring.getBoundingClientRect().height : null;
  const icons = [...document.querySelectorAll('.rock-icon')].filter(visible);
  // a list that scrolls inside itself to keep its newest item in sight (your help line)
  out.endHidden = [...document.querySelectorAll('[data-keep-end]')].filter(visible).filter((el) => {
    const last = el.lastElementChild;
    return last && last.getBoundingClientRect().bottom > el.getBoundingClientRect().bottom + 1;
  }).length;
  out.rockIcon = icons.length ? Math.min(...icons.map(x => x.getBoundingClientRect().height)) : null;
  return out;
}"""


def play(
    base: str, gid: str, token: str, rng: random.Random, until: Any, draw_all: bool = False
) -> dict[str, Any]:
    """Play the human seat at random through the API until ``until(state)`` holds (the bots answer
    on the server); the state then. ``draw_all``: in Living Forest's draw phase, draw while the
    rules allow (the longest help line, the tallest board a player can make)."""
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(20000):
        state: dict[str, Any] = httpx.get(
            f"{base}/api/games/{gid}", headers=headers, timeout=30
        ).json()
        if state["over"] or until(state):
            return state
        legal = [a for a in state["legal_actions"] if a["type"] != "undo"]
        if not legal:  # the bots are moving
            time.sleep(0.1)
            continue
        ends = [a for a in legal if a["type"] in ("end_turn", "stop")]
        draws = [a for a in legal if a["type"] == "draw"] if draw_all else []
        if draws:
            action = draws[0]
        else:
            action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
        httpx.post(
            f"{base}/api/games/{gid}/actions",
            headers=headers,
            json={"action": action, "version": state["version"]},
            timeout=30,
        )
    raise AssertionError("the game did not reach the moment asked for")


def open_table(page: Page, base: str, game: str, players: int, lang: str) -> tuple[str, str]:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": NAMES[lang][0]}]
    seats += [{"kind": "bot", "bot": b} for b in ["greedy", "mcts:easy", "random"][: players - 1]]
    made = httpx.post(
        f"{base}/api/games",
        json={"game": game, "seats": seats, "options": {"players": players}},
        timeout=30,
    ).json()
    page.goto(base + "/#/")
    page.wait_for_selector("[data-testid=create]")
    page.evaluate("l => localStorage.setItem('glade.lang', l)", lang)
    page.goto(made["seats"][0]["url"])
    page.wait_for_selector("[data-testid=table]")
    token: str = page.evaluate(
        "id => JSON.parse(localStorage.getItem('glade.seats'))[id].tokens['0']", made["id"]
    )
    return str(made["id"]), token


def settle(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number((document.querySelector('[data-testid=table]') || {dataset: {}}).dataset.version) >= v",
        arg=version,
        timeout=60000,
    )
    page.wait_for_timeout(200)


def check(page: Page, name: str, ring: float = 0) -> list[str]:
    """What is wrong with the page drawn now (a picture of it goes to ``name``); ``ring``: the
    height the circle of spirits must have at least (Living Forest's action phase, when the
    circle is played on: 8 rem, whatever the cards above it, and its rocks' icons then at least
    9 px high)."""
    m = page.evaluate(MEASURE)
    m["broken"] = page.evaluate(BROKEN_WORDS, ".breakdown thead th, .breakdown th[scope=row]")
    shot(page, name, full_page=False)
    problems = []
    if m["height"] > m["vh"]:
        problems.append(f"the page is {m['height']} px high in {m['vh']} (it scrolls)")
    if m["width"] > m["vw"]:
        problems.append(f"the page is {m['width']} px wide in {m['vw']}")
    problems += [f"cut: {x!r}" for x in m["cut"]]
    problems += [f"broken inside a word: {x!r}" for x in m["broken"]]
    problems += [f"wider than its forest cell: {x!r}" for x in m["cramped"]]
    if ring and (m["ring"] or 0) < ring:
        problems.append(f"the circle of spirits is {m['ring']} px high (less than {ring})")
    if m["endHidden"]:
        problems.append("the newest card of a help line is out of sight")
    if ring and (m["rockIcon"] or 0) < 9:
        problems.append(f"the circle's rock icons are {m['rockIcon']} px high")
    return [f"{name}: {p}" for p in problems]


LAPTOPS = [(1280, 800), (1440, 900)]


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["harmonies", "living-forest"])
def test_the_table_fits_a_laptop_in_every_language(
    server: Server, browser: Browser, game: str, players: int, lang: str
) -> None:
    problems: list[str] = []
    for width, height in LAPTOPS:
        context, page, watch = new_page(browser, width, height)
        gid, token = open_table(page, server.url, game, players, lang)
        size = f"{width}x{height}"
        base = f"layout-{game}-{players}p-{lang}-{size}"
        problems += check(page, f"{base}-start.png")
        rng = random.Random(players * 7 + width)
        if game == "living-forest":
            # the draw phase of round 3, its summary open; then that round's action phase; you draw
            # every card the rules let you draw each round (the longest help line)
            state = play(
                server.url, gid, token, rng, lambda s: s["view"]["round"] >= 3, draw_all=True
            )
            settle(page, state["version"])
            problems += check(page, f"{base}-summary.png")
            state = play(
                server.url,
                gid,
                token,
                rng,
                lambda s: s["view"]["phase"] == "actions" and 0 in s["to_act"],
                draw_all=True,
            )
            settle(page, state["version"])
            problems += check(page, f"{base}-actions.png", ring=128)
        else:
            state = play(server.url, gid, token, rng, lambda s: s["view"]["turn"] >= 6 * players)
            settle(page, state["version"])
            problems += check(page, f"{base}-later.png")
        assert not watch.errors, watch.errors
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_a_phone_follows_the_turn_and_reads_the_circle(
    server: Server, browser: Browser, lang: str
) -> None:
    """390×844: Harmonies shows the central board above your board and the animal cards right
    under it (take, place, take a card, top to bottom: the review scrolled down and up every
    turn); Living Forest's circle is as wide as the screen and its rocks' words are readable
    (they were about 5 px): its rocks are icons, their words in a legend and each rock's tooltip."""
    context, page, watch = new_page(browser, 390, 844)
    open_table(page, server.url, "harmonies", 2, lang)
    where = page.evaluate(
        """() => Object.fromEntries(['.central', '.mine', '.row'].map(s => {
            const r = document.querySelector(s).getBoundingClientRect();
            return [s, {top: r.top + scrollY, bottom: r.bottom + scrollY}];
        }))"""
    )
    assert where[".central"]["bottom"] <= where[".mine"]["top"] + 1, where
    assert where[".mine"]["bottom"] <= where[".row"]["top"] + 1, where
    assert where[".central"]["top"] < 300, where  # in sight when the table opens
    shot(page, f"layout-phone-harmonies-{lang}.png")
    context.close()
    context, page, watch2 = new_page(browser, 390, 844)
    open_table(page, server.url, "living-forest", 2, lang)
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.rock-icon')].map(t => t.getBoundingClientRect().height)"""
    )
    assert len(sizes) == 12 and min(sizes) >= 12, sizes
    # every rock's bonus in words: in the legend under the circle (no abbreviation left without
    # one) and in the rock's tooltip, in the page's language
    words = {b: catalogue(lang)[f"lf.bonus.{b}"] for b in BONUSES}
    legend = page.locator(".circle-panel .ring-legend")
    assert legend.is_visible()
    for bonus, word in words.items():
        assert legend.locator(f".rock-{bonus}").inner_text().endswith(word), (bonus, word)
    tips = page.evaluate(
        """() => [...document.querySelectorAll('.rock')].map(g =>
            [g.getAttribute('class'), g.querySelector('title').textContent])"""
    )
    assert len(tips) == 12
    for cls, tip in tips:
        bonus = next(b for b in BONUSES if f"rock-{b}" in cls.split())
        assert words[bonus] in tip, (cls, tip)
    assert page.locator(".rock-label").count() == 0  # the 5 px abbreviations are gone
    ring = page.locator(".circle-panel .ring").bounding_box()
    assert ring is not None and ring["width"] >= 300, ring
    page.locator(".circle-panel").scroll_into_view_if_needed()
    shot(page, f"layout-phone-living-forest-{lang}.png", full_page=False)
    assert not watch.errors and not watch2.errors
    context.close()
