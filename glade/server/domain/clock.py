"""A table's clock: the option it was made with and each seat's time, and how a move changes it.

A table has no clock (the default), a real-time clock (``base`` seconds for the game plus
``increment`` seconds after each turn) or a correspondence clock (1, 2 or 3 ``days`` for each
turn). Each seat has ``remaining`` seconds and, while its clock runs, an absolute ``deadline``
(Unix time), kept in the database so a clock is the same for every process and survives restarts.

A seat's clock runs while that seat has a move: it is in ``to_act`` and has a legal action other
than undo. Living Forest lets several seats act at once, so several clocks may run together, each
for its own seat; a spirit that stopped drawing waits for the others with its clock stopped. When
a seat stops running, a real-time clock keeps what was left plus the increment, a correspondence
clock is set back to its days. Clocks start only once every human seat has a player (a name and a
credential), and a real-time clock only after the first move of the game (the first player may
take their time, as on lichess or Board Game Arena); bot seats have no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from glade.core import Game

from ..refusals import refuse

DAY = 86_400.0
CORRESPONDENCE_DAYS = (1, 2, 3)
MAX_BASE_SECONDS = 3 * 3600
MAX_INCREMENT_SECONDS = 600


class SeatLike(Protocol):
    """What the clock needs to know of a seat."""

    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str | None: ...

    @property
    def token_hash(self) -> str | None: ...


@dataclass(frozen=True)
class ClockSpec:
    """The clock option of a table."""

    kind: str  # "realtime" or "correspondence"
    base: float = 0.0  # real-time: seconds for the game
    increment: float = 0.0  # real-time: seconds added after each turn
    days: int = 0  # correspondence: days per turn

    @property
    def per_turn(self) -> float:
        """Seconds a seat starts with (real-time) or has for each turn (correspondence)."""
        return self.days * DAY if self.kind == "correspondence" else self.base

    def to_json(self) -> dict[str, Any]:
        if self.kind == "correspondence":
            return {"kind": "correspondence", "days": self.days}
        return {"kind": "realtime", "base": self.base, "increment": self.increment}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockSpec:
        if data["kind"] == "correspondence":
            return cls("correspondence", days=int(data["days"]))
        return cls("realtime", base=float(data["base"]), increment=float(data["increment"]))


def clock_option(raw: dict[str, Any] | None, min_seconds: float) -> ClockSpec | None:
    """The clock of a create request (already shaped by its model), bounds checked."""
    if raw is None or raw.get("kind", "none") == "none":
        return None
    if raw["kind"] == "correspondence":
        days = raw.get("days")
        if days not in CORRESPONDENCE_DAYS:
            raise refuse(422, "server.clock.days")
        return ClockSpec("correspondence", days=int(days))
    base = raw.get("base")
    increment = raw.get("increment", 0)
    if base is None:
        raise refuse(422, "server.clock.no_base")
    if not min_seconds <= base <= MAX_BASE_SECONDS:
        shortest = int(min_seconds) if min_seconds == int(min_seconds) else min_seconds
        raise refuse(422, "server.clock.base_range", min=shortest, max=MAX_BASE_SECONDS)
    if not 0 <= increment <= MAX_INCREMENT_SECONDS:
        raise refuse(422, "server.clock.increment_range", max=MAX_INCREMENT_SECONDS)
    return ClockSpec("realtime", base=float(base), increment=float(increment))


Changes = dict[int, tuple[float, float | None]]


@dataclass
class Clock:
    """A table's clock: its option and each seat's (remaining seconds, deadline or None)."""

    spec: ClockSpec
    seats: list[tuple[float, float | None]]

    @classmethod
    def fresh(cls, spec: ClockSpec, players: int) -> Clock:
        return cls(spec, [(spec.per_turn, None)] * players)

    def left(self, seat: int, now: float) -> float:
        remaining, deadline = self.seats[seat]
        return remaining if deadline is None else max(0.0, deadline - now)

    def ran_out(self, seat: int, now: float) -> bool:
        deadline = self.seats[seat][1]
        return deadline is not None and deadline <= now

    def apply(self, changes: Changes) -> None:
        for seat, value in changes.items():
            self.seats[seat] = value

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            **self.spec.to_json(),
            "now": now,
            "seats": [
                {
                    "seat": i,
                    "remaining": round(self.left(i, now), 3),
                    "running": deadline is not None,
                    "deadline": deadline,
                }
                for i, (_, deadline) in enumerate(self.seats)
            ],
        }


def running_seats(state: Game, seats: Sequence[SeatLike]) -> set[int]:
    """The human seats whose clock runs in ``state``: those with a move (undo aside)."""
    return {s for s in state.to_act if seats[s].kind == "human" and state.legal_action_ids(s)}


def seated(seats: Sequence[SeatLike]) -> bool:
    """Every human seat has a player (a name and a credential): clocks may run."""
    return all(s.kind != "human" or (s.name and s.token_hash) for s in seats)


def advance(
    clock: Clock, seats: Sequence[SeatLike], state: Game, version: int, now: float
) -> Changes:
    """The seats' clocks that change when the table reaches ``state`` (its ``version``) at
    ``now``."""
    spec = clock.spec
    over = state.is_over
    waiting = spec.kind == "realtime" and version == 0  # before the first move
    running = set() if over or waiting or not seated(seats) else running_seats(state, seats)
    changes: Changes = {}
    for i, (remaining, deadline) in enumerate(clock.seats):
        if deadline is not None and i not in running:  # stops
            if spec.kind == "correspondence":
                changes[i] = (spec.per_turn, None)
            else:
                bonus = 0.0 if over else spec.increment
                changes[i] = (max(0.0, deadline - now) + bonus, None)
        elif deadline is None and i in running:  # starts
            changes[i] = (remaining, now + remaining)
    return changes
