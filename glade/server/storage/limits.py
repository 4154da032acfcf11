"""Limits as counted slots: a slot is taken in the database before the work it limits (a
password hash, an account), then kept (it counts) or given back.

Each key (``name:<key>``, ``address:<address>``, ``signup:<address>``) has one row: the start of
its window and how many slots are taken in it. Taking one is a single upsert whose condition the
database checks against the row as it is (SQLite's one writer, PostgreSQL's row lock on the
conflict), so of any number of requests at once, on any processes, no more than ``limit`` get a
slot.
"""

from __future__ import annotations

from concurrent.futures import Future

from .db import Database
from .dialect import DbConnection
from .writer import Guard


class LimitRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def take(self, key: str, limit: int, window: float, now: float) -> Future[None]:
        """Take one of ``key``'s ``limit`` slots of a window of ``window`` seconds (a window
        starts at its first slot); StorageConflict when every slot of the window is taken."""
        cutoff = now - window
        return self.db.write(
            [
                Guard(
                    "INSERT INTO limit_slots (key, since, n) VALUES (?, ?, 1) "
                    "ON CONFLICT (key) DO UPDATE SET "
                    "n = CASE WHEN limit_slots.since <= ? THEN 1 ELSE limit_slots.n + 1 END, "
                    "since = CASE WHEN limit_slots.since <= ? THEN excluded.since "
                    "ELSE limit_slots.since END "
                    "WHERE limit_slots.since <= ? OR limit_slots.n < ?",
                    (key, now, cutoff, cutoff, cutoff, limit),
                )
            ]
        )

    def give_back(self, key: str) -> Future[None]:
        """Give one slot of ``key`` back (its work succeeded or was not done)."""
        return self.db.write([("UPDATE limit_slots SET n = n - 1 WHERE key = ? AND n > 0", (key,))])

    def prune(self, before: float) -> Future[None]:
        """Forget every window that began before ``before`` (they are over)."""
        return self.db.write([("DELETE FROM limit_slots WHERE since < ?", (before,))])

    def window_start(self, key: str) -> Future[float | None]:
        """When ``key``'s window began (None: it has none)."""

        def read(c: DbConnection) -> float | None:
            rows = c.query("SELECT since FROM limit_slots WHERE key = ?", (key,))
            return float(rows[0][0]) if rows else None

        return self.db.read(read)
