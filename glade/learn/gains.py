"""Hints that teach, in words: the lines of ``glade.bots.teach`` as a sentence per line.

A line is ``{"code", "params"}`` (``harmonies.tree`` with its height, cells, points and gain);
``data/teach-text.json`` holds each code's sentence in English, Korean and Chinese. The cells
are named by the caller's ``cell`` function (the terminal's ``column,row``, the page's own).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from .rulebook import check_lang, term
from .values import fill


@cache
def _texts() -> dict[str, dict[str, str]]:
    raw = json.loads(
        resources.files("glade.learn").joinpath("data/teach-text.json").read_text("utf-8")
    )
    found: dict[str, dict[str, str]] = raw["texts"]
    return found


def category_name(game: str, category: str, lang: str = "en") -> str:
    """A score category's name in ``lang`` (``trees`` -> 나무)."""
    text = _texts().get(f"category.{game}.{category}")
    return text[lang] if text else category


def gain_text(
    game: str, line: dict[str, Any], lang: str = "en", cell: Callable[[str], str] = str
) -> str:
    """One line of ``teach`` in words: "tree of 3 on 2,3: +4"."""
    check_lang(lang)
    texts = _texts()
    params = dict(line["params"])
    shown: dict[str, Any] = {"gain": f"{int(params.get('gain', 0)):+d}"}
    cells = params.get("cells") or []
    shown["cell"] = ", ".join(cell(c) for c in cells)
    if "colors" in params:
        shown["seen"] = len(params["colors"])
    if "card" in params:
        shown["card"] = term(f"card.{params['card']}", lang, str(params["card"]))
    if line["code"] == "total":
        key = f"category.{game}.{params['category']}"
        shown["category"] = texts[key][lang] if key in texts else params["category"]
    for name, value in params.items():
        shown.setdefault(name, value)
    code = line["code"]
    if code not in texts:
        shown["what"] = code.split(".", 1)[-1].replace("_", " ")
        code = "other"
    return fill(texts[code][lang], game, shown)


def lesson(
    game: str, lines: list[dict[str, Any]], lang: str = "en", cell: Callable[[str], str] = str
) -> str:
    """The lines of a move (its parts, not the totals) joined: "tree of 3 on 2,3: +4; ...";
    the totals alone when no part changed."""
    parts = [line for line in lines if line["code"] != "total"] or lines
    sep = "; " if lang != "zh" else ";"
    return sep.join(gain_text(game, line, lang, cell) for line in parts)


COLUMN_LETTERS = "ABCDEFGHIJ"


def harmonies_page_cell(cell: str) -> str:
    """A Harmonies cell (``q,r``) as the browser's board names it: its column's letter, then its
    row counted from 1 down that column (``0,0`` -> ``A1``, ``2,-1`` -> ``C1``); the page's
    ``cellLabel`` (glade/web/js/games/hex.js) does the same, a test compares them."""
    q, r = (int(x) for x in cell.split(","))
    return f"{COLUMN_LETTERS[q]}{r + (q - (q & 1)) // 2 + 1}"


def forest_cell(cell: str) -> str:
    """A Living Forest forest cell (``row,column`` from 0) as the boards number it: ``column,row``
    from 1, as the page's forest shows its lines and as players type it in the terminal."""
    row, column = cell.split(",")
    return f"{int(column) + 1},{int(row) + 1}"


def page_cell(game: str) -> Callable[[str], str]:
    """How the browser names ``game``'s cells in the words of a lesson."""
    return harmonies_page_cell if game == "harmonies" else forest_cell


__all__ = [
    "category_name",
    "forest_cell",
    "gain_text",
    "harmonies_page_cell",
    "lesson",
    "page_cell",
]
