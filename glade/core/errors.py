"""Errors shared by every game."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why in a player's words.

    Raising it never changes the game state.
    """


class BadInput(ValueError):
    """Input that does not describe anything in the game (unknown option, malformed board)."""
