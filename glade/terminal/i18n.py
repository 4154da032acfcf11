"""The terminal clients' words in English, Korean and Chinese (``i18n/{en,ko,zh}.json``).

``Lang("ko").t("key", n=3)`` formats a template; a key missing in Korean or Chinese falls back to
English. ``{n:card|cards}`` picks the English singular or plural by ``n == 1`` (Korean and Chinese
templates simply do not use it).
"""

from __future__ import annotations

import json
import os
import string
from functools import cache
from importlib import resources
from typing import Any

LANGS = ("en", "ko", "zh")


class _Plural(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, other = format_spec.split("|", 1)
            return one if value == 1 else other
        return str(format(value, format_spec))


_FORMAT = _Plural()


@cache
def _load(lang: str) -> dict[str, str]:
    text = resources.files("glade.terminal").joinpath(f"i18n/{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


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
        template = self._own.get(key)
        if template is None:
            template = self._en.get(key)
        if template is None:
            raise KeyError(f"no terminal string {key!r}")
        try:
            return _FORMAT.vformat(template, (), params)
        except (KeyError, IndexError, ValueError):
            return _FORMAT.vformat(self._en[key], (), params)

    def opt(self, key: str, default: str, /, **params: Any) -> str:
        """``t(key)`` when the key exists, else ``default``."""
        return self.t(key, **params) if self.has(key) else default

    def join(self, items: list[str]) -> str:
        sep = {"en": ", ", "ko": ", ", "zh": "、"}[self.code]
        return sep.join(items)


__all__ = ["LANGS", "Lang", "detect"]
