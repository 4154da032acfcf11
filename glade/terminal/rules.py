"""``glade rules GAME``: the rules summary in the terminal, at 80 columns, paged when long.

The content is ``glade.learn.rules(game, lang)``, the same data the page renders: titles, texts,
lists and tables as they are, each figure drawn in letters (a Harmonies board in the client's
stack notation with the parts that score, a Living Forest help line, circle or forest).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from glade.learn import rules
from glade.learn.gains import category_name
from glade.learn.rulebook import phrase, term

from . import common
from .harmonies import stack_label
from .i18n import detect

WIDTH = 80


def _offset(side: str) -> dict[str, tuple[int, int]]:
    """Engine cell "q,r" -> (column, row) of the board drawing, 0-based (the data's offsets)."""
    from glade.harmonies.data import RAW

    return {
        f"{q},{r}": (int(c), int(w))
        for (q, r), (c, w) in zip(
            RAW["board"][side], RAW["board"][f"{side}_offset_oddq"], strict=True
        )
    }


def harmonies_board(figure: dict[str, Any], lang: str = "en") -> list[Text]:
    """A figure's board in the terminal client's notation (``T3``, ``M1``, ``H``; ``*`` a cube),
    the highlighted and scoring cells in bold, each cell named ``column,row`` as players type it."""
    where = _offset(figure["side"])
    cubes = set(figure.get("cubes", []))
    scoring = {c for p in figure["score"]["parts"] if p["points"] for c in p["cells"]}
    pitch = 6
    height = max(2 * row + (col & 1) for col, row in where.values()) + 1
    rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
    for cell, (col, row) in where.items():
        label = stack_label(figure["stacks"].get(cell, []))
        t = Text("[", style="dim")
        t.append(f"{label:<2}", style="bold" if cell in scoring else "")
        t.append("*" if cell in cubes else " ", style="bold magenta")
        t.append("]", style="dim")
        rows[2 * row + (col & 1)].append((col * pitch, t))
    out = []
    for items in rows:
        line = Text("  ")
        x = 0
        for pos, t in sorted(items, key=lambda p: p[0]):
            line.append(" " * (pos - x))
            line.append_text(t)
            x = pos + len(t.plain)
        out.append(line)
    names = {c: f"{col + 1},{row + 1}" for c, (col, row) in where.items()}
    for p in figure["score"]["parts"]:
        cells = " ".join(names[c] for c in p["cells"])
        name = category_name("harmonies", p["category"], lang)
        out.append(Text(f"    {name} {cells}: {p['points']}", style="dim"))
    return out


def _elements(elements: dict[str, int], lang: str) -> str:
    return ", ".join(
        f"{phrase('living-forest', f'element.{e}', lang)} {v:+d}" for e, v in elements.items()
    )


def _tree_cost(tree: str) -> int:
    from glade.living_forest.data import TREE_BY_ID, TREES

    return TREES.cost[TREE_BY_ID[tree]]


def figure_lines(game: str, figure: dict[str, Any], lang: str) -> Sequence[RenderableType]:
    """A figure drawn in letters."""
    kind = figure["kind"]
    if kind == "harmonies-board":
        return harmonies_board(figure, lang)
    if kind == "harmonies-card":
        cells = " ".join(
            ("{" if c["cube"] else "[")
            + ("H" if c["stack"][0] == "*" else stack_label(c["stack"]))
            + ("}" if c["cube"] else "]")
            for c in figure["cells"]
        )
        track = " ".join(str(p) for p in figure["points"])
        return [Text(f"  {figure['name']}: {cells}  ({track})")]
    if kind == "harmonies-stacks":
        out = []
        for s in figure["stacks"]:
            tokens = " + ".join(term(f"harmonies.colour.{c}", lang, c) for c in s["tokens"])
            out.append(
                Text(f"  {stack_label(s['tokens']):<3} ")
                .append(tokens)
                .append(f"  ({s['name']})", style="dim")
            )
        return out
    if kind in ("lf-help-line", "lf-card"):
        cards = figure["cards"] if kind == "lf-help-line" else [figure]
        grid = Table.grid(padding=(0, 2))
        for _ in range(3):
            grid.add_column(overflow="fold")
        for c in cards:
            symbol = (
                term(f"living-forest.{c['symbol']}", lang, c["symbol"])
                if c["symbol"] != "none"
                else ""
            )
            grid.add_row(c["name"], symbol, _elements(c["elements"], lang))
        return [Padding(grid, (0, 0, 0, 2))]
    if kind == "lf-circle":
        rocks = [
            f"{i + 1}:{phrase('living-forest', 'rock.take_fragment' if b == 'take_fragment' else f'bonus.{b}', lang)}"
            for i, b in enumerate(figure["rocks"])
        ]
        start = ", ".join(str(r + 1) for r in figure["start"])
        return [
            Text("  " + " · ".join(rocks[:6])),
            Text("  " + " · ".join(rocks[6:])),
            Text(f"  ({start})", style="dim"),
        ]
    if kind == "lf-forest":
        lit = set(figure.get("highlight", []))
        out = []
        for r, row in enumerate(figure["forest"]):
            t = Text("  ")
            for c, tree in enumerate(row):
                label = "." if tree is None else ("*" if tree == "start" else str(_tree_cost(tree)))
                t.append(f"[{label:^5}]", style="bold" if f"{r + 1},{c + 1}" in lit else "")
            out.append(t)
        return out
    return [Text(f"  ({kind})")]


def page(game: str, lang: str) -> list[RenderableType]:
    """The rules of ``game`` as a list of things to print, in order."""
    data = rules(game, lang)
    out: list[RenderableType] = [Text(data["title"], style="bold reverse"), Text("")]
    for s in data["sections"]:
        out.append(
            Text(f"{s['title']}  ", style="bold underline").append(f"({s['id']})", style="dim")
        )
        for b in s["blocks"]:
            kind = b["kind"]
            if kind == "text":
                out.append(Text(b["text"]))
            elif kind == "list":
                bullets = Table.grid(padding=(0, 1))
                bullets.add_column(width=2, justify="right")
                bullets.add_column(ratio=1, overflow="fold")
                for item in b["items"]:
                    bullets.add_row("•", item)
                out.append(bullets)
            elif kind == "table":
                table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
                for col in b["columns"]:
                    table.add_column(col, overflow="fold")
                for row in b["rows"]:
                    table.add_row(*row)
                out.append(table)
            else:
                out.append(Group(*figure_lines(game, b["figure"], lang)))
                out.append(Text(b["caption"], style="italic"))
        out.append(Text(""))
    return out


def print_rules(game: str, lang: str, console: Console, pager: bool) -> None:
    """Print the rules; through the console's pager when ``pager`` (a terminal, a long text)."""
    items = page(game, lang)
    if pager:
        with console.pager(styles=True):
            for item in items:
                console.print(item)
    else:
        for item in items:
            console.print(item)


def show_rules(args: argparse.Namespace, console: Console | None = None) -> int:
    """``glade rules GAME [--lang] [--plain]``."""
    import sys

    lang = detect(getattr(args, "lang", None))
    console = console or common.make_console(getattr(args, "plain", False), width=WIDTH)
    print_rules(args.game, lang, console, pager=sys.stdout.isatty() and console.is_terminal)
    return 0


__all__ = ["figure_lines", "page", "print_rules", "show_rules"]
