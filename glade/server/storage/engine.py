"""The storage of one server: the database (schema, writer, reader), the listener that hears
other processes' changes, and one repository per aggregate.

SQLite (the default, WAL journal) and PostgreSQL (``postgresql://`` URLs, psycopg 3) speak the
same SQL here. Every SQL statement the server runs is in this package, behind a named method of a
repository; each returns a future.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

from .chat import ChatRepository
from .clocks import ClockRepository
from .db import Database
from .dialect import DbConnection, dialect_for
from .limits import LimitRepository
from .migrations import migrate
from .ratings import RatingRepository
from .rematches import RematchRepository
from .reviews import ReviewRepository
from .sessions import SessionRepository
from .tables import TableRepository
from .users import UserRepository
from .writer import CHANNEL


class Storage:
    """Tables, accounts and the rest on disk. A write is atomic and durable once its future
    resolves."""

    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = url
        self.dialect = dialect_for(url, synchronous)
        self.kind = self.dialect.kind
        schema = DbConnection(self.dialect)
        try:
            migrate(schema)
        finally:
            schema.close()
        self.db = Database(self.dialect)
        self.tables = TableRepository(self.db)
        self.clocks = ClockRepository(self.db)
        self.chat = ChatRepository(self.db)
        self.rematches = RematchRepository(self.db)
        self.reviews = ReviewRepository(self.db)
        self.ratings = RatingRepository(self.db)
        self.users = UserRepository(self.db)
        self.sessions = SessionRepository(self.db)
        self.limits = LimitRepository(self.db)
        self.listener: threading.Thread | None = None

    def schema_version(self) -> int:
        rows = self.db.read_now(lambda c: c.query("SELECT MAX(version) FROM schema_migrations"))
        return int(rows[0][0])

    def ping(self) -> Future[None]:
        """A round trip to the database (the health check)."""

        def read(c: DbConnection) -> None:
            c.query("SELECT 1")

        return self.db.read(read)

    # ------------------------------------------------------------------ other processes
    def listen(self, heard: Callable[[str, str], None], reconnected: Callable[[], None]) -> None:
        """PostgreSQL: call ``heard(table_id, what)`` (on a thread) for every change any process
        commits but this process's own actions (its tables have them), and ``reconnected()``
        after the listening connection was lost and came back (changes may have been missed).
        SQLite: nothing (one process)."""
        if self.kind != "postgresql" or self.listener is not None:
            return
        self.listener = threading.Thread(
            target=self.listen_loop, args=(heard, reconnected), name="glade-db-listen", daemon=True
        )
        self.listener.start()

    def listen_loop(
        self, heard: Callable[[str, str], None], reconnected: Callable[[], None]
    ) -> None:
        first = True
        writer = self.db.writer
        while not writer.closed:
            try:
                conn = DbConnection(self.dialect)
            except Exception:  # noqa: BLE001 - the database is away: try again shortly
                time.sleep(0.5)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                if not first:
                    reconnected()
                first = False
                while not writer.closed:
                    for note in conn.raw.notifies(timeout=0.5):
                        table_id, _, what = note.payload.partition(" ")
                        if note.pid == writer.backend_pid and what[:1].isdigit():
                            # an action this process stored: its table has it already
                            continue
                        heard(table_id, what)
            except Exception:  # noqa: BLE001 - the connection broke: listen again
                time.sleep(0.2)
            finally:
                with contextlib.suppress(Exception):
                    conn.close()

    def close(self) -> None:
        if self.db.writer.closed:
            return
        self.db.close()
        if self.listener is not None:
            self.listener.join(timeout=5)
