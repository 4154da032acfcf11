"""Review of a finished game: every decision judged by the shared evaluation.

The game is replayed from its seed and log. A *decision* is, in Harmonies, a seat's whole turn
(or its spirit choice); in Living Forest, a spirit's whole action phase (every step from its
first choice of action to the end of its turn) and each draw or stop of the Guardian Animals
phase, except the draws that cannot end the drawing (at most ``living_forest_search.SAFE_NET``
solitary symbols showing: nothing is at stake). Decisions with a single legal move (a phase
made only of forced steps) are not reviewed.

The candidates of a decision are the evaluation's (``evaluation.candidates``); for a Living
Forest action phase each candidate first step is carried on to the end of the phase by the
greedy step (``evaluation.phase_candidates``). The candidates and the move the seat played are
evaluated on the same samples re-dealt from what that seat knew then
(``evaluation.evaluate_moves``: never the true pouch, piles or decks). The best found is the top
one by the shown number (Harmonies: expected final score; Living Forest: win chance); the loss
is how far the played move falls short of it (never below 0), in points (Harmonies) or in
percentage points of win chance (Living Forest).

Marks (``MARKS``): the played move is *best* if it is the best found or loses less than the
first threshold; then *good*, *inaccuracy*, *mistake*, *blunder* by the loss:

==========  ===================  ==========================
mark        Harmonies (points)   Living Forest (win %)
==========  ===================  ==========================
best        < 0.5                < 1
good        < 2                  < 4
inaccuracy  < 5                  < 10
mistake     < 10                 < 20
blunder     >= 10                >= 20
==========  ===================  ==========================

Per seat: the average loss, and an accuracy in percent: the mean over its reviewed decisions of
``100 * exp(-loss / ACCURACY_SCALE)`` (a best move scores 100, a loss of one scale about 37).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from glade.core import BadInput, Game
from glade.living_forest.game import ACTIONS, LivingForestGame

from .adapter import Move
from .evaluation import SAMPLES, MoveEval, candidates, evaluate_moves, phase_candidates, rank
from .living_forest_search import safe_draw
from .words import describe

MARK_NAMES = ("best", "good", "inaccuracy", "mistake", "blunder")
# upper bounds of the loss for best, good, inaccuracy, mistake (above the last: blunder)
MARKS: dict[str, tuple[float, float, float, float]] = {
    "harmonies": (0.5, 2.0, 5.0, 10.0),
    "living-forest": (1.0, 4.0, 10.0, 20.0),
}
ACCURACY_SCALE = {"harmonies": 8.0, "living-forest": 15.0}
UNITS = {"harmonies": "points", "living-forest": "win %"}

Progress = Callable[[int, int], None]


@dataclass
class Decision:
    """One reviewed decision: the position before it, whose it is and what was played."""

    position: Game
    seat: int
    move: Move
    start: int  # index of its first log entry
    end: int  # index after its last log entry


def mark_for(game: str, loss: float) -> str:
    """The mark of a move that lost ``loss`` (points or win %)."""
    bounds = MARKS[game]
    for name, bound in zip(MARK_NAMES, bounds, strict=False):
        if loss < bound:
            return name
    return "blunder"


def decisions(final: Game) -> list[Decision]:
    """The decisions of a game, each with the position it was made in (replayed from the log)."""
    if not final.is_over:
        raise BadInput("only a finished game can be reviewed")
    log = list(final.log)
    game = type(final).new(final.seed, final.options)
    table = game.action_table()
    lf = isinstance(game, LivingForestGame)
    out: list[Decision] = []
    i = 0
    while i < len(log):
        seat, code = log[i][0], log[i][1]
        before = game.copy()
        if isinstance(game, LivingForestGame) and game.phase == ACTIONS:
            # the spirit's whole action phase: until another spirit acts or the phase ends
            j, review = i, False
            while j < len(log) and log[j][0] == seat:
                review = review or len(game.legal_action_ids(seat)) > 1
                game.apply_action_id(seat, log[j][1], checked=True)
                j += 1
                if game.is_over or game.phase != ACTIONS or game.current_spirit != seat:
                    break
            if review:
                out.append(Decision(before, seat, tuple(e[1] for e in log[i:j]), i, j))
            i = j
            continue
        j = i + 1
        if not lf:
            if table[code].type not in ("choose_spirit", "end_turn"):
                while j < len(log) and log[j][0] == seat:
                    j += 1
                    if table[log[j - 1][1]].type == "end_turn":
                        break
            review = len(game.legal_action_ids(seat)) > 1 or j - i > 1
        else:
            assert isinstance(game, LivingForestGame)
            review = len(game.legal_action_ids(seat)) > 1 and not safe_draw(game, seat)
        if review:
            out.append(Decision(before, seat, tuple(e[1] for e in log[i:j]), i, j))
        for e in log[i:j]:
            game.apply_action_id(e[0], e[1], checked=True)
        i = j
    return out


def is_phase(d: Decision) -> bool:
    """Whether ``d`` is a Living Forest action phase (its candidates are whole phases)."""
    pos = d.position
    return isinstance(pos, LivingForestGame) and pos.phase == ACTIONS


def _acts(game: Game, move: Move) -> list[dict[str, Any]]:
    table = game.action_table()
    return [table[c].to_json() for c in move]


def judge(name: str, d: Decision, k: int, samples: int | None = None) -> dict[str, Any]:
    """Decision number ``k`` judged (see the module docstring): one entry of ``turns``."""
    scale = 100.0 if name == "living-forest" else 1.0
    pos, seat = d.position, d.seat
    moves = phase_candidates(pos, seat) if is_phase(d) else candidates(pos, seat)
    if d.move not in moves:
        moves.append(d.move)
    evals = evaluate_moves(pos, seat, moves, samples, seed=k)
    ranked = rank(pos, seat, evals)
    best = ranked[0]
    played: MoveEval = next(e for e in evals if e.move == d.move)
    if best.move == d.move:
        loss = 0.0
    else:
        loss = max(0.0, (best.key(name, seat) - played.key(name, seat)) * scale)
    played_acts = _acts(pos, d.move)
    best_acts = _acts(pos, best.move)
    return {
        "index": k,
        "seat": seat,
        "log": [d.start, d.end],
        "turn": getattr(pos, "turn", None) if name == "harmonies" else getattr(pos, "round", None),
        "kind": _kind(pos, d),
        "played": {"actions": played_acts, "text": describe(played_acts)},
        "best": {"actions": best_acts, "text": describe(best_acts)},
        "is_best": best.move == d.move,
        "before": best.to_json(),
        "after": played.to_json(),
        "after_best": best.to_json(),
        "loss": round(loss, 2),
        "mark": "best" if best.move == d.move else mark_for(name, loss),
        "candidates": len(moves),
    }


def _kind(pos: Game, d: Decision) -> str:
    """What sort of decision ``d`` is: turn, spirit (Harmonies); actions, draw (Living Forest)."""
    if isinstance(pos, LivingForestGame):
        return "actions" if pos.phase == ACTIONS else "draw"
    return "spirit" if pos.action_table()[d.move[0]].type == "choose_spirit" else "turn"


def review_decisions(
    name: str,
    found: list[Decision],
    samples: int | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Each decision judged (see the module docstring), in order."""
    out = []
    for k, d in enumerate(found):
        out.append(judge(name, d, k, samples))
        if progress is not None:
            progress(k + 1, len(found))
    return out


