"""The numbers the rules texts show, read from the engines' data and code (never typed twice).

A text writes ``{path}``: a dotted path into its game's data file (``scoring.tree.points_by_height.3``,
``protective_trees.tiles.T9.cost``; a list of objects with an ``id`` or a ``name`` is indexed by it,
any other list by position), or a name under ``rule.`` that the engine's code holds rather than
its data file (``rule.river.7``: the points of a river of 7, from the scorer). ``values(game)`` is
the whole table; ``fill`` puts its values into a text and refuses a name it does not know.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from glade.core import BadInput

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.+\-]+)\}")


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, bool):
        out[prefix] = "true" if value else "false"
    elif isinstance(value, int | float | str):
        out[prefix] = str(value)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            key = str(i)
            if isinstance(v, Mapping):
                key = str(v.get("id", v.get("name", i)))
            _flatten(f"{prefix}.{key}", v, out)


def _harmonies() -> dict[str, str]:
    from glade.harmonies.data import LAYOUTS, MAX_HELD, RAW, STACKS
    from glade.harmonies.scoring import river_points

    out: dict[str, str] = {}
    _flatten("", RAW, out)
    rule = {
        # the scorer's rule for a river longer than its table (``scoring.river_points``)
        **{f"river.{n}": river_points(n) for n in range(0, 13)},
        "cells.A": len(LAYOUTS["A"].cells),
        "cells.B": len(LAYOUTS["B"].cells),
        "max_held": MAX_HELD,
        "river_table_top": max(int(k) for k in RAW["scoring"]["river_side_A"]["points_by_length"]),
        # the tokens a solo turn leaves on the central board (they leave the game)
        "solo.left": (RAW["components"]["central_board_spaces"]["solo"] - 1)
        * RAW["components"]["tokens_per_space"],
        "stacks": sum(1 for s in STACKS if s),
        # a building scores among this many colours (``scoring.landscapes``; checked in the tests)
        "building.colours": 3,
        # a turn that ends with this many empty spaces or fewer triggers the end (``game._end_turn``)
        "end.empty": 2,
        # tokens taken (and placed) each turn
        "tokens.turn": RAW["components"]["tokens_per_space"],
    }
    for name, value in rule.items():
        out[f"rule.{name}"] = str(value)
    return out


def _living_forest() -> dict[str, str]:
    from glade.living_forest import data

    text = resources.files("glade.living_forest").joinpath("data/living-forest-cards.json")
    loaded: dict[str, Any] = json.loads(text.read_text("utf-8"))
    out: dict[str, str] = {}
    _flatten("", loaded, out)
    rule: dict[str, int] = {
        "target": data.TARGET,
        "centre_cap": data.CENTRE_CAP,
        "fragments": data.FRAGMENT_COUNT,
        "varans": data.VARAN_COUNT,
        "starting_cards": data.NUM_STARTING,
        "rows": data.ROWS,
        "columns": data.COLUMNS,
        "plantable": data.ROWS * data.COLUMNS - 1,
        **{f"fire.level{lv + 1}": v for lv, v in enumerate(data.FIRE_LEVEL_VALUE)},
        # the limit of uncancelled solitary symbols, the actions of a turn below it and at it
        "solitary_limit": 3,
        "actions": 2,
        "actions_at_limit": 1,
        "rocks": len(data.ROCK_BONUS),
    }
    for name, value in rule.items():
        out[f"rule.{name}"] = str(value)
    return out


@cache
def values(game: str) -> dict[str, str]:
    """Every name a text of ``game`` may write in braces, and its value as text."""
    if game == "harmonies":
        return _harmonies()
    if game == "living-forest":
        return _living_forest()
    raise BadInput(f"there is no game {game!r}: choose harmonies or living-forest")


def fill(text: str, game: str, extra: Mapping[str, Any] | None = None) -> str:
    """``text`` with every ``{name}`` replaced by its value (``extra`` first, then the game's).

    :raises KeyError: a name in braces with no value (a mistake in the content, caught by tests)
    """
    table = values(game)

    def one(m: re.Match[str]) -> str:
        name = m[1]
        if extra is not None and name in extra:
            return str(extra[name])
        if name in table:
            return table[name]
        raise KeyError(f"{game}: no value for {{{name}}} in {text!r}")

    return PLACEHOLDER.sub(one, text)


__all__ = ["PLACEHOLDER", "fill", "values"]
