"""One database as the repositories see it: its writer (group commit) and its reader.

Reads go through a second connection on a thread of their own (:meth:`Database.read`, a future);
writes through the :class:`~glade.server.storage.writer.Writer`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from .dialect import DbConnection, Dialect, Statement
from .writer import Writer, announce

T = TypeVar("T")


class Database:
    """The writer and the reader of one database (``kind``: "sqlite" or "postgresql")."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.kind = dialect.kind
        self.writer = Writer(self.connect)
        self.reader_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="glade-db-read")
        self.reader: DbConnection | None = None

    def connect(self) -> DbConnection:
        return DbConnection(self.dialect)

    # ------------------------------------------------------------------ writing
    def write(self, statements: list[Statement]) -> Future[None]:
        """Statements run in one transaction; the future resolves once committed."""
        return self.writer.write(statements)

    def write_soon(self, statements: list[Statement]) -> asyncio.Future[None]:
        """:meth:`write` for a caller on the event loop (see ``Writer.write_soon``)."""
        return self.writer.write_soon(statements)

    def announce(self, table_id: str, what: str) -> list[Statement]:
        """PostgreSQL: tell every listening process, at commit, that a table changed."""
        return announce(self.kind, table_id, what)

    # ------------------------------------------------------------------ reading
    def read(self, fn: Callable[[DbConnection], T]) -> Future[T]:
        """``fn`` run on the reading connection, on its thread."""
        return self.reader_pool.submit(self.run_read, fn)

    def read_now(self, fn: Callable[[DbConnection], T]) -> T:
        """:meth:`read`, waited for (outside an event loop)."""
        return self.read(fn).result()

    def run_read(self, fn: Callable[[DbConnection], T]) -> T:
        if self.reader is None:
            self.reader = DbConnection(self.dialect)
        try:
            return fn(self.reader)
        except Exception:
            # a broken connection is replaced on the next read
            try:
                self.reader.close()
            finally:
                self.reader = None
            raise

    def close(self) -> None:
        self.writer.close()
        if self.reader is not None:
            reader = self.reader
            self.reader_pool.submit(reader.close).result()
            self.reader = None
        self.reader_pool.shutdown(wait=True)
