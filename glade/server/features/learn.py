"""Learning in the browser: the rules pages' content and the guided first games, played in the
server process from their scripts (no account, no table: the page keeps the progress and sends it
back with each move).

A guided game's answer (``GET /api/learn/{game}`` and ``POST /api/learn/{game}/check``) is
``{"game", "lang", "state", "step", "steps", "free", "over", "seat", "to_act", "moves", "view",
"legal_actions", "verdict", "explain", "opponent", "texts", "ui"}``: ``state`` the save to send back (``Tutorial.to_json``),
``step`` the current step as ``Tutorial.step`` gives it (None in free play), ``verdict`` the one
check's refusal of the move sent (None when it was played), ``explain`` what the step's refusal
says (for a control the engine refuses before any move is sent), the view and legal actions of the
player's seat after the move and the replies (the script's, then the bot's in free play)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from glade.bots import Budget, make_bot
from glade.bots.teach import gained
from glade.core import BadInput
from glade.learn import rules
from glade.learn.gains import lesson, page_cell
from glade.learn.rulebook import check_lang
from glade.learn.tutorial import Tutorial

# A bot's moves in free play stop after this many actions in a row (a bot that never hands the
# turn back would be a bug of the bot; the page then shows the game as it is).
REPLY_LIMIT = 400
BOT_SECONDS = 0.2


@cache
def ui_texts() -> dict[str, dict[str, str]]:
    """The guided game's and the rules pages' words (``glade/learn/data/ui-text.json``)."""
    raw = resources.files("glade.learn").joinpath("data/ui-text.json").read_text("utf-8")
    found: dict[str, dict[str, str]] = json.loads(raw)["texts"]
    return found


def ui_in(lang: str) -> dict[str, str]:
    """Every UI string in ``lang`` (English where a string has no such language)."""
    return {key: text.get(lang, text["en"]) for key, text in ui_texts().items()}


def rules_page(game: str, lang: str) -> dict[str, Any]:
    """The rules of ``game`` in ``lang`` with the page's words: ``glade.learn.rules`` plus ``ui``.

    :raises BadInput: an unknown game or language
    """
    page = rules(game, check_lang(lang))
    return {**page, "ui": ui_in(lang)}


def reply(tutorial: Tutorial) -> None:
    """In free play, the opponent bot plays every other seat until the player has a move or the
    game is over (a fresh bot each time, seeded by the script and the move count: the same game
    gets the same replies)."""
    if not tutorial.free_play:
        return
    game = tutorial.game
    spec, seed = tutorial.opponent["bot"], int(tutorial.opponent["seed"])
    played = 0
    while not game.is_over and played < REPLY_LIMIT:
        # (a Living Forest spirit that stopped drawing stays in to_act: it may only undo its stop)
        others = [s for s in game.to_act if s != tutorial.seat and game.legal_action_ids(s)]
        if not others:
            return
        seat = others[0]
        bot = make_bot(spec, tutorial.name, seed + len(game.log))
        for action in bot.choose(game, seat, Budget(seconds=BOT_SECONDS)):
            game.apply(seat, action)
            played += 1


def answer(tutorial: Tutorial, lang: str, verdict: dict[str, Any] | None = None) -> dict[str, Any]:
    game = tutorial.game
    seat = tutorial.seat
    over = game.is_over
    return {
        "game": tutorial.name,
        "lang": lang,
        "state": tutorial.to_json(),
        "step": tutorial.step(lang),
        "steps": len(tutorial.steps()),
        "free": tutorial.free_play,
        "over": over,
        "seat": seat,
        "to_act": list(game.to_act),
        "moves": len(game.log),
        "view": game.view(seat),
        "legal_actions": [] if over else [a.to_json() for a in game.legal_actions(seat)],
        "verdict": verdict,
        "gained": None,  # check() fills it: what the player's move just gained, in words
        "explain": tutorial.explain(lang),
        "opponent": tutorial.opponent["bot"],
        "texts": {key: tutorial.text(key, lang) for key in ("intro", "free", "over")},
        "ui": ui_in(lang),
    }


def start(game: str, lang: str) -> dict[str, Any]:
    """A guided game at its first step.

    :raises BadInput: an unknown game or language
    """
    check_lang(lang)
    return answer(Tutorial(game), lang)


def resume(game: str, state: Any) -> Tutorial:
    """The guided game of a save the page sent back.

    :raises BadInput: not a save of this game's guided game
    """
    tutorial = Tutorial.from_json(state)
    if tutorial.name != game:
        raise BadInput(f"this save is of the guided game of {tutorial.name}, not of {game}")
    return tutorial


def check(game: str, state: Any, action: Any, lang: str) -> dict[str, Any]:
    """The one check of ``action`` for the player at ``state``: played (and answered by the
    script or the bot) when the step teaches it, else the step's refusal with nothing changed.
    ``action`` None only reads the state (resume).

    :raises BadInput: a bad language, save or action
    :raises IllegalAction: in free play, the engine's refusal (nothing changed)
    """
    check_lang(lang)
    tutorial = resume(game, state)
    if action is None:
        reply(tutorial)
        return answer(tutorial, lang)
    verdict = tutorial.check(tutorial.seat, action, lang)
    if verdict is not None:
        return answer(tutorial, lang, verdict)
    # what the move gains, measured before the bot's scripted replies that follow it
    lines = gained(tutorial.game, tutorial.seat, action)
    tutorial.play(tutorial.seat, action)
    reply(tutorial)
    played = answer(tutorial, lang)
    played["gained"] = lesson(game, lines, lang, page_cell(game)) if lines else None
    return played


__all__ = ["check", "reply", "resume", "rules_page", "start", "ui_in", "ui_texts"]
