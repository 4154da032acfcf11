"""The sessions' repository: a log-in's session (the SHA-256 of its cookie), its CSRF token and
when it was last seen; ending one ends the device keys it holds."""

from __future__ import annotations

from concurrent.futures import Future

from .db import Database
from .dialect import DbConnection, Statement


class SessionRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(
        self, session_id: str, user_id: str, csrf: str, at: float, address: str
    ) -> Future[None]:
        return self.db.write(
            [
                (
                    "INSERT INTO sessions (id, user_id, csrf, created_at, last_seen, address) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (session_id, user_id, csrf, at, at, address),
                )
            ]
        )

    def get(self, session_id: str) -> Future[tuple[str, str, str, float] | None]:
        """(user id, user name, CSRF token, last seen) of a live session."""

        def read(c: DbConnection) -> tuple[str, str, str, float] | None:
            rows = c.query(
                "SELECT s.user_id, u.name, s.csrf, s.last_seen FROM sessions s "
                "JOIN users u ON u.id = s.user_id WHERE s.id = ?",
                (session_id,),
            )
            if not rows:
                return None
            r = rows[0]
            return str(r[0]), str(r[1]), str(r[2]), float(r[3])

        return self.db.read(read)

    def touch(self, session_id: str, at: float) -> Future[None]:
        return self.db.write([("UPDATE sessions SET last_seen = ? WHERE id = ?", (at, session_id))])

    def of_user(self, user_id: str) -> Future[list[str]]:
        return self.db.read(
            lambda c: [
                str(r[0]) for r in c.query("SELECT id FROM sessions WHERE user_id = ?", (user_id,))
            ]
        )

    def end(self, session_ids: list[str], tables: list[str]) -> Future[None]:
        """End sessions and their device keys; ``tables`` (where the keys were) hear of it."""
        statements: list[Statement] = []
        for sid in session_ids:
            statements.append(("DELETE FROM seat_keys WHERE session_id = ?", (sid,)))
            statements.append(("DELETE FROM sessions WHERE id = ?", (sid,)))
        for table_id in tables:
            statements += self.db.announce(table_id, "keys")
        return self.db.write(statements)

    def expire(self, before: float) -> Future[None]:
        """Forget sessions unseen since ``before`` with their device keys."""
        return self.db.write(
            [
                (
                    "DELETE FROM seat_keys WHERE session_id IN "
                    "(SELECT id FROM sessions WHERE last_seen < ?)",
                    (before,),
                ),
                ("DELETE FROM sessions WHERE last_seen < ?", (before,)),
            ]
        )
