"""The lobby in three languages, every string translated, and the phone-width layout."""

from __future__ import annotations

import json
import random
import re

import httpx
from playwright.sync_api import Browser, expect
from web_support import (
    ROOT,
    Server,
    create_from_lobby,
    game_id,
    new_page,
    play_harmonies_turn,
    shot,
    version,
    wait_version_above,
)

WEB = ROOT / "glade" / "web"
LANGS = ("en", "ko", "zh")


def strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def glossary() -> dict[str, dict[str, str]]:
    """The game terms every language shares (card names among them), by id."""
    data: dict[str, dict[str, str]] = json.loads(
        (WEB / "i18n" / "glossary.json").read_text("utf-8")
    )["terms"]
    return data


def card_names(lang: str) -> set[str]:
    return {t[lang] for k, t in glossary().items() if k.startswith("card.")}


def test_every_string_exists_in_every_language() -> None:
    tables = {lang: strings(lang) for lang in LANGS}
    keys = set(tables["en"])
    for lang, table in tables.items():
        assert set(table) == keys, f"{lang}: {sorted(set(table) ^ keys)[:5]}"
        assert all(isinstance(v, str | dict) and v for v in table.values()), lang
    # every literal key the scripts ask for is translated
    used: set[str] = set()
    for script in (WEB / "js").rglob("*.js"):
        used |= set(re.findall(r"\bt\(\"([a-zA-Z0-9_.-]+)\"", script.read_text("utf-8")))
    assert used, "no t(...) call found"
    assert used <= keys | set(glossary()), sorted(used - keys)
    # card and spirit names (from the glossary) and spirit rules, for every card of the data
    cards = json.loads(
        (ROOT / "glade" / "harmonies" / "data" / "harmonies-cards.json").read_text("utf-8")
    )
    terms = glossary()
    for card in cards["animals"] + cards["spirits"]:
        assert f"card.{card['id']}" in terms
    for card in cards["spirits"]:
        assert f"spirit.rule.{card['id']}" in keys
    # the translations really differ from English where the scripts differ
    assert terms["card.crocodile"]["ko"] != terms["card.crocodile"]["en"]
    assert terms["card.crocodile"]["zh"] != terms["card.crocodile"]["en"]


def test_the_page_gets_the_engine_card_data(server: Server) -> None:
    import httpx

    engine = ROOT / "glade" / "harmonies" / "data" / "harmonies-cards.json"
    served = httpx.get(server.url + "/data/harmonies-cards.json")
    assert served.status_code == 200
    assert served.json() == json.loads(engine.read_text("utf-8"))


