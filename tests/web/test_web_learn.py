"""The learning pages in the browser (issue #29): each guided game played to its end by clicks in
English, Korean and Chinese (a refused step shown with its explanation, the taught move lit,
resume after a reload); the rules pages with every section in three languages at desktop and
phone size without overflow; a score line lighting exactly its parts' cells."""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest
from playwright.sync_api import Browser, Page
from web_support import (
    ROOT,
    Server,
    create_from_lobby,
    game_id,
    new_page,
    play_harmonies_turn,
    shot,
)

from glade.learn import section_ids

EN = json.loads((ROOT / "glade" / "web" / "i18n" / "en.json").read_text(encoding="utf-8"))

GAMES = ["harmonies", "living-forest"]
LANGS = ["en", "ko", "zh"]
LATIN_WORD = re.compile(r"[A-Za-z]{4,}")


def open_page(
    browser: Browser, server: Server, route: str, lang: str, width: int, height: int
) -> tuple:
    context, page, watch = new_page(browser, width, height)
    context.add_init_script(f"localStorage.setItem('glade.lang', '{lang}');")
    page.goto(f"{server.url}/#/{route}")
    return context, page, watch


def moves(page: Page) -> int:
    return int(page.get_attribute("[data-testid=tutorial]", "data-moves") or -1)


def click_and_wait(page: Page, selector: str, index: int = 0) -> None:
    before = moves(page)
    page.locator(selector).nth(index).click()
    page.wait_for_function(
        "m => { const t = document.querySelector('[data-testid=tutorial]');"
        " return t && (Number(t.dataset.moves) > m || t.dataset.over === 'true'); }",
        arg=before,
    )


def english_words(page: Page) -> list[str]:
    text = page.inner_text("[data-testid=tutorial] .tutorial-box")
    return LATIN_WORD.findall(text)


def free_move(page: Page, game: str, rng: random.Random) -> None:
    """One move of free play among what the page offers (the bot answers in the same request)."""
    root = "[data-testid=tutorial]"
    if game == "harmonies":
        if page.locator(f"{root} .space.legal").count():
            click_and_wait(
                page,
                f"{root} .space.legal",
                rng.randrange(page.locator(f"{root} .space.legal").count()),
            )
            return
        if page.locator(f"{root} [data-testid=hand] .token-btn").count():
            page.locator(f"{root} [data-testid=hand] .token-btn").first.click()
            cells = page.locator(f"{root} .cell.legal")
            assert cells.count(), "a token in hand has no highlighted cell"
            click_and_wait(page, f"{root} .cell.legal", rng.randrange(cells.count()))
            return
        click_and_wait(page, f"{root} [data-key=end_turn]")
        return
    offered = page.locator(f"{root} .play [data-act]:not([data-key=undo])")
    if not offered.count():
        page.locator(f"{root} [data-key^=tree-]").first.click()
        offered = page.locator(f"{root} .play [data-act]:not([data-key=undo])")
    kinds = [
        json.loads(offered.nth(i).get_attribute("data-act") or "{}")["type"]
        for i in range(offered.count())
    ]
    weights = [
        {"end_actions": 0.05, "stop": 0.3, "use_fragment": 0.1, "plant": 3.0}.get(k, 1.0)
        for k in kinds
    ]
    click_and_wait(
        page,
        f"{root} .play [data-act]:not([data-key=undo])",
        rng.choices(range(len(kinds)), weights)[0],
    )


