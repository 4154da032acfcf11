"""Clocks that run out: every process sweeps the database for deadlines that passed and hands
those seats to the takeover bot for the rest of the game, as Board Game Arena does.

The takeover itself is the tables' (``Tables.take_over``): a conditional UPDATE (the seat still
human, its deadline still passed), so exactly one process carries it out, and a process that
starts after a pause carries out what fell due meanwhile. A move that finds its seat's clock run
out before the sweep did (:class:`ClockRanOut`) starts a sweep at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ..config import Settings
from ..domain import TIMED_OUT, ClockRanOut, EventBus, Tables
from ..errors import ApiError
from ..storage import Storage

log = logging.getLogger("glade.server")


class Clocks:
    """Sweeps the database for clocks past their deadline and hands those seats to the bot."""

    def __init__(
        self, settings: Settings, storage: Storage, tables: Tables, events: EventBus
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.tables = tables
        self.task: asyncio.Task[None] | None = None
        self.timeouts = 0  # takeovers this process carried out
        self.pending: set[asyncio.Task[int]] = set()
        events.subscribe(ClockRanOut, lambda e: self.sweep_soon())

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.keep_sweeping())

    async def keep_sweeping(self) -> None:
        every = self.settings.clock_poll_seconds
        while True:
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - e.g. the database is away: the next sweep retries
                log.exception("the clock sweep failed")
            await asyncio.sleep(every)

    def sweep_soon(self) -> None:
        """Sweep now (a move found its seat's clock run out) rather than at the next round."""
        task = asyncio.get_running_loop().create_task(self.sweep())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def sweep(self) -> int:
        """Time out every overdue seat; returns how many this process timed out."""
        tables = self.tables
        due = await asyncio.wrap_future(self.storage.clocks.overdue(time.time()))
        done = 0
        for table_id, seat in due:
            try:
                table = await tables.get(table_id)
                if table.clock is not None and not table.clock.ran_out(seat, time.time()):
                    async with table.lock:  # this process's copy is behind: look again
                        await tables.catch_up(table)
                if await tables.take_over(table, seat, TIMED_OUT):
                    done += 1
            except ApiError as exc:
                log.warning("table %s: the timeout of seat %d failed: %s", table_id, seat, exc)
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
