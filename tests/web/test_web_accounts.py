"""Accounts in the browser (issue 14): sign up, log in on a second browser and see the same games,
an invite link claimed once, my games, the your-turn title and icon, and notifications asked for
only by their button. Screenshots of the lobby and the log-in form go to tests/artifacts/."""

from __future__ import annotations

import json
import secrets

import pytest
from playwright.sync_api import Browser, Page, expect
from web_support import ROOT, Server, create_from_lobby, game_id, new_page, shot

PASSWORD = "correct horse battery"
LONG = 30000  # ms: Argon2id at its real cost takes seconds on a loaded machine
LANGS = ("en", "ko", "zh")

# counts the page's requests for notification permission (it must make none by itself)
COUNT_ASKS = """
window.__asks = 0;
if (window.Notification) {
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...a) => { window.__asks += 1; return ask(...a); };
}
"""


def strings(lang: str) -> dict[str, str]:
    path = ROOT / "glade" / "web" / "i18n" / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text("utf-8"))
    return data


def account_form(page: Page, base: str, kind: str, name: str, password: str = PASSWORD) -> None:
    page.goto(base + "/#/account")
    form = page.locator(f"form[data-form={kind}]")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(password)
    form.locator("button[type=submit]").click()


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def test_sign_up_then_log_in_on_a_second_browser_and_see_the_same_games(
    server: Server, browser: Browser
) -> None:
    name = unique("ann")
    ctx_a, a, watch_a = new_page(browser)
    ctx_a.add_init_script(COUNT_ASKS)
    account_form(a, server.url, "signup", name)
    expect(a.locator("[data-testid=my-games]")).to_contain_text(name, timeout=LONG)
    expect(a.locator("[data-testid=account-link]")).to_have_text(name, timeout=LONG)
    # a solo table: the creator's seat opens directly
    create_from_lobby(a, server.url, "harmonies", ["human"], names={0: "Ann"})
    a.wait_for_selector("[data-testid=table]")
    gid = game_id(a)
    assert a.get_attribute("[data-testid=table]", "data-seat") == "0"
    a.goto(server.url + "/#/")
    row = a.locator(f"[data-testid=mygames-active] [data-mygame='{gid}']")
    expect(row).to_be_visible(timeout=LONG)
    expect(row.locator("[data-testid=your-turn]")).to_be_visible(timeout=LONG)
    # your turn: the tab title and the icon say so; nothing asked for notifications
    a.wait_for_function("document.title.startsWith('● ')")
    assert "circle" in (a.get_attribute("link[rel=icon]", "href") or "")
    assert a.evaluate("window.__asks") == 0

    ctx_b, b, watch_b = new_page(browser, 390, 844)
    account_form(b, server.url, "login", name.upper())  # names are compared without case
    row_b = b.locator(f"[data-testid=mygames-active] [data-mygame='{gid}']")
    expect(row_b).to_be_visible(timeout=LONG)
    row_b.locator("[data-open-game]").click()
    b.wait_for_selector("[data-testid=table]")
    assert b.get_attribute("[data-testid=table]", "data-seat") == "0"
    assert "#/play/" in b.url

    # logging out everywhere ends the other browser's session too
    b.goto(server.url + "/#/account")
    b.click("[data-logout-all]")
    expect(b.locator("[data-testid=account-forms]")).to_be_visible(timeout=LONG)
    a.goto(server.url + "/#/account")
    a.reload()
    expect(a.locator("[data-testid=account-forms]")).to_be_visible(timeout=LONG)
    assert watch_a.errors == [] and watch_b.errors == []
    ctx_a.close()
    ctx_b.close()


def test_a_wrong_password_says_so_and_logs_nobody_in(server: Server, browser: Browser) -> None:
    name = unique("bea")
    ctx, page, watch = new_page(browser)
    account_form(page, server.url, "signup", name)
    expect(page.locator("[data-testid=account-link]")).to_have_text(name, timeout=LONG)
    ctx.close()
    ctx, page, watch = new_page(browser)
    account_form(page, server.url, "login", name, "not the password")
    expect(page.locator("#toast")).to_contain_text(
        "The user name or the password is wrong", timeout=LONG
    )
    expect(page.locator("[data-testid=account-forms]")).to_be_visible(timeout=LONG)
    account_form(page, server.url, "signup", name.upper())
    expect(page.locator("#toast")).to_contain_text("taken", timeout=LONG)
    assert watch.errors == []
    ctx.close()


@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_account_refusals_are_said_in_the_pages_language(
    server: Server, browser: Browser, lang: str
) -> None:
    """The server's refusals carry codes: a Korean or Chinese page says a wrong password, a taken
    name and a name with a sign it may not hold in its own words (it said them in English)."""
    words = strings(lang)
    name = unique("ko" if lang == "ko" else "zh")
    ctx, page, watch = new_page(browser)
    account_form(page, server.url, "signup", name)
    expect(page.locator("[data-testid=account-link]")).to_have_text(name, timeout=LONG)
    ctx.close()
    ctx, page, watch = new_page(browser)
    ctx.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
    toast = page.locator("#toast")
    account_form(page, server.url, "login", name, "not the password")
    expect(toast).to_have_text(words["refusal.server.account.wrong"], timeout=LONG)
    account_form(page, server.url, "signup", name.upper())
    taken = words["refusal.server.account.taken"].replace("{user}", name.upper())
    expect(toast).to_have_text(taken, timeout=LONG)
    account_form(page, server.url, "signup", name + "!")
    expect(toast).to_have_text(words["refusal.server.account.name_chars"], timeout=LONG)
    shot(page, f"accounts-refused-{lang}.png", full_page=False)
    expect(page.locator("[data-testid=account-forms]")).to_be_visible()
    assert watch.errors == []
    ctx.close()


