"""The glossary of game terms and every language file against it; plurals and screenshots in the page.

glade/web/i18n/glossary.json holds every game term of both games in en, ko and zh with its source
line in the rule texts and the variants a string must not use (docs/i18n.md). The language files
checked are the page's (glade/web/i18n/<lang>.json) and the terminal's (glade/terminal/i18n/, when
it exists).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from web_support import (
    BROKEN_WORDS,
    ROOT,
    Server,
    create_from_lobby,
    new_page,
    play_harmonies_turn,
    play_living_forest_step,
    shot,
)

from glade.living_forest.refusals import REFUSALS as LF_CATALOGUE

LANGS = ("en", "ko", "zh")
GAMES = {"harmonies", "living-forest", "both"}
KINDS = {"title", "component", "colour", "scoring", "action", "phase", "animal", "spirit", "card"}
KINDS |= {"symbol", "element", "tree", "app"}
GLOSSARY_PATH = ROOT / "glade" / "web" / "i18n" / "glossary.json"
STRING_DIRS = [ROOT / "glade" / "web" / "i18n", ROOT / "glade" / "terminal" / "i18n"]
NAME_PREFIXES = ("card.", "lfcard.", "game.")  # keys whose text is a name the glossary gives
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# parameters that carry words, not numbers ("{name} wins")
TEXT_PARAMS = {
    "name",
    "names",
    "card",
    "cards",
    "tile",
    "tiles",
    "colour",
    "cell",
    "stack",
    "tokens",
}
TEXT_PARAMS |= {"action", "game", "bot"}  # a bot by name: "{bot} plays for them"
LF_REFUSALS = set(LF_CATALOGUE)  # refusal.<code> of these codes are Living Forest strings
# refusal params that are names, cells or seats, not counts (``seat {seat} is playing``)
TEXT_PARAMS |= {
    "seat",
    "space",
    "slot",
    "level",
    "column",
    "color",
    "spirit",
    "on",
    "stack",
    "type",
    "field",
    "side",
    "kind",
    "trees",
    "actions",
    "fields",
}


def glossary() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GLOSSARY_PATH.read_text("utf-8"))
    return data


def terms() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = glossary()["terms"]
    return found


def language_files() -> dict[Path, dict[str, dict[str, Any]]]:
    """Every directory of language files with its tables, {dir: {lang: {key: value}}}."""
    found = {}
    for folder in STRING_DIRS:
        if folder.is_dir():
            found[folder] = {
                lang: json.loads((folder / f"{lang}.json").read_text("utf-8")) for lang in LANGS
            }
    return found


def forms(value: Any) -> list[str]:
    """Every text of a string: itself, or every form of a plural object (nested ones too)."""
    if isinstance(value, str):
        return [value]
    return [text for k, v in value.items() if k != "$n" for text in forms(v)]


def counted(value: Any) -> set[str]:
    """The parameters a plural object counts."""
    if isinstance(value, str):
        return set()
    found = {value.get("$n", "n")}
    for k, v in value.items():
        if k != "$n":
            found |= counted(v)
    return found


def scope(key: str) -> str:
    """Which game a string's key belongs to: its terms and their forbidden variants apply."""
    if key.startswith(("h.", "card.", "spirit.", "harmonies.", "refusal.harmonies.")):
        return "harmonies"
    if key.startswith(("lf.", "lfcard.", "living-forest.", "living_forest.")):
        return "living-forest"
    if key.startswith("refusal.value.harmonies_"):
        return "harmonies"
    if key.startswith("refusal.value.lf_") or key.removeprefix("refusal.") in LF_REFUSALS:
        return "living-forest"
    return "both"


def applies(term_game: str, key_scope: str) -> bool:
    return "both" in (term_game, key_scope) or term_game == key_scope


def violations(lang: str, key: str, text: str) -> list[str]:
    """The forbidden variants in ``text``; a glossary word that contains a variant is no use of it
    (신성한 꽃 and 불꽃 contain 꽃, forbidden alone in Living Forest)."""
    here = [t for t in terms().values() if applies(t["game"], scope(key))]
    values = sorted({t[lang] for t in here}, key=len, reverse=True)
    found = []
    for term in here:
        for variant in term["forbidden"][lang]:
            masked = text
            for value in values:
                if variant in value and variant != value:
                    masked = masked.replace(value, "\0")
            if variant in masked:
                found.append(f"{lang} {key}: {text!r} uses {variant!r} (say {term[lang]!r})")
    return found


