"""The accounts' repository: users (names, their confusable skeletons, password hashes) and where
each account was seen (addresses and devices, as SHA-256 hashes).

A name is taken by one write: the user row (its case-insensitive key is unique) and one row per
skeleton of the name (each unique), so of two sign-ups of look-alike names, on any processes,
exactly one is stored. Passwords arrive here only as Argon2id hashes.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Future

from .db import Database
from .dialect import DbConnection, Statement, in_list


class UserRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(
        self,
        user_id: str,
        name: str,
        name_key: str,
        skeletons: Iterable[str],
        password_hash: str,
        at: float,
    ) -> Future[None]:
        """A new account; StorageConflict when its name's key or one of its skeletons is taken."""
        statements: list[Statement] = [
            (
                "INSERT INTO users (id, name, name_key, password_hash, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (user_id, name, name_key, password_hash, at),
            )
        ]
        for skeleton in sorted(set(skeletons)):
            statements.append(
                (
                    "INSERT INTO name_skeletons (skeleton, user_id) VALUES (?, ?)",
                    (skeleton, user_id),
                )
            )
        return self.db.write(statements)

    def by_key(self, name_key: str) -> Future[tuple[str, str, str] | None]:
        """(id, name, password hash) of the account with this case-folded name."""

        def read(c: DbConnection) -> tuple[str, str, str] | None:
            rows = c.query(
                "SELECT id, name, password_hash FROM users WHERE name_key = ?", (name_key,)
            )
            return (str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

        return self.db.read(read)

    def look_alike(self, skeletons: Iterable[str]) -> Future[str | None]:
        """The name of an account that shares one of these skeletons (None: no one)."""
        wanted = sorted(set(skeletons))

        def read(c: DbConnection) -> str | None:
            rows = c.query(
                "SELECT u.name FROM name_skeletons k JOIN users u ON u.id = k.user_id "
                f"WHERE k.skeleton IN ({in_list(wanted)}) ORDER BY u.created_at LIMIT 1",
                tuple(wanted),
            )
            return str(rows[0][0]) if rows else None

        return self.db.read(read)

    def named(self, name: str) -> Future[tuple[str, str] | None]:
        """An account's ``(id, name)`` by its name in any case (None: no such account)."""

        def read(c: DbConnection) -> tuple[str, str] | None:
            rows = c.query(
                "SELECT id, name FROM users WHERE LOWER(name) = LOWER(?) ORDER BY id LIMIT 1",
                (name,),
            )
            return (str(rows[0][0]), str(rows[0][1])) if rows else None

        return self.db.read(read)

    def password_hash_of(self, user_id: str) -> Future[str | None]:
        def read(c: DbConnection) -> str | None:
            rows = c.query("SELECT password_hash FROM users WHERE id = ?", (user_id,))
            return str(rows[0][0]) if rows else None

        return self.db.read(read)

    def set_password(self, user_id: str, password_hash: str) -> Future[None]:
        return self.db.write(
            [("UPDATE users SET password_hash = ? WHERE id = ?", (password_hash, user_id))]
        )

    def seen(self, user_id: str, marks: Iterable[tuple[str, str]], at: float) -> Future[None]:
        """The account was seen with each ``(kind, hash)`` of ``marks`` ("address" or
        "device") at ``at``."""
        return self.db.write(
            [
                (
                    "INSERT INTO sightings (user_id, kind, value, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (user_id, kind, value) DO UPDATE SET at = excluded.at",
                    (user_id, kind, value, at),
                )
                for kind, value in marks
            ]
        )
