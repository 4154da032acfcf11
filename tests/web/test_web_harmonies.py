"""Harmonies in the browser: a solo game by clicks, and a live 2-player online game."""

from __future__ import annotations

import json
import random
import re

import httpx
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from web_support import (
    ROOT,
    Server,
    create_from_lobby,
    game_id,
    new_page,
    play_harmonies_turn,
    replay_log,
    shot,
    version,
    wait_version_above,
)

FLAT = {"blue", "yellow", "green"}  # colours on which nothing can be stacked


def refused_in(lang: str, cell: str) -> list[str]:
    """Every sentence of a token refused on a one-token stack at ``cell``, in ``lang``."""
    table = json.loads((ROOT / "glade" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
    terms = json.loads((ROOT / "glade" / "web" / "i18n" / "glossary.json").read_text("utf-8"))
    out = []
    for color in ("blue", "gray", "brown", "green", "yellow", "red"):
        for on in ("blue", "gray", "brown", "green", "yellow", "red"):
            on_word = terms["terms"][f"harmonies.colour.{on}"][lang]
            text = table[f"refusal.harmonies.stack.{color}"]
            out.append(text.replace("{on}", on_word).replace("{cell}", cell))
    return out


def heights(page: Page) -> dict[str, int]:
    """Stack height of every cell of the main board on screen."""
    cells = page.locator(".mine .cell")
    return {
        cells.nth(i).get_attribute("data-cell") or "": int(
            cells.nth(i).get_attribute("data-height") or 0
        )
        for i in range(cells.count())
    }


def test_solo_game_by_clicks_ends_with_the_engine_score(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    rng = random.Random(5)
    create_from_lobby(page, server.url, "harmonies", ["human"], names={0: "Ana"}, spirits=True)
    page.wait_for_selector("[data-testid=table]")
    gid = game_id(page)
    turns = 0
    while not page.locator("[data-testid=end-screen]").count():
        play_harmonies_turn(page, rng)
        turns += 1
        if turns == 6:
            # the score preview follows the board: the page shows what the server computed
            state = httpx.get(f"{server.url}/api/games/{gid}").json()
            shown = page.inner_text("[data-testid=my-score]")
            assert str(state["view"]["boards"][0]["score"]["total"]) in shown
            shot(page, "harmonies-solo-midgame.png")
        assert turns < 40, "a solo game lasts fewer than 40 turns"
    end = page.locator("[data-testid=end-screen]")
    expect(end).to_be_visible()
    engine = replay_log(server.url, gid)
    assert engine.is_over
    result = engine.result()
    total = int(end.locator("[data-total-seat='0']").inner_text())
    assert total == result["scores"][0] == result["breakdown"][0]["total"]
    assert f"{result['suns']}" in end.locator("[data-suns]").inner_text()
    rows = end.locator("table.breakdown tbody tr th").all_inner_texts()
    assert "Spirit" in rows and "Suns" in rows
    assert engine.view(0)["boards"][0]["spirit"]["card"], "a Nature's Spirit was chosen by click"
    shot(page, "harmonies-solo-end.png", full_page=False)

    # The replay rebuilds the board move by move from the public log and ends on the same board.
    final = heights(page)
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=replay]")
    expect(page.locator("[data-testid=replay] .end-inline")).to_be_visible()
    assert heights(page) == final
    total_moves = len(engine.log)
    expect(page.locator("[data-testid=replay-count]")).to_have_text(
        f"{total_moves} / {total_moves}"
    )
    page.keyboard.press("Home")
    expect(page.locator("[data-testid=replay-count]")).to_have_text(f"0 / {total_moves}")
    assert set(heights(page).values()) == {0}
    for _ in range(3):
        page.click("[data-testid=replay-next]")
    expect(page.locator("[data-testid=replay-move]")).to_contain_text("3.")
    first = engine.log_json(None)[:3]
    assert sum(heights(page).values()) == sum(m["action"]["type"] == "place_token" for m in first)
    assert watch.errors == []
    context.close()


def test_two_players_online_see_each_other_live(server: Server, browser: Browser) -> None:
    ctx_a, a, watch_a = new_page(browser)
    ctx_b, b, watch_b = new_page(browser, 1100, 900)
    # Bo's table sockets go through the test, which can cut one as a failing network would
    sockets: list[WebSocketRoute] = []

    def relay(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    b.route_web_socket(re.compile(r"/api/games/[^/]+/ws"), relay)
    rng = random.Random(11)
    # Ana creates an online table; the second human seat stays open for anyone in the lobby.
    seats = ["human", "human"]
    create_from_lobby(a, server.url, "harmonies", seats, mode="online", names={0: "Ana"})
    invites = a.locator("[data-testid=invites]")
    expect(invites).to_be_visible()
    # the creator's own seat is claimed already (it opens directly); the other seat gets a link
    assert a.locator("[data-invite='0']").count() == 0
    link = a.input_value("[data-invite='1']")
    assert "?game=" in link and "#token=" in link
    a.click("[data-open-seat='0']")
    a.wait_for_selector("[data-testid=table]")
    gid = game_id(a)

    # Bo finds the table in the lobby and joins it by name.
    b.goto(server.url + "/#/")
    b.fill("#join-name", "Bo")
    b.click("[data-refresh]")
    b.click(f"[data-join='{gid}']")
    b.wait_for_selector("[data-testid=table]")
    expect(a.locator(".scores thead")).to_contain_text("Bo", timeout=10000)
    expect(b.locator("[data-testid=status]")).to_contain_text("Ana")

    # A spectator follows the table from its public link.
    ctx_s, spectator, watch_s = new_page(browser, 800, 700)
    spectator.goto(f"{server.url}/?game={gid}")
    spectator.wait_for_selector("[data-testid=table]")
    assert "#/watch/" in spectator.url
    watched = version(spectator)

    # Ana takes tokens (a space with a token nothing can be stacked on): Bo sees it live.
    before = version(b)
    central_before = b.inner_text(".central .spaces")
    spaces = a.locator(".space.legal")
    offered = [
        set((spaces.nth(i).get_attribute("data-tokens") or "").split(","))
        for i in range(spaces.count())
    ]
    flat = [i for i, tokens in enumerate(offered) if FLAT & tokens]
    assert flat, "no central space holds blue, yellow or green"
    spaces.nth(flat[0]).click()
    wait_version_above(b, before)
    assert b.inner_text(".central .spaces") != central_before

    # Ana places that token, then takes it back with Undo; Bo sees both.
    def place_flat() -> str:
        hand = a.locator("[data-testid=hand] .token-btn")
        colours = [hand.nth(i).get_attribute("data-color") for i in range(hand.count())]
        hand.nth(next(i for i, c in enumerate(colours) if c in FLAT)).click()
        cell = a.locator(".cell.legal").first
        name = cell.get_attribute("data-cell") or ""
        cell.click()
        return name

    v = version(a)
    name = place_flat()
    v = wait_version_above(a, v)
    wait_version_above(b, v - 1)
    assert a.get_attribute(f".mine [data-cell='{name}']", "data-height") == "1"
    assert b.get_attribute(f".other [data-cell='{name}']", "data-height") == "1"
    a.click("[data-testid=undo]")
    v = wait_version_above(a, v)
    assert a.get_attribute(f".mine [data-cell='{name}']", "data-height") == "0"
    wait_version_above(b, v - 1)
    assert b.get_attribute(f".other [data-cell='{name}']", "data-height") == "0"

    # A click on a cell that is not highlighted is sent anyway: the server refuses it with its
    # sentence, which the page shows, and nothing changes.
    name = place_flat()
    v = wait_version_above(a, v)
    a.locator("[data-testid=hand] .token-btn").first.click()
    target = a.locator(f".mine [data-cell='{name}']")
    assert "legal" not in (target.get_attribute("class") or "")
    target.click()
    toast = a.locator("#toast")
    expect(toast).to_be_visible()
    # the sentence names the cell as the board labels it ("C4"), not by its inner coordinates
    label = a.get_attribute(f".mine [data-cell='{name}']", "data-label") or ""
    assert label and label != name
    expect(toast).to_contain_text(label)
    assert version(a) == v
    assert a.get_attribute(f".mine [data-cell='{name}']", "data-height") == "1"
    # The same refusal on a Korean and a Chinese page: the engine's sentence in that language,
    # built from its code and params (the colour it met translated), and no English word.
    for lang in ("ko", "zh"):
        a.select_option("#lang-select", lang)
        expect(a.locator("html")).to_have_attribute("lang", lang)
        a.locator("[data-testid=hand] .token-btn").first.click()
        a.locator(f".mine [data-cell='{name}']").click()
        expect(toast).to_be_visible()
        expect(toast).to_have_text(re.compile("|".join(map(re.escape, refused_in(lang, label)))))
        assert not re.search(r"[A-Za-z]{2,}", toast.inner_text()), toast.inner_text()
        assert version(a) == v
    a.select_option("#lang-select", "en")

    # Ana finishes her turn; Bo plays his by keyboard and clicks, Ana sees it live.
    play_harmonies_turn(a, rng)
    expect(b.locator("[data-testid=status]")).to_contain_text("Your turn")
    v_a = version(a)
    b.focus(".space.legal >> nth=0")
    b.keyboard.press("Enter")
    v_a = wait_version_above(a, v_a)
    b.focus(".mine .cell.legal >> nth=0")
    b.keyboard.press("Enter")
    wait_version_above(a, v_a)
    play_harmonies_turn(b, rng)
    expect(a.locator("[data-testid=status]")).to_contain_text("Your turn")

    # Bo loses his connection; Ana moves meanwhile; Bo's table catches up when it reconnects.
    assert sockets, "Bo's table opened no socket"
    sockets[-1].close()
    v_a = version(a)
    a.locator(".space.legal").first.click()
    v_a = wait_version_above(a, v_a)
    wait_version_above(b, v_a - 1, timeout=20000)
    expect(b.locator("#conn")).to_have_attribute("data-status", "online")
    shot(a, "harmonies-online-midgame.png")
    wait_version_above(spectator, watched)
    assert spectator.locator("[data-testid=hand]").count() == 0
    assert spectator.locator("[data-act]").count() == 0, "a spectator is offered no move"
    assert watch_a.errors == [] and watch_b.errors == [] and watch_s.errors == []
    ctx_s.close()
    ctx_a.close()
    ctx_b.close()


def test_hint_button_marks_the_suggested_move(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    create_from_lobby(page, server.url, "harmonies", ["human"], names={0: "Ana"})
    page.wait_for_selector("[data-testid=table]")
    gid = game_id(page)
    button = page.locator("button[data-hint]")
    expect(button).to_be_visible()
    state = httpx.get(f"{server.url}/api/games/{gid}").json()
    button.click()
    expect(button).to_have_class("on")
    coach = page.locator("[data-testid=coach]")
    expect(coach).to_be_visible()
    # the suggestion in words, with the search's expected final score (a solo game: no win chance)
    text = coach.inner_text().strip()
    assert re.search(r"\(expected final score \d+\)$", text), text
    # the page's own state did not move: a hint plays nothing
    assert httpx.get(f"{server.url}/api/games/{gid}").json()["version"] == state["version"]
    hinted = page.locator(".mine .cell.hinted")
    expect(hinted.first).to_be_visible()
    shot(page, "harmonies-hint.png")
    context.close()
