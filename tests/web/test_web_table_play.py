"""The table shell in the browser: others' moves played back at the chosen pace, refusals always
in a sentence of the page's language, no English on a Korean or Chinese page, the coach."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from web_support import (
    ROOT,
    Server,
    new_page,
    play_harmonies_turn,
    play_living_forest_step,
    shot,
    table_probe,
    version,
    watch_table,
)

I18N = ROOT / "glade" / "web" / "i18n"


def open_table(
    page: Page, base: str, game: str, seats: list[dict[str, Any]], lang: str = "en"
) -> str:
    """Create a game through the API and open seat 0's invite link in ``page``."""
    body = httpx.post(f"{base}/api/games", json={"game": game, "seats": seats}, timeout=20).json()
    page.goto(f"{base}/#/")
    page.wait_for_selector("[data-testid=create]")  # the page has chosen its language
    page.evaluate("l => localStorage.setItem('glade.lang', l)", lang)
    page.goto(body["seats"][0]["url"])
    page.wait_for_selector("[data-testid=table]")
    return str(body["id"])


def forms(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [f for k, v in value.items() if not k.startswith("$") for f in forms(v)]


def english_fragments(lang: str) -> list[str]:
    """Pieces of English sentences of en.json (between placeholders, two words or more) that
    the ``lang`` file does not also use: if one is visible on a ``lang`` page, English leaked."""
    en = json.loads((I18N / "en.json").read_text("utf-8"))
    other = json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    theirs = " \n ".join(f for v in other.values() for f in forms(v))
    out = set()
    for value in en.values():
        for text in forms(value):
            for piece in re.split(r"\{\w+\}", text):
                piece = piece.strip(" .,:;()·")
                english = len(piece) >= 8 and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", piece)
                if english and piece not in theirs:
                    out.add(piece)
    return sorted(out)


def english_shown(page: Page, lang: str) -> list[str]:
    text = page.evaluate("() => document.body.innerText")
    return [f for f in english_fragments(lang) if f in text]


def test_the_english_check_finds_english() -> None:
    """The check below can fail: an English sentence of the page is among its fragments."""
    assert "Waiting for" in english_fragments("ko")
    assert "The server refused that move" in english_fragments("zh")


def test_a_bot_turn_is_played_back_step_by_step_at_the_pace(
    server: Server, browser: Browser
) -> None:
    context, page, watch = new_page(browser, 1280, 800, pace="0.5")
    watch_table(context)
    log_reads: list[str] = []
    page.on("request", lambda r: log_reads.append(r.url) if r.url.endswith("/log") else None)
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
    open_table(page, server.url, "harmonies", seats)
    expect(page.locator("[data-testid=pace]")).to_have_value("0.5")
    rng = random.Random(4)
    play_harmonies_turn(page, rng)
    before = len(table_probe(page)["steps"])
    redraws = table_probe(page)["redraws"]
    # the bot's turn: each of its actions on screen, named over the table, one after the other
    step_line = page.locator("[data-testid=step-line]")
    expect(step_line).to_contain_text("Greedy bot")
    page.wait_for_timeout(250)
    shot(page, "table-playback-mid.png", full_page=False)
    expect(page.locator("[data-testid=status] b")).to_contain_text("Your turn", timeout=30000)
    steps = table_probe(page)["steps"][before:]
    assert len(steps) >= 3, steps
    assert all(s["seat"] == 1 for s in steps)
    assert [s["version"] for s in steps] == list(
        range(steps[0]["version"], steps[-1]["version"] + 1)
    )
    gaps = [b["at"] - a["at"] for a, b in zip(steps, steps[1:], strict=False)]
    assert min(gaps) >= 500 - 2, gaps  # each step stays at least the pace
    # the last step stays named (and the log marks it) until the next one
    log = httpx.get(f"{server.url}/api/games/{page.url.split('/')[-1]}/log").json()["moves"]
    assert log[-1]["seat"] == 1
    expect(page.locator(".log li.now")).to_have_count(1)
    # one redraw per step (the page draws nothing more while it waits)
    assert table_probe(page)["redraws"] - redraws == len(steps)
    assert len(log_reads) == 1, log_reads  # the whole log only on the first load

    # a slow pace and Skip: the rest of the turn lands at once
    page.select_option("[data-testid=pace]", "2")
    assert page.evaluate("localStorage.getItem('glade.pace')") == "2"
    play_harmonies_turn(page, rng)
    skip = page.locator("[data-testid=skip]")
    expect(skip).to_be_visible(timeout=30000)
    started = page.evaluate("performance.now()")
    skip.click()
    expect(page.locator("[data-testid=status] b")).to_contain_text("Your turn", timeout=30000)
    assert page.evaluate("performance.now()") - started < 2000 * 3
    expect(skip).to_have_count(0)
    assert not watch.errors, watch.errors
    context.close()


def test_refusals_are_sentences_in_the_page_language(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
    open_table(page, server.url, "harmonies", seats, lang="ko")
    toast = page.locator("#toast")
    ko = json.loads((I18N / "ko.json").read_text("utf-8"))
    # the server's refusal of a click the page sent: in Korean, from its code
    v = version(page)
    page.evaluate("""() => {
      const b = document.createElement('button');
      b.dataset.act = JSON.stringify({type: 'place_token', color: 'blue', cell: '0,0'});
      b.id = 'sent';
      b.textContent = '?';
      document.querySelector('[data-testid=table] .controls').appendChild(b);
    }""")
    page.click("#sent")
    expect(toast).to_have_text(ko["refusal.harmonies.token.take_first"])
    assert version(page) == v
    # what the page knows is unavailable (data-refusal, aria-disabled): the reason, nothing sent
    page.evaluate("""() => {
      const b = document.createElement('button');
      b.dataset.refusal = JSON.stringify({code: 'game.over', params: {}});
      b.setAttribute('aria-disabled', 'true');
      b.dataset.act = JSON.stringify({type: 'end_turn'});
      b.id = 'probe';
      b.textContent = '?';
      document.querySelector('[data-testid=table] .controls').appendChild(b);
    }""")
    page.evaluate("document.getElementById('toast').hidden = true")
    page.click("#probe", force=True)
    expect(toast).to_have_text(ko["refusal.game.over"])
    assert version(page) == v
    # a plain sentence works too
    page.evaluate(
        "() => { const b = document.getElementById('probe'); b.dataset.refusal = '지금은 안 됩니다'; }"
    )
    page.click("#probe", force=True)
    expect(toast).to_have_text("지금은 안 됩니다")
    assert version(page) == v
    assert not watch.errors, watch.errors
    context.close()


def ask_coach(
    page: Page, base: str, win: float | None = None, lesson: str | None = None
) -> dict[str, Any]:
    """Press Hint and wait for the coach. The hint answer is the server's format with a legal
    move of the seat (the search itself is tested in tests/server: on a busy machine its wall
    time is longer than the server's hint time limit at the tests' bot time)."""
    gid = page.url.split("/")[-1]
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('glade.seats'))[id].tokens[0]", gid
    )
    state = httpx.get(
        f"{base}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=20
    ).json()
    move = [a for a in state["legal_actions"] if a["type"] != "undo"][:1]
    answer = {
        "version": state["version"],
        "actions": move,
        "hints": [{"actions": move, "score": 54.4, "win": win, "lesson": lesson}],
    }
    asked: list[str] = []

    def answer_hint(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(json=answer)

    hint_url = re.compile(r"/api/games/[^/]+/hint(\?|$)")
    page.route(hint_url, answer_hint)
    page.click("[data-testid=hint]")
    expect(page.locator("[data-testid=coach]")).to_be_visible()
    page.unroute(hint_url)
    answer["asked"] = asked
    return answer


def check_no_english(page: Page, lang: str, where: str) -> None:
    found = english_shown(page, lang)
    assert not found, f"{lang} {where}: English shown: {found}"


def test_no_english_sentence_on_a_korean_or_chinese_table(server: Server, browser: Browser) -> None:
    for lang in ("ko", "zh"):
        context, page, watch = new_page(browser, 1280, 800, pace="0.5")
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
        gid = open_table(page, server.url, "harmonies", seats, lang=lang)
        check_no_english(page, lang, "harmonies start")
        rng = random.Random(8)
        play_harmonies_turn(page, rng)
        expect(page.locator("[data-testid=skip]")).to_be_visible(timeout=30000)
        check_no_english(page, lang, "harmonies playback")
        page.wait_for_selector("[data-testid=status] b", timeout=30000)
        # a refusal, then the coach
        page.evaluate("""() => {
          const b = document.createElement('button');
          b.dataset.act = JSON.stringify({type: 'end_turn'});
          b.id = 'sent';
          document.querySelector('[data-testid=table] .controls').appendChild(b);
        }""")
        page.click("#sent")
        expect(page.locator("#toast")).to_be_visible()
        check_no_english(page, lang, "harmonies refusal")
        coached = ask_coach(page, server.url, win=0.62)
        assert coached["asked"][0].endswith(f"/hint?lang={lang}")  # lessons in the page's language
        check_no_english(page, lang, "harmonies coach")
        shot(page, f"table-{lang}-coach.png", full_page=False)
        assert gid
        # Living Forest: a few steps against the bot
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
        open_table(page, server.url, "living-forest", seats, lang=lang)
        check_no_english(page, lang, "living forest start")
        rng = random.Random(9)
        for _ in range(12):
            if not play_living_forest_step(page, rng):
                page.wait_for_timeout(300)
            check_no_english(page, lang, "living forest")
        assert not watch.errors, watch.errors
        context.close()


def test_the_coach_speaks_of_the_suggested_move(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
    gid = open_table(page, server.url, "harmonies", seats)
    answer = ask_coach(page, server.url)
    coach = page.locator("[data-testid=coach]")
    text = coach.inner_text()
    assert "expected final score 54" in text
    assert "chance to win" not in text  # the server gave no win chance
    space = answer["actions"][0]["space"] + 1
    assert f"space {space}" in text.lower(), text  # the move in the module's words
    assert page.locator(".hinted").count() >= 1  # the suggested move marked on the table
    assert gid
    assert answer["asked"] and answer["asked"][0].endswith(
        "/hint?lang=en"
    )  # in the page's language
    assert page.locator("[data-testid=coach-lesson]").count() == 0  # no gain, no lesson
    page.click("[data-testid=hint]")
    expect(coach).to_have_count(0)
    ask_coach(page, server.url, win=0.62, lesson="tree of 3 on B2: +4; river grows to 6: +3")
    assert "chance to win 62%" in coach.inner_text()
    lesson = page.locator("[data-testid=coach-lesson]")
    assert lesson.inner_text() == "tree of 3 on B2: +4; river grows to 6: +3"
    shot(page, "table-coach-lesson.png", full_page=False)
    page.click("[data-testid=hint]")
    expect(coach).to_have_count(0)
    assert not watch.errors, watch.errors
    context.close()
