"""Harmonies with every draw as an explicit chance outcome (OpenSpiel's ``chance_mode=explicit``).

The engine deals its hidden orders from the game's seed at set-up and later pops draws from them.
Here the order is never used: before any token, animal card or spirit is revealed, a chance node
decides it, with the probabilities of drawing it from what is left (a token colour: its count in
the pouch over the pouch's size; an animal card or a spirit: uniform over those not yet drawn).
The decisions are then put where the engine draws from (the set-up's central spaces, card row and
spirit offers; before a move, the end of the pouch and of the animal pile in the order the move
pops them), and the move is applied by the engine as usual, so every rule stays in the engine.

A :class:`ExplicitDeal` is a game whose history is a list of actions: player moves (the engine's
action ids) and chance outcomes (``OUTCOMES``: 0-5 a token colour, 6-37 an animal card, 38-47
a spirit). The same list always gives the same state (``ExplicitDeal.of``): that list is its
serialization.
"""

from __future__ import annotations

from typing import Any

from glade import new_game
from glade.harmonies.data import COLORS, SPIRITS, TOKEN_COUNTS
from glade.harmonies.game import HarmoniesGame

ANIMALS = 32
CARD_BASE = len(COLORS)  # outcome of animal card a: CARD_BASE + a
SPIRIT_BASE = CARD_BASE + ANIMALS  # outcome of spirit s (32-41): SPIRIT_BASE + s - 32
OUTCOMES = SPIRIT_BASE + len(SPIRITS)  # the number of distinct chance outcomes

Draw = tuple[str, int, int]  # ("token" | "card" | "spirit", where, index)


