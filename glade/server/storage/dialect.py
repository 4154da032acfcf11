"""The two databases the server speaks to, SQLite and PostgreSQL, and one connection of either.

The server's SQL is written once with ``?`` markers; a dialect opens connections and rewrites the
markers (``%s`` for psycopg). A :class:`DbConnection` offers the few operations the storage needs
in either dialect.
"""

from __future__ import annotations

import contextlib
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

Params = Sequence[Any]
Statement = tuple[str, Params]


class Dialect(ABC):
    """How to open a connection and write parameter markers for one database kind."""

    kind: str

    @abstractmethod
    def connect(self) -> Any: ...

    def sql(self, text: str) -> str:
        return text


class SQLiteDialect(Dialect):
    kind = "sqlite"

    def __init__(self, path: str, synchronous: str) -> None:
        self.path = path
        self.synchronous = synchronous
        Path(path).parent.mkdir(parents=True, exist_ok=True)

    def connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.synchronous}")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn


class PostgresDialect(Dialect):
    kind = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url

    def connect(self) -> Any:
        import psycopg  # only a PostgreSQL server loads it

        # no server-side prepared statements: after a refused write in pipeline mode (a lost
        # race) psycopg's record of them drifts from the server's ("_pg3_1 does not exist")
        return psycopg.connect(
            self.url, autocommit=True, connect_timeout=10, prepare_threshold=None
        )

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")


def dialect_for(url: str, synchronous: str = "FULL") -> Dialect:
    """The dialect of a ``--db`` URL: ``sqlite:///path`` or ``postgresql://…``."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgresql", "postgres"):
        return PostgresDialect(url)
    if parsed.scheme == "sqlite":
        path = url[len("sqlite://") :]
        if path.startswith("//"):  # sqlite:////abs/path, the SQLAlchemy spelling
            path = path[1:]
        if not path.strip("/"):
            raise ValueError("a sqlite URL needs a file path, e.g. sqlite:///home/me/glade.sqlite3")
        return SQLiteDialect(path, synchronous)
    raise ValueError(f"the database URL {url!r} is neither sqlite:///PATH nor postgresql://…")


class DbConnection:
    """A connection plus the few operations the storage needs, in either dialect."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.raw = dialect.connect()

    @property
    def kind(self) -> str:
        return self.dialect.kind

    def batch(self) -> contextlib.AbstractContextManager[Any]:
        """Send many statements without waiting for each answer (PostgreSQL pipeline mode)."""
        if self.dialect.kind == "postgresql":
            pipeline: contextlib.AbstractContextManager[Any] = self.raw.pipeline()
            return pipeline
        return contextlib.nullcontext()

    def begin(self) -> None:
        self.raw.execute("BEGIN" if self.dialect.kind == "postgresql" else "BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.raw.execute("COMMIT")

    def rollback(self) -> None:
        with contextlib.suppress(Exception):  # nothing to roll back is fine
            self.raw.execute("ROLLBACK")

    def execute(self, sql: str, params: Params = ()) -> None:
        self.raw.execute(self.dialect.sql(sql), tuple(params))

    def execute_counted(self, sql: str, params: Params = ()) -> Any:
        """Run a statement and keep its cursor (for its ``rowcount``)."""
        return self.raw.execute(self.dialect.sql(sql), tuple(params))

    def query(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        cur = self.raw.execute(self.dialect.sql(sql), tuple(params))
        return list(cur.fetchall())

    def close(self) -> None:
        self.raw.close()


def in_list(values: Sequence[Any]) -> str:
    """The markers of an ``IN (…)`` list of ``values`` (``NULL`` for none: matches nothing)."""
    return ", ".join("?" for _ in values) or "NULL"
