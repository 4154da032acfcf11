"""Every refusal of every catalogue is translated: ``refusal.<code>`` in the page's en, ko and zh
files (the terminal reads the same), with exactly the params the engine passes, and every value
of a param that is a game word (``glade/web/i18n/refusal-params.json``) has its translation."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from glade.core.refusals import all_catalogues
from glade.harmonies import game as harmonies_game
from glade.harmonies.data import COLORS
from glade.living_forest import data as lf_data
from glade.living_forest import game as lf_game
from glade.terminal.i18n import Lang

I18N = Path(__file__).resolve().parents[2] / "glade" / "web" / "i18n"
LANGS = ("en", "ko", "zh")
CODES = {code: cat for cat in all_catalogues() for code in cat}


def table(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    return data


def terms() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads((I18N / "glossary.json").read_text("utf-8"))[
        "terms"
    ]
    return data


def rules() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((I18N / "refusal-params.json").read_text("utf-8"))[
        "params"
    ]
    return data


def forms(value: Any) -> list[str]:
    """Every text of a string or of a plural object (``$n`` names the counted param)."""
    if isinstance(value, str):
        return [value]
    assert isinstance(value, dict) and "other" in value, value
    return [t for k, v in value.items() if k != "$n" for t in forms(v)]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


# every value the engines pass for the params refusal-params.json translates
HARMONIES_KINDS = tuple(harmonies_game._FIELDS)
DOMAINS: dict[tuple[str, str], tuple[str, ...]] = {
    ("harmonies", "color"): COLORS,
    ("harmonies", "on"): COLORS,
    ("harmonies", "card"): tuple(c.id for c in harmonies_game.CARDS),
    ("harmonies", "type"): HARMONIES_KINDS,
    ("harmonies", "field"): ("space", "slot"),
    ("lf", "action"): lf_game.KIND_NAMES,
    ("lf", "tile"): lf_data.VICTORY_KINDS,
    ("lf", "card"): tuple(lf_game.CARDS.names),
}


def domain(code: str, source: str) -> tuple[str, ...]:
    game = "harmonies" if code.startswith("harmonies.") else "lf"
    return DOMAINS[(game, source)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_its_sentence_with_exactly_the_engines_params(lang: str) -> None:
    strings = table(lang)
    for code, cat in CODES.items():
        key = f"refusal.{code}"
        assert key in strings, f"{lang}: no {key}"
        for text in forms(strings[key]):
            assert placeholders(text) == cat.fields(code), f"{lang} {key}: {text!r}"
    stray = {k for k in strings if k.startswith("refusal.") and not k.startswith("refusal.value.")}
    assert stray <= {f"refusal.{c}" for c in CODES}, stray - {f"refusal.{c}" for c in CODES}


def test_english_keys_say_what_the_engine_says() -> None:
    """The page's English is the catalogue's template (so en never drifts from the engine)."""
    en = table("en")
    for code, cat in CODES.items():
        params = {f: 2 for f in cat.fields(code)}
        engine = cat.text(code, params)  # {x!r} of 2 is 2; the page quotes it: "{x}"
        value = en[f"refusal.{code}"]
        text = forms(value)[-1] if isinstance(value, str) else value["other"]
        assert re.sub(r"\{(\w+)\}", "2", text).replace('"2"', "2") == engine, code


def test_every_value_of_a_translated_param_has_its_word_in_every_language() -> None:
    glossary = terms()
    for code, params in rules().items():
        assert code in CODES, code
        for name, key in params.items():
            assert name in CODES[code].fields(code), (code, name)
            sources = placeholders(key)
            assert len(sources) == 1, key
            (source,) = sources
            for value in domain(code, source):
                word_key = key.replace("{" + source + "}", value)
                for lang in LANGS:
                    word = table(lang).get(word_key) or glossary.get(word_key, {}).get(lang)
                    assert isinstance(word, str) and word, (
                        f"{lang}: {code} {name}={value} ({word_key})"
                    )


def test_the_game_word_params_of_the_catalogues_are_all_translated() -> None:
    """Params carrying a colour, an action, a tile or a card are named in refusal-params.json."""
    words = {"color", "on", "name", "action", "tile"}
    named = rules()
    for code, cat in CODES.items():
        for name in cat.fields(code) & words:
            if code in {"harmonies.color.unknown", "harmonies.board.stack_color", "game.unknown"}:
                continue  # the unknown word the player typed, shown as typed
            assert name in named.get(code, {}), (code, name)


def test_the_terminal_and_the_page_say_the_same_words() -> None:
    ko = Lang("ko")
    refusal = harmonies_game.refuse("stack.gray", color="gray", on="green", cell="1,2")
    said = ko.refusal(refusal.code, refusal.params, str(refusal))
    assert said == table("ko")["refusal.harmonies.stack.gray"].replace("{on}", "초록").replace(
        "{cell}", "1,2"
    )
    lf = lf_game.REFUSALS.refuse("steal.no_tile", spirit=2, tile="flower")
    assert Lang("zh").refusal(lf.code, lf.params, str(lf)) == "自然之灵 2 没有圣花胜利板块"
    assert Lang("en").refusal(lf.code, lf.params, str(lf)) == str(lf)
