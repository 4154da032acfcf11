"""The Living Forest page (issue 13): full games by clicks in English, Korean and Chinese with no
English sentence on the Korean and Chinese pages, the end-of-round summary equal to the engine's,
refused clicks that say why, cards drawn as cards and enlarged, move previews, and the layout at
1280×800 (2 players), 1440×900 (4 players) and on a 390×844 phone."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from web_support import (
    ROOT,
    Server,
    create_from_lobby,
    game_id,
    new_page,
    play_living_forest_step,
    replay_log,
    shot,
    version,
    wait_version_above,
)

import glade
from glade.living_forest.game import LivingForestGame

I18N = ROOT / "glade" / "web" / "i18n"
NAMES = {"en": "Ada", "ko": "하나", "zh": "小林"}


def english_fragments() -> list[str]:
    """Pieces of English sentences the page could show: each text of en.json (every plural form)
    cut at its placeholders, kept when it has two English words or more."""
    en = json.loads((I18N / "en.json").read_text("utf-8"))
    glossary = json.loads((I18N / "glossary.json").read_text("utf-8"))["terms"]

    def forms(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        return [x for k, v in value.items() if k != "$n" for x in forms(v)]

    texts = [x for v in en.values() for x in forms(v)]
    texts += [t["en"] for k, t in glossary.items() if k.startswith(("lfcard.", "living-forest."))]
    found = set()
    for text in texts:
        for piece in re.split(r"\{\w+\}", text):
            piece = piece.strip(" .,:;()·—-")
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2:
                found.add(piece)
    return sorted(found, key=len, reverse=True)


FRAGMENTS = english_fragments()


def english_on_page(page: Page) -> list[str]:
    """The English sentences visible on the page (the toast and dialogs included)."""
    text = page.evaluate("() => document.body.innerText")
    return [f for f in FRAGMENTS if f in text]


def token_of(page: Page, gid: str, seat: int = 0) -> str:
    data = page.evaluate("() => JSON.parse(localStorage.getItem('glade.seats') || '{}')")
    token: str = data[gid]["tokens"][str(seat)]
    return token


def server_view(base: str, gid: str, token: str) -> dict[str, Any]:
    resp = httpx.get(f"{base}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 200
    view: dict[str, Any] = resp.json()["view"]
    return view


SUMMARY = """() => {
    const box = document.querySelector("[data-testid=lf-summary]");
    if (!box) return null;
    const num = (el, name) => Number(el.getAttribute(name));
    const sacred = box.querySelector("[data-testid=lf-sum-sacred]");
    const list = (el, name, sep) => (el.getAttribute(name) || "").split(sep).filter(Boolean);
    return {
        round: num(box, "data-round"),
        power: num(box.querySelector("[data-testid=lf-sum-onibi]"), "data-power"),
        spirits: [...box.querySelectorAll("[data-summary-seat]")].map((el) => ({
            seat: num(el, "data-summary-seat"),
            water: num(el, "data-water"),
            varans: num(el, "data-varans"),
            attacked: el.getAttribute("data-attacked") === "true",
            reshuffles: num(el, "data-reshuffles"),
        })),
        fires_added: list(box.querySelector("[data-testid=lf-sum-fires]"), "data-fires", ",").map(Number),
        refilled: list(box.querySelector("[data-testid=lf-sum-refill]"), "data-refilled", "|"),
        sacred_tree: { from: num(sacred, "data-from"), to: num(sacred, "data-to") },
    };
}"""


def page_summary(page: Page) -> dict[str, Any] | None:
    """The end-of-round summary as the page shows it, read from its data attributes in one
    script run, so from one drawing of the page. (Read attribute by attribute, a summary could
    mix two drawings when a round ended between two reads: the previous round's rows under the
    new round's number. That was issue 31, 6: the page drew each summary whole and right.)"""
    found: dict[str, Any] | None = page.evaluate(SUMMARY)
    return found


def engine_summary_shape(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "round": s["round"],
        "power": s["onibi"]["power"],
        "spirits": s["spirits"],
        "fires_added": s["fires_added"],
        "refilled": [r["card"] for r in s["refilled"]],
        "sacred_tree": s["sacred_tree"],
    }


def summaries_of_replay(game: LivingForestGame) -> dict[int, dict[str, Any]]:
    """Every end-of-round record of a finished game, replayed by the engine from its log."""
    fresh = glade.new_game("living-forest", seed=game.seed, **game.options)
    assert isinstance(fresh, LivingForestGame)
    found = {}
    for seat, code, _ in game.log:
        fresh.apply_action_id(seat, code)
        if fresh.last_round is not None:
            found[fresh.last_round["round"]] = fresh.last_round
    return found


def choose_language(page: Page, base: str, lang: str) -> None:
    page.goto(base + "/#/")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("#lang-select", lang)


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_a_full_game_by_clicks(server: Server, browser: Browser, lang: str) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    choose_language(page, server.url, lang)
    rng = random.Random({"en": 5, "ko": 6, "zh": 7}[lang])
    create_from_lobby(
        page, server.url, "living-forest", ["human", "greedy"], names={0: NAMES[lang]}
    )
    page.wait_for_selector("[data-testid=table]")
    gid = game_id(page)
    shown: dict[int, dict[str, Any]] = {}  # round -> the summary the page showed first
    english: set[str] = set()
    clicks = 0
    while not page.locator("[data-testid=end-screen]").count():
        if not play_living_forest_step(page, rng):
            page.wait_for_timeout(50)
            continue
        clicks += 1
        assert clicks < 700, "the game did not end after 700 clicks"
        seen = page_summary(page)
        if seen is not None and seen["round"] not in shown:
            shown[seen["round"]] = seen
            if lang != "en":
                english |= set(english_on_page(page))
            if len(shown) == 2:
                shot(page, f"lf-summary-{lang}.png", full_page=False)
        if lang != "en" and clicks % 40 == 0:
            english |= set(english_on_page(page))
    end = page.locator("[data-testid=end-screen]")
    expect(end).to_be_visible()
    engine = replay_log(server.url, gid)
    assert isinstance(engine, LivingForestGame)
    result = engine.result()
    for seat in (0, 1):
        total = int(end.locator(f"[data-total-seat='{seat}']").inner_text())
        assert total == result["scores"][seat]
    # the end screen says why: who reached 12 of what
    reached = [b for b in result["breakdown"] if b["reached"]]
    assert reached
    expect(end.locator("[data-reached-seat]")).to_have_count(len(reached))
    # every summary the page showed is the engine's own record of that round
    replayed = summaries_of_replay(engine)
    assert len(shown) >= 3
    for rnd, seen in shown.items():
        assert seen == engine_summary_shape(replayed[rnd]), rnd
    if lang != "en":
        english |= set(english_on_page(page))
        assert not english, f"English on the {lang} page: {sorted(english)[:10]}"
    shot(page, f"lf-end-{lang}.png", full_page=False)
    assert watch.errors == []
    context.close()


def start_game(page: Page, base: str, seats: list[str], lang: str = "en") -> str:
    choose_language(page, base, lang)
    create_from_lobby(page, base, "living-forest", seats, names={0: NAMES[lang]})
    page.wait_for_selector("[data-testid=table]")
    return game_id(page)


def refusal_sentence(page: Page, code: str, params: dict[str, Any]) -> str:
    text: str = page.evaluate(
        """async ([code, params]) => {
            const m = await import("/js/base/i18n.js");
            return m.refusal(code, params, "?");
        }""",
        [code, params],
    )
    return text


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_refused_click_says_why(server: Server, browser: Browser, lang: str) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    gid = start_game(page, server.url, ["human", "greedy"], lang)
    token = token_of(page, gid)
    before = server_view(server.url, gid, token)["spirits"][0]
    # while the spirits draw, the display is shown but cannot be used: a click says why
    card = page.locator(".display .lfcard[aria-disabled=true]").first
    expect(card).to_be_visible()
    reason = json.loads(card.get_attribute("data-refusal") or "{}")
    assert reason["code"] == "round.drawing"
    v = version(page)
    card.click()
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    sentence = refusal_sentence(page, reason["code"], reason.get("params") or {})
    assert sentence and sentence != "?"
    expect(toast).to_have_text(sentence)
    assert card.get_attribute("title") == sentence  # and on hover
    # nothing was sent (the bot draws meanwhile: only our spirit is compared)
    assert server_view(server.url, gid, token)["spirits"][0] == before
    if lang != "en":
        assert not english_on_page(page)
    # an unavailable action button is shown too, with its reason
    page.click("[data-key=draw]")
    wait_version_above(page, v)
    assert watch.errors == []
    context.close()


def test_a_card_enlarges_by_click_and_by_keyboard(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    start_game(page, server.url, ["human", "greedy"])
    cards = page.locator(".display .lfcard-wrap")
    expect(cards).to_have_count(12)
    # drawn as a card: its cost, its level, its elements with their values
    first = cards.first.locator(".lfcard")
    expect(first.locator(".cost")).to_be_visible()
    expect(first.locator(".lvl")).to_be_visible()
    assert first.locator(".card-els .el").count() >= 1
    rows = page.locator(".display .card-row")
    expect(rows).to_have_count(3)
    for i in range(3):  # four to a row, on one line
        tops = rows.nth(i).evaluate(
            "r => [...r.children].map(c => Math.round(c.getBoundingClientRect().top))"
        )
        assert len(tops) == 4 and len(set(tops)) == 1, tops
    name = first.get_attribute("data-card") or ""
    cards.first.locator(".zoom").click()
    zoom = page.locator("[data-testid=lf-zoom]")
    expect(zoom).to_be_visible()
    big = zoom.locator(".lfcard").bounding_box()
    small = first.bounding_box()
    assert big and small and big["width"] > 1.5 * small["width"]
    expect(zoom.locator(".lfcard")).to_have_attribute("data-card", name)
    shot(page, "lf-card-zoom.png", full_page=False)
    page.keyboard.press("Escape")
    expect(zoom).to_have_count(0)
    # by keyboard: focus the card's enlarge button and press Enter
    cards.nth(5).locator(".zoom").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=lf-zoom]")).to_be_visible()
    page.locator("[data-key=zoom-close]").click()
    expect(page.locator("[data-testid=lf-zoom]")).to_have_count(0)
    assert watch.errors == []
    context.close()


def play_until(page: Page, rng: random.Random, ready: str, limit: int = 400) -> bool:
    """Click what the page offers (never the move itself) until ``ready`` matches."""
    for _ in range(limit):
        if page.locator(ready).count():
            return True
        if page.locator("[data-testid=end-screen]").count():
            return False
        choose = page.locator("[data-key=choose-move][data-act]")
        if choose.count():
            v = version(page)
            choose.click()
            wait_version_above(page, v)
            continue
        if not play_living_forest_step_no_move(page, rng):
            page.wait_for_timeout(50)
    return False


def play_living_forest_step_no_move(page: Page, rng: random.Random) -> bool:
    offered = page.locator("[data-testid=table] [data-act]:not([data-key=undo])")
    keys = [offered.nth(i).get_attribute("data-key") or "" for i in range(offered.count())]
    if keys and all(k.startswith(("move-", "rock-")) for k in keys):
        return False
    return play_living_forest_step(page, rng)


def test_a_move_previews_where_the_spirit_lands(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    gid = start_game(page, server.url, ["human", "greedy"])
    token = token_of(page, gid)
    rng = random.Random(12)
    assert play_until(page, rng, ".move-btn"), "no move came up in the game"
    view = server_view(server.url, gid, token)
    moves = view["in_progress"]["moves"]
    buttons = page.locator(".move-btn")
    expect(buttons).to_have_count(len(moves))
    for i, m in enumerate(moves):
        b = buttons.nth(i)
        assert b.get_attribute("data-preview") == str(m["rock"])
        expect(b.locator(".preview")).to_contain_text(str(m["rock"] + 1))
        rock = page.locator(f".rock.landing[data-rock='{m['rock']}']")
        expect(rock).to_have_count(1)
        expect(rock).to_have_attribute(
            "data-act", json.dumps({"type": "move", "steps": m["steps"]}, separators=(",", ":"))
        )
    shot(page, "lf-move-preview.png", full_page=False)
    # moving lands the spirit where the preview said
    chosen = moves[-1]
    v = version(page)
    page.locator(f".rock.landing[data-rock='{chosen['rock']}']").click()
    wait_version_above(page, v)
    after = server_view(server.url, gid, token)
    assert after["spirits"][0]["rock"] == chosen["rock"]
    assert watch.errors == []
    context.close()


def no_sideways_overflow(page: Page) -> None:
    wide = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide} px wider than the window"


@pytest.mark.parametrize(
    ("width", "height", "players", "name"),
    [
        (1280, 800, 2, "lf-1280x800-2p.png"),
        (1440, 900, 4, "lf-1440x900-4p.png"),
        (390, 844, 2, "lf-390x844.png"),
    ],
)
def test_the_layout_at_each_size(
    server: Server, browser: Browser, width: int, height: int, players: int, name: str
) -> None:
    context, page, watch = new_page(browser, width, height)
    start_game(page, server.url, ["human"] + ["greedy"] * (players - 1))
    rng = random.Random(width)
    clicks = 0
    # into the game: a forest with trees, a help line with cards
    while clicks < 30 and not page.locator("[data-testid=end-screen]").count():
        if play_living_forest_step(page, rng):
            clicks += 1
        else:
            page.wait_for_timeout(50)
    page.wait_for_selector(".lf-table")
    for seat in range(players):
        expect(page.locator(f"[data-board-seat='{seat}']")).to_have_count(1)
    no_sideways_overflow(page)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name, full_page=False)
    shot(page, name.replace(".png", "-full.png"))
    assert watch.errors == []
    context.close()