# ------------------------------------------------------------------ the glossary itself


def test_the_glossary_has_its_format() -> None:
    data = glossary()
    assert data["format"] == "glade-glossary/1"
    assert data["languages"] == list(LANGS)
    files = set(data["rule_texts"])
    assert len(data["terms"]) > 150
    for tid, term in data["terms"].items():
        assert set(term) <= {"game", "kind", "en", "ko", "zh", "source", "forbidden", "note"}, tid
        assert term["game"] in GAMES and term["kind"] in KINDS, tid
        for lang in LANGS:
            assert isinstance(term[lang], str) and term[lang].strip() == term[lang] != "", tid
            variants = term["forbidden"][lang]
            assert isinstance(variants, list) and all(isinstance(v, str) and v for v in variants)
            assert term[lang] not in variants, f"{tid} forbids its own {lang} word"
        assert set(term["forbidden"]) == set(LANGS), tid
        assert {"ko", "zh"} <= set(term["source"]) <= set(LANGS), tid
        for lang, src in term["source"].items():
            if "none" in src:
                assert set(src) == {"none"} and len(src["none"]) > 20, (tid, lang)
            else:
                assert set(src) == {"file", "quote"} and src["file"] in files, (tid, lang)
                assert src["quote"].strip(), (tid, lang)
        if "note" in term:
            assert isinstance(term["note"], str) and term["note"], tid


def test_no_forbidden_variant_is_another_terms_word() -> None:
    """A variant forbidden by one term may not be the chosen word of a term of the same game."""
    all_terms = terms()
    for tid, term in all_terms.items():
        for lang in LANGS:
            for variant in term["forbidden"][lang]:
                clash = [
                    other
                    for other, o in all_terms.items()
                    if o[lang] == variant and applies(o["game"], term["game"])
                ]
                assert not clash, (tid, lang, variant, clash)


def seeds_dir() -> Path | None:
    for base in (
        ROOT.parent,
        ROOT.parent.parent,
    ):  # ../shared beside the checkout (or its worktree)
        folder = base / "shared" / "reference" / "seeds"
        if folder.is_dir():
            return folder
    return None


def test_every_quoted_source_is_in_its_rule_text() -> None:
    folder = seeds_dir()
    if folder is None:
        pytest.skip("the rule texts (../shared/reference/seeds) are not beside this checkout")
    texts = {f: (folder / f).read_text("utf-8") for f in glossary()["rule_texts"]}
    missing = [
        (tid, lang, src["quote"])
        for tid, term in terms().items()
        for lang, src in term["source"].items()
        if "quote" in src and src["quote"] not in texts[src["file"]]
    ]
    assert not missing, missing


def card_names() -> list[str]:
    """The key of every card and animal name of both games, as the page asks for it."""
    h = json.loads((ROOT / "glade" / "harmonies" / "data" / "harmonies-cards.json").read_text())
    keys = [f"card.{c['id']}" for c in h["animals"] + h["spirits"]]
    lf = json.loads(
        (ROOT / "glade" / "living_forest" / "data" / "living-forest-cards.json").read_text()
    )
    names = [c["name"] for c in lf["starting_deck"]["cards"]] + ["Fire Varan"]
    for level in ("level1", "level2", "level3"):
        names += [c["name"] for c in lf["guardian_animals"][level]]
    return keys + [f"lfcard.{n}" for n in sorted(set(names))]


def test_every_card_and_animal_of_both_games_is_in_the_glossary() -> None:
    all_terms = terms()
    keys = card_names()
    assert len(keys) == 42 + 66  # 32 animals + 10 spirits; 65 Guardian Animals + the Fire Varan
    missing = [k for k in keys if k not in all_terms]
    assert not missing, missing
    assert {"game.harmonies", "game.living-forest"} <= set(all_terms)
    for lang in ("ko", "zh"):  # the names are really translated
        same = [k for k in keys if all_terms[k][lang] == all_terms[k]["en"]]
        assert not same, (lang, same)


# ------------------------------------------------------------------ the language files


def test_the_page_and_the_terminal_have_language_files() -> None:
    assert set(STRING_DIRS) <= set(language_files())


