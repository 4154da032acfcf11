"""The rules content: every section in three languages, numbers from the engines' data, the
glossary's terms, and figures whose drawn boards score what their captions say."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from glossary_check import forbidden

import glade.learn.rulebook as rules_module
import glade.learn.values as values_module
from glade.core import BadInput
from glade.harmonies.data import RAW
from glade.harmonies.scoring import score_board
from glade.learn import LANGS, rules, section, section_ids
from glade.learn.values import fill, values

REQUIRED = {
    "harmonies": [
        "harmonies.setup",
        "harmonies.turn",
        "harmonies.trees",
        "harmonies.mountains",
        "harmonies.fields",
        "harmonies.buildings",
        "harmonies.river",
        "harmonies.islands",
        "harmonies.animals",
        "harmonies.spirits",
        "harmonies.end",
        "harmonies.solo",
    ],
    "living-forest": [
        "living-forest.draw",
        "living-forest.solitary",
        "living-forest.actions",
        "living-forest.strength",
        "living-forest.take-fragment",
        "living-forest.attract",
        "living-forest.extinguish",
        "living-forest.move",
        "living-forest.plant",
        "living-forest.onibi",
        "living-forest.victory",
    ],
}
GAMES = tuple(REQUIRED)


def strings(value: Any) -> Iterator[str]:
    """Every text of a rendered page (figure specs' names and card ids included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def written(value: Any) -> Iterator[str]:
    """Every text written in the content file: the values of its {"en", "ko", "zh"} objects."""
    if isinstance(value, dict):
        if set(LANGS) <= set(value):
            yield from (value[lang] for lang in LANGS)
        for v in value.values():
            yield from written(v)
    elif isinstance(value, list):
        for v in value:
            yield from written(v)


def prose(page: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(section id, text) of every sentence a reader sees: titles, texts, lists, tables, captions."""
    yield "title", page["title"]
    for s in page["sections"]:
        yield s["id"], s["title"]
        if "aid" in s:
            yield s["id"], s["aid"]
        for b in s["blocks"]:
            if b["kind"] == "text":
                yield s["id"], b["text"]
            elif b["kind"] == "list":
                for item in b["items"]:
                    yield s["id"], item
            elif b["kind"] == "table":
                for cell in b["columns"] + [c for row in b["rows"] for c in row]:
                    yield s["id"], cell
            else:
                yield s["id"], b["caption"]
                for st in (
                    b["figure"].get("stacks", [])
                    if b["figure"]["kind"] == "harmonies-stacks"
                    else []
                ):
                    yield s["id"], st["name"]


@pytest.mark.parametrize("game", GAMES)
def test_every_required_section_exists_in_order_with_unique_ids(game: str) -> None:
    ids = section_ids(game)
    assert len(ids) == len(set(ids))
    assert all(i.startswith(f"{game}.") for i in ids)
    assert [i for i in ids if i in REQUIRED[game]] == REQUIRED[game]
    for s in rules(game)["sections"]:
        for link in s["links"]:
            assert link in ids, (s["id"], link)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_section_is_in_every_language_with_every_placeholder_filled(
    game: str, lang: str
) -> None:
    page = rules(game, lang)
    assert page["lang"] == lang and page["game"] == game
    assert [s["id"] for s in page["sections"]] == section_ids(game)
    for where, text in prose(page):
        assert text.strip(), (where, lang)
        assert not re.search(r"\{[^}]*\}", text), f"{lang} {where}: unfilled {text!r}"
    for s in page["sections"]:
        assert s["blocks"], s["id"]
    raw = rules_module.content(game)
    for s in raw["sections"]:
        for b in s["blocks"]:
            texts = [b] if b["kind"] == "text" else b.get("items", [])
            texts += [b["caption"]] if b["kind"] == "figure" else []
            for t in texts + [s["title"]]:
                assert set(t) - {"kind"} == set(LANGS), (s["id"], t)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_korean_and_chinese_use_the_glossarys_words_and_no_english(game: str, lang: str) -> None:
    page = rules(game, lang)
    found = []
    for where, text in prose(page):
        found += forbidden(game, lang, where, text)
        words = re.findall(r"[A-Za-z]{3,}", text)
        assert not words, f"{lang} {where}: English {words} in {text!r}"
    assert not found, "\n".join(found)


def test_the_forbidden_variant_check_catches_a_bad_word() -> None:
    """The check itself can fail: a Korean Living Forest text with 조각 for 파편 is caught."""
    assert forbidden("living-forest", "ko", "x", "조각 1개를 가져옵니다")
    assert forbidden("harmonies", "zh", "x", "放到中央版图上")
    assert not forbidden("living-forest", "ko", "x", "파편 1개를 가져옵니다")


@pytest.mark.parametrize("game", GAMES)
def test_no_score_is_typed_in_the_texts(game: str) -> None:
    """Points, costs and counts come from placeholders: the written texts hold only the small
    numbers of the rules' structure (heights 1 to 3, levels, player counts up to 4)."""
    typed = set()
    for text in written(rules_module.content(game)):
        typed |= set(re.findall(r"\d+", re.sub(r"\{[^}]*\}", "", text)))
    assert typed <= {"0", "1", "2", "3", "4"}, typed


def _sum(expr: str, game: str) -> int:
    return sum(int(x) for x in fill(expr, game).split("+"))


def test_every_harmonies_figure_scores_what_its_caption_says() -> None:
    checked = 0
    for s in rules_module.content("harmonies")["sections"]:
        for b in s["blocks"]:
            if b["kind"] != "figure" or b["figure"]["kind"] != "harmonies-board":
                continue
            spec = b["figure"]
            board = {k: spec[k] for k in ("side", "stacks", "cubes", "cards") if k in spec}
            score = score_board(board, explain=True)
            for category, expr in spec["expect"].items():
                assert score[category] == _sum(expr, "harmonies") > 0, (s["id"], category)
                checked += 1
            rendered = section("harmonies", s["id"])["blocks"][s["blocks"].index(b)]
            assert rendered["figure"]["score"] == score
            lit = set(rendered["figure"]["highlight"])
            assert lit
            about = [p for p in score["parts"] if p["category"] in spec["expect"] and p["points"]]
            assert lit == {c for p in about for c in p["cells"]}
    assert checked == 7


def test_the_rule_values_that_are_not_in_the_data_are_the_engines() -> None:
    table = values("harmonies")
    colours = int(table["rule.building.colours"])
    around = ["blue", "green", "yellow", "gray", "brown"]
    cells = ["2,1", "1,0", "0,1", "0,2", "1,2"]  # neighbours of 1,1
    for n in range(1, len(around) + 1):
        stacks = {
            "1,1": ["gray", "red"],
            **{c: [k] for c, k in zip(cells[:n], around[:n], strict=True)},
        }
        points = score_board({"side": "A", "stacks": stacks})["buildings"]
        assert points == (RAW["scoring"]["building"]["points"] if n >= colours else 0), n
    assert int(table["rule.max_held"]) == RAW["components"]["max_cards_above_board"]
    assert table["rule.river.7"] == str(
        RAW["scoring"]["river_side_A"]["points_by_length"]["6"]
        + RAW["scoring"]["river_side_A"]["per_token_beyond_6"]
    )


def test_a_change_in_the_data_changes_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    before = json.dumps(section("harmonies", "harmonies.trees"))
    assert '"7"' in before
    monkeypatch.setitem(RAW["scoring"]["tree"]["points_by_height"], "3", 8)
    values_module.values.cache_clear()
    rules_module._rules.cache_clear()
    try:
        after = section("harmonies", "harmonies.trees")
        assert after["blocks"][1]["rows"][-1] == ["3", "8"]
        assert "+ 8 points" in after["blocks"][2]["caption"]
    finally:
        values_module.values.cache_clear()
        rules_module._rules.cache_clear()


def test_bad_requests_are_refused_with_a_sentence() -> None:
    with pytest.raises(BadInput, match="no game"):
        rules("chess")
    with pytest.raises(BadInput, match="no language"):
        rules("harmonies", "fr")
    with pytest.raises(BadInput, match="no rules section"):
        section("harmonies", "harmonies.nothing")
    with pytest.raises(KeyError, match="no value for"):
        fill("{scoring.tree.nothing}", "harmonies")


def test_living_forest_figures_count_their_symbols() -> None:
    limit = int(values("living-forest")["rule.solitary_limit"])
    page = rules("living-forest")
    solitary = section("living-forest", "living-forest.solitary")
    line = next(b for b in solitary["blocks"] if b["kind"] == "figure")["figure"]
    assert line["solitary"] == limit
    assert all(c["symbol"] in ("solitary", "none") for c in line["cards"])
    assert page["sections"]
