"""What both terminal clients share: seat parsing, the prompt loop, bots, hints."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from glade.core import Action, BadInput, Game, IllegalAction

HELP = (
    "Type the number of a move, 'undo' to take back your last move of this turn, "
    "'hint' for a suggestion, 'board' to redraw, or 'quit'."
)


def parse_seats(text: str | None, default: str, low: int, high: int) -> list[str]:
    """``you,greedy`` -> ["you", "greedy"], checked against the bot registry and player counts."""
    from glade.bots import BOTS

    names = [s.strip().lower() for s in (text or default).split(",") if s.strip()]
    if not low <= len(names) <= high:
        raise BadInput(f"this game takes {low} to {high} seats, not {len(names)}")
    for name in names:
        if name != "you" and name.split(":", 1)[0] not in BOTS:
            raise BadInput(f"unknown seat {name!r}: use 'you' or a bot ({', '.join(sorted(BOTS))})")
    return names


def make_bots(seats: list[str], game: str, seed: int) -> dict[int, Any]:
    from glade.bots import make_bot

    return {i: make_bot(name, game, seed=seed + i) for i, name in enumerate(seats) if name != "you"}


def ask_human(
    game: Game,
    seat: int,
    show: Callable[[], None],
    describe: Callable[[Action], str],
    say: Callable[[str], None],
    ask: Callable[[str], str] | None = None,
) -> bool:
    """Let the human at ``seat`` make one move; False if they quit."""
    while True:
        actions = [a for a in game.legal_actions(seat) if a.type != "undo"]
        say(list_moves(actions, describe))
        try:
            text = (ask or input)(f"seat {seat}> ").strip().lower()
        except EOFError:
            return False
        if text in ("q", "quit", "exit"):
            return False
        if text in ("", "?", "help", "h"):
            say(HELP)
            continue
        if text in ("board", "b"):
            show()
            continue
        if text == "hint":
            say(hint_text(game, seat, describe))
            continue
        if text in ("undo", "u"):
            try:
                game.apply(seat, {"type": "undo"})
            except IllegalAction as exc:
                say(f"Cannot undo: {exc}.")
                continue
            say("Undone.")
            show()
            return True
        if not text.isdigit() or not 1 <= int(text) <= len(actions):
            say(f"'{text}' is not a move number. {HELP}")
            continue
        action = actions[int(text) - 1]
        try:
            game.apply(seat, action)
        except IllegalAction as exc:  # cannot happen for listed moves, but never lose the game
            say(f"Refused: {exc}.")
            continue
        return True


def list_moves(actions: list[Action], describe: Callable[[Action], str]) -> str:
    lines = []
    for k, action in enumerate(actions, start=1):
        lines.append(f"{k:>3}) {describe(action)}")
    if len(lines) > 12:  # place moves are many: print them in columns
        width = max(len(s) for s in lines) + 2
        per_row = max(1, 100 // width)
        rows = [
            "".join(s.ljust(width) for s in lines[i : i + per_row]).rstrip()
            for i in range(0, len(lines), per_row)
        ]
        return "\n".join(rows)
    return "\n".join(lines)


def hint_text(game: Game, seat: int, describe: Callable[[Action], str]) -> str:
    try:
        from glade.bots.hint import hint
    except ImportError:
        return "Hints are not available in this installation."
    from glade.bots import Budget

    ranked = hint(game, seat, Budget(seconds=1.0))
    if not ranked:
        return "No hint: you have no move."
    lines = ["Suggested:"]
    for k, item in enumerate(ranked[:3], start=1):
        steps = "; ".join(describe(Action.from_json(a)) for a in item["actions"])
        lines.append(f"  {k}. {steps}  (expected score {item.get('score', '?')})")
    return "\n".join(lines)


def play_bot_turn(
    game: Game, seat: int, bot: Any, describe: Callable[[Action], str], say: Callable[[str], None]
) -> None:
    """Let a bot play until it is no longer that seat's move (or it returns nothing new)."""
    for action in bot.choose(game, seat):
        if seat not in game.to_act:
            break
        game.apply(seat, action)
        say(f"  seat {seat} ({bot.name}): {describe(action)}")


def seed_or_random(seed: int | None) -> int:
    return seed if seed is not None else random.randrange(2**31)
