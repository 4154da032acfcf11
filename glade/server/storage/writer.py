"""The writer: one thread owns the writing connection and commits whatever has queued up in one
transaction (group commit), so many tables share each disk flush and a write is acknowledged
only once its transaction has committed.

The event loop hands its writes over in bunches (:meth:`Writer.write_soon`: at most one every
``HAND_OVER_SECONDS``, and a bunch's futures settled with one wake-up of the loop): the hand-off
of each write on its own cost the loop more than its SQL. A write may carry :class:`Guard`
statements (conditional UPDATEs that must change a row, else the whole write is refused with
:class:`StorageConflict`: the database decides who was first) and :class:`Announce` statements
(PostgreSQL: a change told to every listening process at commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, NamedTuple

from .dialect import DbConnection, Params, Statement


class Guard(NamedTuple):
    """A statement that must change at least one row, or its whole write is refused with
    :class:`StorageConflict` (a conditional UPDATE: the database decides who was first)."""

    sql: str
    params: Params


class Announce(NamedTuple):
    """PostgreSQL: a change announced on :data:`CHANNEL` at commit. A transaction's
    announcements are sent by one statement at its end, in the order they were made (only
    ``params``, the channel and the payload, are used; ``sql`` is the statement that would send
    it alone, and keeps it a :data:`Statement`)."""

    sql: str
    params: Params


class StorageError(RuntimeError):
    """The database refused or failed a write; the action it carried was not stored."""


class StorageConflict(StorageError):
    """Another process stored that version of the game first (the database decided)."""


# the shortest time between two bunches of writes an event loop hands to the writer thread
# (Writer.write_soon): the most a write waits for its bunch under load
HAND_OVER_SECONDS = 0.005

# PostgreSQL channel on which every committed change of a game is announced: "<game id> <what>"
CHANNEL = "glade_changes"


class GuardFailed(Exception):
    """A :class:`Guard` statement changed no row."""


def is_conflict(exc: BaseException) -> bool:
    """A unique-key violation (the row, e.g. a game's next version, is already there), or a
    :class:`Guard` that found its row changed."""
    if isinstance(exc, GuardFailed):
        return True
    if isinstance(exc, sqlite3.IntegrityError):
        return "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc)
    return getattr(exc, "sqlstate", None) == "23505"


def announce(kind: str, table_id: str, what: str) -> list[Statement]:
    """PostgreSQL (``kind``): tell every listening process, at commit, that a table changed."""
    if kind != "postgresql":
        return []
    return [Announce("SELECT pg_notify(?, ?)", (CHANNEL, f"{table_id} {what}"))]


class Write(NamedTuple):
    """One write for the writer thread: statements of one transaction and the future their
    commit settles (a concurrent one, or an event loop's)."""

    statements: list[Statement]
    future: Future[None] | asyncio.Future[None]


class Writer:
    """The writing connection's thread and the queue in front of it."""

    def __init__(self, connect: Callable[[], DbConnection]) -> None:
        self.connect = connect
        # bunches of writes (None: stop)
        self.writes: queue.Queue[list[Write] | None] = queue.Queue()
        # writes made on each event loop since its last hand-over, and when that was
        self.pending: dict[asyncio.AbstractEventLoop, list[Write]] = {}
        self.handed_at: dict[asyncio.AbstractEventLoop, float] = {}
        self.closed = False
        # PostgreSQL: the writing connection's server process id (the listener knows this
        # process's own announcements by it)
        self.backend_pid: int | None = None
        self.conn = self.reconnect()
        self.thread = threading.Thread(target=self.loop, name="glade-db-writer", daemon=True)
        self.thread.start()

    def reconnect(self) -> DbConnection:
        conn = self.connect()
        if conn.kind == "postgresql":
            self.backend_pid = conn.raw.info.backend_pid
        return conn

    # ------------------------------------------------------------------ queueing
    def write(self, statements: list[Statement]) -> Future[None]:
        """Queue statements to run in one transaction; the future resolves once committed."""
        fut: Future[None] = Future()
        if self.closed:
            fut.set_exception(StorageError("the server is shutting down"))
            return fut
        self.writes.put([Write(statements, fut)])
        return fut

    def write_soon(self, statements: list[Statement]) -> asyncio.Future[None]:
        """``write`` for a caller on the event loop, awaited there. The writes a loop makes
        reach the writer in bunches, one at most every ``HAND_OVER_SECONDS`` (at once when the
        last was longer ago), and their futures are settled by one call on the loop: under
        load many actions share each commit and each wake-up of the writer thread, and no
        write waits when the server is quiet."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if self.closed:
            fut.set_exception(StorageError("the server is shutting down"))
            return fut
        pending = self.pending.get(loop)
        if pending is None:
            pending = self.pending[loop] = []
            last = self.handed_at.get(loop)
            if last is None or loop.time() - last >= HAND_OVER_SECONDS:
                loop.call_soon(self.hand_over, loop)
            else:
                loop.call_at(last + HAND_OVER_SECONDS, self.hand_over, loop)
        pending.append(Write(statements, fut))
        return fut

    def hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """``loop``'s writes since the last hand-over go to the writer as one item."""
        self.handed_at[loop] = loop.time()
        writes = self.pending.pop(loop, [])
        if self.closed:
            settle_all([(w, StorageError("the server is shutting down")) for w in writes])
        elif writes:
            self.writes.put(writes)

    # ------------------------------------------------------------------ the thread
    def loop(self) -> None:
        try:
            self.write_batches()
        finally:
            self.conn.close()
            # anything still queued will never be written: say so instead of leaving it waiting
            stopped = StorageError("the database writer stopped")
            while True:
                try:
                    item = self.writes.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    settle_all([(w, stopped) for w in item])

    def write_batches(self) -> None:
        while True:
            item = self.writes.get()
            if item is None:
                break
            batch = list(item)
            stop = False
            while len(batch) < 256:
                try:
                    more = self.writes.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch += more
            try:
                outcomes = commit_batch(self.conn, batch)
            except Exception as exc:  # noqa: BLE001 - e.g. the connection broke: try a new one
                failed = StorageError(f"the database write failed: {exc}")
                outcomes = [(w, failed) for w in batch]
                with contextlib.suppress(Exception):
                    self.conn.close()
                try:
                    self.conn = self.reconnect()
                except Exception:  # noqa: BLE001 - retried on the next batch
                    time.sleep(0.5)
            settle_all(outcomes)
            if stop:
                break

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        closing = StorageError("the server is shutting down")
        for writes in self.pending.values():  # made in the last turn of a loop: not handed over
            settle_all([(w, closing) for w in writes])
        self.pending.clear()
        self.writes.put(None)
        self.thread.join(timeout=30)


def commit_batch(conn: DbConnection, batch: list[Write]) -> list[tuple[Write, StorageError | None]]:
    """Commit ``batch`` in one transaction; each write's outcome (None: stored). When the
    transaction fails, each write is tried on its own, so one refused write (a lost race)
    fails alone."""
    try:
        with conn.batch() as pipeline:
            conn.begin()
            guarded: list[Any] = []
            told: list[str] = []
            for write in batch:
                for statement in write.statements:
                    sql, params = statement
                    if isinstance(statement, Announce):
                        told.append(params[1])
                    elif isinstance(statement, Guard):
                        guarded.append(conn.execute_counted(sql, params))
                    else:
                        conn.execute(sql, params)
            if told:  # in order; a plain SELECT over unnest calls pg_notify row by row
                conn.execute(
                    "SELECT pg_notify(?, told) FROM unnest(?::text[]) AS told", (CHANNEL, told)
                )
            if guarded:
                if pipeline is not None:
                    pipeline.sync()  # PostgreSQL: the row counts arrive with the results
                if any(cursor.rowcount < 1 for cursor in guarded):
                    raise GuardFailed("a conditional update found its row changed")
            conn.commit()
    except Exception as exc:  # noqa: BLE001 - isolate the failing write below
        conn.rollback()
        if len(batch) > 1:
            return [found for one in batch for found in commit_batch(conn, [one])]
        error: StorageError = (
            StorageConflict(f"another process stored it first: {exc}")
            if is_conflict(exc)
            else StorageError(f"the database refused the write: {exc}")
        )
        return [(batch[0], error)]
    return [(w, None) for w in batch]


def settle_all(outcomes: list[tuple[Write, StorageError | None]]) -> None:
    """Settle written futures: concurrent ones here, an event loop's all in one call on it."""
    on_loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Any]]] = {}
    for write, error in outcomes:
        fut = write.future
        if isinstance(fut, Future):
            settle(fut, error)
        else:
            on_loops.setdefault(fut.get_loop(), []).append((fut, error))
    for loop, settled in on_loops.items():
        with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle_on_loop, settled)


def settle_on_loop(settled: list[tuple[asyncio.Future[None], Any]]) -> None:
    for fut, error in settled:
        if fut.done():  # its waiter gave up on it
            continue
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)


def settle(fut: Future[None], error: Exception | None) -> None:
    """Resolve a write's future unless its waiter already gave up on it."""
    if fut.done():
        return
    with contextlib.suppress(Exception):  # cancelled between the check and now
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)
