"""A table: one game being played, its seats and its live state in this process.

Names: a *table* is one game being played (its id, seats, state and clock; the web API's
``/api/games/{id}`` and the database's ``games`` rows are tables); a *game* is what is played at
it (``harmonies``, ``living-forest``: ``Table.game``); its *state* is the engine's ``Game``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any

import glade
from glade.core import Game

from ..refusals import refuse
from ..storage import StoredGame
from .clock import Clock
from .connections import Connection
from .pictures import dumps, encoded_legal
from .tokens import hash_token


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot"
    name: str | None
    bot: str | None
    token_hash: str | None
    user_id: str | None = None  # the account holding this seat (None: a guest or a bot)
    invite_hash: str | None = None  # the hash of its invite token once that was claimed
    claimed: bool = False  # the invite was exchanged for a seat credential
    keys: dict[str, str] = field(default_factory=dict)  # account device key hash -> session id
    status: str | None = None  # "timed out" or "left": a bot plays the seat now

    @property
    def open(self) -> bool:
        return self.kind == "human" and not self.name

    def info(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "open": self.open,
            "user_id": self.user_id,  # an account's public id, never a credential
            "status": self.status,
            # a bot plays this seat for its player (named ``name``), who left or ran out of time
            "taken_over": self.status is not None,
        }


@dataclass
class Table:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    version: int
    state: Game
    seats: list[Seat]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    touched: float = field(default_factory=time.monotonic)
    changed: float = field(default_factory=time.monotonic)  # when the version last moved
    refresh_task: asyncio.Task[None] | None = None
    refresh_again: bool = False
    # the version this process is storing now (its announcement, heard back, is its own)
    writing: int | None = None
    clock: Clock | None = None  # None: the table has no clock
    rated: bool = False  # a rated table: its end updates the players' ratings (ratings.py)
    # JSON text of each seat's picture at ``_texts_version`` (GET, POST and pushes share it)
    _texts: dict[int | None, str] = field(default_factory=dict)
    _texts_version: int = -1

    def text(self, seat: int | None) -> str:
        """``picture(seat)`` as JSON text, computed once per version and seat."""
        if self._texts_version != self.version:
            self._texts = {}
            self._texts_version = self.version
        found = self._texts.get(seat)
        if found is None:
            found = self._texts[seat] = dumps(self.picture(seat, encoded=True))
        return found

    def prepare_texts(self, seats: set[int | None]) -> None:
        """Compute the texts of several seats now, their views at once (``Game.views``: the
        public part is built once for all of them)."""
        if self._texts_version != self.version:
            self._texts = {}
            self._texts_version = self.version
        missing = [seat for seat in seats if seat not in self._texts]
        if len(missing) > 1:
            views = self.state.views(missing)
            for seat in missing:
                self._texts[seat] = dumps(self.picture(seat, view=views[seat], encoded=True))

    def forget_texts(self) -> None:
        """Seats changed without a new version (someone joined)."""
        self._texts = {}

    @property
    def idle(self) -> bool:
        """Nobody is connected, acting or thinking here: memory may let it go."""
        busy = self.bot_task is not None and not self.bot_task.done()
        catching_up = self.refresh_task is not None and not self.refresh_task.done()
        return not self.sockets and not busy and not catching_up and not self.lock.locked()

    @property
    def over(self) -> bool:
        return self.state.is_over

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None: spectator); 403 for a token of no seat here.

        Every seat's hash is compared, in constant time, whatever matches first.
        """
        if token is None:
            return None
        digest = hash_token(token)
        found: int | None = None
        for seat in self.seats:
            if hmac.compare_digest(digest, seat.token_hash or "") and seat.token_hash:
                found = seat.seat
        if found is None:
            for seat in self.seats:  # a device key of the account holding the seat
                if digest in seat.keys:
                    found = seat.seat
        if found is None:
            if self.spent_invite(digest):
                raise refuse(403, "server.seat.invite_spent")
            raise refuse(403, "server.seat.no_seat")
        return found

    def spent_invite(self, digest: str) -> bool:
        """Whether ``digest`` is the hash of an invite token that was already claimed."""
        spent = False
        for seat in self.seats:
            if seat.invite_hash and hmac.compare_digest(digest, seat.invite_hash):
                spent = True
        return spent

    def clock_text(self) -> str | None:
        """The WebSocket ``{"type": "clock", …}`` message of a table with a clock."""
        if self.clock is None:
            return None
        return json.dumps(
            {"type": "clock", "version": self.version, **self.clock.to_json(time.time())}
        )

    def picture(
        self,
        seat: int | None,
        state: Game | None = None,
        version: int | None = None,
        view: dict[str, Any] | None = None,
        encoded: bool = False,
    ) -> dict[str, Any]:
        """What ``seat`` sees now (GET answer, POST answer and WebSocket push alike); with
        ``state`` and ``version``: what it saw then (a push of a caught-up action); ``view``:
        ``state.view(seat)`` when it is already built; ``encoded``: the legal actions as
        :func:`encoded_legal` (for :func:`dumps` only)."""
        state = self.state if state is None else state
        over = state.is_over
        legal: Any = []
        if seat is not None and self.seats[seat].kind == "human":
            if encoded:
                legal = encoded_legal(state, seat)
            else:
                legal = [a.to_json() for a in state.legal_actions(seat)]
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "version": self.version if version is None else version,
            "seat": seat,
            "to_act": list(state.to_act),
            "over": over,
            "view": state.view(seat) if view is None else view,
            # a seat a bot took over (timed out, left) has no move of its player's any more
            "legal_actions": legal,
            "seats": [s.info() for s in self.seats],
            "result": state.result() if over else None,
        }


def rebuild(stored: StoredGame) -> Game:
    """The game state from its last snapshot plus the actions stored after it."""
    if stored.snapshot is not None:
        state = glade.load_game(stored.snapshot)
    else:
        state = glade.new_game(stored.game, seed=stored.seed, **stored.options)
    for _version, seat, action in stored.actions:
        state.apply(seat, action)
    return state
