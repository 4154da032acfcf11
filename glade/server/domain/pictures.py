"""What a seat sees, as JSON text: pictures, pushes and their log deltas, encoded once.

Pushes: every accepted action (a seat's, a bot's, or one caught up from storage) is one push to
every connection of the table, in order: ``{"type": "state", "log_base", "log_from", "log", ...the
seat's picture}``. ``log`` holds the public log entries from index ``log_from`` on, each with its
``move`` (1-based index) and the ``version`` of the push; a client whose log is at version
``log_base`` drops its entries from ``log_from`` on and appends these (an undo takes an entry out,
so ``log_from`` may be below the client's length).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from glade.core import Action, Game
from glade.core.game import UNDO


def common_prefix(old: list[Any], new: list[Any]) -> int:
    """How many first entries two logs share."""
    n = min(len(old), len(new))
    if old[:n] == new[:n]:
        return n
    i = 0
    while i < n and old[i] == new[i]:
        i += 1
    return i


def public_entries(state: Game, start: int, version: int) -> list[dict[str, Any]]:
    """The public log entries of ``state`` from index ``start`` on (as ``GET …/log`` ``moves``),
    each with its ``move`` number and the ``version`` of the push that carries it."""
    table = state.action_table()
    out = []
    for i in range(start, len(state.log)):
        entry = state.log[i]
        item: dict[str, Any] = {
            "move": i + 1,
            "version": version,
            "seat": entry[0],
            "action": table[entry[1]].to_json(),
        }
        chance = state.describe_chance(entry, None)
        if chance is not None:
            item["chance"] = chance
        out.append(item)
    return out


def dumps(value: Any) -> str:
    """JSON text of a picture, a push or a snapshot (orjson: a fraction of ``json.dumps``'s
    CPU; the standard encoder for anything orjson does not take, e.g. an integer past 64 bits).
    ``value`` may hold :func:`encoded_legal` fragments (JSON encoded once)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, default=unfragment)


def unfragment(value: Any) -> Any:
    if isinstance(value, orjson.Fragment):
        return orjson.loads(value.contents)
    raise TypeError(f"{type(value).__name__} is not JSON")


# each engine action table (shared and immutable, one per game configuration; by id) -> the JSON
# text of each of its actions, encoded once for the life of the process
TABLE_JSON: dict[int, tuple[list[Action], list[bytes]]] = {}
TABLE_JSON_LIMIT = 256
UNDO_JSON = orjson.dumps(UNDO.to_json())


def action_texts(table: list[Action]) -> list[bytes]:
    """The JSON text of every action of an engine's action table, index by index."""
    found = TABLE_JSON.get(id(table))
    if found is None or found[0] is not table:
        if len(TABLE_JSON) >= TABLE_JSON_LIMIT:  # an engine that makes new tables each time
            TABLE_JSON.clear()
        found = TABLE_JSON[id(table)] = (table, [orjson.dumps(a.to_json()) for a in table])
    return found[1]


def encoded_legal(state: Game, seat: int) -> orjson.Fragment:
    """``[a.to_json() for a in state.legal_actions(seat)]`` for :func:`dumps` as one JSON
    fragment, joined from the texts of the game's action table (``Game.legal_moves``)."""
    ids, undo = state.legal_moves(seat)
    texts = action_texts(state.action_table())
    parts = [texts[i] for i in ids]
    if undo:
        parts.append(UNDO_JSON)
    return orjson.Fragment(b"[" + b",".join(parts) + b"]")


def push_text(picture: str, base: int, start: int, entries: list[dict[str, Any]]) -> str:
    """A state push: the picture's JSON text with the push's type and its log delta in front."""
    head = dumps({"type": "state", "log_base": base, "log_from": start, "log": entries})
    return f"{head[:-1]},{picture[1:]}"
