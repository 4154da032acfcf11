"""Hints: the best moves for a seat, ranked by the tree search, with their expected outcome."""

from __future__ import annotations

import math
from typing import Any

from glade.core import BadInput, Game

from . import Budget
from .mcts import MCTSBot

DEFAULT = Budget(iterations=40)


def hint(
    state: Game, seat: int, budget: Budget | None = None, top: int = 3, seed: int = 0
) -> list[dict[str, Any]]:
    """The ``top`` best moves of ``seat``, best first.

    Each is ``{"actions": [action json, ...], "score": expected final score, "win": estimated
    chance of winning}``: ``win`` is the share of the search's simulations after that move in
    which the seat ended, or was projected to end, ahead of everyone (Living Forest: the win value
    of its play-outs). ``win`` is None in a solo game and both numbers are None when only one
    move was possible (nothing was searched). Reads only what ``seat`` may know.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise BadInput(f"there is no seat {seat!r} in this game")
    if state.is_over:
        raise BadInput("the game is over, there is nothing left to suggest")
    if seat not in state.to_act:
        raise BadInput(f"it is not seat {seat}'s turn")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise BadInput("top must be a whole number of at least 1")
    bot = MCTSBot(seed=seed)
    ranked = bot.search(state, seat, budget or DEFAULT)
    table = state.action_table()
    solo = state.num_players == 1
    out = []
    for move, value, score, _visits in ranked[:top]:
        searched = not math.isnan(value)
        out.append(
            {
                "actions": [table[c].to_json() for c in move],
                "score": round(score, 1) if searched else None,
                "win": round(bot.last_wins.get(move, value), 3) if searched and not solo else None,
            }
        )
    return out


__all__ = ["hint"]
