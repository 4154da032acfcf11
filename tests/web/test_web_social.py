"""The social panel in the browser: a ticking clock, the table chat (escaped, read-only for
spectators, mutable) and a rematch offered and accepted with one click each."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from web_support import ROOT, Server, new_page, shot

from tests.server.server_support import play_random


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose clocks may be short (and are looked at often)."""
    db = tmp_path_factory.mktemp("social") / "glade.sqlite3"
    srv = Server(db, "--clock-min-seconds", "1", "--clock-poll-seconds", "0.2")
    yield srv
    srv.stop()


def _open(page: Page, base: str, game_id: str, token: str | None) -> None:
    url = f"{base}/?game={game_id}" + (f"#token={token}" if token else "")
    page.goto(url)
    page.wait_for_selector("[data-testid=table]")
    page.wait_for_selector("[data-testid=social]")


def _ann_and_bo(base: str, clock: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """A Harmonies table of Ann and Bo (with ``clock``): its id and invite tokens."""
    body: dict[str, Any] = {
        "game": "harmonies",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}],
    }
    if clock is not None:
        body["clock"] = clock
    r = httpx.post(f"{base}/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def _first_move(base: str, game_id: str, token: str) -> None:
    """Seat 0's first action (a real-time clock runs from the game's first move on)."""
    mine = httpx.get(f"{base}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    action = [a for a in mine.json()["legal_actions"] if a["type"] != "undo"][0]
    r = httpx.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": action, "version": mine.json()["version"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text


def test_clock_chat_and_rematch(clock_server: Server, browser: Browser) -> None:
    base = clock_server.url
    game_id, tokens = _ann_and_bo(base, {"kind": "realtime", "base": 300, "increment": 20})
    _first_move(base, game_id, tokens[0])
    ctx_a, ann, watch_a = new_page(browser)
    ctx_b, bo, watch_b = new_page(browser)
    ctx_s, spectator, watch_s = new_page(browser)
    try:
        _open(ann, base, game_id, tokens[0])
        _open(bo, base, game_id, tokens[1])
        _open(spectator, base, game_id, None)
        # opening an invite link claims its seat: the link's token is spent, and each browser
        # holds its seat's fresh credential from then on
        tokens = [
            page.evaluate(
                "([id, seat]) => JSON.parse(localStorage.getItem('glade.seats'))[id].tokens[seat]",
                [game_id, seat],
            )
            for seat, page in enumerate((ann, bo))
        ]
        # the clock of the seat to act ticks down; the other one stands at 5:00
        clock0 = ann.locator("[data-testid=clock-0]")
        clock0.wait_for()
        assert "running" in (clock0.get_attribute("class") or "")
        first = clock0.inner_text()
        ann.wait_for_function(
            "t => document.querySelector('[data-testid=clock-0]').textContent !== t",
            arg=first,
            timeout=5000,
        )
        assert first.startswith(("5:00", "4:"))  # 5 minutes, a few seconds gone
        assert ann.locator("[data-testid=clock-1]").inner_text() == "5:00"
        leave = ann.locator("[data-testid=leave]")
        assert leave.inner_text() == "Leave the game"
        shot(ann, "social-clock.png", full_page=False)  # the bar above the table, ticking
        assert "running" not in (ann.locator("[data-testid=clock-1]").get_attribute("class") or "")
        # chat: markup arrives as text at the other seat and the spectator
        evil = '<img src=x onerror="window.__xss=1">hello & bye'
        ann.fill("[data-testid=chat-input]", evil)
        ann.press("[data-testid=chat-input]", "Enter")
        for page in (bo, spectator, ann):
            page.wait_for_function(
                "t => [...document.querySelectorAll('[data-testid=chat-log] .chat-text')]"
                ".some(e => e.textContent === t)",
                arg=evil,
                timeout=10000,
            )
            assert page.locator("[data-testid=chat-log] img").count() == 0
            assert page.evaluate("window.__xss") is None
        assert bo.locator("[data-testid=chat-log] li").first.inner_text().startswith("Ann:")
        # spectators read only
        assert not spectator.locator("[data-testid=chat-input]").is_visible()
        assert spectator.locator("[data-chat-readonly]").is_visible()
        bo.fill("[data-testid=chat-input]", "hi Ann")
        bo.press("[data-testid=chat-input]", "Enter")
        ann.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=chat-log] .chat-text')]"
            ".some(e => e.textContent === 'hi Ann')",
            timeout=10000,
        )
        shot(ann, "social-clock-chat.png", full_page=False)
        # Bo mutes the chat; it stays muted after a reload
        bo.check("[data-testid=chat-mute]")
        assert not bo.locator("[data-testid=chat-log]").is_visible()
        bo.reload()
        bo.wait_for_selector("[data-testid=social]")
        assert bo.locator("[data-testid=chat-mute]").is_checked()
        assert not bo.locator("[data-testid=chat-log]").is_visible()
        bo.uncheck("[data-testid=chat-mute]")
        assert bo.locator("[data-testid=chat-log] li").count() == 2

        # the game ends (both seats play at random through the API)
        with httpx.Client(base_url=base, timeout=20) as h:
            play_random(h, game_id, list(tokens), random.Random(7))
        # the end screen (over the page) carries the rematch button; so does the bar behind it
        ann.wait_for_selector("[data-testid=end-rematch-offer]", timeout=60000)
        bo.wait_for_selector("[data-testid=end-rematch-offer]", timeout=60000)
        assert ann.locator("[data-testid=rematch-offer]").count() == 1
        assert spectator.locator("[data-testid=rematch-offer]").count() == 0 or not (
            spectator.locator("[data-testid=rematch-offer]").is_visible()
        )
        shot(ann, "social-rematch-offer.png", full_page=False)
        ann.click("[data-testid=end-rematch-offer]")
        # Ann's table says her offer waits for Bo (issue 31); she stays until he answers
        waiting = ann.locator("[data-testid=end-screen] [data-testid=end-rematch-waiting]")
        expect(waiting).to_have_text("Waiting for Bo to accept.")
        expect(ann.locator("[data-testid=end-screen]")).to_contain_text("You offered a rematch")
        assert game_id in ann.url
        shot(ann, "social-rematch-waiting.png", full_page=False)
        # Bo sees the offer live, with Accept and Decline, and accepts with one click
        bo.wait_for_selector("[data-testid=end-rematch-accept]")
        expect(bo.locator("[data-testid=end-rematch-decline]")).to_be_visible()
        assert "Ann" in bo.locator("[data-testid=end-screen]").inner_text()
        shot(bo, "social-rematch-accept.png", full_page=False)
        bo.click("[data-testid=end-rematch-accept]")
        # once Bo accepted, Ann's page takes her to the new table, seats rotated
        ann.wait_for_url(lambda url: game_id not in url and "#/play/" in url)
        new_id = ann.url.rsplit("/", 1)[-1]
        ann.wait_for_selector("[data-testid=table]")
        assert ann.get_attribute("[data-testid=table]", "data-seat") == "1"
        bo.wait_for_url(f"**/#/play/{new_id}")
        bo.wait_for_selector("[data-testid=table]")
        assert bo.get_attribute("[data-testid=table]", "data-seat") == "0"
        # the new table's real-time clock waits for its first move (it ran before it: issue 31),
        # then runs for Bo (seat 0), who is to act
        expect(bo.locator("[data-testid=clock-0]")).to_be_visible()
        assert "running" not in (bo.get_attribute("[data-testid=clock-0]", "class") or "")
        seats_now = httpx.get(f"{base}/api/games/{new_id}/social").json()["clock"]["seats"]
        assert not any(c["running"] for c in seats_now)
        bo_token = bo.evaluate(
            "([id]) => JSON.parse(localStorage.getItem('glade.seats'))[id].tokens[0]", [new_id]
        )
        _first_move(base, new_id, bo_token)
        bo.wait_for_function(
            "() => (document.querySelector('[data-testid=clock-0]') || {}).className"
            "?.includes('running')",
            timeout=10000,
        )
        shot(bo, "social-rematch-new-table.png", full_page=False)
        # the spectator is offered to watch the rematch
        spectator.wait_for_selector("[data-testid=rematch-open]")
        assert f"#/watch/{new_id}" in (
            spectator.get_attribute("[data-testid=rematch-open]", "href") or ""
        )
        seats = httpx.get(f"{base}/api/games/{new_id}").json()["seats"]
        assert [s["name"] for s in seats] == ["Bo", "Ann"]
        assert watch_a.errors == [] and watch_b.errors == [] and watch_s.errors == []
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_s.close()


