"""The rules of both games as data that the page and the terminal both render.

``data/rules-<game>.json`` holds the sections (stable ids such as ``harmonies.river`` or
``living-forest.onibi``), each with a title and blocks in English, Korean and Chinese: text,
lists, tables and figures. Numbers are never typed in the texts: a text writes ``{path}`` and
``values.fill`` reads the number from the engine's data or code; a table with a ``source`` is
built from that data here. ``rules(game, lang)`` returns the whole page in one language with
every name in braces filled and every figure completed with what the page needs to draw it (a
Harmonies board's explained score, a Living Forest card's elements).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from glade.core import BadInput

from .values import fill, values

GAMES = ("harmonies", "living-forest")
LANGS = ("en", "ko", "zh")
FORMAT = "glade-rules/1"


@cache
def content(game: str) -> dict[str, Any]:
    """The raw content file of ``game`` (every language), as stored."""
    if game not in GAMES:
        raise BadInput(f"there is no game {game!r}: choose harmonies or living-forest")
    text = resources.files("glade.learn").joinpath(f"data/rules-{game}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    if data.get("format") != FORMAT or data.get("game") != game:
        raise ValueError(f"glade.learn: rules-{game}.json is not a {FORMAT} file of {game}")
    return data


@cache
def glossary() -> dict[str, dict[str, Any]]:
    """The glossary's terms (``glade/web/i18n/glossary.json``, package data)."""
    text = resources.files("glade").joinpath("web/i18n/glossary.json").read_text("utf-8")
    terms: dict[str, dict[str, Any]] = json.loads(text)["terms"]
    return terms


def term(key: str, lang: str, default: str) -> str:
    """A name from the glossary in ``lang`` (a card, an animal), else ``default``."""
    entry = glossary().get(key)
    word = entry.get(lang) if entry else None
    return word if isinstance(word, str) and word else default


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise BadInput(f"there is no language {lang!r}: choose en, ko or zh")
    return lang


def section_ids(game: str) -> list[str]:
    """The ids of ``game``'s sections, in page order."""
    return [s["id"] for s in content(game)["sections"]]


def phrase(game: str, key: str, lang: str, **params: Any) -> str:
    """A short phrase of the content file (table cells, stack names) with its values filled."""
    return fill(content(game)["phrases"][key][lang], game, params)


# ------------------------------------------------------------------ tables built from data
def _heights(key: str) -> Callable[[str], list[list[str]]]:
    def rows(lang: str) -> list[list[str]]:
        from glade.harmonies.data import SCORING

        table = SCORING[key]["points_by_height"]
        return [[h, str(p)] for h, p in sorted(table.items(), key=lambda kv: int(kv[0]))]

    return rows


def _river(lang: str) -> list[list[str]]:
    from glade.harmonies.data import SCORING
    from glade.harmonies.scoring import river_points

    table = SCORING["river_side_A"]["points_by_length"]
    top = max(int(k) for k in table)
    rows = [[str(n), str(river_points(n))] for n in range(1, top + 1)]
    rows += [[str(n), str(river_points(n))] for n in (top + 1, top + 2)]
    return rows


def _spirits(lang: str) -> list[list[str]]:
    from glade.harmonies.data import CARDS

    rows = []
    for card in CARDS:
        if not card.spirit or card.formula is None:
            continue
        f = card.formula
        params: dict[str, Any] = {}
        if f["kind"] == "per_group":
            subject = "building" if "landscape" in f else f["color"]
            if "points_by_size" in f:
                key = f"spirit.group_sizes.{subject}"
                params["sizes"] = ", ".join(f"{k}: {v}" for k, v in f["points_by_size"].items())
            else:
                key = f"spirit.group.{subject}"
                params.update(points=f["points"], min=f.get("min_size", 1))
        elif f["kind"] == "per_landscape":
            key = f"spirit.landscape.{f['landscape']}"
            by = f["points_by_height"]
            params.update(h1=by["1"], h2=by["2"], h3=by["3"])
        else:
            key = f"spirit.token.{f['color']}"
            params["points"] = f["points"]
        name = term(f"card.{card.id}", lang, f"{card.name}'s Spirit")
        rows.append([name, phrase("harmonies", key, lang, **params)])
    return rows


def _solo_suns(lang: str) -> list[list[str]]:
    from glade.harmonies.data import SOLO_SUNS

    thresholds = SOLO_SUNS["score_thresholds"]
    rows = [[phrase("harmonies", "table.below", lang, n=thresholds[0][0]), "0"]]
    rows += [[phrase("harmonies", "table.atleast", lang, n=t), str(s)] for t, s in thresholds]
    return rows


