"""``glade learn GAME``: the guided first game in the terminal, at 80x24.

It drives ``glade.learn.Tutorial`` with the game's own terminal client (``HarmoniesClient``,
``LivingForestClient``) for the board, the words of each move and the bot's moves: each step
prints what to do and why and the words to type; any other move is answered with the step's
explanation (``Tutorial.check``), and a move that scores says what it gained
(``glade.bots.teach``). After the scripted steps the client's own game loop finishes the game
against the script's bot. ``--progress FILE`` keeps the progress after every step and resumes it.
"""

from __future__ import annotations

import argparse
import json
import os
from functools import cache
from importlib import resources
from typing import Any

from rich.console import Console
from rich.text import Text

from glade.core import Action, BadInput, IllegalAction
from glade.learn.gains import lesson
from glade.learn.tutorial import Tutorial

from . import common
from .common import Client, Prompt, Session, normalize
from .i18n import Lang, detect


@cache
def _ui() -> dict[str, dict[str, str]]:
    raw = json.loads(
        resources.files("glade.learn").joinpath("data/ui-text.json").read_text("utf-8")
    )
    found: dict[str, dict[str, str]] = raw["texts"]
    return found


def ui(key: str, lang: str, **params: Any) -> str:
    """A word of the guided game's screens (``data/ui-text.json``) in ``lang``."""
    text = _ui()[key][lang]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def make_client(tutorial: Tutorial, lang: Lang, console: Console) -> Client:
    seats = ["you", tutorial.opponent["bot"]]
    if tutorial.name == "harmonies":
        from .harmonies import HarmoniesClient

        return HarmoniesClient(tutorial.game, seats, lang, console)
    from .living_forest import LivingForestClient

    return LivingForestClient(tutorial.game, seats, lang, console)


def words_for(client: Client, tutorial: Tutorial, move: dict[str, Any]) -> str:
    """What the player types for ``move``: the client's own words for it."""
    action = Action.from_json(move)
    for choice in client.choices(tutorial.game, tutorial.seat):
        if choice.action == action:
            return choice.phrase
    return json.dumps(move)


def _say_moves(client: Client, game: Any, moves: list[tuple[int, dict[str, Any]]]) -> None:
    """Tell the scripted opponent's moves, the same move in a row once with its count."""
    told: list[list[Any]] = []
    g = game
    for seat, move in moves:
        action = Action.from_json(move)
        text = client.narrate(g, seat, action)
        g.apply(seat, action)
        if told and told[-1][0] == text:
            told[-1][1] += 1
        else:
            told.append([text, 1])
    for text, n in told:
        client.say(f"  {client.name(1)}: {text}" + (f" (x{n})" if n > 1 else ""))


def _save(tutorial: Tutorial, path: str | None) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(tutorial.to_json(), fh)


def _load(game: str, path: str | None) -> Tutorial | None:
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        t = Tutorial.from_json(json.load(fh))
    if t.name != game:
        raise BadInput(f"{path} keeps a guided game of {t.name}, not of {game}")
    return t


def guided(client: Client, tutorial: Tutorial, prompt: Prompt, progress: str | None) -> bool:
    """Play the scripted steps; False if the player quits."""
    code = client.lang.code
    seat = tutorial.seat
    shown = -1
    while not tutorial.free_play:
        if shown != len(tutorial.game.log):
            for line in client.render(seat):
                client.say(line)
            shown = len(tutorial.game.log)
        step = tutorial.step(code)
        assert step is not None
        client.say(
            Text(
                ui("step", code, k=step["index"] + 1, n=step["count"]) + ": " + step["say"],
                style="bold",
            )
        )
        client.say(step["why"])
        words = words_for(client, tutorial, step["next"])
        moves = len(step["moves"])
        if moves > 1:
            client.say(
                Text(ui("typeMore", code, words=words, done=step["done"], n=moves), style="bold")
            )
        else:
            client.say(Text(ui("type", code, words=words), style="bold"))
        try:
            text = prompt("> ", [words, "board", "rules", "help", "quit"])
        except EOFError:
            return False
        t = normalize(text)
        if t in ("q", "quit", "exit"):
            return False
        if t in ("b", "board"):
            shown = -1
            continue
        if t in ("?", "h", "help"):
            client.say(ui("commands", code))
            continue
        if t == "rules":
            from glade.learn import rules

            for s in rules(tutorial.name, code)["sections"]:
                if "aid" in s:
                    client.say(f"  {s['title']}: {s['aid']}")
            continue
        actions = common.parse(client, seat, t) if t != "" else [Action.from_json(step["next"])]
        if isinstance(actions, str):
            client.say(actions)
            client.say(Text(ui("refused", code, why=tutorial.explain(code)), style="bold red"))
            continue
        for action in actions[:1]:
            why = tutorial.check(seat, action, code)
            if why is not None:
                client.say(Text(ui("refused", code, why=why["explanation"]), style="bold red"))
                if why["engine"] is not None:
                    engine = client.lang.refusal(
                        why["engine"]["code"], why["engine"]["params"], why["engine"]["text"]
                    )
                    client.say(ui("engine", code, why=engine))
                break
            _play(client, tutorial, seat, action)
        _save(tutorial, progress)
    return True


def _play(client: Client, tutorial: Tutorial, seat: int, action: Action) -> None:
    from glade.bots.teach import gained as gained_by

    code = client.lang.code
    game = tutorial.game
    text = client.narrate(game, seat, action)
    # what the move really gained (a drawn card is shown at once anyway), measured before the
    # bot's scripted moves that follow it
    gained = gained_by(game, seat, action)
    before = game.copy()  # to say the bot's scripted moves that follow on the position they met
    mark = tutorial.entry
    tutorial.play(seat, action)
    client.say(f"  {client.name(seat)}: {client.complete(text, seat, action)}")
    if gained:
        cell = getattr(client, "cell", str)
        client.say(ui("gains", code, lines=lesson(tutorial.name, gained, code, cell)))
    opponent = [
        tuple(m)
        for e in tutorial.entries[mark : tutorial.entry]
        if "opponent" in e
        for m in e["opponent"]
    ]
    if opponent:
        before.apply(seat, action)
        _say_moves(client, before, opponent)


def learn(args: argparse.Namespace, console: Console | None = None) -> int:
    """``glade learn GAME [--lang] [--plain] [--progress FILE]``."""
    lang = Lang(detect(getattr(args, "lang", None)))
    console = console or common.make_console(getattr(args, "plain", False))
    progress = getattr(args, "progress", None)
    resumed = _load(args.game, progress)
    tutorial = resumed or Tutorial(args.game)
    client = make_client(tutorial, lang, console)
    prompt = Prompt(getattr(args, "ask", None))
    if resumed is None:
        client.say(Text(tutorial.text("intro", lang.code), style="bold"))
    else:
        client.say(ui("resumed", lang.code, path=progress))
    if not guided(client, tutorial, prompt, progress):
        if progress:
            client.say(ui("saved", lang.code, path=progress))
        client.say(ui("left", lang.code))
        return 0
    client.say(Text(tutorial.text("free", lang.code), style="bold"))
    session = Session(
        seed=tutorial.data["seed"],
        options=dict(tutorial.data["options"]),
        ask=getattr(args, "ask", None),
    )
    try:
        return common.run(client, session)
    except (IllegalAction, BadInput) as exc:  # never a traceback on the screen
        client.say(str(exc))
        return 2


__all__ = ["guided", "learn", "make_client", "ui", "words_for"]