def test_lobby_creates_a_table_with_a_clock(clock_server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    try:
        page.goto(clock_server.url + "/#/")
        page.wait_for_selector("[data-testid=create]")
        page.check("input[name=game][value=harmonies]")
        page.select_option("[data-testid=players]", "2")
        page.check("input[name=mode][value=hotseat]")
        page.select_option("[data-testid=clock-choice]", "cd:2")
        for i in (0, 1):
            page.select_option(f"[data-seat-kind='{i}']", "human")
        page.click("[data-testid=create]")
        page.wait_for_selector("[data-testid=table]")
        game_id = page.url.rsplit("/", 1)[-1]
        clock = httpx.get(f"{clock_server.url}/api/games/{game_id}/social").json()["clock"]
        assert clock["kind"] == "correspondence" and clock["days"] == 2
        page.wait_for_selector("[data-testid=clock-0]")
        # both seats' correspondence clocks in the same words, the running one and the other
        page.wait_for_selector("[data-testid=clock-1]")
        for seat in (0, 1):
            text = page.locator(f"[data-testid=clock-{seat}]").inner_text()
            assert re.fullmatch(r"[12] d \d{1,2} h", text), text
        # leave: a first click asks again, the second hands the seat to a bot
        page.click("[data-testid=leave]")
        assert "again" in page.locator("[data-testid=leave]").inner_text()
        state = httpx.get(f"{clock_server.url}/api/games/{game_id}").json()
        assert [s["status"] for s in state["seats"]] == [None, None]
        page.click("[data-testid=leave]")
        page.wait_for_selector("[data-testid=seat-status]")
        state = httpx.get(f"{clock_server.url}/api/games/{game_id}").json()
        assert [s["status"] for s in state["seats"]] == ["left", None]
        assert "left" in page.locator("[data-testid=clocks] li").first.inner_text()
        shot(page, "social-correspondence-left.png", full_page=False)
        assert watch.errors == []
    finally:
        context.close()


def test_chat_too_fast_says_so_and_sends_nothing(clock_server: Server, browser: Browser) -> None:
    """The chat's per-client limit: past it the page shows the server's sentence, keeps what was
    typed, and nobody sees the refused message."""
    game_id, tokens = _ann_and_bo(clock_server.url)
    context, page, watch = new_page(browser)
    try:
        _open(page, clock_server.url, game_id, tokens[0])
        box = page.locator("[data-testid=chat-input]")
        refused = None
        for i in range(12):  # 5 at once (fewer if this address chatted a moment ago), then 0.5/s
            box.fill(f"line {i}")
            box.press("Enter")
            page.wait_for_function(
                "() => !document.querySelector('#toast').hidden ||"
                " document.querySelector('[data-testid=chat-input]').value === ''"
            )
            if page.locator("#toast").is_visible():
                refused = i
                break
        assert refused is not None, "twelve messages at once were all accepted"
        expect(page.locator("#toast")).to_contain_text("too fast")
        expect(box).to_have_value(f"line {refused}")  # kept, to send again later
        stored = httpx.get(f"{clock_server.url}/api/games/{game_id}/chat").json()["messages"]
        assert [m["text"] for m in stored] == [f"line {i}" for i in range(refused)]
        expect(page.locator("[data-testid=chat-log] li")).to_have_count(refused)
        assert watch.errors == []
    finally:
        context.close()


def test_a_clock_running_out_hands_the_seat_to_a_bot_on_the_page(
    clock_server: Server, browser: Browser
) -> None:
    """A 2-second real-time clock runs out on the page: the seat says so, a bot plays it and the
    game goes on (the table's version moves on without anyone clicking)."""
    game_id, tokens = _ann_and_bo(clock_server.url, {"kind": "realtime", "base": 2, "increment": 0})
    _first_move(clock_server.url, game_id, tokens[0])
    context, page, watch = new_page(browser)
    try:
        _open(page, clock_server.url, game_id, tokens[0])
        status = page.locator("[data-testid=clocks] [data-testid=seat-status]").first
        expect(status).to_have_text("time ran out", timeout=20000)
        seats = httpx.get(f"{clock_server.url}/api/games/{game_id}").json()["seats"]
        out = [i for i, s in enumerate(seats) if s["status"] == "timed out"]
        assert out and all(seats[i]["kind"] == "bot" for i in out)
        for i in out:  # the seat to act first ran out; its pill says so and has no clock now
            expect(page.locator(f"[data-testid=clocks] li[data-seat='{i}']")).to_contain_text(
                "time ran out"
            )
            expect(page.locator(f"[data-testid=clock-{i}]")).to_have_count(0)
        page.wait_for_function(
            "() => Number(document.querySelector('[data-testid=table]').dataset.version) > 0",
            timeout=30000,
        )
        # the seat keeps its player's name on the board, in the scores and in the log (issue 31)
        names = ["Ann", "Bo"]
        for i in out:
            expect(page.locator(f"[data-board-seat='{i}'] :is(h2, h3)").first).to_contain_text(
                names[i] if i != 0 else "Your board"
            )
            expect(page.locator(".scores thead")).to_contain_text(names[i])
        expect(page.locator("[data-log]")).not_to_contain_text("Greedy bot")
        # the bot is named only as the one playing for its player ("Ann (Greedy bot plays for
        # them)" in the seats), never in the player's place
        text = page.locator("[data-testid=table]").inner_text()
        for i in out:
            text = text.replace(f"{names[i]} (Greedy bot plays for them)", "")
        assert "Greedy bot" not in text
        assert watch.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_rematch_offer_can_be_declined(clock_server: Server, browser: Browser, lang: str) -> None:
    """Bo declines Ann's rematch: the server hears it, Ann's page says "Bo declined the
    rematch." within a push, with no waiting line and no link to a table that will never start;
    Bo's page says he declined (after a reload too); nothing is kept in the browser alone."""
    base = clock_server.url
    words = json.loads((ROOT / "glade" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
    game_id, tokens = _ann_and_bo(base)
    ctx_a, ann, watch_a = new_page(browser)
    ctx_b, bo, watch_b = new_page(browser)
    for ctx in (ctx_a, ctx_b):
        ctx.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
    try:
        _open(ann, base, game_id, tokens[0])
        _open(bo, base, game_id, tokens[1])
        held = [
            page.evaluate(
                "([id, seat]) => JSON.parse(localStorage.getItem('glade.seats'))[id].tokens[seat]",
                [game_id, seat],
            )
            for seat, page in enumerate((ann, bo))
        ]
        with httpx.Client(base_url=base, timeout=20) as h:
            play_random(h, game_id, held, random.Random(3))
        ann.click("[data-testid=end-rematch-offer]", timeout=60000)
        end_a = ann.locator("[data-testid=end-screen]")
        expect(end_a.locator("[data-testid=end-rematch-waiting]")).to_have_text(
            words["rematch.waiting"].replace("{names}", "Bo")
        )
        expect(end_a.locator("[data-testid=end-rematch-withdraw]")).to_be_visible()
        bo.click("[data-testid=end-rematch-decline]", timeout=30000)
        said = bo.locator("[data-testid=end-screen] [data-testid=end-rematch-declined]")
        expect(said).to_have_text(words["rematch.declined"].replace("{name}", "Ann"))
        expect(bo.locator("[data-testid=end-rematch-accept]")).to_have_count(0)
        # the server knows: Ann's page hears it (no reload), in the end screen and the bar
        status = httpx.get(f"{base}/api/games/{game_id}/social").json()["rematch"]
        assert status["declined"] == [1] and status["waiting"] == [] and not status["withdrawn"]
        heard = words["rematch.declinedBy"].replace("{name}", "Bo")
        expect(end_a.locator("[data-testid=end-rematch-declined-by]")).to_have_text(heard)
        expect(ann.locator("[data-testid=rematch] [data-testid=rematch-declined-by]")).to_have_text(
            heard
        )
        expect(end_a.locator("[data-testid=end-rematch-off]")).to_have_text(words["rematch.off"])
        for page in (ann, bo):
            expect(page.locator("[data-testid$=rematch-waiting]")).to_have_count(0)
            expect(page.locator("[data-testid$=rematch-open]")).to_have_count(0)
            expect(page.locator("[data-testid$=rematch-withdraw]")).to_have_count(0)
            assert page.evaluate("localStorage.getItem('glade.rematch.declined')") is None
        assert game_id in ann.url
        shot(ann, f"social-rematch-declined-offerer-{lang}.png", full_page=False)
        bo.reload()
        bo.wait_for_selector("[data-testid=end-screen]")
        expect(bo.locator("[data-testid=end-rematch-declined]")).to_be_visible()
        expect(bo.locator("[data-testid=end-rematch-accept]")).to_have_count(0)
        expect(bo.locator("#toast")).to_be_hidden()
        shot(bo, f"social-rematch-declined-{lang}.png", full_page=False)
        assert watch_a.errors == [] and watch_b.errors == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_offerer_withdraws_a_rematch(clock_server: Server, browser: Browser) -> None:
    """Ann takes her offer back before Bo answers: Bo's page stops asking and says so."""
    base = clock_server.url
    game_id, tokens = _ann_and_bo(base)
    ctx_a, ann, watch_a = new_page(browser)
    ctx_b, bo, watch_b = new_page(browser)
    try:
        _open(ann, base, game_id, tokens[0])
        _open(bo, base, game_id, tokens[1])
        held = [
            page.evaluate(
                "([id, seat]) => JSON.parse(localStorage.getItem('glade.seats'))[id].tokens[seat]",
                [game_id, seat],
            )
            for seat, page in enumerate((ann, bo))
        ]
        with httpx.Client(base_url=base, timeout=20) as h:
            play_random(h, game_id, held, random.Random(4))
        ann.click("[data-testid=end-rematch-offer]", timeout=60000)
        bo.wait_for_selector("[data-testid=end-rematch-accept]")
        ann.click("[data-testid=end-rematch-withdraw]")
        expect(ann.locator("[data-testid=end-rematch-withdrawn]")).to_have_text(
            "You withdrew your rematch offer."
        )
        expect(bo.locator("[data-testid=end-rematch-withdrawn]")).to_have_text(
            "Ann withdrew the rematch offer."
        )
        for page in (ann, bo):
            expect(page.locator("[data-testid$=rematch-accept]")).to_have_count(0)
            expect(page.locator("[data-testid$=rematch-open]")).to_have_count(0)
        status = httpx.get(f"{base}/api/games/{game_id}/social").json()["rematch"]
        assert status["withdrawn"] and status["waiting"] == []
        assert watch_a.errors == [] and watch_b.errors == []
    finally:
        ctx_a.close()
        ctx_b.close()


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_a_seat_a_bot_took_over_says_who_plays_for_whom(
    clock_server: Server, browser: Browser, lang: str
) -> None:
    """Ann leaves: the server's seat is ``taken_over`` (a bot plays, her name stays). Bo's page
    shows "Ann (Greedy bot plays for them)" and why ("left the game") in its seats, in the
    page's language; her name, never the bot's alone, on her board. Desktop and phone."""
    base = clock_server.url
    game_id, tokens = _ann_and_bo(base)
    r = httpx.post(
        f"{base}/api/games/{game_id}/leave", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert r.status_code == 200, r.text
    seat = httpx.get(f"{base}/api/games/{game_id}").json()["seats"][0]
    assert seat["taken_over"] and seat["name"] == "Ann" and seat["status"] == "left"
    assert ":" not in seat["bot"]  # a bot without a level: its name is one catalogue word
    words = json.loads((ROOT / "glade" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
    title = words["seat.takenOver"].format(name="Ann", bot=words[f"bot.{seat['bot']}"])
    # one browser (the invite is claimed once), at a desktop's size and then a phone's
    context, page, watch = new_page(browser, 1280, 800)
    context.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
    try:
        _open(page, base, game_id, tokens[1])
        for width, height in [(1280, 800), (390, 844)]:
            page.set_viewport_size({"width": width, "height": height})
            pill = page.locator("[data-testid=clocks] li[data-seat='0']")
            expect(pill.locator(".seat-name")).to_have_text(title)
            expect(pill.locator("[data-testid=seat-status]")).to_have_text(words["seat.whyLeft"])
            expect(page.locator("[data-board-seat='0'] :is(h2, h3)").first).to_contain_text("Ann")
            pill.scroll_into_view_if_needed()
            shot(page, f"social-taken-over-{lang}-{width}.png", full_page=False)
        assert watch.errors == []
    finally:
        context.close()