def refuse_once(page: Page, game: str, lang: str) -> bool:
    """At a step with a legal move other than the taught one: play it, see the step's refusal and
    nothing played. False when this step offers no other move (then a control the rules refuse
    now, if any, says the step's reason and the rules' own)."""
    before = moves(page)
    wrong = page.locator("[data-testid=tutorial] .play [data-act]:not(.taught-act)")
    if not wrong.count():
        off = page.locator("[data-testid=tutorial] [data-refusal]")
        if off.count():
            off.first.click(force=True)  # aria-disabled: shown, refused by the page
            page.wait_for_selector("[data-testid=tutorial-refused]")
            assert moves(page) == before
        return False
    wrong.first.click()
    page.wait_for_selector("[data-testid=tutorial-refused]")
    text = page.inner_text("[data-testid=tutorial-refused]")
    assert len(text) > 10 and moves(page) == before
    if lang != "en":
        assert not LATIN_WORD.findall(text), text
    shot(page, f"learn-{game}-{lang}-refused.png", full_page=False)
    return True


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_guided_game_is_played_to_its_end(
    browser: Browser, server: Server, game: str, lang: str
) -> None:
    width, height = (390, 844) if lang == "ko" else (1280, 800)
    context, page, watch = open_page(browser, server, f"learn/{game}", lang, width, height)
    page.wait_for_selector("[data-testid=tutorial-step]")
    count = page.inner_text("[data-testid=tutorial-count]")
    total = int(re.findall(r"\d+", count)[-1] if lang != "ko" else re.findall(r"\d+", count)[0])
    if lang != "en":
        assert not english_words(page), english_words(page)
    steps_seen: set[str] = set()
    lessons: list[str] = []
    resumed = False
    refused = False
    for _ in range(200):
        step = page.get_attribute("[data-testid=tutorial-step]", "data-step")
        if step in ("free", "over"):
            break
        steps_seen.add(step or "")
        taught = page.locator("[data-testid=tutorial] .taught-act")
        assert taught.count() >= 1, f"step {step}: the taught move is not lit"
        if lang != "en":
            assert not english_words(page), (step, english_words(page))
        if not refused:
            refused = refuse_once(page, game, lang)
        click_and_wait(page, "[data-testid=tutorial] .taught-act")
        assert page.locator("[data-testid=tutorial-refused]").count() == 0
        # what the move gained, in words ("This move: tree of 1 on B2: +1"), when it gained
        gained = page.locator("[data-testid=learn-gained]")
        if gained.count():
            said = gained.inner_text()
            assert re.search(r"[+-]\d", said), said
            lessons.append(said)
        if len(steps_seen) == 3 and not resumed:
            # the progress is kept: a reload resumes at the same step
            here = page.get_attribute("[data-testid=tutorial-step]", "data-step")
            page.reload()
            page.wait_for_selector("[data-testid=tutorial-step]")
            assert page.get_attribute("[data-testid=tutorial-step]", "data-step") == here
            assert page.locator(".tutorial-note").count() == 1
            resumed = True
        if len(steps_seen) == 5:
            shot(page, f"learn-{game}-{lang}-step.png", full_page=False)
    assert len(steps_seen) == total, (len(steps_seen), total)
    assert resumed and refused
    assert len(lessons) >= 3, lessons  # the guided moves say what they gained
    rng = random.Random(29)
    for _ in range(400):
        if page.get_attribute("[data-testid=tutorial]", "data-over") == "true":
            break
        free_move(page, game, rng)
    assert page.get_attribute("[data-testid=tutorial]", "data-over") == "true"
    page.wait_for_selector("[data-testid=end-screen] [data-testid=winner]")
    assert page.get_attribute("[data-testid=tutorial-step]", "data-step") == "over"
    if lang != "en":
        assert not english_words(page), english_words(page)
    shot(page, f"learn-{game}-{lang}-end.png", full_page=False)
    # start again: the first step, the save replaced
    page.click("[data-testid=tutorial] .controls [data-restart]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=tutorial]').dataset.over === 'false'"
    )
    assert page.inner_text("[data-testid=tutorial-count]") == count
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_shows_every_section_without_overflow(
    browser: Browser, server: Server, game: str, lang: str, size: tuple[int, int]
) -> None:
    context, page, watch = open_page(browser, server, f"rules/{game}", lang, *size)
    page.wait_for_selector("[data-testid=rules] [data-testid=rules-section]")
    ids = page.eval_on_selector_all(
        "[data-testid=rules-section]", "els => els.map(e => e.dataset.rule)"
    )
    assert ids == section_ids(game)
    assert page.get_attribute("[data-testid=rules]", "data-lang") == lang
    assert page.locator("[data-testid=rules] [data-testid=player-aid]").count() == 1
    wide = page.evaluate(
        "() => [document.documentElement.scrollWidth - innerWidth,"
        " ...[...document.querySelectorAll('[data-testid=rules-section], [data-testid=rules-section] *')]"
        "   .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.rule-table-wrap'))"
        "   .map(e => e.tagName + '.' + e.className)]"
    )
    assert wide[0] <= 0 and wide[1:] == [], wide[:5]
    figures = page.locator("[data-testid=rules] figure.rule-figure")
    assert figures.count() >= 4
    for i in range(figures.count()):
        assert figures.nth(i).bounding_box()["height"] > 40  # drawn, not empty
    if lang != "en":
        text = page.inner_text("[data-testid=rules]")
        # the only Latin letters left are the cells' coordinates (A1 … E5), nothing else
        assert not LATIN_WORD.findall(text), LATIN_WORD.findall(text)[:5]
    # an addressed section is scrolled to and marked
    target = section_ids(game)[-3]
    page.goto(f"{server.url}/#/rules/{game}/{target}")
    page.wait_for_selector(f"[data-rule='{target}'].target")
    top = page.eval_on_selector(f"[data-rule='{target}']", "e => e.getBoundingClientRect().top")
    assert 0 <= top < 50
    shot(page, f"rules-{game}-{lang}-{size[0]}.png", full_page=False)
    assert watch.errors == []
    context.close()


