"""Analysis: hints and reviews, worked out in worker processes of their own (never the bots').

Everything here waits in one bounded queue in front of the analysis workers. A hint goes ahead of
every review's next decision (a player waits for it at the table); the reviews take turns, one
decision each. Bounds: hints and reviews each have a limit per client (429 past it) and over the
whole server (503 past it), so a flood of either is refused at once with a sentence instead of
queueing, and a bot's move, which has its own workers, never waits behind them.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import glade
from glade.bots import Budget
from glade.bots.hint import hint, hint_seconds

from ..config import Settings
from ..domain import Table
from ..refusals import refuse
from .workers import make_pool

log = logging.getLogger("glade.server")

T = TypeVar("T")
HINT, REVIEW = 0, 1  # priorities: lower goes first


def hint_moves(
    state_json: dict[str, Any], seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """The search bot's ranked moves for ``seat`` (runs in an analysis worker)."""
    state = glade.load_game(state_json)
    return hint(state, seat, Budget(seconds=seconds), top=3, seed=seed)


class Slots:
    """The analysis workers as slots handed out by priority, then in order of asking."""

    def __init__(self, workers: int) -> None:
        self.free = max(1, workers)
        self.waiting: list[tuple[int, int, asyncio.Future[None], object]] = []
        self.order = itertools.count()

    def ahead_of(self, priority: int) -> int:
        """How many waiting jobs would go before a new one of ``priority``."""
        return sum(1 for p, _, fut, _ in self.waiting if p <= priority and not fut.done())

    def position(self, tag: object) -> int | None:
        """How many waiting jobs go before the one asked for with ``tag`` (None: it is not
        waiting)."""
        mine = next(((p, n) for p, n, fut, t in self.waiting if t is tag and not fut.done()), None)
        if mine is None:
            return None
        return sum(1 for p, n, fut, _ in self.waiting if (p, n) < mine and not fut.done())

    async def acquire(self, priority: int, tag: object = None) -> None:
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.waiting, (priority, next(self.order), fut, tag))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # handed a slot as it was cancelled
                self.release()
            raise

    def release(self) -> None:
        while self.waiting:
            _, _, fut, _ = heapq.heappop(self.waiting)
            if not fut.done():
                fut.set_result(None)
                return
        self.free += 1


class Counter:
    """Jobs in the queue or running, per client and in all (the bounds)."""

    def __init__(self, per_client: int, total: int, code: str) -> None:
        self.per_client = per_client
        self.total = total
        self.code = code  # "server.hint" or "server.review"
        self.running = 0
        self.by_client: dict[str, int] = {}

    def take(self, client: str) -> None:
        """A place for ``client``'s job, or a 429 (its own limit) or 503 (the server's)."""
        if self.by_client.get(client, 0) >= self.per_client:
            raise refuse(429, f"{self.code}.pending")
        if self.running >= self.total:
            raise refuse(503, f"{self.code}.busy")
        self.running += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1

    def give_back(self, client: str) -> None:
        self.running -= 1
        left = self.by_client.get(client, 1) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)


class Analysis:
    """The analysis workers and the bounded queue in front of them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool: Executor | None = None
        self.slots = Slots(settings.hint_workers)
        self.hints = Counter(settings.hints_per_client, settings.hint_queue, "server.hint")
        self.reviews = Counter(settings.reviews_per_client, settings.review_queue, "server.review")

    def workers(self) -> Executor:
        if self.pool is None:
            self.pool = make_pool(self.settings.hint_workers)
        return self.pool

    async def run(self, priority: int, fn: Callable[..., T], *args: Any, tag: object = None) -> T:
        """``fn(*args)`` in an analysis worker once a slot is free (``priority``: HINT or
        REVIEW; ``tag``: how :meth:`Slots.position` knows this job); BrokenProcessPool: the
        workers died (new ones start with the next job)."""
        await self.slots.acquire(priority, tag)
        try:
            future = self.workers().submit(fn, *args)
            try:
                return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                future.cancel()
                raise
            except BrokenProcessPool:
                self.pool = None
                raise
        finally:
            self.slots.release()

    # ------------------------------------------------------------------ hints
    async def hint(self, table: Table, seat: int, client: str) -> tuple[int, list[dict[str, Any]]]:
        """The search bot's best moves for ``seat`` now."""
        async with table.lock:
            if table.over:
                raise refuse(409, "server.hint.over")
            if seat not in table.state.to_act:
                raise refuse(409, "server.hint.not_turn")
            snapshot = table.state.to_json()
            version = table.version
            game = table.state.game_name
        self.hints.take(client)
        try:
            seconds = self.settings.hint_seconds or hint_seconds(game)
            # the hints ahead of this one, plus its own time and a margin
            waves = 1 + self.slots.ahead_of(HINT) // max(1, self.settings.hint_workers)
            timeout = 2.0 + 2.0 * seconds * waves
            job = self.run(HINT, hint_moves, snapshot, seat, seconds, secrets.randbelow(2**63))
            moves: list[dict[str, Any]] = await asyncio.wait_for(job, timeout=timeout)
        except TimeoutError:
            raise refuse(503, "server.hint.slow") from None
        except BrokenProcessPool:
            log.error("the analysis workers died; new ones start with the next job")
            raise refuse(503, "server.hint.failed") from None
        finally:
            self.hints.give_back(client)
        return version, moves

    async def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None
