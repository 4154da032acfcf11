"""``glade play harmonies``: Harmonies in the terminal, against bots or hot-seat.

The board is drawn as its hex grid (flat-topped columns, odd columns half a row lower), each cell
with its coordinate ``column,row`` (1-based, as the player types it) and its stack: ``W`` water,
``F`` field, ``M1-3`` mountain, ``T1-3`` tree, ``t1-2`` trunk, ``r`` a lone red, ``H`` building, ``*``
a cube. Letters carry the meaning, colour only repeats it. Everything is read through the public
API: ``view(seat)``, ``legal_actions``, ``log_json``, ``result()``.
"""

from __future__ import annotations

import argparse
from functools import cache
from typing import Any

from rich.console import Console
from rich.text import Text

import glade
from glade.core import Action, Game

from . import common
from .common import Choice, Client, Session, cells_left, cells_right, side_by_side, wrap
from .i18n import Lang, detect

COLORS = ("blue", "gray", "brown", "green", "yellow", "red")
LETTER = {"blue": "W", "gray": "M", "brown": "t", "green": "T", "yellow": "F", "red": "r"}
STYLE = {
    "W": "bold blue",
    "F": "bold yellow",
    "M": "bold bright_white",
    "T": "bold green",
    "t": "dark_orange3",
    "r": "bold red",
    "H": "bold red",
    ".": "dim",
}
BASE = {"blue": "W", "gray": "M1", "brown": "t1", "green": "T1", "yellow": "F", "red": "r"}
TALL = 36  # terminals at least this high also draw the habitats of the cards you hold
CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")


# ------------------------------------------------------------------ data read once


@cache
def _raw() -> dict[str, Any]:
    from glade.harmonies.data import RAW

    return RAW


@cache
def _cards() -> dict[str, dict[str, Any]]:
    raw = _raw()
    return {c["id"]: c for c in raw["animals"] + raw["spirits"]}


@cache
def _coords(side: str) -> tuple[dict[str, str], dict[str, str], dict[str, tuple[int, int]]]:
    """engine cell "q,r" -> player "col,row"; the reverse; engine cell -> (col, row) 0-based."""
    raw = _raw()
    to_player: dict[str, str] = {}
    to_engine: dict[str, str] = {}
    where: dict[str, tuple[int, int]] = {}
    for (q, r), (col, row) in zip(
        raw["board"][side], raw["board"][f"{side}_offset_oddq"], strict=True
    ):
        cell = f"{q},{r}"
        to_player[cell] = f"{col + 1},{row + 1}"
        to_engine[f"{col + 1},{row + 1}"] = cell
        where[cell] = (col, row)
    return to_player, to_engine, where


def stack_label(stack: list[str]) -> str:
    """A stack in the board notation (bottom to top colours -> ``T3``, ``M2``, ``H``...)."""
    if not stack:
        return "."
    if stack[-1] == "red" and len(stack) == 2:
        return "H"
    if stack[-1] == "green":
        return f"T{len(stack)}"
    if all(c == "gray" for c in stack):
        return f"M{len(stack)}"
    if all(c == "brown" for c in stack):
        return f"t{len(stack)}"
    return {"blue": "W", "yellow": "F", "red": "r"}.get(stack[-1], "?")


def _styled(label: str) -> str:
    return STYLE.get(label[:1], "")


def _habitat_label(cell: dict[str, Any]) -> str:
    stack = cell["stack"]
    if stack[0] == "*":
        return "H"
    return stack_label(list(stack))


# ------------------------------------------------------------------ the client


