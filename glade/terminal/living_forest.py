"""``glade play living-forest``: Living Forest in the terminal, against bots or hot-seat.

The table is laid out as on the table: the circle of spirits with each rock's bonus, the fires in
the centre, the three levels of guardian animals on offer, then each spirit's forest (3 rows of 5,
``column,row`` counted from 1), help line, elements and victory tiles. Moves are typed as words
(``attract bear``, ``fire 3``, ``plant 7 at 1,3``, ``move 3``) or picked by menu number. Everything
is read through the public API (``view``, ``legal_actions``, ``log_json``, ``result``, ``copy``).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from rich.console import Console
from rich.text import Text

import glade
from glade.core import Action, Game
from glade.learn.gains import forest_cell

from . import common
from .common import Choice, Client, Session, cells_left, cells_right, side_by_side, wrap
from .i18n import Lang, detect

ELEMENTS = ("sun", "water", "plant", "spiral", "flower")
GLYPH = {"sun": "S", "water": "W", "plant": "P", "spiral": "@", "flower": "*"}
STYLE = {
    "sun": "bold yellow",
    "water": "bold blue",
    "plant": "bold green",
    "spiral": "bold bright_white",
    "flower": "bold magenta",
}
BONUS_GLYPH = {"plant": "P", "attract": "A", "extinguish": "E", "take_fragment": "F"}
KIND_ELEMENT = {"attract": "sun", "extinguish": "water", "plant": "plant", "move": "spiral"}
VARAN = "Fire Varan"


@cache
def _data() -> tuple[dict[str, tuple[int, tuple[int, ...]]], int]:
    """tree id -> (cost, elements given); the number a spirit must reach (12)."""
    from glade.living_forest.data import TARGET, TREES

    trees = {tid: (TREES.cost[i], tuple(TREES.elements[i])) for i, tid in enumerate(TREES.ids)}
    return trees, TARGET


@cache
def _card_info(name: str) -> dict[str, Any]:
    from glade.living_forest.game import CARD_BY_NAME, card_json

    info: dict[str, Any] = card_json(CARD_BY_NAME[name])
    return info


def tree_word(tid: str) -> str:
    """``T7`` -> ``7``, ``T3a`` -> ``3a``: what a player types."""
    return tid[1:].lower() if tid.startswith("T") else tid.lower()


class LivingForestClient(Client):
    game_name = "living-forest"

    def __init__(self, game: Game, seats: list[str], lang: Lang, console: Console) -> None:
        super().__init__(game, seats, lang, console)

    # -- words
    def el(self, element: str) -> str:
        return self.lang.opt(f"lf.el.{element}", element)

    def gains(self, values: dict[str, int] | tuple[int, ...]) -> str:
        items = values.items() if isinstance(values, dict) else zip(ELEMENTS, values, strict=True)
        return " ".join(f"{GLYPH[k]}{v:+d}" for k, v in items if v and k in GLYPH) or "-"

    def gains_text(self, values: dict[str, int] | tuple[int, ...]) -> Text:
        items = values.items() if isinstance(values, dict) else zip(ELEMENTS, values, strict=True)
        t = Text()
        for k, v in items:
            if v and k in GLYPH:
                if len(t):
                    t.append(" ")
                t.append(f"{GLYPH[k]}{v:+d}", style=STYLE[k])
        return t

    def cell(self, cell: str) -> str:
        """A forest cell of the views (``row,column`` from 0) as players type it (``column,row``
        from 1)."""
        return forest_cell(cell)

    def card_name(self, name: str) -> str:
        return self.lang.term(f"lfcard.{name}", name)

    def card_words(self, card: dict[str, Any]) -> str:
        coin = {"solitary": " (S)", "gregarious": " (G)"}.get(card.get("symbol", ""), "")
        elems = self.gains({e: card.get(e, 0) for e in ELEMENTS})
        return f"{self.card_name(card['name'])}{coin} {elems}"

    def kind(self, kind: str) -> str:
        return self.lang.opt(f"lf.kind.{kind}", kind)

    def bonus(self, bonus: str) -> str:
        return self.lang.opt(f"lf.bonus.{bonus}", bonus)

    def tile(self, tile: str) -> str:
        return self.lang.opt(f"lf.tile.{tile}", tile)

    def spirit_of(self, v: dict[str, Any], seat: int) -> dict[str, Any]:
        sp: dict[str, Any] = v["spirits"][seat]
        return sp

    # -- choices
    def choices(self, g: Game, seat: int) -> list[Choice]:
        v = g.view(seat)
        lang = self.lang
        me = self.spirit_of(v, seat)
        step = (v.get("in_progress") or {}).get("step")
        bonus = bool((v.get("in_progress") or {}).get("bonus"))
        out: list[Choice] = []
        seen: set[str] = set()
        trees, _ = _data()

        def add(c: Choice) -> None:
            if c.phrase not in seen:
                seen.add(c.phrase)
                out.append(c)

        for a in g.legal_actions(seat):
            k = a.type
            if k == "draw":
                add(Choice(a, "draw", lang.t("lf.menu.draw", n=me["draw_stack_count"])))
            elif k == "stop":
                add(Choice(a, "stop", lang.t("lf.menu.stop")))
            elif k == "use_fragment":
                last = me["help_line"][-1] if me["help_line"] else "?"
                add(
                    Choice(
                        a,
                        "fragment",
                        lang.t("lf.menu.useFragment", card=self.card_name(last)),
                        aliases=("use fragment",),
                    )
                )
            elif k == "choose_action":
                what = a["action"]
                el = KIND_ELEMENT.get(what)
                strength = self.lang.paren(f"{self.el(el)} {me['elements'][el]}") if el else ""
                phrase = "fragment" if what == "fragment" else what
                add(
                    Choice(
                        a,
                        phrase,
                        self.kind(what) + strength,
                        aliases=("take fragment",) if what == "fragment" else (),
                    )
                )
            elif k == "end_actions":
                add(
                    Choice(
                        a,
                        "end",
                        lang.t("lf.menu.end", n=v["actions_left"] or 0),
                        aliases=("end actions",),
                    )
                )
            elif k == "done":
                if bonus:
                    label = lang.t("lf.menu.declineBonus", bonus=self.kind(step or ""))
                elif step == "attract":
                    label = lang.t("lf.menu.doneAttract")
                elif step == "extinguish":
                    label = lang.t("lf.menu.doneExtinguish")
                else:
                    label = lang.t("lf.menu.done")
                add(Choice(a, "done", label))
            elif k == "pick_card":
                card = v["display"][a["level"] - 1][a["slot"]]
                english = card["name"].lower()
                name = self.card_name(card["name"]).lower()  # as the screen shows it
                label = lang.t(
                    "lf.menu.pick",
                    card=self.card_words(card),
                    level=a["level"],
                    cost=card["cost"],
                )
                add(
                    Choice(
                        a,
                        f"attract {name}",
                        label,
                        aliases=(
                            name,
                            english,
                            f"attract {english}",
                            f"attract {a['level']},{a['slot'] + 1}",
                        ),
                    )
                )
            elif k == "pick_fire":
                value = v["centre_fires"][a["index"]]
                add(
                    Choice(
                        a,
                        f"fire {value}",
                        lang.t("lf.menu.fire", n=value),
                        aliases=(f"extinguish {value}", str(value)),
                    )
                )
            elif k == "steal":
                victims = (v.get("in_progress") or {}).get("from") or []
                who = lang.join([self.name(s) for s in victims])
                add(
                    Choice(
                        a,
                        f"take {a['tile']}",
                        lang.t("lf.menu.steal", tile=self.tile(a["tile"]), name=who),
                        aliases=(
                            f"steal {a['tile']}",
                            f"take {self.tile(a['tile']).lower()}",
                            f"steal {self.tile(a['tile']).lower()}",
                        ),
                    )
                )
            elif k == "move":
                add(
                    Choice(
                        a,
                        f"move {a['steps']}",
                        self.move_words(g, seat, a),
                        aliases=(str(a["steps"]),),
                    )
                )
            elif k == "plant":
                tid = a["tree"]
                cost, gives = trees[tid]
                cell = f"{a['column'] + 1},{a['row'] + 1}"
                give = self.gains(gives) if tid != "T11" else lang.t("lf.t11")
                add(
                    Choice(
                        a,
                        f"plant {tree_word(tid)} at {cell}",
                        lang.t("lf.menu.plant", tree=tid, cell=cell, cost=cost, gives=give),
                        group=lang.t("lf.menu.plantGroup", tree=tid, cost=cost, gives=give),
                        short=cell,
                        aliases=(f"plant {tree_word(tid)} {cell}", f"{tree_word(tid)} at {cell}"),
                    )
                )
        return out

    def decision_key(self, g: Game, seat: int) -> Any:
        v = g.view(seat)
        prog = v.get("in_progress") or {}
        return (
            seat,
            v["round"],
            v["phase"],
            prog.get("step"),
            prog.get("bonus"),
            tuple(v["actions_used"]),
        )

    def move_words(self, g: Game, seat: int, action: Action, done: bool = False) -> str:
        """Where a move lands, whom it jumps and what the landing rock gives (read from a copy)."""
        lang = self.lang
        before = g.view(seat)
        start = before["spirits"][seat]["rock"]
        trial = g.copy()
        trial.apply(seat, action)
        after = trial.view(seat)
        rock = after["spirits"][seat]["rock"]
        bonus = before["circle"][rock]["bonus"]
        passed = []
        r = start
        while r != rock:
            r = (r + 1) % 12
            occupant = before["circle"][r]["spirit"]
            if r != rock and occupant is not None and occupant != seat:
                passed.append(occupant)
        key = "lf.did.move" if done else "lf.menu.move"
        text = lang.t(key, n=action["steps"], rock=rock + 1, bonus=self.bonus(bonus))
        if passed:
            jumps = "lf.did.jumps" if done else "lf.menu.jumps"
            text += "; " + lang.t(jumps, names=lang.join([self.name(s) for s in passed]))
        return text

    def consequence(self, seat: int, actions: list[Action]) -> str | None:
        lang = self.lang
        notes = []
        g = self.game.copy()
        for a in actions:
            if seat not in g.to_act:
                break
            if a.type == "move":
                notes.append(self.move_words(g, seat, a))
            before = g.view(seat)
            g.apply(seat, a)
            if a.type == "plant":
                after = g.view(seat)
                b, f = before["spirits"][seat], after["spirits"][seat]
                trees, _ = _data()
                gives = dict(zip(ELEMENTS, trees[a["tree"]][1], strict=True))
                extra = {e: f["elements"][e] - b["elements"][e] - gives[e] for e in ELEMENTS}
                parts = []
                if any(extra.values()):
                    parts.append(lang.t("lf.lineBonus", gains=self.gains(extra)))
                if f["fragments"] > b["fragments"]:
                    parts.append(lang.t("lf.fragmentBonus", n=f["fragments"] - b["fragments"]))
                prog = after.get("in_progress") or {}
                if prog.get("bonus") and seat in g.to_act:
                    parts.append(lang.t("lf.cornerBonus", bonus=self.kind(prog.get("step", ""))))
                if parts:
                    notes.append(
                        lang.t(
                            "lf.plantGives",
                            cell=f"{a['column'] + 1},{a['row'] + 1}",
                            what="; ".join(parts),
                        )
                    )
        return " ".join(notes) if notes else None

    def build(self, seat: int, words: str) -> dict[str, Any] | None:
        w = words.split(" ")
        if len(w) == 1 and w[0] in ("attract", "extinguish", "plant", "move", "fragment"):
            return {"type": "choose_action", "action": w[0]}
        if w[0] == "move" and len(w) == 2 and w[1].isdigit():
            return {"type": "move", "steps": int(w[1])}
        if w[0] != "plant" and len(w) == 3 and w[1] == "at":
            w = ["plant", *w]
        if w[0] == "plant" and len(w) in (3, 4) and "," in w[-1]:
            col, _, row = w[-1].partition(",")
            if col.isdigit() and row.isdigit():
                tid = "T" + w[1].upper().replace("A", "a").replace("B", "b")
                return {"type": "plant", "tree": tid, "column": int(col) - 1, "row": int(row) - 1}
        return None

    def refusal(self, exc: Exception) -> str:
        """The engine's reason, with forest rows and columns and fires counted from 1, as the
        screen numbers them (the engine counts from 0)."""
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", {}) or {})
        shown = {
            k: v + 1 if k in ("row", "column", "index") and isinstance(v, int) else v
            for k, v in params.items()
        }
        return self.lang.refusal(code, params, str(exc), shown if shown != params else None)

    def undo_note(self, seat: int) -> str | None:
        return self.lang.t("lf.undoPassed")

    def command(self, seat: int, words: str) -> bool:
        w = words.split(" ")
        if w[0] not in ("pile", "discard"):
            return False
        target = seat
        if len(w) == 2 and w[1].isdigit() and 1 <= int(w[1]) <= len(self.seats):
            target = int(w[1]) - 1
        sp = self.spirit_of(self.game.view(seat), target)
        counts = Counter(sp["discard"])
        cards = [
            f"{self.card_words(_card_info(n))}" + (f" x{c}" if c > 1 else "")
            for n, c in sorted(counts.items())
        ]
        self.say(self.lang.t("lf.pile", name=self.name(target), n=sp["discard_count"]))
        for c in cards:
            self.say(f"  {c}")
        return True

    # -- telling moves
    def narrate(self, g: Game, seat: int, action: Action) -> str:
        v = g.view(seat)
        lang = self.lang
        k = action.type
        me = v["spirits"][seat]
        if k == "draw":
            return lang.t("lf.did.draw")
        if k == "stop":
            return lang.t("lf.did.stop", n=len(me["help_line"]), solitary=me["solitary"])
        if k == "use_fragment":
            last = me["help_line"][-1] if me["help_line"] else "?"
            return lang.t("lf.did.useFragment", card=self.card_name(last))
        if k == "choose_action":
            what = action["action"]
            el = KIND_ELEMENT.get(what)
            strength = self.lang.paren(f"{self.el(el)} {me['elements'][el]}") if el else ""
            return lang.t("lf.did.choose", action=self.kind(what) + strength)
        if k == "end_actions":
            return lang.t("lf.did.end")
        if k == "done":
            prog = v.get("in_progress") or {}
            if prog.get("bonus"):
                return lang.t("lf.did.decline", bonus=self.kind(prog.get("step", "")))
            return lang.t("lf.did.done")
        if k == "pick_card":
            card = v["display"][action["level"] - 1][action["slot"]]
            return lang.t(
                "lf.did.pick", card=self.card_words(card), level=action["level"], cost=card["cost"]
            )
        if k == "pick_fire":
            return lang.t("lf.did.fire", n=v["centre_fires"][action["index"]])
        if k == "steal":
            victims = (v.get("in_progress") or {}).get("from") or []
            return lang.t(
                "lf.did.steal",
                tile=self.tile(action["tile"]),
                name=lang.join([self.name(s) for s in victims]),
            )
        if k == "move":
            return self.move_words(g, seat, action, done=True)
        if k == "plant":
            trees, _ = _data()
            gives = trees[action["tree"]][1]
            give = self.gains(gives) if action["tree"] != "T11" else lang.t("lf.t11")
            return lang.t(
                "lf.did.plant",
                tree=action["tree"],
                cell=f"{action['column'] + 1},{action['row'] + 1}",
                gives=give,
            )
        return k.replace("_", " ")

    def complete(self, text: str, seat: int, action: Action) -> str:
        if action.type != "draw":
            return text
        log = self.game.log_json(seat)
        chance = (log[-1].get("chance") if log else None) or {}
        card = chance.get("card")
        if card is None:  # the card lies face up on the help line
            help_line = self.game.view(None)["spirits"][seat]["help_line"]
            if not help_line:
                return text
            card = help_line[-1]
        words = self.card_words(_card_info(card))
        out = self.lang.t("lf.did.drew", card=words)
        if chance.get("reshuffled"):
            out += " " + self.lang.t("lf.reshuffled")
        return out

    def after(self, seat: int, action: Action, before: dict[str, Any]) -> list[str]:
        lang = self.lang
        v = self.game.view(None)
        out: list[str] = []
        _, target = _data()
        for s, (b, a) in enumerate(zip(before["spirits"], v["spirits"], strict=True)):
            for kind in ("trees", "fires", "flowers"):
                if b["progress"][kind] < target <= a["progress"][kind] and not v["result"]:
                    key = "lf.lastRoundYou" if self.is_you(s) else "lf.lastRound"
                    out.append(
                        lang.t(
                            key,
                            name=self.name(s),
                            n=a["progress"][kind],
                            what=lang.t(f"lf.progress.{kind}"),
                        )
                    )
        got = v["spirits"][seat]["fragments"] - before["spirits"][seat]["fragments"]
        if got > 0 and action.type in ("move", "plant", "choose_action"):
            out.append(lang.t("lf.gotFragments", name=self.name(seat), n=got))
        if v["round"] != before["round"]:
            out.extend(self.round_summary(before, v))
        return out

    def round_summary(self, before: dict[str, Any], v: dict[str, Any]) -> list[str]:
        """What the end of the round did, from the engine's own record of it (``last_round`` of
        the view): Onibi's fire power against each spirit's water, the Fire Varans dealt, the fires
        added to the centre, the display refilled, the Sacred Tree passed. Nothing when the game
        ended instead (no end of round is played then)."""
        lang = self.lang
        rec = v.get("last_round")
        if not rec or rec["round"] != before["round"]:
            return []
        out = [lang.t("lf.roundEnd", n=rec["round"])]
        onibi = rec["onibi"]
        if not onibi["fires"]:
            out.append(lang.t("lf.onibiNoFire"))
        else:
            hit = [sp for sp in rec["spirits"] if sp["attacked"]]
            got = [
                lang.t("lf.varansTo", name=self.name(sp["seat"]), n=sp["varans"])
                for sp in hit
                if sp["varans"]
            ]
            if got:
                out.append(lang.t("lf.onibiSpirits", total=onibi["power"], who=lang.join(got)))
                if rec["varans_short"]:
                    out.append(lang.t("lf.varansShort"))
            elif hit:  # attacked, but the Fire Varans had run out
                who = lang.join([self.name(sp["seat"]) for sp in hit])
                out.append(lang.t("lf.onibiNoVaran", total=onibi["power"], who=who))
            else:
                out.append(lang.t("lf.onibiNobody", total=onibi["power"]))
        fires = rec["fires_added"]
        centre = " ".join(str(f) for f in v["centre_fires"]) or lang.t("lf.noFire")
        if fires:
            out.append(
                lang.t("lf.firesAdded", fires=" ".join(str(f) for f in fires), centre=centre)
            )
        else:
            out.append(lang.t("lf.noFireAdded"))
        if rec["fires_capped"]:
            out.append(lang.t("lf.firesCapped"))
        if rec["centre_refired"]:
            out.append(lang.t("lf.refired", n=rec["centre_refired"]))
        if rec["refilled"]:
            cards = lang.join([self.card_name(r["card"]) for r in rec["refilled"]])
            out.append(lang.t("lf.refilled", cards=cards))
        if rec["empty_slots"]:
            out.append(lang.t("lf.emptySlots", n=rec["empty_slots"]))
        out.append(lang.t("lf.sacredPasses", name=self.name(rec["sacred_tree"]["to"])))
        return out

    def prompt(self, seat: int) -> str:
        v = self.game.view(seat)
        lang = self.lang
        me = v["spirits"][seat]
        prog = v.get("in_progress") or {}
        step = prog.get("step")
        if v["phase"] == "draw":
            can_stop = any(a.type == "stop" for a in self.game.legal_actions(seat))
            key = "lf.prompt.draw" if can_stop else "lf.prompt.drawFirst"
            text = lang.t(key, n=len(me["help_line"]), solitary=me["solitary"])
        elif step == "attract":
            text = lang.t("lf.prompt.attract", n=prog.get("left", 0))
        elif step == "extinguish":
            text = lang.t("lf.prompt.extinguish", n=prog.get("left", 0))
        elif step == "plant":
            text = lang.t("lf.prompt.plant", n=me["elements"]["plant"])
        elif step == "move":
            spiral = me["elements"]["spiral"]
            text = lang.t("lf.prompt.moveOne" if spiral == 1 else "lf.prompt.move", n=spiral)
        elif step == "steal":
            text = lang.t(
                "lf.prompt.steal", name=lang.join([self.name(s) for s in prog.get("from", [])])
            )
        else:
            text = lang.t(
                "lf.prompt.choose",
                n=v["actions_left"] or 0,
                used=lang.join([self.kind(k) for k in v["actions_used"]]) or "-",
            )
        if prog.get("bonus"):
            text = lang.t("lf.prompt.bonus") + " " + text
        if prog.get("then"):
            text += " " + lang.t(
                "lf.prompt.then", what=lang.join([self.bonus(b) for b in prog["then"]])
            )
        return text + " " + lang.t("prompt.tail")

    def help_lines(self) -> list[str]:
        return [self.lang.t("lf.help"), self.lang.t("help.common"), self.lang.t("lf.legend")]

    # -- drawing
    def render(self, seat: int | None) -> list[Text]:
        v = self.game.view(seat)
        lang = self.lang
        width = self.console.width
        out: list[Text] = []
        head = lang.t(
            "lf.header",
            round=v["round"],
            phase=lang.t(f"lf.phase.{v['phase']}"),
            name=self.name(v["sacred_tree"]),
        )
        supply = lang.t("lf.supply", varans=v["varan_supply"], fragments=v["fragment_supply"])
        if Text(head + supply).cell_len <= width:
            head += supply
        out.append(Text(head, style="bold reverse"))
        # the circle of spirits, rock 1 at the Sacred Tree's start, clockwise
        circle = Text(lang.t("lf.circle") + " ")
        for r in v["circle"]:
            circle.append(f"{r['rock'] + 1}{BONUS_GLYPH[r['bonus']]}")
            if r["spirit"] is not None:
                circle.append(f"<{r['spirit'] + 1}>", style="bold reverse")
            circle.append(" ")
        fires = " ".join(str(f) for f in v["centre_fires"]) or lang.t("lf.noFire")
        circle.append(
            lang.t("lf.centre", fires=fires, total=sum(v["centre_fires"])), style="bold red"
        )
        out.append(circle)
        # the guardian animals on offer: each card's name on a line of its own (wrapped, never
        # cut), then its symbol, cost and elements
        cell_w = max(18, (width - 7) // 4)
        for lv, row in enumerate(v["display"], start=1):
            blocks = []
            for i, card in enumerate(row, start=1):
                if card is None:
                    blocks.append([Text(f"{i} -", style="dim")])
                    continue
                block = [Text(x) for x in wrap(f"{i} {self.card_name(card['name'])}", cell_w - 1)]
                coin = {"solitary": "(S)", "gregarious": "(G)"}.get(card.get("symbol", ""), "")
                tail = Text(f"  {coin}${card['cost']} ")
                gained = self.gains_text({e: card.get(e, 0) for e in ELEMENTS})
                if tail.cell_len + gained.cell_len > cell_w - 1:  # five elements: no spaces
                    gained = Text("").join(p for p in gained.split(" "))
                if tail.cell_len + gained.cell_len > cell_w - 1:
                    block.append(tail)
                    tail = Text("  ")
                tail.append_text(gained)
                block.append(tail)
                blocks.append(block)
            label = lang.t("lf.level", n=lv, left=v["stack_counts"][lv - 1])
            for k, line in enumerate(side_by_side(blocks, cell_w - 1)):
                out.append(Text(label.ljust(7) if k == 0 else " " * 7) + line)
        order = ([seat] if seat is not None else []) + [s for s in range(v["players"]) if s != seat]
        block_w = 38
        per_row = max(1, width // (block_w + 2))
        full = order[:per_row]
        blocks = [self.spirit_block(v, s, seat, block_w) for s in full]
        out.extend(side_by_side(blocks, block_w, gap=2))
        for s in order[per_row:]:
            out.append(self.spirit_summary(v, s))
        return out

    def spirit_block(self, v: dict[str, Any], s: int, seat: int | None, width: int) -> list[Text]:
        lang = self.lang
        sp = v["spirits"][s]
        prog = sp["progress"]
        _, target = _data()
        acting = v["phase"] == "actions" and v["current"] == s
        title = lang.t(
            "lf.spiritTitle",
            name=self.name(s),
            rock=sp["rock"] + 1,
            draw=sp["draw_stack_count"],
            discard=sp["discard_count"],
        ) + (" <" if acting or s in v["to_act"] else "")
        style = "bold underline" if s == seat else "bold"
        lines = [Text(x, style=style) for x in wrap(title, width)]
        progress = lang.t(
            "lf.progress",
            trees=prog["trees"],
            fires=prog["fires"],
            flowers=prog["flowers"],
            target=target,
        )
        lines += [Text(x) for x in wrap(progress, width)]
        tiles = " ".join(f"{self.tile(k)} {n}" for k, n in sp["victory_tiles"].items() if n) or "-"
        el = Text()
        for e in ELEMENTS:
            el.append(f"{GLYPH[e]}{sp['elements'][e]} ", style=STYLE[e])
        el.append(lang.t("lf.fragmentsShort", n=sp["fragments"]))
        lines.append(el)
        lines += [Text(x) for x in wrap(lang.t("lf.tiles", tiles=tiles), width)]
        help_line = lang.join([self.card_name(n) for n in sp["help_line"]]) or "-"
        text = lang.t("lf.helpLine", n=sp["solitary"], cards=help_line)
        lines += [Text(part) for part in wrap(text, width)]
        lines.append(Text("      " + "".join(f"{c:<6}" for c in range(1, 6)), style="dim"))
        for r, row in enumerate(sp["forest"], start=1):
            t = Text(f"  {r}   ", style="dim")
            for cell in row:
                label = "." if cell is None else ("S" if cell == "start" else cell)
                t.append(f"{label:<6}", style="green" if cell else "dim")
            lines.append(t)
        return lines

    def spirit_summary(self, v: dict[str, Any], s: int) -> Text:
        sp = v["spirits"][s]
        prog = sp["progress"]
        text = self.lang.t(
            "lf.summary",
            name=self.name(s),
            trees=prog["trees"],
            fires=prog["fires"],
            flowers=prog["flowers"],
            rock=sp["rock"] + 1,
            seat=s + 1,
            cards=self.lang.join([self.card_name(n) for n in sp["help_line"]]) or "-",
        )
        return Text("\n".join(wrap(text, self.console.width)))

    def end_screen(self) -> list[Text]:
        lang = self.lang
        res = self.game.result()
        out = [Text(lang.t("end.title"), style="bold reverse")]
        players = range(len(res["breakdown"]))
        label_w = 12
        col = max(8, min(22, (self.console.width - label_w) // len(players)))

        def row(label: str, cells: list[str]) -> str:
            line = cells_left(label, label_w) + "".join(
                cells_right(c, col - 1) + " " for c in cells
            )
            return line.rstrip()

        out.append(Text(row("", [self.name(p) for p in players]), style="bold"))
        for k in ("trees", "fires", "flowers", "total"):
            label = lang.t("lf.progress." + k) if k != "total" else lang.t("h.cat.total")
            out.append(Text(row(label, [str(res["breakdown"][p][k]) for p in players])))
        marks = [lang.t("lf.reached") if res["breakdown"][p]["reached"] else "" for p in players]
        out.append(Text(row("", marks)))
        winners = res["winners"]
        names = lang.join([self.name(w) for w in winners])
        reached = [s for s, b in enumerate(res["breakdown"]) if b["reached"]]
        if len(winners) == 1:
            out.append(Text(lang.t("lf.end.winner", name=names), style="bold"))
        else:
            out.append(Text(lang.t("lf.end.shared", names=names), style="bold"))
        if len(reached) > 1:
            out.append(Text(lang.t("lf.end.tiebreak")))
        elif not reached:
            out.append(Text(lang.t("lf.end.nobody")))
        return out


def parse_seats(text: str | None, lang: Lang | None = None) -> list[str]:
    """The seat list from ``--seats`` (default: you against the greedy bot); any registered bot."""
    return common.parse_seats(text, "you,greedy", 2, 4, lang)


def play_living_forest(args: Any, console: Console | None = None) -> int:
    """Run a terminal game; returns the exit code (0 also when the human quits)."""
    lang = Lang(detect(getattr(args, "lang", None)))
    console = console or common.make_console(getattr(args, "plain", False))
    seats = parse_seats(getattr(args, "seats", None), lang)
    seed = common.seed_or_random(getattr(args, "seed", None))
    options = {"players": len(seats)}
    game = glade.new_game("living-forest", seed=seed, **options)
    client = LivingForestClient(game, seats, lang, console)
    console.print(Text(lang.t("lf.start", seats=lang.join(client.names), seed=seed)))
    session = Session(seed=seed, options=options, save=getattr(args, "save", None))
    return common.run(client, session)


__all__ = ["LivingForestClient", "parse_seats", "play_living_forest", "tree_word"]
