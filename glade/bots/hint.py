"""Hints: the best moves for a seat, ranked and shown by one number of the shared evaluation.

The candidates are the search adapter's (``evaluation.candidates``); each is evaluated on the
same re-dealt samples (``evaluation.evaluate_moves``) and the hints are ordered by the number
they show: Harmonies, the seat's expected final score; Living Forest, its win chance.
"""

from __future__ import annotations

from typing import Any

from glade.core import BadInput, Game

from . import Budget
from .evaluation import candidates, evaluate_moves, rank, win_meaningful
from .teach import with_lessons
from .words import describe

DEFAULT = Budget(iterations=None)
# a hint's default wall-clock time, per game. Living Forest samples are played to the end of the
# game (about 0.05 s of CPU per candidate and sample), so it needs longer than Harmonies for the
# samples that give its win chance a meaning: at 1 s a loaded server gave it 2 samples (25/50/75 %)
HINT_SECONDS: dict[str, float] = {"harmonies": 1.0, "living-forest": 3.0}


def hint_seconds(game: str) -> float:
    """How long a hint for ``game`` may take by default (the server's and the terminal's)."""
    return HINT_SECONDS.get(game, 1.0)


def hint(
    state: Game, seat: int, budget: Budget | None = None, top: int = 3, seed: int = 0
) -> list[dict[str, Any]]:
    """The ``top`` best moves of ``seat``, best first.

    Each is ``{"actions": [action json, ...], "text": the move in words, "score": expected final
    score, "win": chance of winning or None}``; Living Forest adds ``"detail"``: the expected
    trees, fires and flowers. ``score`` is what Harmonies hints are ranked by; Living Forest
    hints are ranked by ``win`` (always given there). ``"teach"``: what the move gains in the
    explained score (``teach.teach``). A Harmonies ``win`` is None in a solo game
    and before the win chance means something (``evaluation.win_meaningful``). Both numbers are
    None when only one move is possible (nothing is evaluated). ``budget.iterations``, when
    given, is the number of samples; ``budget.seconds``, when given, caps the wall-clock time
    (``evaluate_moves``: no sample starts after it, at least ``TIMED_MIN`` are played). Reads
    only what ``seat`` may know.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise BadInput(f"there is no seat {seat!r} in this game")
    if state.is_over:
        raise BadInput("the game is over, there is nothing left to suggest")
    if seat not in state.to_act:
        raise BadInput(f"it is not seat {seat}'s turn")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise BadInput("top must be a whole number of at least 1")
    table = state.action_table()
    moves = candidates(state, seat, max(top, 6))
    lf = state.game_name == "living-forest"
    if len(moves) == 1:
        acts = [table[c].to_json() for c in moves[0]]
        return with_lessons(
            state, seat, [{"actions": acts, "text": describe(acts), "score": None, "win": None}]
        )
    samples = (budget or DEFAULT).iterations
    seconds = (budget or DEFAULT).seconds
    evals = rank(state, seat, evaluate_moves(state, seat, moves, samples, seed, seconds))
    show_win = lf or win_meaningful(state)
    out = []
    for e in evals[:top]:
        acts = [table[c].to_json() for c in e.move]
        item: dict[str, Any] = {
            "actions": acts,
            "text": describe(acts),
            "score": round(e.scores[seat], 1),
            "win": round(e.wins[seat], 3) if show_win and state.num_players > 1 else None,
        }
        if lf:
            item["detail"] = dict(
                zip(
                    ("trees", "fires", "flowers"),
                    (round(x, 1) for x in e.detail[seat]),
                    strict=True,
                )
            )
        out.append(item)
    return with_lessons(state, seat, out)


__all__ = ["HINT_SECONDS", "hint", "hint_seconds"]
