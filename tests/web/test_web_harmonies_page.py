"""The Harmonies page (issue 13): whole games by clicks in English, Korean and Chinese with no English
on the other pages, the solo sun track, the prompt after a discard, the 4-card limit said where the
Take buttons were, controls shown unavailable with their refusal, enlargeable cards, the cells'
coordinates in the log, the playback step's highlight, the last-round line and the end screen's
reason, and boards that fit the screen at 1280×800 (2 players), 1440×900 (4) and on a phone."""

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
    replay_log,
    shot,
    version,
    wait_version_above,
)

NAMES = {"en": "Ana", "ko": "하나", "zh": "小明", "other": "Bo"}


def page_t(page: Page, key: str, params: dict[str, Any] | None = None) -> str:
    """The page's own translation of ``key`` in its current language."""
    return str(
        page.evaluate(
            "async ([k, p]) => (await import('/js/base/i18n.js')).t(k, p)", [key, params or {}]
        )
    )


def page_refusal(page: Page, code: str, params: dict[str, Any]) -> str:
    return str(
        page.evaluate(
            "async ([c, p]) => (await import('/js/base/i18n.js')).refusal(c, p, 'MISSING')",
            [code, params],
        )
    )


def english_words(page: Page) -> list[str]:
    """English words shown on the table (a Korean or Chinese page shows none: the coordinates
    are a letter and a digit, the board sides a single letter); the players' names are theirs."""
    text = page.inner_text("[data-testid=table]")
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NAMES.values()]


def state(server: Server, gid: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json())


def public_log(server: Server, gid: str) -> list[dict[str, Any]]:
    return list(httpx.get(f"{server.url}/api/games/{gid}/log", timeout=10).json()["moves"])


def status(page: Page) -> str:
    return page.inner_text("[data-testid=status]")


def click_and_wait(page: Page, locator: Any) -> None:
    v = version(page)
    locator.click()
    wait_version_above(page, v)


def play_turn(
    page: Page, rng: random.Random, checks: dict[str, int], take: bool = True, cubes: bool = True
) -> None:
    """One solo turn by clicks; after a discard, the prompt no longer offers an animal card."""
    for _ in range(40):
        spirit = page.locator("[data-key^=spirit-]")
        if spirit.count():
            click_and_wait(page, spirit.nth(rng.randrange(spirit.count())))
            continue
        spaces = page.locator(".space.legal")
        if spaces.count():
            click_and_wait(page, spaces.nth(rng.randrange(spaces.count())))
            continue
        hand = page.locator("[data-testid=hand] .token-btn")
        if hand.count():
            hand.nth(rng.randrange(hand.count())).click()
            cells = page.locator(".mine .cell.legal")
            assert cells.count() > 0, "a token in hand has no highlighted cell"
            click_and_wait(page, cells.nth(rng.randrange(cells.count())))
            continue
        cube_cells = page.locator(".mine .cell.cube-ok")
        if cubes and cube_cells.count():
            click_and_wait(page, cube_cells.nth(rng.randrange(cube_cells.count())))
            continue
        discards = page.locator("[data-key^=discard-]")
        if discards.count() and rng.random() < 0.35:
            click_and_wait(page, discards.nth(rng.randrange(discards.count())))
            take_words = page_t(page, "h.prompt.finish")
            assert take_words not in status(page)
            assert page_t(page, "h.prompt.finishCubes") in status(page) or page_t(
                page, "h.prompt.finishEnd"
            ) in status(page)
            assert page.locator("[data-key^=take-], [data-key^=discard-]").count() == 0
            checks["discards"] += 1
            continue
        takes = page.locator("[data-key^=take-]")
        if take and takes.count() and rng.random() < 0.6:
            click_and_wait(page, takes.nth(rng.randrange(takes.count())))
            continue
        end = page.locator("[data-key=end_turn]")
        assert end.count() == 1, "nothing left to do but the page offers no End turn"
        click_and_wait(page, end)
        return
    raise AssertionError("a turn did not end after 40 clicks")