def _element_list(gives: dict[str, int], lang: str) -> str:
    parts = [
        phrase(
            "living-forest",
            "gives.one",
            lang,
            n=n,
            element=phrase("living-forest", f"element.{e}", lang),
        )
        for e, n in gives.items()
    ]
    return ", ".join(parts) if parts else phrase("living-forest", "gives.none", lang)


def _lf_raw() -> dict[str, Any]:
    text = resources.files("glade.living_forest").joinpath("data/living-forest-cards.json")
    raw: dict[str, Any] = json.loads(text.read_text("utf-8"))
    return raw


def _lf_trees(lang: str) -> list[list[str]]:
    rows = []
    for tile in _lf_raw()["protective_trees"]["tiles"]:
        copies = tile["copies"]
        rows.append(
            [
                str(tile["cost"]),
                _element_list(tile.get("gives", {}), lang),
                f"{copies['2p']} / {copies['3p']} / {copies['4p']}",
            ]
        )
    return rows


def _lf_forest(lang: str) -> list[list[str]]:
    board = _lf_raw()["forest_board"]
    rows = []
    for line in board["line_bonuses"]:
        where = "row" if "row" in line else "column"
        rows.append(
            [
                phrase("living-forest", f"where.{where}", lang, n=line[where]),
                _element_list(line["gives"], lang),
            ]
        )
    for corner in board["corner_bonuses"]:
        bonus = phrase("living-forest", f"bonus.{corner['bonus']}", lang)
        if "count" in corner:
            what = phrase("living-forest", "corner.count", lang, bonus=bonus, n=corner["count"])
        else:
            ((element, n),) = corner["plus"].items()
            name = phrase("living-forest", f"element.{element}", lang)
            what = phrase("living-forest", "corner.plus", lang, bonus=bonus, n=n, element=name)
        rows.append([phrase("living-forest", f"where.corner.{corner['corner']}", lang), what])
    return rows


def _lf_rocks(lang: str) -> list[list[str]]:
    rows = []
    for rock in _lf_raw()["circle_of_spirits"]["rock_bonuses_clockwise"]:
        bonus = rock["bonus"]
        key = "rock.take_fragment" if bonus == "take_fragment" else f"bonus.{bonus}"
        rows.append([str(rock["index"] + 1), phrase("living-forest", key, lang)])
    return rows


def _lf_levels(lang: str) -> list[list[str]]:
    table = values("living-forest")
    return [[str(lv), table[f"rule.fire.level{lv}"]] for lv in (1, 2, 3)]


SOURCES: dict[str, Callable[[str], list[list[str]]]] = {
    "harmonies.tree": _heights("tree"),
    "harmonies.mountain": _heights("mountain"),
    "harmonies.river": _river,
    "harmonies.spirits": _spirits,
    "harmonies.solo_suns": _solo_suns,
    "living-forest.trees": _lf_trees,
    "living-forest.forest": _lf_forest,
    "living-forest.rocks": _lf_rocks,
    "living-forest.levels": _lf_levels,
}


# ------------------------------------------------------------------ figures
def _stack_name(stack: tuple[int, ...], lang: str) -> str:
    from glade.harmonies.data import BROWN, COLORS, GRAY, GREEN, RED

    n = len(stack)
    top = stack[-1]
    if all(c == GRAY for c in stack):
        return phrase("harmonies", "stack.mountain", lang, n=n)
    if top == GREEN:
        return phrase("harmonies", "stack.tree", lang, n=n)
    if all(c == BROWN for c in stack):
        return phrase("harmonies", "stack.trunk", lang)
    if top == RED:
        return phrase("harmonies", "stack.building" if n == 2 else "stack.red", lang)
    return phrase("harmonies", "stack.water" if COLORS[top] == "blue" else "stack.field", lang)


