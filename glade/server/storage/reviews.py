"""The reviews' repository: one stored review per finished table, with its progress.

A row's status is running, done or failed; ``owner`` is the process working on it and, once done,
``review`` the whole review as JSON.
"""

from __future__ import annotations

import json
from concurrent.futures import Future
from typing import Any

from .db import Database
from .dialect import DbConnection


class ReviewRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def claim(self, table_id: str, owner: str, at: float, stale: float) -> Future[None]:
        """Start a review of ``table_id`` for ``owner``: resolves once the row is this owner's;
        fails with StorageConflict when another process holds a live one or it is done. A
        failed review, or a running one with no progress since ``stale``, is taken over."""
        return self.db.write(
            [
                (
                    "DELETE FROM reviews WHERE game_id = ? AND (status = 'failed' "
                    "OR (status = 'running' AND updated_at < ?))",
                    (table_id, stale),
                ),
                (
                    "INSERT INTO reviews (game_id, status, done, total, owner, updated_at) "
                    "VALUES (?, 'running', 0, 0, ?, ?)",
                    (table_id, owner, at),
                ),
            ]
        )

    def progress(self, table_id: str, owner: str, done: int, total: int, at: float) -> Future[None]:
        """Record how far ``owner``'s review of ``table_id`` has come."""
        return self.db.write(
            [
                (
                    "UPDATE reviews SET done = ?, total = ?, updated_at = ? "
                    "WHERE game_id = ? AND owner = ? AND status = 'running'",
                    (done, total, at, table_id, owner),
                )
            ]
        )

    def finish(
        self,
        table_id: str,
        owner: str,
        review: dict[str, Any] | None,
        error: str | None,
        at: float,
    ) -> Future[None]:
        """Store ``owner``'s finished review (or, with ``error``, that it failed)."""
        status = "done" if review is not None else "failed"
        return self.db.write(
            [
                (
                    "UPDATE reviews SET status = ?, review = ?, error = ?, updated_at = ? "
                    "WHERE game_id = ? AND owner = ?",
                    (
                        status,
                        json.dumps(review) if review is not None else None,
                        error,
                        at,
                        table_id,
                        owner,
                    ),
                )
            ]
        )

    def load(self, table_id: str) -> Future[dict[str, Any] | None]:
        """The stored review row of ``table_id`` (the review parsed), or None."""

        def read(c: DbConnection) -> dict[str, Any] | None:
            rows = c.query(
                "SELECT status, done, total, owner, review, error, updated_at FROM reviews "
                "WHERE game_id = ?",
                (table_id,),
            )
            if not rows:
                return None
            status, done, total, owner, review, error, at = rows[0]
            return {
                "status": status,
                "done": int(done),
                "total": int(total),
                "owner": owner,
                "review": json.loads(review) if review else None,
                "error": error,
                "updated_at": float(at),
            }

        return self.db.read(read)