def test_every_key_in_every_language_and_its_placeholders_match() -> None:
    for folder, tables in language_files().items():
        keys = set(tables["en"])
        for lang, table in tables.items():
            assert set(table) == keys, (folder.name, lang, sorted(set(table) ^ keys)[:8])
        for key in keys:
            marks = {}
            for lang in LANGS:
                value = tables[lang][key]
                assert isinstance(value, str | dict), (folder, lang, key)
                texts = forms(value)
                assert texts and all(isinstance(t, str) and t.strip() for t in texts), (lang, key)
                found = [set(PLACEHOLDER.findall(t)) for t in texts]
                assert all(f == found[0] for f in found), f"{lang} {key}: forms differ {found}"
                assert counted(value) <= found[0], f"{lang} {key} counts a missing parameter"
                marks[lang] = found[0]
            assert marks["ko"] == marks["en"] == marks["zh"], (folder.name, key, marks)


def test_english_counts_use_plural_forms() -> None:
    """No English string says "1 cubes": a number before a plural noun needs plural forms."""
    for tables in language_files().values():
        for key, value in tables["en"].items():
            if isinstance(value, str):
                for name in re.findall(r"\{(\w+)\} [a-z]+s\b", value):
                    assert name in TEXT_PARAMS, f"en {key}: {value!r}"
            else:
                assert {"one", "other"} <= set(value), key


def test_no_string_uses_a_forbidden_variant_of_a_term() -> None:
    found = [
        v
        for tables in language_files().values()
        for lang, table in tables.items()
        for key, value in table.items()
        for text in forms(value)
        for v in violations(lang, key, text)
    ]
    assert not found, "\n".join(found)


def test_the_check_finds_forbidden_variants() -> None:
    """The check above fails on the variants the issue found, and leaves words that contain them."""
    assert violations("ko", "lf.helpLine", "도움 줄")
    assert violations("ko", "lf.fragments", "조각 {n}개")
    assert violations("ko", "lf.solitary", "단독")
    assert violations("ko", "lobby.mode", "사람들이 두는 곳")
    assert violations("ko", "h.endTurn", "차례 마치기")
    assert violations("ko", "lf.progress.flowers", "꽃")
    assert violations("zh", "h.pouch", "袋中：{n} 个标记")
    assert violations("zh", "h.central", "中央版图")
    assert violations("zh", "game.x", "和谐之境")
    assert not violations("ko", "lf.progress.flowers", "신성한 꽃")
    assert not violations("ko", "lf.centreFires", "가운데 불꽃")
    assert not violations("ko", "lf.sacredTree", "신성한 나무: {name}")
    assert not violations("ko", "h.cat.trees", "나무")  # a Harmonies tree is a 나무
    # the terminal's old words (issue 31): each is refused now
    old = [
        ("ko", "lf.supply", "  (바란 {varans}, 파편 {fragments})"),
        ("ko", "h.legend", "t1-2 줄기  r 빨강"),
        ("ko", "lf.cornerBonus", "모서리 보너스: {bonus}"),
        ("ko", "lf.pile", "{name}의 버림 더미 ({n}장):"),
        ("ko", "lf.menu.draw", "카드 뽑기 (뽑기 더미 {n}장)"),
        ("ko", "h.header", "하모니즈  라운드 {round}  주머니 {pouch}  덱 {deck}"),
        ("ko", "parse.near", "'{words}'은(는) 지금 할 수 없는 수입니다. 비슷한 수: {near}."),
        (
            "ko",
            "parse.after",
            "'{done}' 다음에는 '{words}'을(를) 둘 수 없습니다. 아무것도 두지 않았습니다.",
        ),
        ("ko", "lf.did.fire", "{n}짜리 불꽃을 끔"),
        ("ko", "lf.sum.onibi", "오니비: 불꽃 세기 {fires} = {n}."),
        ("ko", "refusal.harmonies.stack.brown", "나무 기둥은 {on} 위에 놓을 수 없습니다"),
        ("ko", "refusal.plant.x", "{spirit}번 정령에게는 신성한 나무 승리 타일이 없습니다"),
        ("zh", "h.menu.takeGroup", "版块："),
        ("zh", "lf.supply", "（火蜥 {varans}，碎片 {fragments}）"),
        ("zh", "h.menu.discard", "弃掉卡牌 {n}（{card}）"),
        ("zh", "lf.menu.pick", "召唤 {card}（等级 {level}，费用 {cost}）"),
        ("zh", "refusal.extinguish.take_one", "你选择了灭火：至少拿取一团火焰（或撤销）"),
        ("zh", "parse.near", "“{words}”现在不能走。类似的走法：{near}。"),
    ]
    for lang, key, text in old:
        assert violations(lang, key, text), (key, text)
    # the rules' own form is allowed: "3 个圆片" (the Chinese rules: 取走一整组3个圆片)
    assert not violations("zh", "h.pouch", "袋子：{n} 个圆片")


