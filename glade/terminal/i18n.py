"""The terminal clients' words in English, Korean and Chinese (``i18n/{en,ko,zh}.json``).

``Lang("ko").t("key", n=3)`` formats a template; a key missing in Korean or Chinese falls back to
English. A string that counts is an object of plural forms, as in the web page's files
(``{"one": "{n} cube left", "other": "{n} cubes left"}``, ``"$n"`` naming the counted parameter
when it is not ``n``, nested when two things are counted): English takes ``one`` for 1, Korean and
Chinese need no plural forms. Names of cards and game terms come from the glossary
(``glade/web/i18n/glossary.json``) when it is installed, else from the English data.

The engines' refusals are not copied here: ``Lang.refusal`` reads the page's ``refusal.<code>``
strings (``glade/web/i18n/<lang>.json``) and ``refusal-params.json``, which names the params that
are game words and the key translating each value, exactly as the page does.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from importlib import resources
from typing import Any

from glade.core.errors import FORMATTER

LANGS = ("en", "ko", "zh")


@cache
def _load(lang: str) -> dict[str, Any]:
    text = resources.files("glade.terminal").joinpath(f"i18n/{lang}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _glossary() -> dict[str, dict[str, Any]]:
    """The glossary's terms (key -> {"en", "ko", "zh", ...}), or nothing if it is not installed."""
    try:
        text = resources.files("glade").joinpath("web/i18n/glossary.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    terms: dict[str, dict[str, Any]] = json.loads(text).get("terms", {})
    return terms


@cache
def _web(name: str) -> dict[str, Any]:
    """A file of the page's ``glade/web/i18n/`` (package data), or nothing if it is not installed."""
    try:
        text = resources.files("glade").joinpath(f"web/i18n/{name}.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return data


_FIELD = re.compile(r"\{(\w+)\}")


def _fill(text: str, params: dict[str, Any]) -> str:
    """The page's placeholders: ``{name}`` is replaced when ``name`` is a param, other braces stay."""
    return _FIELD.sub(lambda m: str(params[m[1]]) if m[1] in params else m[0], text)


def _form(value: Any, params: dict[str, Any], lang: str) -> str:
    """The text of a plain string or of a plural object for these parameters."""
    while isinstance(value, dict):
        count = params.get(value.get("$n", "n"))
        key = "one" if lang == "en" and count == 1 and "one" in value else "other"
        value = value.get(key, value.get("other"))
    return str(value)


def detect(choice: str | None, environ: dict[str, str] | None = None) -> str:
    """``--lang`` if given, else the first of LC_ALL, LC_MESSAGES, LANG naming ko or zh, else en."""
    if choice:
        code = choice.lower().replace("_", "-").split("-")[0]
        if code not in LANGS:
            raise ValueError(f"unknown language {choice!r}: choose one of {', '.join(LANGS)}")
        return code
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.lower().split(".")[0].split("_")[0]
            return code if code in LANGS else "en"
    return "en"


class Lang:
    """One language's catalogue with English behind it."""

    def __init__(self, code: str = "en") -> None:
        if code not in LANGS:
            raise ValueError(f"unknown language {code!r}")
        self.code = code
        self._own = _load(code)
        self._en = _load("en")

    def has(self, key: str) -> bool:
        return key in self._own or key in self._en

    def t(self, key: str, /, **params: Any) -> str:
        value = self._own.get(key)
        lang = self.code
        if value is None:
            value, lang = self._en.get(key), "en"
        if value is None:
            raise KeyError(f"no terminal string {key!r}")
        try:
            return FORMATTER.vformat(_form(value, params, lang), (), params)
        except (KeyError, IndexError, ValueError):
            return FORMATTER.vformat(_form(self._en[key], params, "en"), (), params)

    def term(self, key: str, default: str) -> str:
        """A name from the glossary (``card.frog``, ``lfcard.Bear``), else ``default``."""
        entry = _glossary().get(key)
        if entry and isinstance(entry.get(self.code), str) and entry[self.code]:
            return str(entry[self.code])
        return default

    def _web_text(self, key: str) -> Any:
        """A page string or a glossary term in this language (None if neither has ``key``)."""
        value = _web(self.code).get(key)
        if value is None:
            entry = _glossary().get(key)
            value = entry.get(self.code) if entry else None
        return value

    def web_text(self, key: str, default: str) -> str:
        """A sentence of the page (``glade/web/i18n``) in this language, e.g. a Nature's Spirit's
        rule (``spirit.rule.<card>``); ``default`` if the page has none."""
        value = self._web_text(key)
        if value is None and self.code != "en":
            value = _web("en").get(key)
        return value if isinstance(value, str) and value else default

    def refusal(
        self,
        code: str | None,
        params: dict[str, Any],
        english: str,
        shown: dict[str, Any] | None = None,
    ) -> str:
        """An engine refusal in this language from its code and params; ``english`` if none.

        English keeps the engine's own sentence, unless ``shown`` gives the params as the player
        sees them (a cell or a number as typed, not the engine's 0-based one): then every
        language, English too, is written from the page's sentence of that code. Params that
        ``refusal-params.json`` names are game words: their values are shown translated (a value
        with no translation as it is).
        """
        if not code or (self.code == "en" and shown is None):
            return english
        template = self._web_text(f"refusal.{code}")
        if template is None:
            return english
        shown = dict(params if shown is None else shown)
        rules: dict[str, str] = _web("refusal-params").get("params", {}).get(code, {})
        for name, key in rules.items():
            word = self._web_text(_fill(key, params))
            if isinstance(word, str) and word:
                shown[name] = word
        return _fill(_form(template, shown, self.code), shown)

    def opt(self, key: str, default: str, /, **params: Any) -> str:
        """``t(key)`` when the key exists, else ``default``."""
        return self.t(key, **params) if self.has(key) else default

    def join(self, items: list[str]) -> str:
        sep = {"en": ", ", "ko": ", ", "zh": "、"}[self.code]
        return sep.join(items)

    def line(self, name: str, text: str) -> str:
        """``Name: text``, with the colon of the language (full-width in Chinese)."""
        return f"{name}{'：' if self.code == 'zh' else ': '}{text}"

    def paren(self, text: str) -> str:
        """`` (text)``, with the brackets of the language (full-width in Chinese)."""
        return f"（{text}）" if self.code == "zh" else f" ({text})"


__all__ = ["LANGS", "Lang", "detect"]
