"""A complete Living Forest game against a bot, played by clicks on what the page offers."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Browser, expect
from web_support import (
    ROOT,
    Server,
    create_from_lobby,
    game_id,
    new_page,
    play_living_forest_step,
    replay_log,
    shot,
)


def test_the_page_gets_the_engine_card_data(server: Server) -> None:
    import httpx

    engine = ROOT / "glade" / "living_forest" / "data" / "living-forest-cards.json"
    served = httpx.get(server.url + "/data/living-forest-cards.json")
    assert served.status_code == 200
    assert served.json() == json.loads(engine.read_text("utf-8"))
    assert httpx.get(server.url + "/data/secrets.json").status_code == 404
    assert not (ROOT / "glade" / "web" / "data").exists()  # no copy that could drift


def test_every_card_name_is_translated() -> None:
    data = json.loads(
        (ROOT / "glade" / "living_forest" / "data" / "living-forest-cards.json").read_text()
    )
    names = [c["name"] for c in data["starting_deck"]["cards"]] + ["Fire Varan"]
    for level in ("level1", "level2", "level3"):
        names += [c["name"] for c in data["guardian_animals"][level]]
    # the names live once, in the glossary, for every language
    glossary = json.loads((ROOT / "glade" / "web" / "i18n" / "glossary.json").read_text("utf-8"))
    for lang in ("en", "ko", "zh"):
        missing = [n for n in names if not glossary["terms"].get(f"lfcard.{n}", {}).get(lang)]
        assert not missing, (lang, missing)


def test_living_forest_against_a_bot_by_clicks(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    rng = random.Random(3)
    create_from_lobby(page, server.url, "living-forest", ["human", "greedy"], names={0: "Ada"})
    page.wait_for_selector("[data-testid=table]")
    # the forest's corner and line bonuses are drawn from the data file
    mine = page.locator(".spirit.mine .forest")
    expect(mine.locator("[data-slot='0,0']")).to_contain_text("+3 ☀")
    expect(mine.locator("[data-slot='2,4']")).to_contain_text("+2 ≈")
    # the 4 line bonuses sit on the numbers of their columns and row (columns 2-4, row 2)
    expect(mine.locator(".coord.has-line")).to_have_count(4)
    expect(mine.locator(".coord.has-line .line-gives.el-flower")).to_have_text("✿2")
    gid = game_id(page)
    clicks = 0
    shot_taken = False
    while not page.locator("[data-testid=end-screen]").count():
        if not play_living_forest_step(page, rng):
            page.wait_for_timeout(50)  # the bot is playing; its moves arrive over the WebSocket
            continue
        clicks += 1
        if not shot_taken and clicks >= 30:
            shot(page, "living-forest-midgame.png")
            shot_taken = True
        assert clicks < 600, "the game did not end after 600 clicks"
    end = page.locator("[data-testid=end-screen]")
    expect(end).to_be_visible()
    engine = replay_log(server.url, gid)
    result = engine.result()
    for seat in (0, 1):
        assert (
            int(end.locator(f"[data-total-seat='{seat}']").inner_text()) == result["scores"][seat]
        )
    assert max(max(b["trees"], b["fires"], b["flowers"]) for b in result["breakdown"]) >= 12
    assert shot_taken, "the game ended before a mid-game screenshot"
    shot(page, "living-forest-end.png", full_page=False)
    # the replay steps through the moves and ends on the final table
    page.click("[data-testid=replay-link]")
    moves = len(engine.log)
    expect(page.locator("[data-testid=replay-count]")).to_have_text(f"{moves} / {moves}")
    expect(page.locator("[data-testid=replay] .end-inline")).to_be_visible()
    page.click("[data-testid=replay-prev]")
    expect(page.locator("[data-testid=replay-move]")).to_contain_text(f"{moves - 1}.")
    # a mid-game position is drawn from the server's past view: forests and the circle
    slider = page.locator("[data-testid=replay-slider]")
    slider.fill(str(moves // 2))
    expect(page.locator("[data-testid=replay-count]")).to_have_text(f"{moves // 2} / {moves}")
    expect(page.locator("[data-testid=replay] .forest").first).to_be_visible()
    expect(page.locator("[data-testid=replay] svg.ring")).to_be_visible()
    shot(page, "living-forest-replay.png", full_page=False)
    assert watch.errors == []
    context.close()