class ExplicitDeal:
    """A Harmonies game (2-4 players) whose draws are decided one by one from outside."""

    def __init__(self, options: dict[str, Any]) -> None:
        game = new_game("harmonies", seed=0, **options)
        assert isinstance(game, HarmoniesGame)
        if game.solo:
            raise ValueError("explicit chance is for 2-4 players")
        self.game = game
        self.options = dict(game.options)
        self.history: list[int] = []
        # the set-up's draws still to decide, then (during play) a move's, in drawing order
        self.pending: list[Draw] = [("token", i, j) for i in range(5) for j in range(3)]
        self.pending += [("card", slot, 0) for slot in range(5)]
        if game.spirits:
            self.pending += [("spirit", s, k) for s in range(game.players) for k in range(2)]
        self.decided: list[int] = []
        self.move: tuple[int, int] | None = None  # (seat, code) waiting for its draws
        self.setup = True
        # what is left to draw during set-up (the engine's own lists take over afterwards)
        self.tokens = list(TOKEN_COUNTS)
        self.cards = list(range(ANIMALS))
        self.spirits = list(SPIRITS)

    @classmethod
    def of(cls, options: dict[str, Any], history: list[int]) -> ExplicitDeal:
        """The state ``history`` (player moves and chance outcomes, in order) leads to."""
        deal = cls(options)
        for action in history:
            if deal.is_chance():
                deal.decide(action)
            else:
                deal.play(deal.game.to_act[0], action)
        return deal

    def copy(self) -> ExplicitDeal:
        out = ExplicitDeal.__new__(ExplicitDeal)
        out.game = self.game.copy()
        out.options = self.options
        out.history = self.history[:]
        out.pending = self.pending[:]
        out.decided = self.decided[:]
        out.move = self.move
        out.setup = self.setup
        out.tokens = self.tokens[:]
        out.cards = self.cards[:]
        out.spirits = self.spirits[:]
        return out

    # ------------------------------------------------------------------ chance
    def is_chance(self) -> bool:
        return bool(self.pending)

    def _left(self, kind: str) -> list[int]:
        """What the next draw of ``kind`` comes from: token counts per colour, or card ids."""
        game = self.game
        taken = [d for (k, _, _), d in zip(self.pending, self.decided, strict=False) if k == kind]
        if kind == "token":
            counts = list(self.tokens) if self.setup else [0] * len(COLORS)
            if not self.setup:
                for c in game.pouch:
                    counts[c] += 1
            for c in taken:
                counts[c] -= 1
            return counts
        pool = self.spirits if kind == "spirit" else self.cards if self.setup else game.deck
        return sorted(set(pool) - set(taken))

    def outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes and their probabilities (they add up to 1)."""
        kind = self.pending[len(self.decided)][0]
        left = self._left(kind)
        if kind == "token":
            total = sum(left)
            return [(c, n / total) for c, n in enumerate(left) if n]
        base = CARD_BASE if kind == "card" else SPIRIT_BASE - SPIRITS[0]
        return [(base + x, 1.0 / len(left)) for x in left]

    def describe(self, outcome: int) -> str:
        if outcome < CARD_BASE:
            return f"chance: token {COLORS[outcome]}"
        if outcome < SPIRIT_BASE:
            return f"chance: animal card {outcome - CARD_BASE}"
        return f"chance: spirit {outcome - SPIRIT_BASE + SPIRITS[0]}"

    def decide(self, outcome: int) -> None:
        """The next draw comes out as ``outcome``; after the last one, it all takes effect."""
        kind = self.pending[len(self.decided)][0]
        value = self._value(kind, outcome)
        if not any(o == outcome for o, _ in self.outcomes()):
            raise ValueError(f"{self.describe(outcome)} cannot be drawn now")
        self.decided.append(value)
        self.history.append(outcome)
        if len(self.decided) == len(self.pending):
            if self.setup:
                self._set_up()
            else:
                self._play_move()

    @staticmethod
    def _value(kind: str, outcome: int) -> int:
        if kind == "token":
            return outcome
        if kind == "card":
            return outcome - CARD_BASE
        return outcome - SPIRIT_BASE + SPIRITS[0]

    def _set_up(self) -> None:
        """The decided set-up: central spaces, card row, spirit offers; the rest in the piles."""
        game = self.game
        tokens = [
            d for (k, _, _), d in zip(self.pending, self.decided, strict=True) if k == "token"
        ]
        cards = [d for (k, _, _), d in zip(self.pending, self.decided, strict=True) if k == "card"]
        spirits = [
            d for (k, _, _), d in zip(self.pending, self.decided, strict=True) if k == "spirit"
        ]
        game.central = [tuple(tokens[3 * i : 3 * i + 3]) for i in range(5)]
        counts = list(self.tokens)
        for c in tokens:
            counts[c] -= 1
        game.pouch = [c for c, n in enumerate(counts) for _ in range(n)]
        game.row = cards
        game.deck = sorted(set(self.cards) - set(cards))
        if game.spirits:
            for s, board in enumerate(game.boards):
                board.offer = (spirits[2 * s], spirits[2 * s + 1])
        self.setup = False
        self.pending = []
        self.decided = []

    def _play_move(self) -> None:
        """The waiting move, with the decided draws at the ends of the pouch and the pile."""
        game = self.game
        assert self.move is not None
        tokens = [
            d for (k, _, _), d in zip(self.pending, self.decided, strict=True) if k == "token"
        ]
        cards = [d for (k, _, _), d in zip(self.pending, self.decided, strict=True) if k == "card"]
        pouch = list(game.pouch)
        for c in tokens:
            pouch.remove(c)
        game.pouch = pouch + tokens[::-1]  # the engine pops the last first
        deck = [a for a in game.deck if a not in cards]
        game.deck = deck + cards[::-1]
        seat, code = self.move
        self.move = None
        self.pending = []
        self.decided = []
        game.apply_action_id(seat, code, True)

    # ------------------------------------------------------------------ moves
    def play(self, seat: int, code: int) -> None:
        """``seat`` plays move ``code`` (legal: the caller checked); a move that draws waits for
        its draws as chance nodes, one per token and card, in the order the engine draws them."""
        game = self.game
        trial = game.copy()
        trial.apply_action_id(seat, code, True)
        tokens = len(game.pouch) - len(trial.pouch)
        cards = len(game.deck) - len(trial.deck)
        self.history.append(code)
        if not tokens and not cards:
            game.apply_action_id(seat, code, True)
            return
        self.move = (seat, code)
        self.pending = [("token", 0, j) for j in range(tokens)]
        self.pending += [("card", 0, j) for j in range(cards)]
        self.decided = []


__all__ = ["ANIMALS", "CARD_BASE", "OUTCOMES", "SPIRIT_BASE", "ExplicitDeal"]