def test_playback_highlights_what_a_step_changed(server: Server, browser: Browser) -> None:
    """The shell passes c.step = {entry, seat}: the module marks what that entry changed, and
    lastRound(c) names who has 12 of what (the view's `reached`)."""
    context, page, watch = new_page(browser, 1280, 800)
    gid = start_game(page, server.url, ["human", "greedy"])
    view = server_view(server.url, gid, token_of(page, gid))
    found = page.evaluate(
        """async (view) => {
            const lf = await import("/js/games/living_forest.js");
            await lf.prepare();
            const ui = lf.newUi();
            const names = ["Ada", "Bo"];
            const c = (step, v = view) => ({ view: v, legal: [], seat: 0, mine: [0], watching: false,
              nameOf: (s) => names[s], ui, hint: null, step });
            const box = document.createElement("div");
            const html = (step, v) => { box.innerHTML = lf.render(c(step, v)); return box; };
            const out = {};
            out.slot = html({ seat: 1, entry: { seat: 1, action: { type: "pick_card", level: 2, slot: 3 } } })
              .querySelector("[data-slot='2,3'].fresh") !== null;
            out.cell = html({ seat: 1, entry: { seat: 1, action: { type: "plant", tree: "T3a", row: 0, column: 1 } } })
              .querySelector("[data-board-seat='1'] [data-slot='0,1'].fresh") !== null;
            out.pawn = html({ seat: 1, entry: { seat: 1, action: { type: "move", steps: 2 } } })
              .querySelector("[data-pawn='1'].fresh") !== null;
            out.none = html(undefined).querySelectorAll(".fresh").length;
            out.boards = [...html(undefined).querySelectorAll("[data-board-seat]")].map((e) => e.dataset.boardSeat);
            out.noLast = lf.lastRound(c(undefined));
            const reached = { ...view, phase: "actions", reached: [{ seat: 1, kinds: ["fires"], total: 20 }] };
            out.last = lf.lastRound(c(undefined, reached));
            return out;
        }""",
        view,
    )
    assert found["slot"] and found["cell"] and found["pawn"], found
    assert found["none"] == 0
    assert sorted(found["boards"]) == ["0", "1"]
    assert found["noLast"] is None
    assert "Bo" in found["last"] and "12" in found["last"] and "12 fires" in found["last"]
    assert watch.errors == []
    context.close()
