"""Bot seats: they move when their table says it is their turn, thinking in worker processes of
their own.

The bots subscribe to the tables' events (an action applied, a table ready, a seat taken over) and
play whichever bot seat has a move. ``random`` runs on a thread (microseconds); every other bot
thinks in the bot workers, which do nothing else (hints and reviews have their own: a flood of
them never queues a bot's move), with a timeout after which a random legal move is played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import glade
from glade.bots import LEVEL_TIME, Budget, make_bot, thinking_seconds

from ..config import Settings
from ..domain import ActionApplied, EventBus, SeatTakenOver, Table, TableReady, Tables
from ..errors import ApiError
from .workers import make_pool

log = logging.getLogger("glade.server")

# Bots cheap enough to run on a thread; every other bot thinks in a worker process.
FAST_BOTS = {"random"}


def choose_actions(
    state_json: dict[str, Any], spec: str, seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """The actions bot ``spec`` plays now for ``seat`` (runs in a worker process)."""
    state = glade.load_game(state_json)
    bot = make_bot(spec, state.game_name, seed)
    return [action.to_json() for action in bot.choose(state, seat, Budget(seconds=seconds))]


def bot_seats(table: Table) -> list[int]:
    """The table's bot seats that have a move now (a Living Forest spirit in ``to_act`` with no
    move may only undo its stop, which bots never do)."""
    state = table.state
    return [s for s in state.to_act if table.seats[s].kind == "bot" and state.legal_action_ids(s)]


class Bots:
    """Plays the bot seats of every table on its own worker pool."""

    def __init__(self, settings: Settings, tables: Tables, events: EventBus) -> None:
        self.settings = settings
        self.tables = tables
        self.pool: Executor | None = None
        self.closing = False
        self.tasks: set[asyncio.Task[None]] = set()
        events.subscribe(ActionApplied, lambda e: self.schedule(e.table))
        events.subscribe(TableReady, lambda e: self.schedule(e.table))
        events.subscribe(SeatTakenOver, lambda e: self.schedule(e.table))

    def workers(self) -> Executor:
        if self.pool is None:
            self.pool = make_pool(self.settings.bot_workers)
        return self.pool

    def schedule(self, table: Table) -> None:
        """Start the table's bot seats if one of them is to act and none is thinking yet."""
        if self.closing or table.over:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if bot_seats(table):
            task = asyncio.get_running_loop().create_task(self.play(table))
            table.bot_task = task
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def stalled(self, older_than: float) -> int:
        """Start the bots of tables whose bot has been due for ``older_than`` seconds with no
        process playing it (the process that would have was killed); returns how many."""
        cutoff = time.monotonic() - older_than
        started = 0
        for table in list(self.tables.tables.values()):
            busy = table.bot_task is not None and not table.bot_task.done()
            if busy or table.over or table.changed > cutoff:
                continue
            if bot_seats(table):
                self.schedule(table)
                started += 1
        return started

    def stall_seconds(self) -> float:
        """How long a due bot may wait before another process plays it."""
        return 5.0 + 3 * self.settings.bot_seconds * max(LEVEL_TIME.values())

    async def think(self, table: Table, spec: str, seat: int) -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        snapshot = table.state.to_json()
        seconds = thinking_seconds(spec, self.settings.bot_seconds)
        args = (snapshot, spec, seat, seconds, secrets.randbelow(2**63))
        try:
            if spec.split(":", 1)[0] in FAST_BOTS:
                # microseconds of work: a thread, so it never queues behind a thinking bot
                return await loop.run_in_executor(None, choose_actions, *args)
            found: list[dict[str, Any]] = await asyncio.wait_for(
                loop.run_in_executor(self.workers(), choose_actions, *args),
                timeout=10 + 10 * seconds,
            )
            return found
        except BrokenProcessPool:
            log.error("the bot workers died; new ones start with the next move")
            self.pool = None
        except Exception:  # noqa: BLE001 - a failing or stuck bot falls back to a random move
            log.exception("bot %s failed at table %s; playing a random move", spec, table.id)
        return choose_actions(snapshot, "random", seat, 0.0, secrets.randbelow(2**63))

    async def play(self, table: Table) -> None:
        refused = 0
        while not self.closing and not table.over:
            bots = bot_seats(table)
            if not bots:
                return
            seat = bots[0]
            # a bot whose moves keep being refused plays random moves instead of looping
            spec = (table.seats[seat].bot or "random") if refused < 3 else "random"
            base_version = table.version
            actions = await self.think(table, spec, seat)
            if self.closing:
                return
            for action in actions:
                if table.version != base_version and seat not in table.state.to_act:
                    break
                try:
                    await self.tables.act(table, seat, action, None)
                except ApiError as exc:
                    if exc.status == 409:  # another process moved first: look again
                        break
                    log.warning("bot %s move refused at table %s: %s", spec, table.id, exc.message)
                    refused += 1
                    break
                except Exception:  # noqa: BLE001 - an engine failure is logged, the bot goes on
                    log.exception("bot %s move failed at table %s", spec, table.id)
                    refused += 1
                    break
                base_version = table.version

    async def close(self) -> None:
        self.closing = True
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None
