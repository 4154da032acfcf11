"""The table chat's repository: numbered messages per table."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from .db import Database
from .dialect import DbConnection


class ChatRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def last(self, table_id: str) -> Future[int]:
        """The number of a table's newest chat message (0: none yet)."""
        return self.db.read(
            lambda c: int(
                c.query("SELECT COALESCE(MAX(n), 0) FROM chat WHERE game_id = ?", (table_id,))[0][0]
            )
        )

    def add(
        self, table_id: str, n: int, seat: int, name: str | None, text: str, at: float
    ) -> Future[None]:
        """Store chat message ``n`` of a table (StorageConflict: that number is taken)."""
        return self.db.write(
            [
                (
                    "INSERT INTO chat (game_id, n, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, n, seat, name, text, at),
                ),
                *self.db.announce(table_id, f"chat {n}"),
            ]
        )

    def messages(
        self, table_id: str, after: int = 0, limit: int = 200
    ) -> Future[list[dict[str, Any]]]:
        """A table's chat messages numbered after ``after``, oldest first (the newest ``limit``)."""

        def read(c: DbConnection) -> list[dict[str, Any]]:
            rows = c.query(
                "SELECT n, seat, name, text, at FROM chat WHERE game_id = ? AND n > ? "
                "ORDER BY n DESC LIMIT ?",
                (table_id, after, limit),
            )
            return [
                {"n": int(n), "seat": int(seat), "name": name, "text": text, "at": float(at)}
                for n, seat, name, text, at in reversed(rows)
            ]

        return self.db.read(read)