def lit_cells(page: Page, seat: int) -> set[str]:
    cells = page.eval_on_selector_all(
        f"[data-testid=tutorial] [data-board-seat='{seat}'] .part-lit",
        "els => els.map(e => e.dataset.cell || e.dataset.slot)",
    )
    return set(cells)


@pytest.mark.parametrize("game", GAMES)
def test_a_score_line_lights_exactly_its_parts(browser: Browser, server: Server, game: str) -> None:
    context, page, watch = open_page(browser, server, f"learn/{game}", "en", 1280, 900)
    page.wait_for_selector("[data-testid=tutorial-step]")
    for _ in range(12):  # a few steps: a board with several kinds of parts
        click_and_wait(page, "[data-testid=tutorial] .taught-act")
    saved = page.evaluate(f"() => JSON.parse(localStorage.getItem('glade.learn.{game}'))")
    view = httpx.post(
        f"{server.url}/api/learn/{game}/check", json={"state": saved}, timeout=20
    ).json()["view"]
    checked = 0
    for seat in (0, 1):
        parts = (
            view["boards"][seat]["score"]["parts"]
            if game == "harmonies"
            else view["spirits"][seat]["parts"]
        )
        cats = page.eval_on_selector_all("tr[data-cat]", "els => els.map(e => e.dataset.cat)")
        for cat in cats:
            want = {c for p in parts if p["category"] == cat for c in p["cells"]}
            page.hover(f"tr[data-cat='{cat}'] td[data-score-seat='{seat}']")
            assert lit_cells(page, seat) == want, (seat, cat)
            other = 1 - seat
            assert lit_cells(page, other) == set()
            words = [p for p in parts if p["category"] == cat and not p["cells"]]
            note = page.inner_text("[data-testid=score-note]") if words else ""
            assert bool(note) == bool(words) and note.count("+") == len(words), (cat, note)
            badges = page.locator("[data-testid=tutorial] .part-points").count()
            assert badges == len([p for p in parts if p["category"] == cat and p["cells"]])
            checked += bool(want)
            if want and seat == 0 and checked == 1:
                shot(page, f"score-light-{game}.png", full_page=False)
    assert checked >= 2
    page.mouse.move(5, 5)
    page.wait_for_function("() => !document.querySelector('.part-lit')")
    # the keyboard lights a line too
    page.focus("tr[data-cat] td[data-score-seat='0']")
    cat = page.eval_on_selector("tr[data-cat]", "e => e.dataset.cat")
    parts = (
        view["boards"][0]["score"]["parts"] if game == "harmonies" else view["spirits"][0]["parts"]
    )
    assert lit_cells(page, 0) == {c for p in parts if p["category"] == cat for c in p["cells"]}
    # the line's name opens its rule
    page.click("tr[data-cat] th a")
    page.wait_for_selector("[data-testid=rules] [data-rule].target")
    assert watch.errors == []
    context.close()