def start_solo(page: Page, server: Server, lang: str, spirits: bool = False) -> str:
    page.goto(server.url + "/#/")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("#lang-select", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    create_from_lobby(
        page, server.url, "harmonies", ["human"], names={0: NAMES[lang]}, spirits=spirits
    )
    page.wait_for_selector("[data-testid=table]")
    return game_id(page)


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_a_whole_solo_game_by_clicks(server: Server, browser: Browser, lang: str) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    rng = random.Random({"en": 4, "ko": 7, "zh": 9}[lang])
    gid = start_solo(page, server, lang, spirits=lang == "ko")
    # before the first move: no suns are shown as earned; the track says what the score has
    # earned so far (none) and when the next sun comes, the side's and spirit's bonus at the end
    track = page.locator("[data-testid=sun-track]")
    expect(track).to_contain_text(page_t(page, "h.sun.fromScore", {"n": 0}))
    expect(track).to_contain_text(page_t(page, "h.sun.next", {"n": 40}))
    assert page.locator("[data-suns]").count() == 0
    if lang != "en":
        assert english_words(page) == [], english_words(page)
    checks = {"discards": 0}
    turns = 0
    while not page.locator("[data-testid=end-screen]").count():
        play_turn(page, rng, checks)
        turns += 1
        assert turns < 40, "a solo game lasts fewer than 40 turns"
        if lang != "en":
            assert english_words(page) == [], (turns, english_words(page))
        if turns == 3:
            # the log names the colours taken and the cells by the board's own coordinates
            log = public_log(server, gid)
            take = next(e for e in reversed(log) if e["action"]["type"] == "take_tokens")
            place = next(e for e in reversed(log) if e["action"]["type"] == "place_token")
            lines = page.inner_text("[data-log]")
            for colour in take["chance"]["taken"]:
                assert page_t(page, f"colour.{colour}") in lines
            label = page.get_attribute(
                f".mine [data-cell='{place['action']['cell']}']", "data-label"
            )
            assert label and re.fullmatch(r"[A-G][1-5]", label)
            assert label in lines and place["action"]["cell"] not in lines
            expect(page.locator(f".mine [data-label='{label}'] .coord")).to_have_text(label)
    end = page.locator("[data-testid=end-screen]")
    expect(end).to_be_visible()
    engine = replay_log(server.url, gid)
    result = engine.result()
    assert int(end.locator("[data-total-seat='0']").inner_text()) == result["scores"][0]
    # why it ended, in this language, from the engine's trigger
    trig = state(server, gid)["view"]["end_trigger"]
    # a board with no empty cell left is full, not "nearly full (0 empty cells left)"
    full = trig["empty_cells"] == 0
    keys = ["boardFull" if r == "board" and full else r for r in trig["reasons"]]
    why = [page_t(page, f"h.end.solo.{k}", {"n": trig["empty_cells"]}) for k in keys]
    expect(end.locator("[data-testid=end-why]")).to_have_text(why)
    expect(end.locator("[data-testid=winner]")).to_have_text(
        page_t(page, "end.soloScore", {"n": result["scores"][0], "suns": result["suns"]})
    )
    expect(end.locator("[data-testid=sun-sum]")).to_contain_text(str(result["suns"]))
    assert f"{result['suns']}" in end.locator("[data-suns]").inner_text()
    if lang != "en":
        assert english_words(page) == [], english_words(page)
    if lang == "en":
        assert checks["discards"] > 0, "the game never discarded a card: pick another seed"
    shot(page, f"harmonies-page-solo-end-{lang}.png", full_page=False)
    assert watch.errors == []
    context.close()


def test_the_four_card_limit_and_controls_unavailable_with_their_reason(
    server: Server, browser: Browser
) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    rng = random.Random(2)
    start_solo(page, server, "en")
    # before taking tokens: End turn is shown unavailable, with the engine's refusal
    off_end = page.locator("[data-key=off-end_turn]")
    expect(off_end).to_have_attribute("aria-disabled", "true")
    assert json.loads(off_end.get_attribute("data-refusal") or "")["code"] == (
        "harmonies.end.take_first"
    )
    discard = page.locator("[data-key^=off-discard-]").first
    assert json.loads(discard.get_attribute("data-refusal") or "")["code"] == (
        "harmonies.discard.tokens_first"
    )
    click_and_wait(page, page.locator(".space.legal").first)
    spaces = page.locator(".space.off")
    assert spaces.count() == 2  # the two spaces left cannot be taken: tokens were taken
    for i in range(spaces.count()):
        assert json.loads(spaces.nth(i).get_attribute("data-refusal") or "") == {
            "code": "harmonies.tokens.already_taken",
            "params": {},
        }
    refused = json.loads(off_end.get_attribute("data-refusal") or "")
    assert refused == {"code": "harmonies.end.tokens_left", "params": {"left": 3}}
    assert (
        page_refusal(page, refused["code"], refused["params"]) == "you still have 3 tokens to place"
    )
    # four turns, an animal card taken in each: the Take buttons give way to the reason
    for _ in range(4):
        before = len(page.locator(".mine .held .hcard").all())
        while page.locator("[data-key^=take-]").count() == 0:
            if page.locator("[data-testid=hand] .token-btn").count():
                page.locator("[data-testid=hand] .token-btn").first.click()
                click_and_wait(page, page.locator(".mine .cell.legal").first)
            elif page.locator(".space.legal").count():
                click_and_wait(page, page.locator(".space.legal").first)
        click_and_wait(page, page.locator("[data-key^=take-]").first)
        assert len(page.locator(".mine .held .hcard").all()) == before + 1
        play_turn(page, rng, {"discards": 0}, take=False, cubes=False)
    reason = page.locator("[data-testid=take-refused]")
    expect(reason).to_be_visible()
    expect(reason).to_have_text(page_refusal(page, "harmonies.card.hand_full", {"limit": 4}))
    assert page.locator("[data-key^=take-]").count() == 0
    in_place = page.locator(".row .refused-here")
    assert in_place.count() == 3
    expect(in_place.first).to_have_text("limit: 4 cards")
    assert json.loads(in_place.first.get_attribute("data-refusal") or "") == {
        "code": "harmonies.card.hand_full",
        "params": {"limit": 4},
    }
    expect(in_place.first).to_have_attribute("aria-disabled", "true")
    shot(page, "harmonies-page-four-cards.png", full_page=False)
    # the same reason in Korean and Chinese, with no English
    for lang in ("ko", "zh"):
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(reason).to_have_text(page_refusal(page, "harmonies.card.hand_full", {"limit": 4}))
        assert not re.search(r"[A-Za-z]{2,}", reason.inner_text())
        assert english_words(page) == [], english_words(page)
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


def test_each_card_can_be_enlarged_by_hover_keyboard_and_tap(
    server: Server, browser: Browser
) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    start_solo(page, server, "en")
    data = httpx.get(f"{server.url}/data/harmonies-cards.json", timeout=10).json()
    cards = {c["id"]: c for c in data["animals"] + data["spirits"]}
    card = page.locator(".row .hcard[data-card]").first
    card_id = card.get_attribute("data-card") or ""
    zoom = card.locator("[data-testid=card-zoom]")
    expect(zoom).to_be_hidden()
    card.locator(".zoom").hover()
    expect(zoom).to_be_visible()
    box = zoom.bounding_box()
    assert box and box["width"] >= 300 and box["height"] >= 300, box
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 1280
    assert box["y"] + box["height"] <= 800
    shot(page, "harmonies-page-card-zoom.png", full_page=False)
    info = cards[card_id]
    # the habitat with every height numbered, its cube's cell, and the point track, large
    heights = zoom.locator(".habitat .height").evaluate_all("els => els.map(e => e.textContent)")
    assert sorted(heights) == sorted(str(len(c["stack"])) for c in info["cells"])
    assert zoom.locator(".habitat .cube.marker").count() == 1
    assert zoom.locator(".hex.cube-cell").count() == 1
    track = zoom.locator(".track.big li b").all_inner_texts()
    assert [int(re.sub(r"\D", "", p)) for p in track] == info["points"]
    words = zoom.locator(".habitat-words li").all_inner_texts()
    assert len(words) == len(info["cells"]) and any("cube goes here" in w for w in words)
    cell_box = zoom.locator(".habitat .hex").first.bounding_box()
    assert cell_box and cell_box["width"] >= 45, "an enlarged habitat cell is at least 45 px wide"
    page.mouse.move(5, 790)
    expect(zoom).to_be_hidden()
    # by keyboard: focusing the card's picture shows it, moving on hides it
    card.locator(".zoom").focus()
    expect(zoom).to_be_visible()
    page.keyboard.press("Tab")
    expect(zoom).to_be_hidden()
    assert watch.errors == []
    context.close()
    # by a tap on a phone
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    p2 = phone.new_page()
    p2.goto(page.url.replace("#/play/", "#/watch/").split("#token")[0])
    p2.wait_for_selector("[data-testid=table]")
    card2 = p2.locator(".row .hcard[data-card]").first
    card2.locator(".zoom").scroll_into_view_if_needed()
    card2.locator(".zoom").tap()
    zoom2 = card2.locator("[data-testid=card-zoom]")
    expect(zoom2).to_be_visible()
    box2 = zoom2.bounding_box()
    assert box2 and box2["x"] >= 0 and box2["x"] + box2["width"] <= 390
    shot(p2, "harmonies-page-card-zoom-phone.png", full_page=False)
    phone.close()


STEP_PROBE = """async ([gid, index, seat]) => {
  const h = await import('/js/games/harmonies.js');
  await h.prepare();
  const state = await (await fetch(`/api/games/${gid}`)).json();
  const moves = (await (await fetch(`/api/games/${gid}/log`)).json()).moves;
  const entry = moves[index];
  const c = { state, view: state.view, legal: [], seat, mine: [seat], watching: false,
              nameOf: (s) => `P${s}`, ui: h.newUi(), hint: null, step: { entry, seat: entry.seat } };
  const box = document.createElement('div');
  box.className = 'table harmonies probe';
  box.innerHTML = h.render(c);
  document.body.appendChild(box);
  const board = box.querySelector(`[data-board-seat="${entry.seat}"]`);
  const out = {
    entry,
    stepCells: [...box.querySelectorAll('.cell.step')].map((e) => e.dataset.cell),
    stepCellsOnBoard: board ? [...board.querySelectorAll('.cell.step')].map((e) => e.dataset.cell) : null,
    boardMarked: board ? board.classList.contains('step-board') : false,
    spaces: [...box.querySelectorAll('.space.step')].map((e) => Number(e.dataset.space)),
    taken: [...box.querySelectorAll('[data-testid=taken-tokens] .chip')].map((e) => e.className),
    stepCards: [...box.querySelectorAll('.hcard.step')].map((e) => e.dataset.card || ''),
    seats: [...box.querySelectorAll('[data-board-seat]')].map((e) => Number(e.dataset.boardSeat)),
    line: h.describeLog(entry, c),
    animation: (() => {
      const drop = box.querySelector('.cell.step .drop');
      return drop ? getComputedStyle(drop).animationName : null;
    })(),
  };
  box.remove();
  return out;
}"""


def test_a_played_back_step_marks_what_it_changed(server: Server, browser: Browser) -> None:
    """The shell passes c.step = {entry, seat} for each step it plays back; the table marks the
    cell placed on the mover's board, the central space taken (with the colours taken), the card."""
    context, page, watch = new_page(browser, 1280, 800)
    create_from_lobby(page, server.url, "harmonies", ["human", "greedy"], names={0: "Ana"})
    page.wait_for_selector("[data-testid=table]")
    gid = game_id(page)
    rng = random.Random(3)
    for _ in range(3):
        page.wait_for_selector(".space.legal", timeout=60000)
        play_turn(page, rng, {"discards": 0})
    page.wait_for_selector(".space.legal", timeout=60000)
    moves = public_log(server, gid)
    seen = set()
    for index, entry in enumerate(moves):
        kind = entry["action"]["type"]
        if kind in seen and kind != "take_card":
            continue
        seen.add(kind)
        got = page.evaluate(STEP_PROBE, [gid, index, 0])
        assert sorted(got["seats"]) == [0, 1]
        assert got["boardMarked"], kind
        a = entry["action"]
        if kind in ("place_token", "place_cube"):
            assert got["stepCells"] == got["stepCellsOnBoard"] == [a["cell"]]
        else:
            assert got["stepCells"] == []
        if kind == "place_token":
            # the token placed drops gently onto its cell, and stays still for reduced motion
            assert got["animation"] == "h-drop"
            page.emulate_media(reduced_motion="reduce")
            assert page.evaluate(STEP_PROBE, [gid, index, 0])["animation"] == "none"
            page.emulate_media(reduced_motion="no-preference")
        if kind == "take_tokens":
            assert got["spaces"] == [a["space"]]
            taken = [re.search(r"tok-(\w+)", c).group(1) for c in got["taken"]]  # type: ignore[union-attr]
            assert taken == entry["chance"]["taken"]
            for colour in taken:
                assert colour in got["line"]
        if kind == "take_card":
            assert entry["chance"]["card"] in got["stepCards"]
    assert {"take_tokens", "place_token", "end_turn"} <= seen
    assert "take_card" in seen, "no card was taken in three turns of both players"
    assert watch.errors == []
    context.close()


LAST_ROUND_PROBE = """async ([reasons, players]) => {
  const h = await import('/js/games/harmonies.js');
  await h.prepare();
  const view = { players, end_triggered: true, over: false, round: 9,
                 end_trigger: { seat: 1, reason: reasons[0], reasons, empty_cells: 1 } };
  const c = { view, nameOf: (s) => ['Ana', 'Bo'][s] };
  return [h.lastRound(c), h.lastRound({ ...c, view: { ...view, end_triggered: false, end_trigger: null } })];
}"""


def test_the_last_round_line_says_who_and_why(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser, 1280, 800)
    page.goto(server.url + "/#/")
    page.wait_for_selector("[data-testid=create]")
    board, none = page.evaluate(LAST_ROUND_PROBE, [["board"], 2])
    assert board == "Last round: Bo's board has only 1 empty cell left." and none is None
    pouch, _ = page.evaluate(LAST_ROUND_PROBE, [["pouch"], 2])
    assert pouch == "Last round: the pouch ran out of tokens on Bo's turn."
    both, _ = page.evaluate(LAST_ROUND_PROBE, [["pouch", "board"], 3])
    assert both == f"{pouch} {board}"
    page.select_option("#lang-select", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    ko, _ = page.evaluate(LAST_ROUND_PROBE, [["board"], 2])
    assert ko == "마지막 라운드: Bo의 개인판에 빈 칸이 1개만 남았습니다."
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


def boards_in_view(page: Page, width: int, height: int) -> None:
    """No sideways scrolling, and every board's box inside the viewport."""
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1], f"the page scrolls sideways: {sizes}"
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.panel')]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className)"""
    )
    assert wide == [], wide
    boards = page.locator("[data-board-seat] .hboard")
    assert boards.count() >= 2
    for i in range(boards.count()):
        box = boards.nth(i).bounding_box()
        assert box, i
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (i, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (i, box)


@pytest.mark.parametrize(
    ("width", "height", "players"), [(1280, 800, 2), (1440, 900, 4), (390, 844, 2)]
)
def test_every_board_fits_the_screen(
    server: Server, browser: Browser, width: int, height: int, players: int
) -> None:
    context, page, watch = new_page(browser, width, height)
    rng = random.Random(width)
    create_from_lobby(page, server.url, "harmonies", ["human"] + ["greedy"] * (players - 1))
    page.wait_for_selector("[data-testid=table]")
    for _ in range(4):
        page.wait_for_selector(".space.legal", timeout=60000)
        play_turn(page, rng, {"discards": 0})
    page.wait_for_selector(".space.legal", timeout=60000)
    page.evaluate("window.scrollTo(0, 0)")
    name = f"harmonies-page-{players}p-{width}x{height}.png"
    if width > 600:
        boards_in_view(page, width, height)
        shot(page, name, full_page=False)
    else:
        sizes = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert sizes[0] <= sizes[1], sizes
        shot(page, name, full_page=True)
    # the score table never overflows; in Korean no label breaks inside a word
    page.select_option("#lang-select", "ko")
    expect(page.locator("#central-title")).to_contain_text("중앙판")
    table = page.locator(".scores")
    assert table.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    broken = page.evaluate(
        """() => [...document.querySelectorAll('.breakdown th, .breakdown td')]
            .filter(e => e.innerText.trim() && e.getClientRects().length)
            .filter(e => {
              const r = document.createRange(); r.selectNodeContents(e);
              const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
              return lines.size > e.innerText.trim().split(/\\s+/).length;
            }).map(e => e.innerText)"""
    )
    assert broken == [], broken
    if players == 4:
        shot(page, f"harmonies-page-4p-{width}x{height}-ko.png", full_page=False)
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


def play_to_the_end_by_api(server: Server, names: list[str], seed: int) -> str:
    """A table of humans played to its end with random legal moves through the API."""
    seats = [{"kind": "human", "name": n} for n in names]
    body = httpx.post(
        f"{server.url}/api/games",
        json={"game": "harmonies", "options": {"players": len(names)}, "seats": seats},
        timeout=10,
    ).json()
    gid, tokens = body["id"], [s["token"] for s in body["seats"]]
    rng = random.Random(seed)
    with httpx.Client(base_url=server.url, timeout=20) as c:
        st = c.get(f"/api/games/{gid}").json()
        while st["to_act"]:
            auth = {"Authorization": f"Bearer {tokens[st['to_act'][0]]}"}
            st = c.get(f"/api/games/{gid}", headers=auth).json()
            moves = [a for a in st["legal_actions"] if a["type"] not in ("undo", "take_card")]
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": rng.choice(moves), "version": st["version"]},
                headers=auth,
            )
            assert r.status_code == 200, r.text
            st = r.json()
    return str(gid)