def summarize(name: str, players: int, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: decisions reviewed, average loss, accuracy and the count of each mark."""
    out = []
    for seat in range(players):
        mine = [t for t in turns if t["seat"] == seat]
        losses = [t["loss"] for t in mine]
        acc = [100 * math.exp(-x / ACCURACY_SCALE[name]) for x in losses]
        out.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "average_loss": round(sum(losses) / len(losses), 2) if mine else 0.0,
                "accuracy": round(sum(acc) / len(acc), 1) if mine else 100.0,
                "marks": {m: sum(1 for t in mine if t["mark"] == m) for m in MARK_NAMES},
            }
        )
    return out


def series(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chart: after each reviewed decision, every seat's expected final score and win."""
    return [
        {
            "index": t["index"],
            "seat": t["seat"],
            "log": t["log"][1],
            **{k: t["after"][k] for k in ("scores", "wins")},
        }
        for t in turns
    ]


def review(
    final: Game, samples: int | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """The whole review of a finished game (JSON-ready)."""
    found = decisions(final)
    turns = review_decisions(final.game_name, found, samples, progress)
    return assemble(final, turns, samples)


def assemble(final: Game, turns: list[dict[str, Any]], samples: int | None) -> dict[str, Any]:
    """The review of ``final`` from its judged decisions (``judge``, in order)."""
    name = final.game_name
    return {
        "game": name,
        "players": final.num_players,
        "samples": samples if samples is not None else SAMPLES.get(name, 8),
        "unit": UNITS.get(name, "points"),
        "thresholds": dict(zip(MARK_NAMES[:4], MARKS[name], strict=True)),
        "result": final.result(),
        "turns": turns,
        "summary": summarize(name, final.num_players, turns),
        "series": series(turns),
    }


def after_best(final: Game, turn: dict[str, Any]) -> Game:
    """The position after the best move found at a reviewed decision (``turn``, one entry of a
    review's ``turns``) instead of the move played: the game replayed up to the decision, then
    that move. Chance after it (a Harmonies refill, a Living Forest round's end) comes from the
    game's own seed, as it would have. For a finished game only (its hidden parts are public)."""
    if not final.is_over:
        raise BadInput("only a finished game can be reviewed")
    start = turn.get("log", [None])[0]
    if not isinstance(start, int) or not 0 <= start <= len(final.log):
        raise BadInput("this decision is not part of the game")
    game = type(final).replay(final.seed, final.options, list(final.log[:start]))
    for action in turn["best"]["actions"]:
        game.apply(int(turn["seat"]), action)
    return game


__all__ = [
    "Decision",
    "MARKS",
    "MARK_NAMES",
    "after_best",
    "assemble",
    "decisions",
    "is_phase",
    "judge",
    "mark_for",
    "review",
    "review_decisions",
]
