"""The refusal codes every game shares (action shape, seats, undo, games and saves).

Each rules package adds its own catalogue; ``docs/refusals.md`` lists them all (``all_catalogues``).
"""

from __future__ import annotations

import importlib

from .errors import Catalogue

CORE = Catalogue(
    "core",
    {
        "action.not_object": 'an action must be an object with a "type" field',
        "action.no_type": 'an action needs a "type" naming what to do',
        "action.field_names": "action field names must be strings",
        "action.plain_values": "action fields must be plain values (text, numbers, true/false)",
        "seat.unknown": "there is no seat {seat} in this game",
        "game.over": "the game is over",
        "move.unknown": "that is not a {game} move",
        "undo.args": "undo takes no arguments",
        "undo.nothing": "there is nothing you can undo now",
        "undo.unreplayable": "this game's history cannot be replayed, so nothing can be undone",
        "game.unknown": "unknown game {name}; choose one of: {choices}",
        "seed.not_int": "the seed must be a whole number",
        "save.not_glade": 'this is not a saved glade game (no "game" field)',
    },
)

# every catalogue, by module, in the order docs/refusals.md lists them
CATALOGUE_MODULES: tuple[str, ...] = (
    "glade.core.refusals:CORE",
    "glade.harmonies.refusals:REFUSALS",
    "glade.living_forest.refusals:REFUSALS",
    "glade.server.refusals:SERVER",
)


def all_catalogues() -> list[Catalogue]:
    """The catalogues that exist (a game whose catalogue module is missing is skipped)."""
    out = []
    for spec in CATALOGUE_MODULES:
        module, name = spec.split(":")
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        out.append(getattr(mod, name))
    return out


def markdown() -> str:
    """``docs/refusals.md``: every code of every catalogue with its parameters and English text."""
    lines = [
        "# Refusal codes",
        "",
        "Every refusal (`IllegalAction`, `BadInput`) carries a stable `code` and `params` beside the",
        "English sentence; the server's answers include both (its 422s, and its own refusals of the",
        "`server` section: accounts, seats, clocks, chat, hints, ratings), and the clients translate",
        "from them.",
        "This file is generated from the catalogues (`python -m glade.core.refusals > docs/refusals.md`);",
        "a test fails when it is out of date.",
        "",
    ]
    for cat in all_catalogues():
        lines += [f"## {cat.name}", "", "| code | params | English |", "|---|---|---|"]
        for code in cat:
            params = ", ".join(f"`{p}`" for p in sorted(cat.fields(code))) or "–"
            text = cat[code].replace("|", "\\|")
            lines.append(f"| `{code}` | {params} | {text} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