def test_the_end_screen_says_why_the_game_ended(server: Server, browser: Browser) -> None:
    """A finished two-player game: the end screen names who triggered the end and why, the
    winner and the tie-break, in English and Korean."""
    gid = play_to_the_end_by_api(server, ["Ana", "Bo"], 5)
    context, page, watch = new_page(browser, 1280, 800)
    page.goto(f"{server.url}/?game={gid}")
    end = page.locator("[data-testid=end-screen]")
    expect(end).to_be_visible()
    view = state(server, gid)["view"]
    trig = view["end_trigger"]
    who = ["Ana", "Bo"][trig["seat"]]
    want = [
        page_t(page, f"h.end.{r}", {"name": who, "n": trig["empty_cells"]}) for r in trig["reasons"]
    ]
    expect(end.locator("[data-testid=end-why]")).to_have_text(want)
    assert who in want[0]
    result = view["result"]
    winner = ["Ana", "Bo"][result["winners"][0]]
    if len(result["winners"]) == 1:
        expect(end.locator("[data-testid=winner]")).to_have_text(
            page_t(page, "end.winner", {"name": winner})
        )
    scores = result["scores"]
    tie = end.locator("[data-testid=tiebreak]")
    if scores[0] != scores[1]:
        expect(tie).to_have_text(page_t(page, "h.end.noTie"))
    else:
        expect(tie).to_contain_text(winner if len(result["winners"]) == 1 else "")
    # the breakdown and the tie-break row (animal cubes placed)
    totals = [int(end.locator(f"[data-total-seat='{s}']").inner_text()) for s in (0, 1)]
    assert totals == scores
    cubes = end.locator(".tiebreak-row td").all_inner_texts()
    assert [int(x) for x in cubes] == result["tiebreak"]
    shot(page, "harmonies-page-end-2p.png", full_page=False)
    page.select_option("#lang-select", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(end.locator("[data-testid=end-why]")).to_have_text(
        [
            page_t(page, f"h.end.{r}", {"name": who, "n": trig["empty_cells"]})
            for r in trig["reasons"]
        ]
    )
    assert english_words(page) == [], english_words(page)
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


def test_language_files_have_the_page_keys() -> None:
    """Every key this page uses exists in the three languages (the glossary test checks forms)."""
    source = (ROOT / "glade" / "web" / "js" / "games" / "harmonies.js").read_text("utf-8")
    used = set(re.findall(r"""t\("(h\.[\w.]+)""", source))
    for lang in ("en", "ko", "zh"):
        table = json.loads((ROOT / "glade" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
        assert used <= set(table), (lang, sorted(used - set(table)))
    assert len(used) > 40