def test_lobby_and_rules_link_to_each_other(browser: Browser, server: Server) -> None:
    context, page, watch = open_page(browser, server, "", "zh", 1280, 800)
    page.click("[data-testid=lobby-rules-living-forest]")
    page.wait_for_selector("[data-testid=rules][data-game=living-forest]")
    # a rock of the circle opens the action it gives
    page.locator("figure [data-rock][data-rule]").first.click()
    page.wait_for_selector("[data-rule].target")
    assert re.search(
        r"#/rules/living-forest/living-forest\.(plant|take-fragment|attract|extinguish)$", page.url
    )
    page.click("[data-testid=learn-link]")
    page.wait_for_selector("[data-testid=tutorial] [data-testid=player-aid]")
    assert watch.errors == []
    context.close()


def test_a_table_has_the_aid_the_rules_link_and_lit_score_lines(
    browser: Browser, server: Server
) -> None:
    context, page, watch = new_page(browser, 1280, 900)
    create_from_lobby(page, server.url, "harmonies", ["human"])
    page.wait_for_selector("[data-testid=table]")
    rng = random.Random(7)
    for _ in range(3):
        play_harmonies_turn(page, rng)
    gid = game_id(page)
    view = httpx.get(f"{server.url}/api/games/{gid}", timeout=20).json()["view"]
    parts = view["boards"][0]["score"]["parts"]
    assert parts
    for cat in page.eval_on_selector_all("tr[data-cat]", "els => els.map(e => e.dataset.cat)"):
        page.hover(f"tr[data-cat='{cat}'] td[data-score-seat='0']")
        lit = set(
            page.eval_on_selector_all(
                "[data-board-seat='0'] .part-lit", "els => els.map(e => e.dataset.cell)"
            )
        )
        assert lit == {c for p in parts if p["category"] == cat for c in p["cells"]}, cat
    page.wait_for_selector("[data-testid=table] [data-testid=player-aid]")
    page.click("[data-testid=table] [data-testid=player-aid] summary")
    assert page.locator("[data-testid=player-aid] [data-aid]").count() >= 8
    page.click("[data-testid=table] [data-testid=rules-link]")
    page.wait_for_selector("[data-testid=rules][data-game=harmonies]")
    assert watch.errors == []
    context.close()


def test_the_circles_legend_opens_the_action_each_rock_gives(
    browser: Browser, server: Server
) -> None:
    """At a Living Forest table, the parts of a score line that have no cell (victory tiles,
    fires kept) are said in words beside the scores while the line is pointed at; each word of
    the legend beside the circle of spirits (the four bonuses its rocks give) opens that action's
    rule."""
    context, page, watch = new_page(browser, 1280, 900)
    create_from_lobby(page, server.url, "living-forest", ["human", "greedy"])
    page.wait_for_selector("[data-testid=table] [data-testid=ring-legend]")
    gid = game_id(page)
    view = httpx.get(f"{server.url}/api/games/{gid}", timeout=20).json()["view"]
    for cat in ("trees", "fires", "flowers"):
        words = [p for p in view["spirits"][0]["parts"] if p["category"] == cat and not p["cells"]]
        assert words  # each spirit starts with its three victory tiles
        page.hover(f"tr[data-cat='{cat}'] td[data-score-seat='0']")
        note = page.inner_text("[data-testid=table] [data-testid=score-note]")
        assert note.count("+") == len(words), (cat, note)
        tile = {"trees": "tree", "fires": "fire", "flowers": "flower"}[cat]
        assert EN[f"lf.tile.{tile}"] in note, (cat, note)
        if cat == "fires":
            shot(page, "score-note-living-forest.png", full_page=False)
    page.mouse.move(5, 5)
    page.wait_for_function("() => !document.querySelector('[data-testid=score-note]').textContent")
    links = page.eval_on_selector_all(
        "[data-testid=ring-legend] a", "els => els.map(e => [e.dataset.bonus, e.hash])"
    )
    assert sorted(b for b, _ in links) == ["attract", "extinguish", "plant", "take_fragment"]
    page.click("[data-testid=ring-legend] a[data-bonus=take_fragment]")
    page.wait_for_selector("[data-testid=rules] [data-rule].target")
    assert page.url.endswith("#/rules/living-forest/living-forest.take-fragment")
    target = page.eval_on_selector("[data-rule].target", "e => e.dataset.rule")
    assert target == "living-forest.take-fragment"
    page.go_back()
    page.wait_for_selector("[data-testid=table] [data-testid=ring-legend]")
    assert watch.errors == []
    context.close()
