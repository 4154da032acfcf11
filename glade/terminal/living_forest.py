"""Play Living Forest in the terminal: ``glade play living-forest [--seats you,greedy] [--seed N]``.

Plain text so it works in any terminal and in tests: the human types the number of a move,
``undo`` or ``quit`` (read with ``input()``); bots come from ``glade.bots.make_bot``.
"""

from __future__ import annotations

import secrets
from typing import Any

from glade.bots import Bot, make_bot
from glade.core import Action, IllegalAction
from glade.living_forest.data import CARD_BY_NAME, CARDS, ELEMENTS, ROCK_BONUS, TREE_BY_ID, TREES
from glade.living_forest.game import LivingForestGame

from . import common

SHORT = {"sun": "sun", "water": "wat", "plant": "pla", "spiral": "spi", "flower": "flo"}


def parse_seats(text: str | None) -> list[str]:
    """The seat list from ``--seats`` (default: you against the greedy bot); any registered bot."""
    return common.parse_seats(text, "you,greedy", 2, 4)


def _elements(values: dict[str, int] | tuple[int, ...]) -> str:
    if isinstance(values, dict):
        items = list(values.items())
    else:
        items = list(zip(ELEMENTS, values, strict=True))
    return " ".join(f"{SHORT[k]}{v:+d}" for k, v in items if v) or "-"


def _card(c: dict[str, Any] | None) -> str:
    if c is None:
        return "(empty)"
    coin = {"solitary": " [S]", "gregarious": " [G]"}.get(c["symbol"], "")
    elems = _elements({e: c[e] for e in ELEMENTS if e in c})
    cost = f" ${c['cost']}" if "cost" in c else ""
    return f"{c['name']}{cost}{coin} {elems}"


def describe(g: LivingForestGame, seat: int, action: Action) -> str:
    """A move in a player's words."""
    kind = action.type
    if kind == "draw":
        return "draw a card"
    if kind == "stop":
        return "stop drawing"
    if kind == "use_fragment":
        last = g.help_lines[seat][-1] if g.help_lines[seat] else None
        name = CARDS.names[last] if last is not None else "the card"
        return f"use a fragment to send away the {name}"
    if kind == "done":
        return "done"
    if kind == "end_actions":
        return "end my actions"
    if kind == "undo":
        return "undo"
    if kind == "choose_action":
        what = action["action"]
        element = {"attract": 0, "extinguish": 1, "move": 3, "plant": 2}.get(what)
        extra = "" if element is None else f" ({ELEMENTS[element]} {g.element(seat, element)})"
        return f"action: {'take a fragment' if what == 'fragment' else what}{extra}"
    if kind == "pick_card":
        c = g.display[(action["level"] - 1) * 4 + action["slot"]]
        return f"attract the {CARDS.names[c]} (level {action['level']}, cost {CARDS.cost[c]})"
    if kind == "pick_fire":
        return f"extinguish fire #{action['index']} (value {g.centre_fires[action['index']]})"
    if kind == "steal":
        return f"take a {action['tile']} victory tile from spirit {g.steal_from[0]}"
    if kind == "move":
        return f"move {action['steps']} rock(s)"
    if kind == "plant":
        t = TREE_BY_ID[action["tree"]]
        gives = _elements(TREES.elements[t]) if t < 11 else "same action twice"
        return (
            f"plant {action['tree']} ({gives}, cost {TREES.cost[t]}) at row {action['row']}, "
            f"column {action['column']}"
        )
    return repr(action)