def test_a_claimed_invite_link_offers_to_watch_in_a_third_browser(
    server: Server, browser: Browser
) -> None:
    ctx_a, a, watch_a = new_page(browser)
    create_from_lobby(a, server.url, "harmonies", ["human", "human"], mode="online")
    expect(a.locator("[data-testid=invites]")).to_be_visible(timeout=LONG)
    link = a.input_value("[data-invite='1']")
    a.click("[data-open-seat='0']")  # the creator's own seat opens directly
    a.wait_for_selector("[data-testid=table]")
    assert a.get_attribute("[data-testid=table]", "data-seat") == "0"

    ctx_b, b, watch_b = new_page(browser)
    b.goto(link)
    b.fill(".join-form input[name=name]", "Bo")
    b.click(".join-form button[type=submit]")
    b.wait_for_selector("[data-testid=table]")
    assert b.get_attribute("[data-testid=table]", "data-seat") == "1"
    gid = game_id(b)
    # Bo opens the link again: his own seat, no second claim
    b.goto(link)
    b.wait_for_selector("[data-testid=table]")
    assert b.get_attribute("[data-testid=table]", "data-seat") == "1"

    ctx_c, c, watch_c = new_page(browser)
    c.goto(link)
    panel = c.locator("[data-testid=invite-claimed]")
    expect(panel).to_contain_text("already claimed in another browser", timeout=LONG)
    shot(c, "accounts-invite-claimed.png")
    c.click("[data-testid=watch-instead]")
    c.wait_for_selector("[data-testid=table]")
    assert "#/watch/" in c.url
    assert c.get_attribute("[data-testid=table]", "data-seat") in (None, "", "null")
    # nothing changed for Bo
    b.reload()
    b.wait_for_selector("[data-testid=table]")
    assert b.get_attribute("[data-testid=table]", "data-seat") == "1" and game_id(b) == gid
    assert watch_a.errors == [] and watch_b.errors == [] and watch_c.errors == []
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()


def test_guest_games_and_notifications_asked_only_by_the_button(
    server: Server, browser: Browser
) -> None:
    ctx, page, watch = new_page(browser)
    ctx.add_init_script(COUNT_ASKS)
    create_from_lobby(page, server.url, "harmonies", ["human", "greedy"], names={0: "Guest"})
    page.wait_for_selector("[data-testid=table]")
    gid = game_id(page)
    page.goto(server.url + "/#/")
    expect(page.locator(f"[data-mygame='{gid}']")).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=my-games]")).to_contain_text(
        "kept in this browser", timeout=LONG
    )
    assert page.evaluate("window.__asks") == 0
    page.click("[data-notify]")
    page.wait_for_function("window.__asks === 1")
    assert watch.errors == []
    ctx.close()


def test_screenshots_of_my_games_and_the_login_form(server: Server, browser: Browser) -> None:
    name = unique("cleo")
    ctx, page, watch = new_page(browser)
    account_form(page, server.url, "signup", name)
    expect(page.locator("[data-testid=account-link]")).to_have_text(name, timeout=LONG)
    create_from_lobby(page, server.url, "harmonies", ["human", "greedy"], names={0: "Cleo"})
    page.wait_for_selector("[data-testid=table]")
    create_from_lobby(page, server.url, "living-forest", ["human", "random"], names={0: "Cleo"})
    page.wait_for_selector("[data-testid=table]")
    state = ctx.storage_state()
    ctx.close()
    for width, height, tag in ((1280, 900, "desktop"), (390, 844, "phone")):
        for lang in LANGS:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies(state["cookies"])
            context.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
            page = context.new_page()
            page.goto(server.url + "/#/")
            expect(page.locator("#mygames-title")).to_have_text(
                strings(lang)["mygames.title"], timeout=LONG
            )
            expect(page.locator("[data-testid=mygames-active] [data-mygame]")).to_have_count(
                2, timeout=LONG
            )
            page.wait_for_function("document.title.includes('●')")
            shot(page, f"accounts-lobby-{tag}-{lang}.png")
            overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
            assert not overflow, f"the lobby scrolls sideways at {width}px in {lang}"
            guest = browser.new_context(viewport={"width": width, "height": height})
            guest.add_init_script(f"localStorage.setItem('glade.lang', '{lang}')")
            login = guest.new_page()
            login.goto(server.url + "/#/account")
            expect(login.locator("form[data-form=login] h2")).to_have_text(
                strings(lang)["account.login"]
            )
            shot(login, f"accounts-login-{tag}-{lang}.png")
            guest.close()
            context.close()
    assert watch.errors == []