def figure(game: str, spec: dict[str, Any], lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A figure completed for drawing, and the values its caption may use (``n_solitary``)."""
    kind = spec["kind"]
    out = {k: v for k, v in spec.items() if k != "expect"}
    extra: dict[str, Any] = {}
    if kind == "harmonies-board":
        from glade.harmonies.scoring import score_board

        board = {k: spec[k] for k in ("side", "stacks", "cubes", "cards", "spirit") if k in spec}
        score = score_board(board, explain=True)
        out["score"] = score
        # the cells the caption is about: those of the parts of its categories that score
        about = set(spec.get("expect", ())) or {p["category"] for p in score["parts"]}
        out["highlight"] = [
            c for p in score["parts"] if p["category"] in about and p["points"] for c in p["cells"]
        ]
        extra.update({f"points.{k}": v for k, v in score.items() if k != "parts"})
        extra["n_blue"] = sum(1 for stack in spec["stacks"].values() if stack == ["blue"])
        rivers = [p["params"]["length"] for p in score["parts"] if p["what"] == "river"]
        extra["n_river"] = max(rivers, default=0)
    elif kind == "harmonies-card":
        from glade.harmonies.data import CARD_INDEX, CARDS

        card = CARDS[CARD_INDEX[spec["card"]]]
        out["name"] = term(f"card.{card.id}", lang, card.name)
        out["cells"] = card.data["cells"]
        out["points"] = list(card.points)
    elif kind == "harmonies-stacks":
        from glade.harmonies.data import COLORS, STACKS

        out["stacks"] = [
            {"tokens": [COLORS[c] for c in s], "name": _stack_name(s, lang)} for s in STACKS if s
        ]
    elif kind in ("lf-help-line", "lf-card"):
        from glade.living_forest.data import CARD_BY_NAME, ELEMENTS
        from glade.living_forest.data import CARDS as LF_CARDS

        names = spec["cards"] if kind == "lf-help-line" else [spec["card"]]
        cards = []
        for name in names:
            c = CARD_BY_NAME[name]
            item: dict[str, Any] = {
                "card": name,
                "name": term(f"lfcard.{name}", lang, name),
                "symbol": LF_CARDS.symbol[c],
                "elements": {
                    e: v for e, v in zip(ELEMENTS, LF_CARDS.elements[c], strict=True) if v
                },
            }
            if LF_CARDS.level[c]:
                item["level"], item["cost"] = LF_CARDS.level[c], LF_CARDS.cost[c]
            cards.append(item)
        if kind == "lf-card":
            out.update(cards[0])
        else:
            out["cards"] = cards
            solitary = sum(LF_CARDS.coin[CARD_BY_NAME[n]] for n in names)
            out["solitary"] = extra["n_solitary"] = solitary
    elif kind == "lf-circle":
        raw = _lf_raw()["circle_of_spirits"]
        out["rocks"] = [r["bonus"] for r in raw["rock_bonuses_clockwise"]]
        out["start"] = raw["start_rocks"][f"{spec['players']}p"]
        out["centre_fires"] = [_lf_raw()["fire_tiles"]["values"][0]]
    elif kind == "lf-forest":
        board = _lf_raw()["forest_board"]
        out["lines"] = board["line_bonuses"]
        out["corners"] = board["corner_bonuses"]
    else:
        raise ValueError(f"glade.learn: unknown figure kind {kind!r}")
    return out, extra


# ------------------------------------------------------------------ rendering
def _block(game: str, block: dict[str, Any], lang: str) -> dict[str, Any]:
    kind = block["kind"]
    if kind == "text":
        return {"kind": "text", "text": fill(block[lang], game)}
    if kind == "list":
        return {"kind": "list", "items": [fill(item[lang], game) for item in block["items"]]}
    if kind == "table":
        columns = [fill(c[lang], game) for c in block["columns"]]
        rows = SOURCES[block["source"]](lang)
        if any(len(r) != len(columns) for r in rows):
            raise ValueError(f"glade.learn: table {block['source']} does not fit its columns")
        return {"kind": "table", "source": block["source"], "columns": columns, "rows": rows}
    if kind == "figure":
        drawn, extra = figure(game, block["figure"], lang)
        return {
            "kind": "figure",
            "figure": drawn,
            "caption": fill(block["caption"][lang], game, extra),
        }
    raise ValueError(f"glade.learn: unknown block kind {kind!r}")


def render_section(game: str, section: dict[str, Any], lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": section["id"],
        "title": fill(section["title"][lang], game),
        "blocks": [_block(game, b, lang) for b in section["blocks"]],
        "links": list(section.get("links", ())),
    }
    if "aid" in section:
        out["aid"] = fill(section["aid"][lang], game)
    return out


@cache
def _rules(game: str, lang: str) -> str:
    data = content(game)
    page = {
        "format": FORMAT,
        "game": game,
        "lang": lang,
        "title": data["title"][lang],
        "sections": [render_section(game, s, lang) for s in data["sections"]],
    }
    return json.dumps(page, ensure_ascii=False)


def rules(game: str, lang: str = "en") -> dict[str, Any]:
    """The rules of ``game`` in ``lang``: ``{"format", "game", "lang", "title", "sections"}``
    (see docs/learn.md for each block's fields). A fresh copy each call.

    :raises BadInput: an unknown game or language
    """
    content(game)
    check_lang(lang)
    page: dict[str, Any] = json.loads(_rules(game, lang))
    return page


def section(game: str, section_id: str, lang: str = "en") -> dict[str, Any]:
    """One section of ``rules(game, lang)`` by its id.

    :raises BadInput: an unknown game, language or section
    """
    sections: list[dict[str, Any]] = rules(game, lang)["sections"]
    for s in sections:
        if s["id"] == section_id:
            return s
    raise BadInput(f"{game} has no rules section {section_id!r}")


__all__ = ["GAMES", "LANGS", "content", "figure", "rules", "section", "section_ids", "term"]
