"""Shared fixtures of the browser tests: a real ``glade serve`` process and Debian's chromium.

Imported by each ``test_web_*.py``. Playwright drives /usr/bin/chromium (installed by the Makefile);
screenshots go to tests/artifacts/ (ignored by git) for a person to look at.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

import glade
from tests.server.server_support import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Server(ServerProcess):
    """``python -m glade.server`` on a free port with its own SQLite file, started at once
    (``extra``: more command-line options, which win over the defaults)."""

    def __init__(self, db_path: Path, *extra: str) -> None:
        limits = ["--messages-per-second", "1000", "--max-games-per-client", "1000"]
        super().__init__(f"sqlite:///{db_path}", *limits, *extra)
        self.start()


class Watch:
    """Collects a page's uncaught script errors so that a test can assert there were none."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))


def new_page(
    browser: Browser, width: int = 1280, height: int = 900, pace: str | None = "0"
) -> tuple[BrowserContext, Page, Watch]:
    """A page of a fresh context; others' moves are drawn at once (``pace`` "0", the table's
    "instant") unless a test asks for a playback pace (None: the page's default)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    if pace is not None:
        context.add_init_script(
            "try { if (localStorage.getItem('glade.pace') === null)"
            f" localStorage.setItem('glade.pace', '{pace}'); }} catch (e) {{}}"
        )
    page = context.new_page()
    page.set_default_timeout(30000)
    return context, page, Watch(page)


def shot(page: Page, name: str, full_page: bool = True) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=full_page)
    return path


# The texts of the elements matching a selector that break inside a word (a Korean or Chinese
# name or label broken over two lines, "플레이어 / 1", "守护 / 树"): the text shown (a screen
# reader's words left out) runs on more lines than it has words. A seat's mark (●) is no word;
# tops within 6 px are one line (a badge sits a little higher than its text).
BROKEN_WORDS = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const tops = new Set();
    let text = '';
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest('.sr-only') || !n.textContent.trim()) continue;
      text += ' ' + n.textContent;
      const r = document.createRange(); r.selectNodeContents(n);
      for (const x of r.getClientRects()) if (x.width > 0) tops.add(Math.round(x.top));
    }
    text = text.trim();
    if (!text) continue;
    const rows = [...tops].sort((a, b) => a - b).filter((top, i, all) => i === 0 || top - all[i - 1] > 6);
    const words = text.split(/\\s+/).filter(w => w.replace(/[●▲■◆▶·]/g, '')).length;
    if (rows.length > Math.max(1, words)) out.push(text);
  }
  return out;
}"""


def version(page: Page) -> int:
    return int(page.get_attribute("[data-testid=table]", "data-version") or -1)


def wait_version_above(page: Page, old: int, timeout: float = 45000) -> int:
    """Wait until the table shows a later version (or is covered to be handed to the next player)."""
    page.wait_for_function(
        "v => { if (document.querySelector('[data-testid=handoff]')) return true;"
        " const t = document.querySelector('[data-testid=table]');"
        " return t && Number(t.dataset.version) > v; }",
        arg=old,
        timeout=timeout,
    )
    return version(page) if page.locator("[data-testid=table]").count() else old + 1


def game_id(page: Page) -> str:
    match = re.search(r"#/play/([^/]+)", page.url)
    assert match, page.url
    return match.group(1)


def create_from_lobby(
    page: Page,
    base: str,
    game: str,
    seats: list[str],
    mode: str = "hotseat",
    names: dict[int, str] | None = None,
    side: str = "A",
    spirits: bool = False,
) -> None:
    """Fill the lobby form (game, players, side, seats, mode) and press Create."""
    page.goto(base + "/#/")
    page.wait_for_selector("[data-testid=create]")
    page.check(f"input[name=game][value={game}]")
    page.select_option("[data-testid=players]", str(len(seats)))
    if game == "harmonies":
        page.check(f"input[name=side][value={side}]")
        page.set_checked("input[name=spirits]", spirits)
    if len(seats) > 1:
        page.check(f"input[name=mode][value={mode}]")
    for i, kind in enumerate(seats):
        page.select_option(f"[data-seat-kind='{i}']", kind)
        if kind == "human":
            page.fill(f"[data-seat-name='{i}']", (names or {}).get(i, ""))
    page.click("[data-testid=create]")