def test_every_card_and_animal_name_comes_from_the_glossary() -> None:
    """The page's files name no card: its script takes the names from the glossary. A terminal
    file that names one must use the glossary's word."""
    all_terms = terms()
    for folder, tables in language_files().items():
        for lang, table in tables.items():
            names = [k for k in table if k.startswith(NAME_PREFIXES)]
            if folder == ROOT / "glade" / "web" / "i18n":
                assert not names, (lang, names[:5])
            for key in names:
                assert key in all_terms and table[key] == all_terms[key][lang], (lang, key)
    # and no key of a page file hides a glossary term
    for table in language_files()[ROOT / "glade" / "web" / "i18n"].values():
        assert not set(table) & set(all_terms)


# ------------------------------------------------------------------ in the page


def page_t(page: Page, lang: str, key: str, params: dict[str, Any] | None = None) -> str:
    text: str = page.evaluate(
        """async ([lang, key, params]) => {
            const m = await import("/js/base/i18n.js");
            await m.setLang(lang);
            return m.t(key, params || undefined);
        }""",
        [lang, key, params],
    )
    return text


def test_the_page_counts_with_plural_rules_and_names_from_the_glossary(
    server: Server, browser: Browser
) -> None:
    context, page, watch = new_page(browser)
    page.goto(server.url + "/#/")
    page.wait_for_selector("[data-testid=create]")
    assert page_t(page, "en", "h.cubesLeft", {"n": 1}) == "1 cube left"
    assert page_t(page, "en", "h.cubesLeft", {"n": 2}) == "2 cubes left"
    assert page_t(page, "en", "h.cubesLeft", {"n": 0}) == "0 cubes left"
    assert page_t(page, "en", "lf.fragments", {"n": 1}) == "1 fragment"
    assert page_t(page, "en", "h.slot", {"n": 3, "points": 1}) == "Cube 3: 1 point"
    solo = page_t(page, "en", "end.soloScore", {"n": 1, "suns": 3})
    assert solo == "You scored 1 point: 3 suns."
    assert page_t(page, "ko", "h.cubesLeft", {"n": 1}) == "큐브 1개 남음"
    assert page_t(page, "zh", "lf.fragments", {"n": 1}) == "碎片 1 块"
    all_terms = terms()
    for lang in LANGS:
        for key in ("card.crocodile", "lfcard.Fire Varan", "game.harmonies"):
            assert page_t(page, lang, key) == all_terms[key][lang]
    assert page_t(page, "zh", "game.harmonies") == "自然和弦"
    assert page_t(page, "ko", "no.such.key") == "no.such.key"
    assert watch.errors == []
    context.close()


def switch(page: Page, lang: str, selector: str, text: str) -> None:
    page.select_option("#lang-select", lang)
    expect(page.locator(selector).first).to_contain_text(text)
    page.evaluate("window.scrollTo(0, 0)")  # the sticky status bar stays at the top of the shot


def no_broken_labels(page: Page, lang: str) -> None:
    """Nothing sticks out of its panel, and no Korean or Chinese score label breaks inside a word
    (it broke one syllable per line at 4 players: "자연 / 의 정 / 령", "守护 / 树")."""
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.panel')]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className)"""
    )
    assert wide == [], wide
    if lang == "en":
        return
    broken = page.evaluate(BROKEN_WORDS, ".breakdown th, .breakdown td")
    assert broken == [], broken


