"""``glade play harmonies``: a game of Harmonies in the terminal, against bots or hot-seat."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

import glade
from glade.core import Action
from glade.harmonies.data import CARD_INDEX, CARDS, COLORS
from glade.harmonies.game import HarmoniesGame
from glade.harmonies.render import COLOR_LETTER, table_text

from .common import ask_human, make_bots, parse_seats, play_bot_turn, seed_or_random

STYLES = {
    r"\[W\*?\]|\bW\b": "bold blue",
    r"\[F\*?\]": "bold yellow",
    r"\[M\d\*?\]": "bold white",
    r"\[T\d\*?\]": "bold green",
    r"\[t\d\*?\]": "yellow4",
    r"\[(H|r)\*?\]": "bold red",
    r"<- to play": "reverse",
}


def describe(game: HarmoniesGame) -> Callable[[Action], str]:
    """Turn an action into a short sentence for this game."""

    def text(action: Action) -> str:
        kind = action.type
        if kind == "take_tokens":
            space = action["space"]
            tokens = " ".join(COLOR_LETTER[COLORS[t]] for t in game.central[space])
            return f"take space {space} [{tokens}]"
        if kind == "place_token":
            return f"{action['color']} on {action['cell']}"
        if kind == "take_card":
            card = game.row[action["slot"]]
            return f"take card {action['slot']} ({CARDS[card].name})"
        if kind == "place_cube":
            return f"cube of {CARDS[CARD_INDEX[action['card']]].name} on {action['cell']}"
        if kind == "choose_spirit":
            return f"keep the {CARDS[CARD_INDEX[action['card']]].name} Spirit"
        if kind == "discard_card":
            card = game.row[action["slot"]]
            return f"discard card {action['slot']} ({CARDS[card].name})"
        return kind.replace("_", " ")

    return text


def play_harmonies(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console(highlight=False, soft_wrap=True)
    seats = parse_seats(args.seats, "you,greedy", 1, 4)
    seed = seed_or_random(args.seed)
    game = glade.new_game(
        "harmonies", seed=seed, players=len(seats), side=args.side, spirits=args.spirits
    )
    assert isinstance(game, HarmoniesGame)
    bots = make_bots(seats, "harmonies", seed)
    humans = [i for i, name in enumerate(seats) if name == "you"]
    say = console.print

    def show(seat: int | None = None) -> None:
        view_seat = seat if seat is not None else (humans[0] if humans else None)
        text = Text(table_text(game, view_seat))
        for pattern, style in STYLES.items():
            text.highlight_regex(pattern, style)
        console.print(text)

    say(f"Harmonies, {len(seats)} seat(s): {', '.join(seats)}; side {args.side}; seed {seed}")
    last_shown = -1
    while not game.is_over:
        seat = game.current
        if seat in bots:
            play_bot_turn(game, seat, bots[seat], describe(game), say)
            continue
        if last_shown != len(game.log):
            show(seat)
            last_shown = len(game.log)
        if not ask_human(game, seat, lambda s=seat: show(s), describe(game), say):
            say("Game left unfinished.")
            return 0
    show()
    result = game.result()
    say("")
    say("Game over.")
    for s, score in enumerate(result["breakdown"]):
        extra = f", {score['suns']} suns" if "suns" in score else ""
        say(f"  seat {s} ({seats[s]}): {score['total']} points{extra}  {score}")
    winners = ", ".join(f"seat {w} ({seats[w]})" for w in result["winners"])
    say(f"Winner: {winners}" if len(result["winners"]) == 1 else f"Shared victory: {winners}")
    return 0
