"""The game-agnostic protocol that both rules engines implement.

Every engine exposes two layers over the same rules:

* the contract layer (``legal_actions``/``apply`` with :class:`Action` values or their JSON), used by
  people, the terminal, the server and the tests;
* a fast integer layer (``legal_action_ids``/``apply_action_id``) over a fixed action space per game
  configuration, used by random play, bots and the RL wrappers. ``undo`` lives outside the integer
  space: it is a table affordance, not a move.

The action log records each accepted action with the chance outcome it met. Undo replays the log
without the undone action from the seed, so the hot path never pays for undo snapshots, and the
result is byte-identical to a game in which the action never happened.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr

from .actions import Action
from .errors import IllegalAction, Refusal
from .refusals import CORE

G = TypeVar("G", bound="Game")

UNDO = Action("undo")

# A log entry: (seat, action id, chance outcome or None). The chance outcome is a small tuple
# built by the engine; ``Game.describe_chance`` turns it into JSON.
LogEntry = tuple[int, int, Any]


# compiled, it may still be subclassed by an engine that runs as plain source
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """Base class of a game state. Subclasses keep their own fields in ``__slots__``."""

    game_name: ClassVar[str]
    __slots__ = ("seed", "options", "log")

    seed: int
    options: dict[str, Any]
    log: list[LogEntry]

    # ----------------------------------------------------------------- the contract layer
    @property
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now; () once the game is over."""

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    def is_over(self) -> bool:
        return not self.to_act

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now ([] when it may not act), undo included when offered."""
        ids, undo = self.legal_moves(seat)
        table = self.action_table()
        out = [table[i] for i in ids]
        if undo:
            out.append(UNDO)
        return out

    def legal_moves(self, seat: int) -> tuple[list[int], bool]:
        """:meth:`legal_actions` in integer form: the legal move ids (indices of
        :meth:`action_table`) and whether ``undo`` follows them."""
        return self.legal_action_ids(seat), self.can_undo(seat)

    def apply(self, seat: Any, action: Action | dict[str, Any]) -> None:
        """Apply ``action`` for ``seat`` or raise :class:`IllegalAction` leaving the state unchanged."""
        act = Action.from_json(action)
        self.check_seat(seat)
        if act.type == "undo":
            if act.args:
                raise CORE.illegal("undo.args")
            self.undo(seat)
            return
        code = self.action_id(act)  # raises IllegalAction for actions that name nothing real
        reason = self.why_illegal(seat, code)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_action_id(seat, code, checked=True)

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """``{"scores", "winners", "breakdown"}``; meaningful once the game is over."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe dict of what ``seat`` may see (None: a spectator); starts with ``view_header``."""

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """``{seat: self.view(seat)}`` for each of ``seats`` (a server pushing one change to
        every seat); a game whose views share a public part may build it once for all of them.
        The views may share nested values: read them, do not change them."""
        return {seat: self.view(seat) for seat in seats}

    def view_header(self, seat: int | None) -> dict[str, Any]:
        """The fields every game's view begins with, named the same way in both games."""
        over = self.is_over
        return {
            "game": self.game_name,
            "options": dict(self.options),
            "seat": seat,
            "players": self.num_players,
            "to_act": list(self.to_act),
            "over": over,
            "can_undo": seat is not None and not over and self.can_undo(seat),
            "result": self.result() if over else None,
        }

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything, hidden information included; ``load_game`` is its exact inverse."""

    @classmethod
    @abstractmethod
    def from_json(cls: type[G], data: dict[str, Any]) -> G: ...

    @abstractmethod
    def copy(self: G) -> G: ...

    @abstractmethod
    def resample_hidden(self: G, seat: int | None, rng: random.Random) -> G:
        """A copy in which everything ``seat`` cannot know (None: a spectator) is re-dealt from
        ``rng``, consistently with what it has seen; it depends on the public history and that
        seat's own knowledge only, never on the true hidden order. Search bots plan on these."""

    # ----------------------------------------------------------------- the integer layer
    @abstractmethod
    def action_table(self) -> list[Action]:
        """The fixed action space of this configuration: index -> Action (shared, immutable)."""

    @abstractmethod
    def action_id(self, action: Action) -> int:
        """Index of ``action`` in the action space; IllegalAction if it names nothing real."""

    @abstractmethod
    def legal_action_ids(self, seat: int) -> list[int]:
        """Indices of the legal moves of ``seat`` (undo excluded)."""

    @abstractmethod
    def why_illegal(self, seat: int, code: int) -> Refusal | None:
        """None if move ``code`` is legal for ``seat`` now, else the reason in a player's words:
        the one check of each rule."""

    def plain_legal_action_ids(self, seat: int) -> list[int]:
        """Every id of the action space that :meth:`why_illegal` allows, in order: the definition
        of the legal moves, which the fast :meth:`legal_action_ids` must equal as a set (the
        conformance test compares them)."""
        return [c for c in range(len(self.action_table())) if self.why_illegal(seat, c) is None]

    @abstractmethod
    def apply_action_id(self, seat: int, code: int, checked: bool = False) -> None:
        """Apply move ``code``. With ``checked=False`` it is validated first."""

    # ----------------------------------------------------------------- undo
    @abstractmethod
    def can_undo(self, seat: int) -> bool:
        """True if ``seat``'s last action may be taken back now (it revealed nothing hidden)."""

    @classmethod
    @abstractmethod
    def new(cls: type[G], seed: int, options: dict[str, Any]) -> G:
        """A fresh game from a seed and validated options."""

    def undo(self, seat: Any) -> None:
        """Take back ``seat``'s last action of the current turn by replaying the rest of the log."""
        self.check_seat(seat)
        if not self.can_undo(seat):
            raise CORE.illegal("undo.nothing")
        last = max(i for i, e in enumerate(self.log) if e[0] == seat)
        entries = self.log[:last] + self.log[last + 1 :]
        try:
            fresh = self.replay(self.seed, self.options, entries, checked=False)
        except (IndexError, KeyError, ValueError, TypeError):  # IllegalAction is a ValueError
            # a hand-edited or damaged log: refuse, never crash, and change nothing
            raise CORE.illegal("undo.unreplayable") from None
        self.become(fresh)

    @classmethod
    def replay(
        cls: type[G],
        seed: int,
        options: dict[str, Any],
        entries: list[LogEntry],
        checked: bool = True,
    ) -> G:
        """Rebuild a game from its seed, options and (seat, action id) log entries; with
        ``checked=False`` every entry is validated (IllegalAction at the first that is no move)."""
        game = cls.new(seed, options)
        for seat, code, _ in entries:
            game.apply_action_id(seat, code, checked=checked)
        return game

    def become(self, other: Game) -> None:
        """Take every field of ``other`` (a state of the same class, discarded afterwards): what
        undo does with the replayed game. This default copies the ``__slots__`` of every class
        of a plain-source engine, and this class's own fields by name (compiled, this class has
        no ``__slots__`` at run time); a compiled engine's class names its fields itself."""
        self.seed = other.seed
        self.options = other.options
        self.log = other.log
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(other, name):
                    object.__setattr__(self, name, getattr(other, name))

    # ----------------------------------------------------------------- logs
    def describe_chance(self, entry: LogEntry, seat: int | None) -> Any:
        """JSON form of an entry's chance outcome as ``seat`` may see it (None = public)."""
        return entry[2]

    def log_json(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The action log as ``seat`` may see it (None: the public log, hidden outcomes left out)."""
        table = self.action_table()
        out = []
        for entry in self.log:
            item: dict[str, Any] = {"seat": entry[0], "action": table[entry[1]].to_json()}
            chance = self.describe_chance(entry, seat)
            if chance is not None:
                item["chance"] = chance
            out.append(item)
        return out

    # ----------------------------------------------------------------- helpers
    def check_seat(self, seat: Any) -> None:
        """Refuse anything that is not a seat of this game.

        :raises IllegalAction: ``seat.unknown``.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise CORE.illegal("seat.unknown", seat=repr(seat))

    def fingerprint(self) -> str:
        """Canonical JSON text of the full state, for byte-for-byte comparisons."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
