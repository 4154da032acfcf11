"""Table clocks, and bots that take over a seat whose clock ran out or whose player left.

A table is created with no clock (the default), a real-time clock (``base`` seconds for the game
plus ``increment`` seconds after each turn) or a correspondence clock (1, 2 or 3 ``days`` for each
turn). The server keeps the time in the database: each seat has ``remaining`` seconds and, while it
runs, an absolute ``deadline`` (Unix time), so a clock survives restarts and is the same for every
process.

A seat's clock runs while that seat has a move: it is in ``to_act`` and has a legal action other
than undo. Living Forest lets several seats act at once, so several clocks may run together, each
for its own seat; a spirit that stopped drawing waits for the others with its clock stopped. When
a seat stops running, a real-time clock keeps what was left plus the increment, a correspondence
clock is set back to its days. Clocks start only once every human seat has a player (a name and a
credential); bot seats have no clock.

When a deadline passes, the seat is handed to a bot (``TAKEOVER_BOT``) for the rest of the game, as
Board Game Arena does, and the seat records ``status: "timed out"``; a player who leaves gets the
same, with ``"left"``. Every process sweeps the database for overdue deadlines; the takeover is a
conditional UPDATE (the seat still human, its deadline still passed), so exactly one process
carries it out, and a process that starts after a pause carries out what fell due meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ApiError
from .refusals import refuse
from .storage import StorageConflict

if TYPE_CHECKING:
    from glade.core import Game

    from .tables import Room, Seat, Tables

log = logging.getLogger("glade.server")

DAY = 86_400.0
TAKEOVER_BOT = "greedy"  # plays a seat whose clock ran out or whose player left
CORRESPONDENCE_DAYS = (1, 2, 3)
MAX_BASE_SECONDS = 3 * 3600
MAX_INCREMENT_SECONDS = 600


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


def running_seats(state: Game, seats: list[Seat]) -> set[int]:
    """The human seats whose clock runs in ``state``: those with a move (undo aside)."""
    return {s for s in state.to_act if seats[s].kind == "human" and state.legal_action_ids(s)}


def seated(seats: list[Seat]) -> bool:
    """Every human seat has a player (a name and a credential): clocks may run."""
    return all(s.kind != "human" or (s.name and s.token_hash) for s in seats)


def advance(
    clock: Clock, seats: list[Seat], state: Game, now: float
) -> dict[int, tuple[float, float | None]]:
    """The seats' clocks that change when the table reaches ``state`` at ``now``."""
    spec = clock.spec
    over = state.is_over
    running = set() if over or not seated(seats) else running_seats(state, seats)
    changes: dict[int, tuple[float, float | None]] = {}
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


def apply(clock: Clock, changes: dict[int, tuple[float, float | None]]) -> None:
    for seat, value in changes.items():
        clock.seats[seat] = value


def clock_message(room: Room) -> str | None:
    """The WebSocket ``{"type": "clock", …}`` message of a table with a clock."""
    if room.clock is None:
        return None
    return json.dumps({"type": "clock", "version": room.version, **room.clock.to_json(time.time())})


async def take_over(tables: Tables, room: Room, seat: int, status: str) -> bool:
    """Hand ``seat`` to the takeover bot (``status``: "timed out" or "left"); False if it was
    not this call that did it (another process did first, or there was nothing to do)."""
    now = time.time()
    async with room.lock:
        target = room.seats[seat]
        if room.over or target.kind != "human":
            return False
        if status == "timed out" and (room.clock is None or not room.clock.ran_out(seat, now)):
            return False
        try:
            await tables._write_or_503(
                tables.storage.take_over(
                    room.id, seat, TAKEOVER_BOT, status, now, room.clock is not None
                )
            )
        except StorageConflict:
            await tables._catch_up(room)  # another process did it (or the game moved on)
            done = False
        else:
            target.kind, target.bot, target.status = "bot", TAKEOVER_BOT, status
            if room.clock is not None:
                remaining = 0.0 if status == "timed out" else room.clock.left(seat, now)
                room.clock.seats[seat] = (remaining, None)
            room.forget_texts()
            done = True
    if done:
        log.info("game %s: seat %d %s; %s plays it now", room.id, seat, status, TAKEOVER_BOT)
    tables.broadcast(room)
    tables.schedule_bots(room)
    return done


class ClockKeeper:
    """Sweeps the database for clocks past their deadline and hands those seats to the bot."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.task: asyncio.Task[None] | None = None
        self.timeouts = 0  # takeovers this process carried out
        self.pending: set[asyncio.Task[int]] = set()

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        every = self.tables.settings.clock_poll_seconds
        while True:
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - e.g. the database is away: the next sweep retries
                log.exception("the clock sweep failed")
            await asyncio.sleep(every)

    def start_sweep(self) -> None:
        """Sweep now (a move found its seat's clock run out) rather than at the next round."""
        task = asyncio.get_running_loop().create_task(self.sweep())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def sweep(self) -> int:
        """Time out every overdue seat; returns how many this process timed out."""
        tables = self.tables
        due = await asyncio.wrap_future(tables.storage.overdue_clocks(time.time()))
        done = 0
        for game_id, seat in due:
            try:
                room = await tables.get(game_id)
                if room.clock is not None and not room.clock.ran_out(seat, time.time()):
                    async with room.lock:  # this process's copy is behind: look again
                        await tables._catch_up(room)
                if await take_over(tables, room, seat, "timed out"):
                    done += 1
            except ApiError as exc:
                log.warning("game %s: the timeout of seat %d failed: %s", game_id, seat, exc)
        self.timeouts += done
        return done

    async def close(self) -> None:
        for task in list(self.pending):
            task.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
