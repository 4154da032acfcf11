"""Plain-text drawing of Harmonies: hex boards, cards with their habitats, the whole table.

Stacks use the facts-file notation: ``W`` water, ``F`` field, ``M1..M3`` mountains, ``T1..T3`` trees,
``t1``/``t2`` trunks (brown only), ``r`` a lone red, ``H`` a building; ``*`` marks a cube, ``.`` an
empty cell. Used by the terminal client and by the RL wrappers' ``render_mode="ansi"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import (
    B1,
    B2,
    BB,
    BG,
    BR,
    CARDS,
    CLASS_STATES,
    COLORS,
    EMPTY,
    M1,
    M2,
    M3,
    R1,
    STACKS,
    T1,
    T2,
    T3,
    F,
    W,
)

if TYPE_CHECKING:
    from .game import HarmoniesGame

LABEL = {
    EMPTY: ".",
    W: "W",
    F: "F",
    M1: "M1",
    M2: "M2",
    M3: "M3",
    T1: "T1",
    B1: "t1",
    T2: "T2",
    B2: "t2",
    T3: "T3",
    R1: "r",
    BG: "H",
    BB: "H",
    BR: "H",
}
CLASS_LABEL = {"W": "W", "F": "F", "BLD": "H"} | {k: k for k in CLASS_STATES if k[0] in "MT"}
COLOR_LETTER = {"blue": "W", "gray": "M", "brown": "t", "green": "T", "yellow": "F", "red": "r"}
LEGEND = (
    "W water  F field  M1-3 mountain  T1-3 tree  t1-2 trunk  r red  H building  * cube  . empty"
)


def hex_grid(cells: dict[tuple[int, int], tuple[str, str]], col: int = 7) -> list[str]:
    """Draw flat-top hexes: each cell is a label line above a content line, columns half a row apart."""
    if not cells:
        return []
    ys = {pos: 2 * pos[1] + pos[0] for pos in cells}
    qmin = min(q for q, _ in cells)
    ymin = min(ys.values())
    height = max(ys.values()) - ymin + 2
    width = (max(q for q, _ in cells) - qmin + 1) * col
    grid = [[" "] * width for _ in range(height)]
    for (q, r), (top, body) in cells.items():
        y = ys[(q, r)] - ymin
        x = (q - qmin) * col
        for row, text in ((y, top), (y + 1, body)):
            for k, ch in enumerate(text[: col - 1]):
                grid[row][x + k] = ch
    return ["".join(line).rstrip() for line in grid]


def board_lines(game: HarmoniesGame, seat: int, marks: set[str] | None = None) -> list[str]:
    """A player's board with cell names; ``marks`` cells get a ``>`` (e.g. legal targets)."""
    b = game.boards[seat]
    layout = game.space.layout
    cells = {}
    for i, (q, r) in enumerate(layout.cells):
        name = layout.names[i]
        cube = "*" if b.cubes >> layout.bits[i] & 1 else ""
        mark = ">" if marks and name in marks else " "
        cells[(q, r)] = (f" {name}", f"{mark}[{LABEL[b.cells[i]]}{cube}]")
    return hex_grid(cells)


def card_lines(card: int, placed: int = 0) -> list[str]:
    """A card: name, point track (bottom slot first, placed cubes shown as x) and its habitat."""
    c = CARDS[card]
    cells = {}
    for cell in c.data["cells"]:
        stack = cell["stack"]
        cls = "BLD" if stack[0] == "*" else _class_name(stack)
        cells[(cell["q"], cell["r"])] = ("", f"[{CLASS_LABEL[cls]}{'*' if cell['cube'] else ''}]")
    if c.spirit:
        head = f"{c.name} Spirit: {c.data['rule']}"
    else:
        track = " ".join("x" if k < placed else str(p) for k, p in enumerate(c.points))
        head = f"{c.name}  points {track}"
    return [head] + ["   " + line for line in hex_grid(cells, col=6) if line.strip()]


def _class_name(stack: list[str]) -> str:
    colours = tuple(stack)
    for name, states in CLASS_STATES.items():
        if tuple(COLORS[x] for x in STACKS[states[0]]) == colours:
            return name
    return "?"


def table_text(game: HarmoniesGame, seat: int | None) -> str:
    """The whole table as ``seat`` may see it: central board, cards, every board and score."""
    out: list[str] = []
    spaces = "  ".join(
        f"{k}:[{' '.join(COLOR_LETTER[COLORS[t]] for t in tokens) or 'empty'}]"
        for k, tokens in enumerate(game.central)
    )
    out.append(
        f"Central board  {spaces}    pouch {len(game.pouch)} tokens, deck {len(game.deck)} cards"
    )
    out.append("Face-up animal cards:")
    for slot, card in enumerate(game.row):
        if card < 0:
            out.append(f"  slot {slot}: (empty)")
            continue
        lines = card_lines(card)
        out.append(f"  slot {slot}: {lines[0]}")
        out.extend("        " + line for line in lines[1:])
    for s in range(game.players):
        b = game.boards[s]
        score = game.breakdown(s)
        who = "you" if s == seat else f"player {s}"
        turn = "  <- to play" if not game.over and s == game.current else ""
        out.append("")
        out.append(
            f"== Seat {s} ({who}){turn}  total {score['total']}  "
            + " ".join(
                f"{k} {score[k]}"
                for k in ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")
            )
        )
        out.extend(board_lines(game, s))
        for card, placed in b.cards:
            lines = card_lines(card, placed)
            out.append(f"  holds {lines[0]}")
            out.extend("        " + line for line in lines[1:])
        if b.done:
            out.append("  completed: " + ", ".join(CARDS[c].name for c, _ in b.done))
        if b.spirit >= 0:
            state = "placed" if b.spirit_placed else "cube not placed yet"
            out.append(f"  spirit: {CARDS[b.spirit].name} ({state})")
        if b.offer and s == seat:
            out.append("  spirit offer: " + ", ".join(CARDS[c].name for c in b.offer))
    if game.hand and seat == game.current:
        out.append("")
        out.append("Tokens to place: " + ", ".join(COLORS[c] for c in game.hand))
    out.append(LEGEND)
    return "\n".join(out)