def render(g: LivingForestGame, seat: int | None) -> str:
    """The table as text, as ``seat`` may see it."""
    v = g.view(seat)
    lines = [
        f"=== Round {v['round']} - phase: {v['phase']} - Sacred Tree: spirit {v['sacred_tree']}",
        f"Centre fires: {v['centre_fires'] or 'none'} (total {sum(v['centre_fires'])})",
    ]
    for lv, row in enumerate(v["display"], start=1):
        cards = " | ".join(f"{i}:{_card(c)}" for i, c in enumerate(row))
        lines.append(f"Level {lv} ({v['stack_counts'][lv - 1]} left): {cards}")
    circle = " ".join(
        f"{r['rock']}{ROCK_BONUS[r['rock']][0].upper()}"
        + (f"<{r['spirit']}>" if r["spirit"] is not None else "")
        for r in v["circle"]
    )
    lines.append(f"Circle: {circle}   (P plant, A attract, E extinguish, T fragment)")
    supply = " ".join(f"{k}:{n}" for k, n in v["tree_supply"].items() if n)
    lines.append(f"Trees: {supply}   fragments {v['fragment_supply']}, varans {v['varan_supply']}")
    for sp in v["spirits"]:
        s = sp["seat"]
        mark = " (you)" if s == seat else ""
        prog = sp["progress"]
        lines.append(
            f"-- Spirit {s}{mark}: trees {prog['trees']}/12, fires {prog['fires']}/12, "
            f"flowers {prog['flowers']}/12 | rock {sp['rock']} | fragments {sp['fragments']}"
            f" | tiles {sp['victory_tiles']}"
        )
        lines.append(
            f"   help line (solitary {sp['solitary']}/3): "
            + (", ".join(_card(_info(n)) for n in sp["help_line"]) or "empty")
        )
        lines.append(
            f"   elements: {_elements(sp['elements'])} | draw {sp['draw_stack_count']}, "
            f"discard {sp['discard_count']} | fires held {sp['fires']}"
        )
        for r, row in enumerate(sp["forest"]):
            cells = " ".join(f"{(t or '.'):>5}" for t in row)
            lines.append(f"   forest row {r}: {cells}")
    if v["phase"] == "actions":
        lines.append(
            f"Spirit {v['current']} acts: {v['actions_left']} action(s) left, used "
            f"{v['actions_used'] or 'none'}; in progress: {v['in_progress'] or 'choosing'}"
        )
    return "\n".join(lines)


def _info(name: str) -> dict[str, Any]:
    from glade.living_forest.game import card_json

    return card_json(CARD_BY_NAME[name])


def _final(g: LivingForestGame) -> str:
    res = g.result()
    lines = ["=== Game over"]
    for s, b in enumerate(res["breakdown"]):
        flag = "reached 12" if b["reached"] else "did not reach 12"
        lines.append(
            f"Spirit {s}: trees {b['trees']}, fires {b['fires']}, flowers {b['flowers']}"
            f" = {b['total']} ({flag})"
        )
    lines.append("Winner(s): " + ", ".join(f"spirit {w}" for w in res["winners"]))
    return "\n".join(lines)


def _human_turn(g: LivingForestGame, seat: int) -> bool:
    """Ask the human at ``seat`` for one move; False if they quit."""
    print(render(g, seat))
    while True:
        moves = g.legal_actions(seat)
        print(f"Spirit {seat}, your moves:")
        for i, a in enumerate(moves, start=1):
            print(f"  {i:>3}. {describe(g, seat, a)}")
        try:
            text = input("> ").strip().lower()
        except EOFError:
            return False
        if text in ("quit", "q", "exit"):
            return False
        if text == "undo":
            try:
                g.apply(seat, {"type": "undo"})
                print("undone")
                print(render(g, seat))
            except IllegalAction as exc:
                print(f"cannot undo: {exc}")
            continue
        if not text.isdigit() or not 1 <= int(text) <= len(moves):
            print(f"type a number from 1 to {len(moves)}, undo or quit")
            continue
        move = moves[int(text) - 1]
        try:
            g.apply(seat, move)
        except IllegalAction as exc:  # cannot happen for offered moves, but never crash
            print(f"refused: {exc}")
            continue
        return True


def play_living_forest(args: Any) -> int:
    """Run a terminal game; returns the exit code (0 also when the human quits)."""
    seats = parse_seats(getattr(args, "seats", None))
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = secrets.randbelow(2**31)
    game = LivingForestGame.new(seed, {"players": len(seats)})
    bots: dict[int, Bot] = {
        s: make_bot(name, "living-forest", seed=seed * 10 + s)
        for s, name in enumerate(seats)
        if name != "you"
    }
    humans = [s for s in range(len(seats)) if s not in bots]
    print(f"Living Forest, seed {seed}: " + ", ".join(f"{s}={n}" for s, n in enumerate(seats)))
    while not game.is_over:
        for seat in game.to_act:
            if seat not in game.to_act or not game.legal_action_ids(seat):
                continue  # (a spirit that stopped drawing may only undo: nothing to ask)
            if seat in bots:
                for action in bots[seat].choose(game, seat):
                    text = describe(game, seat, action)
                    game.apply(seat, action)
                    if humans:
                        print(f"spirit {seat} ({seats[seat]}): {text}")
            elif not _human_turn(game, seat):
                print("bye")
                return 0
            if game.is_over:
                break
    print(render(game, humans[0] if humans else None))
    print(_final(game))
    return 0


__all__ = ["describe", "parse_seats", "play_living_forest", "render"]
