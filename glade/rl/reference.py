"""The reference tables of docs/rl.md, generated from the encoders so the doc cannot drift.

``python -m glade.rl.reference`` prints them; a test checks that docs/rl.md holds them verbatim.
"""

from __future__ import annotations

from glade.harmonies.data import CARDS, LAYOUTS
from glade.living_forest.data import CARDS as CARDS_LF

from .harmonies_encoding import HarmoniesEncoder
from .living_forest_encoding import LivingForestEncoder
from .spec import action_table_markdown, segment_table_markdown


def harmonies_reference() -> str:
    out: list[str] = []
    for side in ("A", "B"):
        enc = HarmoniesEncoder(2, side)
        out.append(f"#### Harmonies actions, side {side} ({enc.n_actions} indices)\n")
        out.append(action_table_markdown(enc.action_ranges()))
        out.append("")
    out.append("Cells (index and `q,r` name):\n")
    for side in ("A", "B"):
        names = ", ".join(f"{i} `{n}`" for i, n in enumerate(LAYOUTS[side].names))
        out.append(f"- side {side}: {names}")
    out.append("")
    out.append("Cards (index and id): " + ", ".join(f"{c.index} `{c.id}`" for c in CARDS) + "\n")
    enc = HarmoniesEncoder(1, "A")
    out.append(
        "#### Harmonies observation\n\n"
        "One block per board: the observer's own first (`board[me]`), then the following seats in "
        "turn order (`board[next1]`, ...). Offsets inside a block (side A; on side B `cells` is "
        "25 x 19 = 475 long and every later offset moves by 38):\n"
    )
    out.append(segment_table_markdown([s for s in enc.segments if s.name.startswith("board[me]")]))
    out.append("")
    out.append("Then the shared table, at offset players x block:\n")
    out.append(
        segment_table_markdown(
            [s for s in enc.segments if not s.name.startswith("board[")], enc.boards_size
        )
    )
    out.append("")
    out.append("| players | side A: block, observation size | side B: block, observation size |")
    out.append("|---|---|---|")
    for players in (1, 2, 3, 4):
        a = HarmoniesEncoder(players, "A")
        b = HarmoniesEncoder(players, "B")
        out.append(f"| {players} | {a.block}, {a.size} | {b.block}, {b.size} |")
    return "\n".join(out)


def living_forest_reference() -> str:
    out: list[str] = []
    for players in (2, 3, 4):
        enc = LivingForestEncoder(players)
        out.append(f"#### Living Forest actions, {players} players ({enc.n_actions} indices)\n")
        out.append(action_table_markdown(enc.action_ranges()))
        out.append("")
    out.append(
        "Cards (index and name): " + ", ".join(f"{i} {n}" for i, n in enumerate(CARDS_LF.names))
    )
    out.append("")
    enc = LivingForestEncoder(2)
    out.append(
        "#### Living Forest observation\n\n"
        "One block per spirit: the observer's own first (`spirit[me]`), then the following seats "
        "(`spirit[next1]`, ...). Offsets inside a block:\n"
    )
    out.append(segment_table_markdown([s for s in enc.segments if s.name.startswith("spirit[me]")]))
    out.append("")
    out.append("Then the shared table, at offset players x block:\n")
    out.append(
        segment_table_markdown(
            [s for s in enc.segments if not s.name.startswith("spirit[")], enc.boards_size
        )
    )
    out.append("")
    out.append("| players | block | observation size |")
    out.append("|---|---|---|")
    for players in (2, 3, 4):
        e = LivingForestEncoder(players)
        out.append(f"| {players} | {e.block} | {e.size} |")
    return "\n".join(out)


def reference() -> str:
    return harmonies_reference() + "\n\n" + living_forest_reference()


if __name__ == "__main__":
    print(reference())