class HarmoniesClient(Client):
    game_name = "harmonies"

    def __init__(self, game: Game, seats: list[str], lang: Lang, console: Console) -> None:
        super().__init__(game, seats, lang, console)
        self.side = game.view(None)["options"]["side"]
        self.to_player, self.to_engine, self.where = _coords(self.side)

    # -- names
    def card_name(self, card: str) -> str:
        data = _cards()[card]
        english = f"{data['name']}'s Spirit" if data.get("rule") else data["name"]
        return self.lang.term(f"card.{card}", english)

    def card_word(self, card: str) -> str:
        """How a player types a card: its name on screen (``fennec fox``, ``사막여우``; a
        Nature's Spirit by its animal, ``lion``); the English name and the id are accepted too."""
        if self.lang.code != "en":
            return self.card_name(card).lower()
        return str(_cards()[card]["name"]).lower()

    def card_aliases(self, card: str) -> tuple[str, ...]:
        """Every word that names ``card``: the screen's, the English one, the data id."""
        words = {self.card_word(card), str(_cards()[card]["name"]).lower(), card}
        words.add(card.removesuffix("_spirit"))
        words.add(self.card_name(card).lower())
        return tuple(sorted(words))

    def colour(self, colour: str) -> str:
        return self.lang.opt(f"colour.{colour}", colour)

    def colour_of(self, word: str) -> str | None:
        """The colour a typed word names, in English or in the screen's language."""
        for c in COLORS:
            if word in (c, self.colour(c).lower()):
                return c
        return None

    def cell(self, cell: str) -> str:
        return self.to_player.get(cell, cell)

    def tokens(self, tokens: list[str]) -> str:
        return "[" + " ".join(LETTER[t] for t in tokens) + "]" if tokens else "[ ]"

    # -- choices
    def choices(self, g: Game, seat: int) -> list[Choice]:
        v = g.view(seat)
        out: list[Choice] = []
        lang = self.lang
        board = v["boards"][seat]
        for a in g.legal_actions(seat):
            k = a.type
            if k == "take_tokens":
                n = a["space"] + 1
                toks = v["central"][a["space"]]
                words = lang.join([self.colour(t) for t in toks])
                out.append(
                    Choice(
                        a,
                        f"take {n}",
                        lang.t("h.menu.take", n=n, tokens=self.tokens(toks), words=words),
                        group=lang.t("h.menu.takeGroup"),
                        short=f"take {n} {self.tokens(toks)}",
                    )
                )
            elif k == "place_token":
                cell, col = self.cell(a["cell"]), a["color"]
                after = stack_label(board["stacks"].get(a["cell"], []) + [col])
                local = self.colour(col).lower()
                aliases = tuple(
                    {
                        f"{col} {cell}",
                        f"place {local} {cell}",
                        f"{local} {cell}",
                        f"place {col} {cell}",
                    }
                )
                out.append(
                    Choice(
                        a,
                        f"place {col if self.lang.code == 'en' else local} {cell}",
                        lang.t("h.menu.place", colour=self.colour(col), cell=cell, result=after),
                        group=f"{LETTER[col]} {self.colour(col)}:",
                        short=cell if after == BASE[col] else f"{cell}>{after}",
                        aliases=aliases,
                    )
                )
            elif k == "take_card":
                card = v["row"][a["slot"]]
                n = a["slot"] + 1
                out.append(
                    Choice(
                        a,
                        f"card {n}",
                        lang.t(
                            "h.menu.card",
                            n=n,
                            card=self.card_name(card),
                            points=" ".join(str(p) for p in _cards()[card].get("points", [])),
                        ),
                        group=lang.t("h.menu.cardGroup"),
                        short=f"card {n} {self.card_name(card)}",
                        aliases=(f"take card {n}",)
                        + tuple(f"card {w}" for w in self.card_aliases(card)),
                    )
                )
            elif k == "discard_card":
                card = v["row"][a["slot"]]
                n = a["slot"] + 1
                out.append(
                    Choice(
                        a,
                        f"discard {n}",
                        lang.t("h.menu.discard", n=n, card=self.card_name(card)),
                        aliases=tuple(f"discard {w}" for w in self.card_aliases(card)),
                    )
                )
            elif k == "place_cube":
                card, cell = a["card"], self.cell(a["cell"])
                held = next(c for c in board["cards"] if c["card"] == card)
                worth = (
                    _cards()[card]["points"][held["placed"]]
                    if held["placed"] < len(_cards()[card]["points"])
                    else 0
                )
                out.append(
                    Choice(
                        a,
                        f"cube {self.card_word(card)} {cell}",
                        lang.t("h.menu.cube", card=self.card_name(card), cell=cell, n=worth),
                        aliases=tuple(f"cube {w} {cell}" for w in self.card_aliases(card)),
                    )
                )
            elif k == "choose_spirit":
                card = a["card"]
                names = self.card_aliases(card)
                out.append(
                    Choice(
                        a,
                        f"keep {self.card_word(card)}",
                        lang.t(
                            "h.menu.spirit", card=self.card_name(card), rule=self.spirit_rule(card)
                        ),
                        aliases=tuple(f"keep {w}" for w in names)
                        + tuple(f"spirit {w}" for w in names),
                    )
                )
            elif k == "end_turn":
                out.append(Choice(a, "end", lang.t("h.menu.end"), aliases=("end turn", "done")))
        return out

    def decision_key(self, g: Game, seat: int) -> Any:
        v = g.view(seat)
        return (
            seat,
            v["turn"],
            v["took_tokens"],
            tuple(sorted({a.type for a in g.legal_actions(seat)})),
        )

    def spirit_rule(self, card: str) -> str:
        """A Nature's Spirit's scoring rule in the screen's language (the page's sentence)."""
        return self.lang.web_text(f"spirit.rule.{card}", str(_cards()[card].get("rule", "")))

    def track(self, card: str, placed: int) -> str:
        """The point track, cubes already placed in brackets, and what the card is worth now."""
        points = _cards()[card].get("points", [])
        slots = " ".join(f"({p})" if k < placed else str(p) for k, p in enumerate(points))
        now = points[placed - 1] if placed else 0
        return self.lang.t("h.track", slots=slots, n=now)

    # -- words for moves
    def narrate(self, g: Game, seat: int, action: Action) -> str:
        v = g.view(seat)
        lang = self.lang
        k = action.type
        if k == "take_tokens":
            toks = v["central"][action["space"]]
            return lang.t(
                "h.did.take",
                n=action["space"] + 1,
                tokens=self.tokens(toks),
                words=lang.join([self.colour(t) for t in toks]),
            )
        if k == "place_token":
            stack = v["boards"][seat]["stacks"].get(action["cell"], [])
            after = stack_label(stack + [action["color"]])
            return lang.t(
                "h.did.place",
                colour=self.colour(action["color"]),
                cell=self.cell(action["cell"]),
                result=after,
            )
        if k == "take_card":
            card = v["row"][action["slot"]]
            return lang.t("h.did.card", n=action["slot"] + 1, card=self.card_name(card))
        if k == "discard_card":
            card = v["row"][action["slot"]]
            return lang.t("h.did.discard", n=action["slot"] + 1, card=self.card_name(card))
        if k == "place_cube":
            card = action["card"]
            held = next((c for c in v["boards"][seat]["cards"] if c["card"] == card), None)
            points = _cards()[card].get("points", [])
            placed = held["placed"] if held else 0
            worth = points[placed] if placed < len(points) else 0
            return lang.t(
                "h.did.cube", card=self.card_name(card), cell=self.cell(action["cell"]), n=worth
            )
        if k == "choose_spirit":
            return lang.t("h.did.spirit", card=self.card_name(action["card"]))
        if k == "end_turn":
            return lang.t("h.did.end")
        if k == "undo":
            return lang.t("undo.done")
        return k.replace("_", " ")

    def after(self, seat: int, action: Action, before: dict[str, Any]) -> list[str]:
        lang = self.lang
        out: list[str] = []
        if action.type == "end_turn":
            log = self.game.log_json(None)
            chance = log[-1].get("chance") if log else None
            if chance:
                toks = chance.get("tokens") or []
                if toks:
                    out.append(
                        lang.t(
                            "h.refilled",
                            tokens=" ".join(
                                self.tokens(toks[i : i + 3]) for i in range(0, len(toks), 3)
                            ),
                        )
                    )
                cards = chance.get("cards") or []
                if cards:
                    out.append(
                        lang.t(
                            "h.newCards",
                            n=len(cards),
                            cards=lang.join([self.card_name(c) for c in cards]),
                        )
                    )
        v = self.game.view(None)
        if v["end_triggered"] and not before["end_triggered"]:
            short = [s for s, b in enumerate(v["boards"]) if b["empty_cells"] <= 2]
            if short:
                s = short[0]
                empty = v["boards"][s]["empty_cells"]
                if self.is_you(s):
                    cause = lang.t("h.cause.cellsYou", n=empty)
                else:
                    cause = lang.t("h.cause.cells", name=self.name(s), n=empty)
            else:
                cause = lang.t("h.cause.pouch", n=v["pouch"]["count"])
            if v["players"] == 1 or v["over"]:
                out.append(lang.t("h.lastTurn", cause=cause))
            else:
                out.append(lang.t("h.lastRound", cause=cause, name=self.name(v["players"] - 1)))
        return out

    def consequence(self, seat: int, actions: list[Action]) -> str | None:
        for a in actions:
            if a.type == "discard_card":
                card = self.game.view(seat)["row"][a["slot"]]
                return self.lang.t("h.confirmDiscard", card=self.card_name(card))
        return None

    def build(self, seat: int, words: str) -> dict[str, Any] | None:
        """The action typed words name (as the player numbers spaces, slots and cells), when it is
        not one of the moves offered: the engine then says why it is refused."""
        w = words.split(" ")
        try:
            if w[0] == "take" and len(w) == 2:
                return {"type": "take_tokens", "space": int(w[1]) - 1}
            if w[0] == "card" and len(w) == 2:
                return {"type": "take_card", "slot": int(w[1]) - 1}
            if w[0] == "discard" and len(w) == 2:
                return {"type": "discard_card", "slot": int(w[1]) - 1}
        except ValueError:
            return None
        if w[0] == "place":
            w = w[1:]
        if not w:
            return None
        if len(w) == 2 and self.colour_of(w[0]) is not None and "," in w[1]:
            colour = self.colour_of(w[0])
            return {"type": "place_token", "color": colour, "cell": self.to_engine.get(w[1], w[1])}
        if w[0] == "cube" and len(w) >= 3:
            name = " ".join(w[1:-1])
            card = next((c for c in _cards() if name in self.card_aliases(c)), name)
            return {"type": "place_cube", "card": card, "cell": self.to_engine.get(w[-1], w[-1])}
        return None

    def refusal(self, exc: Exception) -> str:
        """The engine's reason, with spaces, card slots and cells numbered as the player types
        them (the engine counts from 0 and names cells by its own axial coordinates)."""
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", {}) or {})
        lang = self.lang
        if code == "harmonies.action.out_of_range" and params.get("field") in ("space", "slot"):
            return lang.t(
                f"h.refused.{params['field']}",
                n=int(params["value"]) + 1,
                max=int(params["limit"]) + 1,
            )
        shown = dict(params)
        for key in ("space", "slot"):
            if isinstance(shown.get(key), int):
                shown[key] = shown[key] + 1
        if isinstance(shown.get("cell"), str) and shown["cell"] in self.to_player:
            shown["cell"] = self.to_player[shown["cell"]]
        return lang.refusal(code, params, str(exc), shown if shown != params else None)

    def undo_note(self, seat: int) -> str | None:
        mine = [e for e in self.game.log_json(seat) if e.get("seat") == seat]
        if mine and mine[-1].get("action", {}).get("type") == "discard_card":
            return self.lang.t("undo.discard")
        if mine and mine[-1].get("chance") is not None:
            return self.lang.t("undo.revealed")
        return None

    def prompt(self, seat: int) -> str:
        v = self.game.view(seat)
        types = {a.type for a in self.game.legal_actions(seat)}
        lang = self.lang
        if "choose_spirit" in types:
            text = lang.t("h.prompt.spirit")
        elif "take_tokens" in types:
            text = lang.t("h.prompt.take")
        elif "place_token" in types:
            text = lang.t("h.prompt.place", n=len(v["hand"]), tokens=self.tokens(v["hand"]))
        elif "take_card" in types and "discard_card" in types:
            text = lang.t("h.prompt.finishSolo")
        elif "take_card" in types:
            text = lang.t("h.prompt.finish")
        elif "place_cube" in types:
            text = lang.t("h.prompt.finishCubes")
        else:
            text = lang.t("h.prompt.finishEnd")
        return text + " " + lang.t("prompt.tail")

    def help_lines(self) -> list[str]:
        return [self.lang.t("h.help"), self.lang.t("help.common"), self.lang.t("h.legend")]

    # -- drawing
    def board_lines(self, board: dict[str, Any]) -> list[Text]:
        pitch = 9
        cubes = set(board["cubes"])
        cells = self.where
        height = max(2 * row + (col & 1) for col, row in cells.values()) + 1
        width = (max(col for col, _ in cells.values()) + 1) * pitch
        lines = [Text(" " * width) for _ in range(height)]
        rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
        for cell, (col, row) in cells.items():
            label = stack_label(board["stacks"].get(cell, []))
            cube = "*" if cell in cubes else " "
            t = Text()
            t.append(f"{col + 1},{row + 1}", style="dim")
            t.append("[")
            t.append(f"{label:<2}", style=_styled(label))
            t.append(cube, style="bold magenta")
            t.append("]")
            rows[2 * row + (col & 1)].append((col * pitch, t))
        for y, items in enumerate(rows):
            line = Text()
            x = 0
            for pos, t in sorted(items, key=lambda p: p[0]):
                line.append(" " * (pos - x))
                line.append_text(t)
                x = pos + len(t.plain)
            lines[y] = line
        return lines

    def card_block(self, card: str, placed: int | None, title: str, width: int) -> list[Text]:
        """A card: title, point track (or spirit rule) and its habitat drawn turned a quarter;
        the title and the track wrap to ``width`` screen cells (never cut)."""
        data = _cards()[card]
        lines = [Text(x, style="bold") for x in wrap(f"{title}{self.card_name(card)}", width)]
        if data.get("rule"):
            text = self.lang.t("h.spirit")
        elif placed is None:
            text = self.lang.t("h.points", slots=" ".join(str(p) for p in data.get("points", [])))
        else:
            text = self.track(card, placed)
        lines += [Text(x, style="italic" if data.get("rule") else "") for x in wrap(text, width)]
        cells = [(c["q"], c["r"], _habitat_label(c), c["cube"]) for c in data["cells"]]
        xs = {(q, r): -(2 * r + q) for q, r, _, _ in cells}
        xmin = min(xs.values())
        for line_q in sorted({q for q, _, _, _ in cells}):
            row = sorted((xs[(q, r)] - xmin, lab, cube) for q, r, lab, cube in cells if q == line_q)
            t = Text(" ")
            x = 0
            for pos, lab, cube in row:
                t.append(" " * (pos * 2 - x))
                t.append("{" if cube else "[", style="bold magenta" if cube else "")
                t.append(f"{lab:<2}", style=_styled(lab))
                t.append("}" if cube else "]", style="bold magenta" if cube else "")
                x = pos * 2 + 4
            lines.append(t)
        return lines

    def render(self, seat: int | None) -> list[Text]:
        g = self.game
        v = g.view(seat)
        lang = self.lang
        width = self.console.width
        out: list[Text] = []
        head = lang.t("h.header", round=v["round"], pouch=v["pouch"]["count"], deck=v["deck"])
        if v["end_triggered"] and not v["over"]:
            head += "  " + lang.t("h.lastRoundMark")
        out.append(Text(head, style="bold reverse"))
        central = Text(lang.t("h.central") + " ")
        for k, toks in enumerate(v["central"]):
            central.append(f"{k + 1}")
            central.append("[")
            for i, tok in enumerate(toks):
                if i:
                    central.append(" ")
                central.append(LETTER[tok], style=_styled(LETTER[tok]))
            central.append("]  ")
        if v["players"] == 1:
            central.append(lang.t("h.outOfGame", n=v["out_of_game"]))
        out.append(central)
        # the animal cards on offer
        card_w = max(15, min(24, (width - 1) // max(1, len(v["row"])) - 1))
        blocks = []
        for slot, card in enumerate(v["row"]):
            if card is None or card == "":
                blocks.append([Text(f"{slot + 1} " + lang.t("h.emptySlot"))])
            else:
                blocks.append(self.card_block(card, None, f"{slot + 1} ", card_w))
        out.extend(side_by_side(blocks, card_w))
        if v.get("spirit_offer") and seat is not None and seat in v.get("choosing_spirit", []):
            for card in v["spirit_offer"]:
                out.append(Text(f"  {self.card_name(card)}: {self.spirit_rule(card)}"))
        # boards: the viewer's in full; the others in full when there is room, else one line each
        order = [seat] if seat is not None else []
        order += [s for s in range(v["players"]) if s != seat]
        board_w = len(self.board_lines(v["boards"][0])[0].plain) + 9
        per_row = max(1, width // (board_w + 2))
        full = order[:per_row] if seat is not None else order[: max(1, per_row)]
        blocks = []
        for s in full:
            blocks.append(
                [self.board_title(v, s, seat)]
                + self.board_lines(v["boards"][s])
                + self.held_lines(v, s, board_w)
            )
        out.extend(side_by_side(blocks, board_w, gap=2))
        held = v["boards"][seat]["cards"] if seat is not None else []
        if held and self.console.height >= TALL:  # room to draw the held cards' habitats too
            title = self.lang.t("h.heldCards") + " "
            drawn = [self.card_block(c["card"], c["placed"], "", card_w) for c in held]
            out.append(Text(title, style="bold"))
            out.extend(side_by_side(drawn, card_w))
        for s in order:
            if s not in full:
                out.append(self.summary_line(v, s))
        return out

    def board_title(self, v: dict[str, Any], s: int, seat: int | None) -> Text:
        b = v["boards"][s]
        turn = " <" if not v["over"] and s == v["current"] else ""
        text = self.lang.t(
            "h.boardTitle", name=self.name(s), n=b["score"]["total"], empty=b["empty_cells"]
        )
        return Text(text + turn, style="bold underline" if s == seat else "bold")

    def held_lines(self, v: dict[str, Any], s: int, width: int) -> list[Text]:
        b = v["boards"][s]
        lines = []
        for held in b["cards"]:
            data = _cards()[held["card"]]
            habitat = " ".join(
                ("{" if c["cube"] else "[") + _habitat_label(c) + ("}" if c["cube"] else "]")
                for c in data["cells"]
            )
            done = " " + self.lang.t("h.complete") if held["complete"] else ""
            text = f" {self.card_name(held['card'])} {habitat} {self.track(held['card'], held['placed'])}{done}"
            lines += [Text(x) for x in wrap(text, width, "   ")]
        if b.get("spirit"):
            sp = b["spirit"]
            mark = self.lang.t("h.spiritPlaced") if sp["placed"] else self.lang.t("h.spiritNotYet")
            lines += [
                Text(x)
                for x in wrap(f" {self.card_name(sp['card'])}{self.lang.paren(mark)}", width, "   ")
            ]
        return lines

    def summary_line(self, v: dict[str, Any], s: int) -> Text:
        b = v["boards"][s]
        cards = self.lang.join([self.card_name(c["card"]) for c in b["cards"]]) or "-"
        return Text(
            "\n".join(
                wrap(
                    self.lang.t(
                        "h.summary",
                        name=self.name(s),
                        n=b["score"]["total"],
                        empty=b["empty_cells"],
                        cards=cards,
                        seat=s + 1,
                    ),
                    self.console.width,
                )
            )
        )

    def end_screen(self) -> list[Text]:
        lang = self.lang
        res = self.game.result()
        out = [Text(lang.t("end.title"), style="bold reverse")]
        players = range(len(res["breakdown"]))
        label_w = 12
        col = max(8, min(22, (self.console.width - label_w) // len(players)))
        out.append(
            Text(
                (
                    " " * label_w
                    + "".join(cells_right(self.name(p), col - 1) + " " for p in players)
                ).rstrip(),
                style="bold",
            )
        )
        for k in (*CATEGORIES, "total"):
            row = cells_left(lang.t("h.cat." + k), label_w) + "".join(
                cells_right(str(res["breakdown"][p][k]), col - 1) + " " for p in players
            )
            out.append(Text(row.rstrip(), style="bold" if k == "total" else ""))
        if len(res["breakdown"]) == 1:
            b = res["breakdown"][0]
            out.append(
                Text(
                    lang.t(
                        "end.solo",
                        name=self.name(0),
                        n=b["total"],
                        suns=b.get("suns", res.get("suns", 0)),
                    ),
                    style="bold",
                )
            )
            return out
        winners = res["winners"]
        names = lang.join([self.name(w) for w in winners])
        scores = res["scores"]
        if len(winners) == 1:
            out.append(Text(lang.t("end.winner", name=names, n=scores[winners[0]]), style="bold"))
            best = max(scores)
            if scores.count(best) > 1:
                out.append(
                    Text(lang.t("h.end.tiebreak", name=names, n=res["tiebreak"][winners[0]]))
                )
        else:
            out.append(Text(lang.t("end.shared", names=names, n=scores[winners[0]]), style="bold"))
        return out


def play_harmonies(args: argparse.Namespace, console: Console | None = None) -> int:
    lang = Lang(detect(getattr(args, "lang", None)))
    console = console or common.make_console(getattr(args, "plain", False))
    seats = common.parse_seats(args.seats, "you,greedy", 1, 4, lang)
    seed = common.seed_or_random(args.seed)
    options = {"players": len(seats), "side": args.side, "spirits": bool(args.spirits)}
    game = glade.new_game("harmonies", seed=seed, **options)
    client = HarmoniesClient(game, seats, lang, console)
    console.print(
        Text(
            lang.t(
                "h.start",
                seats=lang.join(client.names),
                side=args.side,
                seed=seed,
                spirits=lang.t("h.withSpirits") if args.spirits else "",
            )
        )
    )
    session = Session(seed=seed, options=options, save=getattr(args, "save", None))
    return common.run(client, session)


__all__ = ["HarmoniesClient", "play_harmonies", "stack_label"]