def replay_log(base: str, gid: str) -> glade.Game:
    """The finished game rebuilt by the engine from the server's log (seed revealed at the end)."""
    log = httpx.get(f"{base}/api/games/{gid}/log", timeout=10).json()
    assert log["over"], "the game is not over"
    state = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()
    view = state["view"]
    # Harmonies' view carries its options; Living Forest's only its player count
    options = dict(view["options"]) if "options" in view else {"players": view["players"]}
    game = glade.new_game(state["game"], seed=log["seed"], **options)
    for entry in log["history"]:
        game.apply(entry["seat"], entry["action"])
    return game


def acts(page: Page, selector: str) -> list[dict[str, Any]]:
    """The actions offered by the elements that match ``selector``."""
    found = page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.act)")
    return [json.loads(a) for a in found]


def click_one(page: Page, selector: str, rng: random.Random, chance: float = 1.0) -> bool:
    """Click one of the elements ``selector`` matches, at random (with probability ``chance``
    when there are any); False if none was clicked."""
    found = page.locator(selector)
    count = found.count()
    if not count or (chance < 1.0 and rng.random() >= chance):
        return False
    found.nth(rng.randrange(count)).click()
    return True


def play_harmonies_turn(page: Page, rng: random.Random, take_cards: bool = True) -> None:
    """Play one Harmonies turn of the seat on screen by clicks among what the page offers."""
    v = version(page)
    for _ in range(40):
        if (
            click_one(page, "[data-key^=spirit-]", rng)
            or click_one(page, ".space.legal", rng)
            or _place_from_hand(page, rng)
            or click_one(page, ".cell.cube-ok", rng)
            or click_one(page, "[data-key^=discard-]", rng, 0.3)
            or (take_cards and click_one(page, "[data-key^=take-]", rng, 0.7))
        ):
            v = wait_version_above(page, v)
            continue
        end = page.locator("[data-key=end_turn]")
        assert end.count() == 1, "nothing left to do but the page offers no End turn"
        end.click()
        wait_version_above(page, v)
        return
    raise AssertionError("a turn did not end after 40 clicks")


def _place_from_hand(page: Page, rng: random.Random) -> bool:
    """Choose a token in hand, then one of the cells the page highlights for it."""
    if not click_one(page, "[data-testid=hand] .token-btn", rng):
        return False
    assert click_one(page, ".cell.legal", rng), "a token in hand has no highlighted cell"
    return True


LF_WEIGHTS = {"end_actions": 0.05, "done": 0.3, "stop": 0.25, "use_fragment": 0.1, "plant": 3.0}


def play_living_forest_step(page: Page, rng: random.Random) -> bool:
    """Click one of the moves the Living Forest page offers now; False if it offers none."""
    start = version(page)
    offered = page.locator("[data-testid=table] [data-act]:not([data-key=undo])")
    count = offered.count()
    if not count:  # choose a tree first, then its highlighted cells appear
        return click_one(page, "[data-key^=tree-]", rng)
    kinds = [
        json.loads(offered.nth(i).get_attribute("data-act") or "{}")["type"] for i in range(count)
    ]
    weights = [LF_WEIGHTS.get(k, 1.0) for k in kinds]
    choice = rng.choices(range(count), weights)[0]
    offered.nth(choice).click()
    wait_version_above(page, start)
    return True


# What the table draws, watched from outside the page (the page has no test hooks): every new
# table element is a redraw; every step of someone else's move shown on the playback line is
# recorded once, with the table's version then and the time it appeared.
PROBE = """
(() => {
  const probe = { redraws: 0, steps: [] };
  Object.defineProperty(window, "__tableProbe", { value: probe });
  const seen = new Set();
  const look = () => {
    const line = document.querySelector("[data-testid=step-line][data-move]");
    if (!line || seen.has(line.dataset.move)) return;
    seen.add(line.dataset.move);
    const table = document.querySelector("[data-testid=table]");
    probe.steps.push({ move: Number(line.dataset.move), seat: Number(line.dataset.seat),
      version: table ? Number(table.dataset.version) : -1, at: performance.now() });
  };
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.matches("[data-testid=table]")) probe.redraws += 1;
    }
    look();
  }).observe(document, { childList: true, subtree: true });
})();
"""


def watch_table(context: BrowserContext) -> None:
    """Record the table's redraws and played-back steps in every page of ``context``
    (read them with :func:`table_probe`)."""
    context.add_init_script(PROBE)


def table_probe(page: Page) -> dict[str, Any]:
    probe: dict[str, Any] = page.evaluate("() => JSON.parse(JSON.stringify(window.__tableProbe))")
    return probe