def test_harmonies_in_korean_and_chinese_at_four_players(server: Server, browser: Browser) -> None:
    context, page, watch = new_page(browser)
    rng = random.Random(11)
    create_from_lobby(
        page, server.url, "harmonies", ["human", "greedy", "greedy", "greedy"], spirits=True
    )
    page.wait_for_selector("[data-testid=table]")
    g = terms()
    # the game is played in Korean: the Nature's Spirits on offer first
    switch(page, "ko", ".offer h2", "자연의 정령 카드 2장 중 1장을 고르세요")
    expect(page.locator(".offer button").first).to_have_text("고르기")
    shot(page, "i18n-harmonies-spirits-ko.png", full_page=False)
    for _ in range(3):  # the three bots play between the human's turns
        page.wait_for_selector(".space.legal, [data-key^=spirit-]", timeout=60000)
        play_harmonies_turn(page, rng)
    page.wait_for_selector(".space.legal", timeout=60000)
    switch(page, "ko", "#central-title", g["harmonies.central_board"]["ko"])
    expect(page.locator("[data-log]")).to_contain_text("턴을 마침")
    expect(page.locator(".status-title")).to_contain_text(g["game.harmonies"]["ko"])
    shot(page, "i18n-harmonies-4p-ko.png")
    no_broken_labels(page, "ko")
    switch(page, "zh", "#central-title", g["harmonies.central_board"]["zh"])
    expect(page.locator(".status-title")).to_contain_text("自然和弦")
    expect(page.locator("[data-testid=pouch]")).to_contain_text("个圆片")
    shot(page, "i18n-harmonies-4p-zh.png")
    no_broken_labels(page, "zh")
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


def test_living_forest_in_korean_and_chinese_at_four_players(
    server: Server, browser: Browser
) -> None:
    context, page, watch = new_page(browser)
    rng = random.Random(4)
    create_from_lobby(
        page, server.url, "living-forest", ["human", "greedy", "greedy", "greedy"], names={0: "Ada"}
    )
    page.wait_for_selector("[data-testid=table]")
    clicks = 0
    while clicks < 25 and not page.locator("[data-testid=end-screen]").count():
        if play_living_forest_step(page, rng):
            clicks += 1
        else:
            page.wait_for_timeout(50)
    g = terms()
    switch(page, "ko", ".spirit.mine", g["living-forest.help_line"]["ko"])
    expect(page.locator("[data-testid=solitary]")).to_contain_text("독립 기호")
    expect(page.locator(".status-title")).to_contain_text(g["game.living-forest"]["ko"])
    shot(page, "i18n-living-forest-4p-ko.png")
    no_broken_labels(page, "ko")
    switch(page, "zh", ".spirit.mine", g["living-forest.help_line"]["zh"])
    expect(page.locator(".status-title")).to_contain_text(g["game.living-forest"]["zh"])
    shot(page, "i18n-living-forest-4p-zh.png")
    no_broken_labels(page, "zh")
    page.select_option("#lang-select", "en")
    assert watch.errors == []
    context.close()


# ------------------------------------------------------------------ Korean particles

# a particle written for both kinds of last syllable ("을(를)", "이(가)", "(으)로"), or one right
# after a placeholder: which is right depends on the value ("곰을(를) 뽑음", "세로줄 2은")
PARTICLE = re.compile(
    r"\((을|를|이|가|은|는|으|과|와)\)"
    r"|\}(을|를|이|가|은|는|과|와|으로|로)(?=[\s.,!?)\]'\"]|$)"
)


def particle_problems(text: str) -> list[str]:
    return [m.group(0) for m in PARTICLE.finditer(text)]


def test_no_korean_particle_depends_on_a_value() -> None:
    """docs/i18n.md: a Korean sentence is written so that no particle depends on a placeholder's
    value, in the page's strings and the terminal's alike."""
    found = [
        f"{folder.parent.name}/{folder.name} {key}: {text!r}"
        for folder, tables in language_files().items()
        for key, value in tables["ko"].items()
        for text in forms(value)
        if particle_problems(text)
    ]
    assert not found, "\n".join(found)


def test_the_particle_check_finds_them() -> None:
    for text in (
        "{card}을(를) 뽑음",
        "{name}이(가) 데려감",
        "물방울 {water}(으)로 {power}을(를) 막아 냄",
        "가로줄 {row}, 세로줄 {column}은 숲의 보호수와 맞닿아 있지 않습니다",
        "{name}은 이미 있습니다",
    ):
        assert particle_problems(text), text
    for text in (
        "{card} 카드를 뽑음",
        "데려간 정령: {name}",
        "{n}개",
        "{name}의 개인판",
        "{n}번 칸은",
    ):
        assert not particle_problems(text), text
