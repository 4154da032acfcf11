"""Plain-text drawing of a Living Forest table, as one seat may see it (``view(seat)``).

The circle of spirits (each rock's bonus, ``<N>`` where spirit N stands), the fires in the centre,
the three levels of Guardian Animals on offer, then every spirit: progress toward 12, elements,
fragments, victory tiles, help line and forest (3 rows of 5, ``column,row`` counted from 1: ``S``
the starting tree, a planted tree by its id, ``.`` empty). Plain English and no colour: used by the
RL wrappers' ``render_mode="ansi"``; the terminal client draws its own screen in the player's
language. Lines never exceed ``width`` cells.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from glade.core import Game

ELEMENTS = ("sun", "water", "plant", "spiral", "flower")
GLYPH = {"sun": "S", "water": "W", "plant": "P", "spiral": "@", "flower": "*"}
BONUS = {"plant": "P", "attract": "A", "extinguish": "E", "take_fragment": "F"}
SYMBOL = {"solitary": " (S)", "gregarious": " (G)"}


def gains(source: dict[str, Any]) -> str:
    """``S+1 W+2``: the elements a card or a spirit has, by glyph."""
    return " ".join(f"{GLYPH[e]}{source[e]:+d}" for e in ELEMENTS if source.get(e)) or "-"


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """``text`` cut at spaces into lines of at most ``width`` characters, its own leading spaces
    kept and the lines after the first indented by ``indent`` more."""
    lead = text[: len(text) - len(text.lstrip(" "))]
    return textwrap.wrap(
        text.strip(), width, initial_indent=lead, subsequent_indent=lead + indent
    ) or [""]


def spirit_lines(view: dict[str, Any], seat: int, name: str, width: int) -> list[str]:
    sp = view["spirits"][seat]
    prog = sp["progress"]
    target = view.get("target", 12)
    acting = seat in view["to_act"]
    out = wrap(
        f"{name}{' <' if acting else ''}: rock {sp['rock'] + 1}, draw {sp['draw_stack_count']},"
        f" discard {sp['discard_count']}",
        width,
    )
    out += wrap(
        f"  trees {prog['trees']}/{target}, fires {prog['fires']}/{target},"
        f" flowers {prog['flowers']}/{target}",
        width,
    )
    tiles = " ".join(f"{k} {n}" for k, n in sp["victory_tiles"].items() if n) or "-"
    out += wrap(
        f"  {gains(sp['elements'])}; fragments {sp['fragments']}; victory tiles {tiles}", width
    )
    cards = ", ".join(sp["help_line"]) or "-"
    out += wrap(f"  help line (solitary {sp['solitary']}/3): {cards}", width, "    ")
    out.append(("      " + "".join(f"{c:<6}" for c in range(1, 6))).rstrip())
    for r, row in enumerate(sp["forest"], start=1):
        cells = "".join(f"{'.' if c is None else ('S' if c == 'start' else c):<6}" for c in row)
        out.append(f"  {r}   {cells}".rstrip()[:width])
    return out


def render(game: Game, seat: int | None, width: int = 80, names: list[str] | None = None) -> str:
    """The table as plain text, as ``seat`` may see it (None: a spectator). Spirits are called
    ``names[s]`` (default "Spirit 1", "Spirit 2", ...)."""
    view: dict[str, Any] = game.view(seat)
    players = int(view["players"])
    called = names or [f"Spirit {s + 1}" for s in range(players)]
    width = max(40, width)
    out = wrap(
        f"Living Forest  Round {view['round']}  {view['phase']}  Sacred Tree: "
        f"{called[view['sacred_tree']]}  (Fire Varans {view['varan_supply']},"
        f" fragments {view['fragment_supply']})",
        width,
    )
    rocks = " ".join(
        f"{r['rock'] + 1}{BONUS[r['bonus']]}"
        + (f"<{r['spirit'] + 1}>" if r["spirit"] is not None else "")
        for r in view["circle"]
    )
    fires = " ".join(str(f) for f in view["centre_fires"]) or "none"
    out += wrap(f"Circle: {rocks} | fires {fires} ={sum(view['centre_fires'])}", width)
    for level, row in enumerate(view["display"], start=1):
        left = view["stack_counts"][level - 1]
        cards = [
            "-"
            if card is None
            else f"{card['name']}{SYMBOL.get(card.get('symbol', ''), '')} ${card['cost']} {gains(card)}"
            for card in row
        ]
        out += wrap(f"L{level} ({left} left): " + " | ".join(cards), width, "    ")
    order = ([seat] if seat is not None else []) + [s for s in range(players) if s != seat]
    for s in order:
        out.append("")
        out += spirit_lines(view, s, called[s], width)
    return "\n".join(out)


__all__ = ["render"]