def test_lobby_in_three_languages_remembered(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    page.goto(server.url + "/#/")
    for lang in LANGS:
        table = strings(lang)
        page.select_option("#lang-select", lang)
        expect(page.locator("#new-title")).to_have_text(table["lobby.newTable"])
        expect(page.locator("[data-testid=create]")).to_have_text(table["lobby.create"])
        expect(page.locator("#open-title")).to_have_text(table["lobby.openTables"])
        assert page.get_attribute("html", "lang") == lang
        shot(page, f"lobby-{lang}.png")
    # the choice is remembered across a reload
    page.reload()
    expect(page.locator("#new-title")).to_have_text(strings("zh")["lobby.newTable"])
    assert page.input_value("#lang-select") == "zh"
    # card names follow the language on the table
    create_from_lobby(page, server.url, "harmonies", ["human"])
    page.wait_for_selector("[data-testid=table]")
    names = page.locator(".row .hcard h3").all_inner_texts()
    assert names and all(n in card_names("zh") for n in names)
    page.select_option("#lang-select", "ko")
    ko = strings("ko")
    expect(page.locator("#central-title")).to_have_text(ko["h.central"])
    names = page.locator(".row .hcard h3").all_inner_texts()
    assert names and all(n in card_names("ko") for n in names)
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


def test_phone_width_layout(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser, 390, 844)
    page.goto(server.url + "/#/")
    page.select_option("#lang-select", "en")
    page.wait_for_selector("[data-testid=create]")
    overflow = "document.documentElement.scrollWidth - window.innerWidth"
    assert page.evaluate(overflow) <= 0, "the lobby scrolls sideways on a phone"
    shot(page, "phone-lobby.png")
    # hot-seat: two humans share the phone, the table turns to whoever plays
    names = {0: "Mia", 1: "Noa"}
    create_from_lobby(page, server.url, "harmonies", ["human", "human"], names=names, spirits=True)
    page.wait_for_selector("[data-testid=table]")
    assert page.evaluate(overflow) <= 0, "the table scrolls sideways on a phone"
    assert page.get_attribute("[data-testid=table]", "data-seat") == "0"
    expect(page.locator("[data-testid=status]")).to_contain_text("Mia")
    # the board fits the screen and is playable by touch-sized clicks
    board = page.locator(".mine .hboard")
    board.wait_for(state="visible")  # under load the board may draw after the status line
    box = board.bounding_box()
    assert box and box["width"] <= 390
    v = version(page)
    page.locator("[data-key^=spirit-]").first.click()
    v = wait_version_above(page, v)
    page.locator(".space.legal").first.click()
    v = wait_version_above(page, v)
    cell = page.locator(".cell.legal").first
    cell_box = cell.bounding_box()
    assert cell_box and cell_box["width"] >= 30, "a cell is too small to touch"
    cell.click()
    wait_version_above(page, v)
    assert page.evaluate(overflow) <= 0
    shot(page, "phone-harmonies.png")
    play_harmonies_turn(page, random.Random(2))
    # Noa's face-down spirits stay covered until Noa takes the phone
    handoff = page.locator("[data-testid=handoff]")
    expect(handoff).to_contain_text("Noa")
    assert page.locator(".offer").count() == 0
    page.click("[data-reveal]")
    page.wait_for_selector("[data-testid=table][data-seat='1']")
    expect(page.locator(".offer")).to_be_visible()
    expect(page.locator("[data-testid=status]")).to_contain_text("Noa")
    expect(page.locator(".mine h2")).to_contain_text("Your board")
    # Living Forest fits the phone too
    create_from_lobby(page, server.url, "living-forest", ["human", "random"], names={0: "Mia"})
    page.wait_for_selector("[data-testid=table] .forest")
    assert page.evaluate(overflow) <= 0, "the Living Forest table scrolls sideways on a phone"
    shot(page, "phone-living-forest.png")
    assert watch.errors == []
    context.close()


def test_an_invite_link_of_an_open_seat_asks_the_name(server: Server, browser: Browser) -> None:
    ctx_a, a, watch_a = new_page(browser)
    create_from_lobby(a, server.url, "living-forest", ["human", "human"], mode="online")
    expect(a.locator("[data-testid=invites]")).to_be_visible()
    link = a.input_value("[data-invite='1']")
    ctx_c, c, watch_c = new_page(browser)
    c.goto(link)
    c.fill(".join-form input[name=name]", "Cy")
    c.click(".join-form button[type=submit]")
    c.wait_for_selector("[data-testid=table]")
    assert "#/play/" in c.url and "token" not in c.url, "the token leaves the address bar"
    expect(c.locator(".scores thead")).to_contain_text("Cy")
    assert c.get_attribute("[data-testid=table]", "data-seat") == "1"
    # the seat is named now: the lobby no longer lists the table
    a.goto(server.url + "/#/")
    a.click("[data-refresh]")
    gid = game_id(c)
    expect(a.locator(f"[data-join='{gid}']")).to_have_count(0)
    assert watch_a.errors == [] and watch_c.errors == []
    ctx_a.close()
    ctx_c.close()


def test_open_tables_stay_in_their_panel_and_my_games_keep_mine(
    server: Server, browser: Browser
) -> None:
    """Issue 31, 1: the lobby's refresh of the open tables wrote them into My games (the first
    list of the page), hid the player's own game and left Open tables empty."""
    context, page, watch = new_page(browser, 1280, 800)
    create_from_lobby(page, server.url, "harmonies", ["human", "greedy"], names={0: "Gus"})
    page.wait_for_selector("[data-testid=table]")
    mine = game_id(page)
    # a stranger's table with a free seat
    made = httpx.post(
        f"{server.url}/api/games",
        json={
            "game": "harmonies",
            "seats": [{"kind": "human", "name": "Zed"}, {"kind": "human"}],
        },
        timeout=20,
    ).json()
    listed = httpx.get(f"{server.url}/api/lobby", timeout=20).json()
    listed = listed["games"] if isinstance(listed, dict) else listed
    assert made["id"] in {g["id"] for g in listed}
    page.goto(server.url + "/#/")
    active = page.locator("[data-testid=mygames-active]")
    expect(active.locator(f"[data-mygame='{mine}']")).to_be_visible()
    open_list = page.locator("[data-testid=open-list]")
    for _ in range(2):  # the Refresh button, then the lobby's own refresh every 5 s
        expect(open_list.locator(f"[data-join='{made['id']}']")).to_be_visible(timeout=15000)
        expect(active.locator(f"[data-mygame='{mine}']")).to_be_visible()
        assert active.locator("[data-join]").count() == 0
        expect(open_list).not_to_contain_text("No table is waiting")
        page.click("[data-refresh]")
    shot(page, "lobby-open-tables.png", full_page=False)
    assert watch.errors == []
    context.close()
