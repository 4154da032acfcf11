"""A move in plain present-tense English ("take space 3, then place brown on 0,0 ...")."""

from __future__ import annotations

from typing import Any


def _one(a: dict[str, Any]) -> str | None:
    kind = a.get("type")
    if kind == "take_tokens":
        return f"take space {a['space']}"
    if kind == "place_token":
        return f"place {a['color']} on {a['cell']}"
    if kind == "take_card":
        return f"take card {int(a['slot']) + 1}"
    if kind == "place_cube":
        return f"put a cube on {a.get('cell', '?')}"
    if kind == "discard_card":
        return "discard a card"
    if kind == "choose_spirit":
        return f"choose the {str(a['card']).replace('_', ' ')}"
    if kind == "choose_action":
        return f"choose {a['action']}"
    if kind == "pick_card":
        return f"attract the level {a['level']} animal in slot {int(a['slot']) + 1}"
    if kind == "pick_fire":
        return f"put out fire {int(a['index']) + 1}"
    if kind == "plant":
        return f"plant tree {a['tree']} at column {a['column']}, row {a['row']}"
    if kind == "move":
        return f"move {a['steps']} steps"
    if kind == "draw":
        return "draw a card"
    if kind == "stop":
        return "stop drawing"
    if kind == "steal":
        return "take a fragment from a spirit"
    if kind == "use_fragment":
        return "use a fragment"
    if kind in ("end_turn", "end_actions", "done"):
        return None  # the end of a turn goes without saying
    return str(kind).replace("_", " ")


def describe(actions: list[dict[str, Any]]) -> str:
    """The actions (their JSON forms) as one sentence: "take space 3, then place ..."."""
    parts = [p for p in (_one(a) for a in actions) if p]
    if not parts:
        return "end the turn"
    if len(parts) == 1:
        return parts[0]
    return parts[0] + ", then " + ", ".join(parts[1:])


__all__ = ["describe"]
