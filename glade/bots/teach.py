"""Hints that teach: what a move gains, read from the explained score before and after it.

``teach(state, seat, actions)`` plays ``actions`` on a copy and compares the seat's explained
parts (Harmonies: the board's ``score["parts"]``; Living Forest: the spirit's ``parts`` when its
view has them) before and after. Each line is language-neutral, ``{"code", "params"}``:
``harmonies.tree`` with ``{"height": 3, "cells": ["1,2"], "points": 7, "gain": 4}`` reads
"tree of 3 on B2: +4"; ``total`` lines give each category's gain. ``glade.learn.teach_text``
and the page put them into words.
"""

from __future__ import annotations

import random
from typing import Any

from glade.core import Action, BadInput, Game


def parts_of(state: Game, seat: int) -> list[dict[str, Any]]:
    """The explained parts of ``seat``'s score as its own view shows them ([] if none)."""
    view = state.view(seat)
    if state.game_name == "harmonies":
        found: list[dict[str, Any]] = view["boards"][seat]["score"]["parts"]
        return found
    spirit = view["spirits"][seat]
    parts: list[dict[str, Any]] = spirit.get("parts", [])
    return parts


def _totals(parts: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in parts:
        out[p["category"]] = out.get(p["category"], 0) + int(p["points"])
    return out


def gains(
    game: str, before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The lines of what changed from ``before`` to ``after`` (two lists of explained parts):
    one per part that is new or whose points changed (matched to the parts of the same kind it
    covers cells of; a part with no cells, to the part of the same kind and params), then one
    ``total`` line per category whose points changed."""
    lines: list[dict[str, Any]] = []
    used: set[int] = set()
    for part in after:
        cells = set(part["cells"])
        old = [
            i
            for i, q in enumerate(before)
            if i not in used
            and q["category"] == part["category"]
            and q["what"] == part["what"]
            and (cells & set(q["cells"]) if cells else q["params"] == part["params"])
        ]
        used.update(old)
        had = sum(int(before[i]["points"]) for i in old)
        same = len(old) == 1 and before[old[0]] == part
        if same or (int(part["points"]) == had and old):
            continue
        gain = int(part["points"]) - had
        if gain == 0 and not old and int(part["points"]) == 0:
            continue  # a new part that scores nothing yet (a lone yellow): no gain to tell
        params = {**part["params"], "cells": list(part["cells"]), "points": part["points"]}
        params["gain"] = gain
        lines.append({"code": f"{game}.{part['what']}", "params": params})
    was, now = _totals(before), _totals(after)
    for category in list(now) + [c for c in was if c not in now]:
        gain = now.get(category, 0) - was.get(category, 0)
        if gain:
            lines.append(
                {
                    "code": "total",
                    "params": {"category": category, "points": now.get(category, 0), "gain": gain},
                }
            )
    return lines


def teach(state: Game, seat: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What ``actions`` (a move of ``seat``, in order) gain in the explained score.

    :raises BadInput: a seat that is not in the game
    :raises IllegalAction: an action the game does not allow at its turn in the sequence
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise BadInput(f"there is no seat {seat!r} in this game")
    before = parts_of(state, seat)
    # on a copy with everything the seat cannot know re-dealt: a move that draws (Living Forest)
    # tells what such a card would give, never which card is really next
    g = state.resample_hidden(seat, random.Random(0))
    for a in actions:
        if seat not in g.to_act:
            break
        g.apply(seat, Action.from_json(a))
    return gains(state.game_name, before, parts_of(g, seat))


def gained(state: Game, seat: int, action: Action | dict[str, Any]) -> list[dict[str, Any]]:
    """What ``action`` of ``seat``, played now on ``state`` as it really is (a guided game's move,
    whose outcome the player sees at once), gains in the explained score; ``state`` unchanged.

    :raises IllegalAction: the game does not allow it (``state`` unchanged)
    """
    after = state.copy()
    after.apply(seat, Action.from_json(action))
    return gains(state.game_name, parts_of(state, seat), parts_of(after, seat))


def with_lessons(state: Game, seat: int, hints: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``hints`` (``glade.bots.hint``'s answer), each with ``"teach"``: what its move gains."""
    for item in hints:
        item["teach"] = teach(state, seat, item["actions"])
    return hints


__all__ = ["gained", "gains", "parts_of", "teach", "with_lessons"]
