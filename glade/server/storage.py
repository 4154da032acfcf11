"""Durable storage of tables: games, seats, the action log and periodic snapshots.

One writer thread owns the writing connection and commits whatever has queued up in one transaction
(group commit), so many tables share each disk flush and an action is acknowledged only once its
transaction has committed. The event loop hands its writes over in bunches (``write_soon``: at
most one every ``HAND_OVER_SECONDS``, and a bunch's futures settled with one wake-up of the loop):
the hand-off of each write on its own cost the loop more than its SQL. Reads go through a second
connection on their own thread. SQLite (the default, WAL journal) and PostgreSQL
(``postgresql://`` URLs, psycopg 3) speak the same SQL here; the schema is created and upgraded
by numbered migrations recorded in ``schema_migrations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlparse

Params = Sequence[Any]
Statement = tuple[str, Params]

# Numbered schema migrations; a database records each number it has applied. Never edit a
# released step: append a new one.
MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """CREATE TABLE games (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                options TEXT NOT NULL,
                seed TEXT NOT NULL,
                version INTEGER NOT NULL,
                over INTEGER NOT NULL,
                open_seats INTEGER NOT NULL,
                client TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )""",
            """CREATE TABLE seats (
                game_id TEXT NOT NULL REFERENCES games(id),
                seat INTEGER NOT NULL,
                kind TEXT NOT NULL,
                name TEXT,
                bot TEXT,
                token_hash TEXT,
                PRIMARY KEY (game_id, seat)
            )""",
            """CREATE TABLE actions (
                game_id TEXT NOT NULL REFERENCES games(id),
                version INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                action TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game_id, version)
            )""",
            """CREATE TABLE snapshots (
                game_id TEXT NOT NULL REFERENCES games(id),
                version INTEGER NOT NULL,
                state TEXT NOT NULL,
                PRIMARY KEY (game_id, version)
            )""",
            "CREATE INDEX games_open ON games (open_seats, over, created_at)",
            "CREATE INDEX games_client ON games (client, over)",
        ],
    ),
    (
        2,  # accounts: users, their sessions, failed log-ins, seats held by an account
        [
            """CREATE TABLE users (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )""",
            # id is the SHA-256 of the cookie's secret: the database never holds the cookie
            """CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                csrf TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                last_seen DOUBLE PRECISION NOT NULL,
                address TEXT NOT NULL
            )""",
            "CREATE INDEX sessions_user ON sessions (user_id)",
            # one row per refused log-in; key is "name:<name_key>" or "address:<address>"
            """CREATE TABLE login_failures (
                key TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX login_failures_key ON login_failures (key, at)",
            "ALTER TABLE seats ADD COLUMN user_id TEXT REFERENCES users(id)",
            # the hash of a seat's invite token once it was claimed (to recognise a reused link)
            "ALTER TABLE seats ADD COLUMN invite_hash TEXT",
            "ALTER TABLE seats ADD COLUMN claimed_at DOUBLE PRECISION",
            "CREATE INDEX seats_user ON seats (user_id)",
            # a device's credential for an account's seat; it dies with its session
            """CREATE TABLE seat_keys (
                key_hash TEXT PRIMARY KEY,
                game_id TEXT NOT NULL REFERENCES games(id),
                seat INTEGER NOT NULL,
                session_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX seat_keys_game ON seat_keys (game_id)",
            "CREATE INDEX seat_keys_session ON seat_keys (session_id)",
        ],
    ),
    (
        3,  # clocks, leaving, rematches and table chat
        [
            "ALTER TABLE games ADD COLUMN clock TEXT",  # the clock option as JSON; NULL: none
            "ALTER TABLE seats ADD COLUMN status TEXT",  # NULL, 'timed out' or 'left'
            """CREATE TABLE clocks (
                game_id TEXT NOT NULL REFERENCES games(id),
                seat INTEGER NOT NULL,
                remaining DOUBLE PRECISION NOT NULL,
                deadline DOUBLE PRECISION,
                PRIMARY KEY (game_id, seat)
            )""",
            "CREATE INDEX clocks_due ON clocks (deadline)",
            """CREATE TABLE chat (
                game_id TEXT NOT NULL REFERENCES games(id),
                n INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                name TEXT,
                text TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game_id, n)
            )""",
            """CREATE TABLE rematches (
                game_id TEXT PRIMARY KEY REFERENCES games(id),
                new_id TEXT NOT NULL REFERENCES games(id),
                by_seat INTEGER NOT NULL,
                at DOUBLE PRECISION NOT NULL
            )""",
        ],
    ),
    (
        5,  # reviews (#15): one stored review per finished game, with its progress
        [
            """CREATE TABLE reviews (
                game_id TEXT PRIMARY KEY REFERENCES games(id),
                status TEXT NOT NULL,
                done INTEGER NOT NULL,
                total INTEGER NOT NULL,
                owner TEXT NOT NULL,
                review TEXT,
                error TEXT,
                updated_at DOUBLE PRECISION NOT NULL
            )""",
        ],
    ),
    (
        4,  # ratings: OpenSkill per identity (user or bot level) and game, a row per rated game
        [
            "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE ratings (
                game TEXT NOT NULL,
                identity TEXT NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game, identity)
            )""",
            """CREATE TABLE rating_history (
                game_id TEXT NOT NULL REFERENCES games(id),
                seat INTEGER NOT NULL,
                game TEXT NOT NULL,
                identity TEXT NOT NULL,
                place INTEGER NOT NULL,
                players INTEGER NOT NULL,
                mu_before DOUBLE PRECISION NOT NULL,
                sigma_before DOUBLE PRECISION NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game_id, seat)
            )""",
            "CREATE INDEX rating_history_identity ON rating_history (identity, game, at)",
            "CREATE INDEX ratings_order ON ratings (game, mu)",
        ],
    ),
]
MIGRATIONS.sort(key=lambda step: step[0])  # applied by number, whatever order they were added in

SCHEMA_VERSION = max(number for number, _ in MIGRATIONS)


class Guard(NamedTuple):
    """A statement that must change at least one row, or its whole write is refused with
    :class:`StorageConflict` (a conditional UPDATE: the database decides who was first)."""

    sql: str
    params: Params


class Announce(NamedTuple):
    """PostgreSQL: a change announced on :data:`CHANNEL` at commit. A transaction's
    announcements are sent by one statement at its end, in the order they were made
    (``_commit_batch``: only ``params``, the channel and the payload, are used; ``sql`` is the
    statement that would send it alone, and keeps it a :data:`Statement`)."""

    sql: str
    params: Params


class StorageError(RuntimeError):
    """The database refused or failed a write; the action it carried was not stored."""


class StorageConflict(StorageError):
    """Another process stored that version of the game first (the database decided)."""


# the shortest time between two bunches of writes an event loop hands to the writer thread
# (Storage.write_soon): the most a write waits for its bunch under load
HAND_OVER_SECONDS = 0.005

# PostgreSQL channel on which every committed change of a game is announced: "<game id> <what>"
CHANNEL = "glade_changes"


class _GuardFailed(Exception):
    """A :class:`Guard` statement changed no row."""


def _is_conflict(exc: BaseException) -> bool:
    """A unique-key violation: the row (e.g. a game's next version) is already there, or a
    :class:`Guard` that found its row changed."""
    if isinstance(exc, _GuardFailed):
        return True
    if isinstance(exc, sqlite3.IntegrityError):
        return "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc)
    return getattr(exc, "sqlstate", None) == "23505"


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str | None
    bot: str | None
    token_hash: str | None
    user_id: str | None = None  # the account that holds the seat
    invite_hash: str | None = None  # the spent invite token's hash, once claimed
    claimed: bool = False
    keys: dict[str, str] = field(default_factory=dict)  # device key hash -> session id
    status: str | None = None  # "timed out" or "left" once a bot took the seat over


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    version: int
    over: bool
    seats: list[StoredSeat]
    snapshot: dict[str, Any] | None
    snapshot_version: int
    actions: list[tuple[int, int, dict[str, Any]]]  # (version, seat, action) after the snapshot
    clock: dict[str, Any] | None = None  # the clock option (None: no clock)
    clocks: list[tuple[float, float | None]] | None = None  # (remaining, deadline) per seat
    rated: bool = False  # a rated table (ratings)


@dataclass
class NewGame:
    """A game about to be stored: its row and its seats."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    over: bool
    client: str
    at: float
    seats: list[StoredSeat]
    clock: dict[str, Any] | None = None  # the clock option, stored with the game
    clocks: list[tuple[float, float | None]] | None = None  # (remaining, deadline) per seat
    rated: bool = False  # a rated table (ratings)


@dataclass
class OpenGame:
    """A lobby entry: an unfinished game with an open human seat."""

    id: str
    game: str
    options: dict[str, Any]
    created_at: float
    seats: list[StoredSeat]


def default_sqlite_path() -> Path:
    """The SQLite file in the user's data directory."""
    from platformdirs import user_data_path

    return user_data_path("glade", appauthor=False) / "glade.sqlite3"


class _Dialect(ABC):
    """How to open a connection and write parameter markers for one database kind."""

    kind: str

    @abstractmethod
    def connect(self) -> Any: ...

    def sql(self, text: str) -> str:
        return text


class _SQLite(_Dialect):
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


class _Postgres(_Dialect):
    kind = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url

    def connect(self) -> Any:
        import psycopg

        # no server-side prepared statements: after a refused write in pipeline mode (a lost
        # race) psycopg's record of them drifts from the server's ("_pg3_1 does not exist")
        return psycopg.connect(
            self.url, autocommit=True, connect_timeout=10, prepare_threshold=None
        )

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")


def dialect_for(url: str, synchronous: str = "FULL") -> _Dialect:
    """The dialect of a ``--db`` URL: ``sqlite:///path`` or ``postgresql://…``."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgresql", "postgres"):
        return _Postgres(url)
    if parsed.scheme == "sqlite":
        path = url[len("sqlite://") :]
        if path.startswith("//"):  # sqlite:////abs/path, the SQLAlchemy spelling
            path = path[1:]
        if not path.strip("/"):
            raise ValueError("a sqlite URL needs a file path, e.g. sqlite:///home/me/glade.sqlite3")
        return _SQLite(path, synchronous)
    raise ValueError(f"the database URL {url!r} is neither sqlite:///PATH nor postgresql://…")


class _Conn:
    """A connection plus the few operations the storage needs, in either dialect."""

    def __init__(self, dialect: _Dialect) -> None:
        self.dialect = dialect
        self.raw = dialect.connect()

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


class Storage:
    """Games on disk. ``write`` is atomic and durable once its future resolves."""

    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = url
        self.dialect = dialect_for(url, synchronous)
        self.kind = self.dialect.kind
        migrate = _Conn(self.dialect)
        try:
            self._migrate(migrate)
        finally:
            migrate.close()
        # the writer's queue: bunches of writes (None: stop); a write is its statements and the
        # future it settles, a concurrent one (``write``) or one of an event loop (``write_soon``)
        self._writes: queue.Queue[list[_Write] | None] = queue.Queue()
        # writes made on each event loop since its last hand-over, and when that was
        self._pending: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
        self._handed_at: dict[asyncio.AbstractEventLoop, float] = {}
        self._writer = threading.Thread(
            target=self._write_loop, name="glade-db-writer", daemon=True
        )
        self._reader_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="glade-db-read")
        self._reader: _Conn | None = None
        self._closed = False
        self._listener: threading.Thread | None = None
        self._writer_pid: int | None = None
        self._writer_conn = self._writer_connect()
        self._writer.start()

    # ------------------------------------------------------------------ schema
    def _migrate(self, conn: _Conn) -> None:
        conn.begin()
        try:
            if self.kind == "postgresql":  # two servers starting at once on a new database
                conn.execute("SELECT pg_advisory_xact_lock(7212024)")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            conn.commit()
        except Exception:
            conn.rollback()
            raise
        for number, statements in sorted(MIGRATIONS, key=lambda step: step[0]):
            conn.begin()
            try:
                if self.kind == "postgresql":  # one migrator at a time across servers
                    conn.execute("SELECT pg_advisory_xact_lock(7212024)")
                done = conn.query("SELECT 1 FROM schema_migrations WHERE version = ?", (number,))
                if not done:
                    for statement in statements:
                        conn.execute(statement)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                        (number, time.time()),
                    )
                conn.commit()
            except Exception:
                conn.rollback()
                raise

    def schema_version(self) -> int:
        rows = self._read(lambda c: c.query("SELECT MAX(version) FROM schema_migrations"))
        return int(rows[0][0])

    # ------------------------------------------------------------------ writing
    def write(self, statements: list[Statement]) -> Future[None]:
        """Queue statements to run in one transaction; the future resolves once committed."""
        fut: Future[None] = Future()
        if self._closed:
            fut.set_exception(StorageError("the server is shutting down"))
            return fut
        self._writes.put([_Write(statements, fut)])
        return fut

    def write_soon(self, statements: list[Statement]) -> asyncio.Future[None]:
        """``write`` for a caller on the event loop, awaited there. The writes a loop makes
        reach the writer in bunches, one at most every ``HAND_OVER_SECONDS`` (at once when the
        last was longer ago), and their futures are settled by one call on the loop: under
        load many actions share each commit and each wake-up of the writer thread, and no
        write waits when the server is quiet."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if self._closed:
            fut.set_exception(StorageError("the server is shutting down"))
            return fut
        pending = self._pending.get(loop)
        if pending is None:
            pending = self._pending[loop] = []
            last = self._handed_at.get(loop)
            if last is None or loop.time() - last >= HAND_OVER_SECONDS:
                loop.call_soon(self._hand_over, loop)
            else:
                loop.call_at(last + HAND_OVER_SECONDS, self._hand_over, loop)
        pending.append(_Write(statements, fut))
        return fut

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """``loop``'s writes since the last hand-over go to the writer as one item."""
        self._handed_at[loop] = loop.time()
        writes = self._pending.pop(loop, [])
        if self._closed:
            _settle_all([(w, StorageError("the server is shutting down")) for w in writes])
        elif writes:
            self._writes.put(writes)

    def _writer_connect(self) -> _Conn:
        """A connection for the writer; on PostgreSQL its server process id is kept, so that
        the listener knows this process's own announcements (``_writer_pid``)."""
        conn = _Conn(self.dialect)
        if self.kind == "postgresql":
            self._writer_pid = conn.raw.info.backend_pid
        return conn

    def _write_loop(self) -> None:
        try:
            self._write_batches()
        finally:
            self._writer_conn.close()
            # anything still queued will never be written: say so instead of leaving it waiting
            stopped = StorageError("the database writer stopped")
            while True:
                try:
                    item = self._writes.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    _settle_all([(w, stopped) for w in item])

    def _write_batches(self) -> None:
        conn = self._writer_conn
        while True:
            item = self._writes.get()
            if item is None:
                break
            batch = list(item)
            stop = False
            while len(batch) < 256:
                try:
                    more = self._writes.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch += more
            try:
                outcomes = self._commit_batch(conn, batch)
            except Exception as exc:  # noqa: BLE001 - e.g. the connection broke: try a new one
                failed = StorageError(f"the database write failed: {exc}")
                outcomes = [(w, failed) for w in batch]
                with contextlib.suppress(Exception):
                    conn.close()
                try:
                    conn = self._writer_conn = self._writer_connect()
                except Exception:  # noqa: BLE001 - retried on the next batch
                    time.sleep(0.5)
            _settle_all(outcomes)
            if stop:
                break

    def _commit_batch(
        self, conn: _Conn, batch: list[_Write]
    ) -> list[tuple[_Write, StorageError | None]]:
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
                        raise _GuardFailed("a conditional update found its row changed")
                conn.commit()
        except Exception as exc:  # noqa: BLE001 - isolate the failing write below
            conn.rollback()
            if len(batch) > 1:
                return [found for one in batch for found in self._commit_batch(conn, [one])]
            error: StorageError = (
                StorageConflict(f"another process stored it first: {exc}")
                if _is_conflict(exc)
                else StorageError(f"the database refused the write: {exc}")
            )
            return [(batch[0], error)]
        return [(w, None) for w in batch]

    # ------------------------------------------------------------------ reading
    def _read(self, fn: Callable[[_Conn], Any]) -> Any:
        return self._reader_pool.submit(self._run_read, fn).result()

    def read_async(self, fn: Callable[[_Conn], Any]) -> Future[Any]:
        return self._reader_pool.submit(self._run_read, fn)

    def _run_read(self, fn: Callable[[_Conn], Any]) -> Any:
        if self._reader is None:
            self._reader = _Conn(self.dialect)
        try:
            return fn(self._reader)
        except Exception:
            # a broken connection is replaced on the next read
            try:
                self._reader.close()
            finally:
                self._reader = None
            raise

    # ------------------------------------------------------------------ the repository
    # Every statement the server runs is here, behind a named method; each returns a Future.
    def add_game(self, game: NewGame) -> Future[None]:
        """Store a new game and its seats (version 0) in one transaction."""
        return self.write(self._game_statements(game))

    @staticmethod
    def _game_statements(game: NewGame) -> list[Statement]:
        statements: list[Statement] = [
            (
                "INSERT INTO games (id, game, options, seed, version, over, open_seats, client, "
                "created_at, updated_at, clock) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.game,
                    json.dumps(game.options),
                    str(game.seed),
                    int(game.over),
                    sum(s.kind == "human" and not s.name for s in game.seats),
                    game.client,
                    game.at,
                    game.at,
                    None if game.clock is None else json.dumps(game.clock),
                ),
            )
        ]
        for s in game.seats:
            statements.append(
                (
                    "INSERT INTO seats (game_id, seat, kind, name, bot, token_hash) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, s.seat, s.kind, s.name, s.bot, s.token_hash),
                )
            )
        for seat, (remaining, deadline) in enumerate(game.clocks or ()):
            statements.append(
                (
                    "INSERT INTO clocks (game_id, seat, remaining, deadline) VALUES (?, ?, ?, ?)",
                    (game.id, seat, remaining, deadline),
                )
            )
        if game.rated:
            statements.append(("UPDATE games SET rated = 1 WHERE id = ?", (game.id,)))
        return statements

    def record_action(
        self,
        game_id: str,
        version: int,
        seat: int,
        action: str,
        over: bool,
        at: float,
        snapshot: str | None = None,
        extra: Sequence[Statement] = (),
    ) -> asyncio.Future[None]:
        """Store action ``version`` of a game (JSON text) and the game's new version, with a
        snapshot of the whole state after it when one is given (``extra``: more statements of
        the same transaction, e.g. the clocks'). Called on the event loop (``write_soon``)."""
        statements: list[Statement] = [
            (
                "INSERT INTO actions (game_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, seat, action, at),
            ),
            # ``over`` only once, with the last action: an UPDATE that names an indexed column
            # rewrites its index entries even to the same value (a third more pages written)
            (
                "UPDATE games SET version = ?, over = 1, updated_at = ? WHERE id = ?"
                if over
                else "UPDATE games SET version = ?, updated_at = ? WHERE id = ?",
                (version, at, game_id),
            ),
        ]
        if snapshot is not None:
            statements.append(
                (
                    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                    (game_id, version, snapshot),
                )
            )
        statements += extra
        # the action rides along (``<version> <seat> <action>``) so that the other processes
        # need not read it back; NOTIFY payloads stop at 8000 bytes: a longer one says only
        # the version and is read back
        told = f"{version} {seat} {action}"
        statements += self._announce(game_id, told if len(told) < 7000 else str(version))
        return self.write_soon(statements)

    def _announce(self, game_id: str, what: str) -> list[Statement]:
        """PostgreSQL: tell every listening process, at commit, that the game changed."""
        if self.kind != "postgresql":
            return []
        return [Announce("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {what}"))]

    def changes_since(
        self, game_id: str, version: int
    ) -> Future[tuple[list[StoredSeat], list[tuple[int, int, dict[str, Any]]]]]:
        """A game's seats now and its actions after ``version`` (another process stored them)."""

        def read(c: _Conn) -> tuple[list[StoredSeat], list[tuple[int, int, dict[str, Any]]]]:
            seats = Storage._seats(c, game_id)
            actions = [
                (int(r[0]), int(r[1]), json.loads(r[2]))
                for r in c.query(
                    "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? "
                    "ORDER BY version",
                    (game_id, version),
                )
            ]
            return seats, actions

        return self.read_async(read)

    def listen(self, heard: Callable[[str, str], None], reconnected: Callable[[], None]) -> None:
        """PostgreSQL: call ``heard(game_id, what)`` (on a thread) for every change any process
        commits but this process's own actions (its tables have them), and ``reconnected()``
        after the listening connection was lost and came back (changes may have been missed).
        SQLite: nothing (one process)."""
        if self.kind != "postgresql" or self._listener is not None:
            return
        self._listener = threading.Thread(
            target=self._listen_loop, args=(heard, reconnected), name="glade-db-listen", daemon=True
        )
        self._listener.start()

    def _listen_loop(
        self, heard: Callable[[str, str], None], reconnected: Callable[[], None]
    ) -> None:
        first = True
        while not self._closed:
            try:
                conn = _Conn(self.dialect)
            except Exception:  # noqa: BLE001 - the database is away: try again shortly
                time.sleep(0.5)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                if not first:
                    reconnected()
                first = False
                while not self._closed:
                    for note in conn.raw.notifies(timeout=0.5):
                        game_id, _, what = note.payload.partition(" ")
                        if note.pid == self._writer_pid and what[:1].isdigit():
                            # an action this process stored: its table has it already
                            continue
                        heard(game_id, what)
            except Exception:  # noqa: BLE001 - the connection broke: listen again
                time.sleep(0.2)
            finally:
                with contextlib.suppress(Exception):
                    conn.close()

    def ping(self) -> Future[None]:
        """A round trip to the database (the health check)."""
        return self.read_async(lambda c: c.query("SELECT 1") and None)

    def load_game(self, game_id: str) -> Future[StoredGame | None]:
        """Everything needed to rebuild one game (None: no such game)."""
        return self.read_async(lambda c: self._load_game(c, game_id))

    def unfinished_games_of(self, client: str) -> Future[int]:
        """How many unfinished games ``client`` created."""
        return self.read_async(
            lambda c: int(
                c.query("SELECT COUNT(*) FROM games WHERE client = ? AND over = 0", (client,))[0][0]
            )
        )

    def unfinished_games_with_bots(self) -> Future[list[str]]:
        """The ids of unfinished games that have a bot seat."""
        return self.read_async(
            lambda c: [
                str(r[0])
                for r in c.query(
                    "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
                    "WHERE g.over = 0 AND s.kind = 'bot'"
                )
            ]
        )

    def open_games(self, limit: int) -> Future[list[OpenGame]]:
        """The newest ``limit`` unfinished games with an open human seat (tokens left out)."""

        def read(c: _Conn) -> list[OpenGame]:
            rows = c.query(
                "SELECT id, game, options, created_at FROM games WHERE open_seats > 0 AND over = 0 "
                "ORDER BY created_at DESC LIMIT ?",
                (limit,),
            )
            out = []
            for gid, game, options, created in rows:
                seats = [
                    StoredSeat(int(r[0]), r[1], r[2], r[3], None, r[4])
                    for r in c.query(
                        "SELECT seat, kind, name, bot, user_id FROM seats WHERE game_id = ? "
                        "ORDER BY seat",
                        (gid,),
                    )
                ]
                out.append(OpenGame(gid, game, json.loads(options), float(created), seats))
            return out

        return self.read_async(read)

    def history(self, game_id: str, upto: int) -> Future[list[dict[str, Any]]]:
        """Every stored action of a game up to version ``upto``, in order."""
        return self.read_async(
            lambda c: [
                {"version": int(v), "seat": int(s), "action": json.loads(a), "at": float(t)}
                for v, s, a, t in c.query(
                    "SELECT version, seat, action, at FROM actions WHERE game_id = ? "
                    "AND version <= ? ORDER BY version",
                    (game_id, upto),
                )
            ]
        )

    # ------------------------------------------------------------------ reviews (#15)
    # One row per reviewed game: status running|done|failed, progress done/total, the process
    # working on it (owner) and, once done, the whole review as JSON.
    def claim_review(self, game_id: str, owner: str, at: float, stale: float) -> Future[None]:
        """Start a review of ``game_id`` for ``owner``: resolves once the row is this owner's;
        fails with StorageConflict when another process holds a live one or it is done. A
        failed review, or a running one with no progress since ``stale``, is taken over."""
        return self.write(
            [
                (
                    "DELETE FROM reviews WHERE game_id = ? AND (status = 'failed' "
                    "OR (status = 'running' AND updated_at < ?))",
                    (game_id, stale),
                ),
                (
                    "INSERT INTO reviews (game_id, status, done, total, owner, updated_at) "
                    "VALUES (?, 'running', 0, 0, ?, ?)",
                    (game_id, owner, at),
                ),
            ]
        )

    def review_progress(
        self, game_id: str, owner: str, done: int, total: int, at: float
    ) -> Future[None]:
        """Record how far ``owner``'s review of ``game_id`` has come."""
        return self.write(
            [
                (
                    "UPDATE reviews SET done = ?, total = ?, updated_at = ? "
                    "WHERE game_id = ? AND owner = ? AND status = 'running'",
                    (done, total, at, game_id, owner),
                )
            ]
        )

    def finish_review(
        self,
        game_id: str,
        owner: str,
        review: dict[str, Any] | None,
        error: str | None,
        at: float,
    ) -> Future[None]:
        """Store ``owner``'s finished review (or, with ``error``, that it failed)."""
        status = "done" if review is not None else "failed"
        return self.write(
            [
                (
                    "UPDATE reviews SET status = ?, review = ?, error = ?, updated_at = ? "
                    "WHERE game_id = ? AND owner = ?",
                    (
                        status,
                        json.dumps(review) if review is not None else None,
                        error,
                        at,
                        game_id,
                        owner,
                    ),
                )
            ]
        )

    def load_review(self, game_id: str) -> Future[dict[str, Any] | None]:
        """The stored review row of ``game_id`` (the review parsed), or None."""

        def read(c: _Conn) -> dict[str, Any] | None:
            rows = c.query(
                "SELECT status, done, total, owner, review, error, updated_at FROM reviews "
                "WHERE game_id = ?",
                (game_id,),
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

        return self.read_async(read)

    # ------------------------------------------------------------------ loading games
    @staticmethod
    def _seats(conn: _Conn, game_id: str) -> list[StoredSeat]:
        """A game's seats with their credentials' hashes and the device keys of live sessions."""
        seats = [
            StoredSeat(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7] is not None, status=r[8])
            for r in conn.query(
                "SELECT seat, kind, name, bot, token_hash, user_id, invite_hash, claimed_at, status "
                "FROM seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        ]
        for key_hash, seat, session_id in conn.query(
            "SELECT k.key_hash, k.seat, k.session_id FROM seat_keys k "
            "JOIN sessions s ON s.id = k.session_id WHERE k.game_id = ?",
            (game_id,),
        ):
            if 0 <= int(seat) < len(seats):
                seats[int(seat)].keys[str(key_hash)] = str(session_id)
        return seats

    @staticmethod
    def _load_game(conn: _Conn, game_id: str) -> StoredGame | None:
        """Everything needed to rebuild one game: row, seats, last snapshot, actions after it."""
        rows = conn.query(
            "SELECT id, game, options, seed, version, over, rated FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            return None
        gid, game, options, seed, version, over, rated = rows[0]
        seats = Storage._seats(conn, game_id)
        clock_rows = conn.query("SELECT clock FROM games WHERE id = ?", (game_id,))
        clock = json.loads(clock_rows[0][0]) if clock_rows and clock_rows[0][0] else None
        snap = conn.query(
            "SELECT version, state FROM snapshots WHERE game_id = ? AND version <= ? "
            "ORDER BY version DESC LIMIT 1",
            (game_id, version),
        )
        snapshot = json.loads(snap[0][1]) if snap else None
        snapshot_version = int(snap[0][0]) if snap else 0
        actions = [
            (int(r[0]), int(r[1]), json.loads(r[2]))
            for r in conn.query(
                "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? "
                "AND version <= ? ORDER BY version",
                (game_id, snapshot_version, version),
            )
        ]
        return StoredGame(
            id=gid,
            game=game,
            options=json.loads(options),
            seed=int(seed),
            version=int(version),
            over=bool(over),
            seats=seats,
            snapshot=snapshot,
            snapshot_version=snapshot_version,
            actions=actions,
            clock=clock,
            clocks=None if clock is None else Storage._clocks(conn, game_id),
            rated=bool(rated),
        )

    # ------------------------------------------------------------------ clocks, leaving,
    # rematches and table chat (glade/server/clocks.py and social.py use these)
    @staticmethod
    def _clocks(conn: _Conn, game_id: str) -> list[tuple[float, float | None]]:
        return [
            (float(r[0]), None if r[1] is None else float(r[1]))
            for r in conn.query(
                "SELECT remaining, deadline FROM clocks WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        ]

    def clocks_of(self, game_id: str) -> Future[list[tuple[float, float | None]]]:
        """Each seat's (remaining seconds, running deadline or None) of a game with a clock."""
        return self.read_async(lambda c: self._clocks(c, game_id))

    @staticmethod
    def clock_statements(
        game_id: str,
        changes: dict[int, tuple[float, float | None]],
        mover: int | None = None,
        now: float = 0.0,
    ) -> list[Statement]:
        """Statements that set clocks (``changes``: seat -> (remaining, deadline)); with a human
        ``mover``, the write is refused unless that seat is still human and its clock had not
        run out at ``now`` (a timeout stored first wins)."""
        statements: list[Statement] = []
        if mover is not None:
            statements.append(
                Guard(
                    "UPDATE seats SET kind = kind WHERE game_id = ? AND seat = ? AND kind = 'human'",
                    (game_id, mover),
                )
            )
            statements.append(
                Guard(
                    "UPDATE clocks SET remaining = remaining WHERE game_id = ? AND seat = ? "
                    "AND (deadline IS NULL OR deadline > ?)",
                    (game_id, mover, now),
                )
            )
        for seat, (remaining, deadline) in sorted(changes.items()):
            statements.append(
                (
                    "UPDATE clocks SET remaining = ?, deadline = ? WHERE game_id = ? AND seat = ?",
                    (remaining, deadline, game_id, seat),
                )
            )
        return statements

    def overdue_clocks(self, now: float, limit: int = 100) -> Future[list[tuple[str, int]]]:
        """(game id, seat) of the running clocks whose deadline is ``now`` or earlier."""
        return self.read_async(
            lambda c: [
                (str(r[0]), int(r[1]))
                for r in c.query(
                    "SELECT game_id, seat FROM clocks WHERE deadline IS NOT NULL AND deadline <= ? "
                    "ORDER BY deadline LIMIT ?",
                    (now, limit),
                )
            ]
        )

    def take_over(
        self, game_id: str, seat: int, bot: str, status: str, now: float, clocked: bool
    ) -> Future[None]:
        """A bot takes a human seat over for the rest of the game (``status``: "timed out" or
        "left"). Refused with :class:`StorageConflict` unless the game is unfinished, the seat
        still human and, for a timeout, its clock still running past its deadline: whichever
        process stores it first is the only one."""
        statements: list[Statement] = [
            Guard(
                "UPDATE games SET updated_at = ? WHERE id = ? AND over = 0",
                (now, game_id),
            ),
            Guard(
                "UPDATE seats SET kind = 'bot', bot = ?, status = ? "
                "WHERE game_id = ? AND seat = ? AND kind = 'human'",
                (bot, status, game_id, seat),
            ),
        ]
        if status == "timed out":
            statements.append(
                Guard(
                    "UPDATE clocks SET remaining = 0, deadline = NULL WHERE game_id = ? "
                    "AND seat = ? AND deadline IS NOT NULL AND deadline <= ?",
                    (game_id, seat, now),
                )
            )
        elif clocked:
            statements.append(
                (
                    "UPDATE clocks SET deadline = NULL WHERE game_id = ? AND seat = ?",
                    (game_id, seat),
                )
            )
        statements += self._announce(game_id, "seats")
        return self.write(statements)

    def last_chat(self, game_id: str) -> Future[int]:
        """The number of a game's newest chat message (0: none yet)."""
        return self.read_async(
            lambda c: int(
                c.query("SELECT COALESCE(MAX(n), 0) FROM chat WHERE game_id = ?", (game_id,))[0][0]
            )
        )

    def add_chat(
        self, game_id: str, n: int, seat: int, name: str | None, text: str, at: float
    ) -> Future[None]:
        """Store chat message ``n`` of a game (StorageConflict: that number is taken)."""
        return self.write(
            [
                (
                    "INSERT INTO chat (game_id, n, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, n, seat, name, text, at),
                ),
                *self._announce(game_id, f"chat {n}"),
            ]
        )

    def chat(self, game_id: str, after: int = 0, limit: int = 200) -> Future[list[dict[str, Any]]]:
        """A game's chat messages numbered after ``after``, oldest first (the newest ``limit``)."""

        def read(c: _Conn) -> list[dict[str, Any]]:
            rows = c.query(
                "SELECT n, seat, name, text, at FROM chat WHERE game_id = ? AND n > ? "
                "ORDER BY n DESC LIMIT ?",
                (game_id, after, limit),
            )
            return [
                {"n": int(n), "seat": int(seat), "name": name, "text": text, "at": float(at)}
                for n, seat, name, text, at in reversed(rows)
            ]

        return self.read_async(read)

    def rematch_of(self, game_id: str) -> Future[tuple[str, int] | None]:
        """(new game id, offering seat) of a finished game's rematch, or None."""

        def read(c: _Conn) -> tuple[str, int] | None:
            rows = c.query("SELECT new_id, by_seat FROM rematches WHERE game_id = ?", (game_id,))
            return (str(rows[0][0]), int(rows[0][1])) if rows else None

        return self.read_async(read)

    def add_rematch(self, game_id: str, new: NewGame, by_seat: int, at: float) -> Future[None]:
        """Store the rematch table of a game (StorageConflict: the game already has one)."""
        return self.write(
            [
                *self._game_statements(new),
                (
                    "INSERT INTO rematches (game_id, new_id, by_seat, at) VALUES (?, ?, ?, ?)",
                    (game_id, new.id, by_seat, at),
                ),
                *self._announce(game_id, "rematch"),
            ]
        )

    def accept_rematch(
        self,
        game_id: str,
        new_id: str,
        seat: int,
        token_hash: str,
        clocks: dict[int, tuple[float, float | None]],
    ) -> Future[None]:
        """Give a rematch seat its credential (StorageConflict: it already has one), starting
        the clocks (``clocks``) when it was the last."""
        return self.write(
            [
                Guard(
                    "UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ? "
                    "AND kind = 'human' AND token_hash IS NULL",
                    (token_hash, new_id, seat),
                ),
                *self.clock_statements(new_id, clocks),
                *self._announce(game_id, "rematch"),
                *self._announce(new_id, "seats"),
            ]
        )

    # ------------------------------------------------------------------ ratings
    # OpenSkill ratings of rated tables (migration 4). A game is rated in one transaction that
    # also checks it was not rated before, serialised across processes by the database (SQLite:
    # BEGIN IMMEDIATE; PostgreSQL: an advisory lock), so it is rated exactly once.
    RATING_LOCK = 7212028

    def rate_game(
        self,
        game_id: str,
        places: list[int],
        prior: Callable[[str, str], Any],
        at: float,
    ) -> Future[list[dict[str, Any]] | None]:
        """Rate a finished rated game whose seats finished at ``places`` (1 = first).

        ``prior(game, identity)`` is the starting :class:`~glade.arena.ratings.Rating` of an
        identity rated for the first time. Answers each seat's change, or None when the game is
        not rated, not over, or was rated already (by this or any other process).
        """
        return self._rating_pool().submit(self._rate_game, game_id, places, prior, at)

    def _rating_pool(self) -> ThreadPoolExecutor:
        pool = getattr(self, "_ratings_pool", None)
        if pool is None:
            pool = self._ratings_pool = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="glade-db-rate"
            )
        return pool

    def _rate_game(
        self, game_id: str, places: list[int], prior: Callable[[str, str], Any], at: float
    ) -> list[dict[str, Any]] | None:
        from glade.arena.ratings import Rating, rate

        conn = _Conn(self.dialect)
        try:
            conn.begin()
            try:
                if self.kind == "postgresql":
                    conn.execute("SELECT pg_advisory_xact_lock(?)", (self.RATING_LOCK,))
                row = conn.query("SELECT game, rated, over FROM games WHERE id = ?", (game_id,))
                done = conn.query(
                    "SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (game_id,)
                )
                if not row or not int(row[0][1]) or not int(row[0][2]) or done:
                    conn.rollback()
                    return None
                game = str(row[0][0])
                seats = conn.query(
                    "SELECT seat, kind, bot, user_id FROM seats WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                )
                identities = [rating_identity(kind, bot, user) for _, kind, bot, user in seats]
                if (
                    None in identities
                    or len(set(identities)) != len(identities)
                    or len(places) != len(seats)
                ):
                    conn.rollback()
                    return None
                names = [str(i) for i in identities]
                found = {
                    str(r[0]): Rating(float(r[1]), float(r[2]), int(r[3]))
                    for r in conn.query(
                        "SELECT identity, mu, sigma, games FROM ratings WHERE game = ? "
                        f"AND identity IN ({', '.join('?' for _ in names)})",
                        (game, *names),
                    )
                }
                before = [found.get(n) or prior(game, n) for n in names]
                after = rate(before, places)
                out = []
                for (seat, *_), name, old, new, place in zip(
                    seats, names, before, after, places, strict=True
                ):
                    conn.execute(
                        "INSERT INTO ratings (game, identity, mu, sigma, games, updated_at) "
                        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game, identity) DO UPDATE SET "
                        "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                        "updated_at = excluded.updated_at",
                        (game, name, new.mu, new.sigma, new.games, at),
                    )
                    conn.execute(
                        "INSERT INTO rating_history (game_id, seat, game, identity, place, "
                        "players, mu_before, sigma_before, mu, sigma, at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            int(seat),
                            game,
                            name,
                            place,
                            len(names),
                            old.mu,
                            old.sigma,
                            new.mu,
                            new.sigma,
                            at,
                        ),
                    )
                    out.append(
                        {
                            "seat": int(seat),
                            "identity": name,
                            "place": place,
                            "before": old.to_json(),
                            "after": new.to_json(),
                        }
                    )
                conn.commit()
            except Exception:
                conn.rollback()
                raise
            return out
        finally:
            conn.close()

    def user_named(self, name: str) -> Future[tuple[str, str] | None]:
        """An account's ``(id, name)`` by its name in any case (None: no such account)."""

        def read(c: _Conn) -> tuple[str, str] | None:
            rows = c.query(
                "SELECT id, name FROM users WHERE LOWER(name) = LOWER(?) ORDER BY id LIMIT 1",
                (name,),
            )
            return (str(rows[0][0]), str(rows[0][1])) if rows else None

        return self.read_async(read)

    def unrated_finished_games(self) -> Future[list[str]]:
        """Rated games that are over but were not rated (a process stopped in between)."""
        return self.read_async(
            lambda c: [
                str(r[0])
                for r in c.query(
                    "SELECT g.id FROM games g WHERE g.rated = 1 AND g.over = 1 AND NOT EXISTS "
                    "(SELECT 1 FROM rating_history h WHERE h.game_id = g.id)"
                )
            ]
        )

    def ratings_of_game(self, game: str, limit: int) -> Future[list[dict[str, Any]]]:
        """The ``limit`` best identities of a game by ordinal (mu - 3 sigma), with user names."""

        def read(c: _Conn) -> list[dict[str, Any]]:
            rows = c.query(
                "SELECT r.identity, r.mu, r.sigma, r.games, r.updated_at, u.name FROM ratings r "
                "LEFT JOIN users u ON r.identity = ? || u.id WHERE r.game = ? "
                "ORDER BY r.mu - 3 * r.sigma DESC, r.identity LIMIT ?",
                (USER_PREFIX, game, limit),
            )
            return [
                {
                    "identity": str(r[0]),
                    "mu": float(r[1]),
                    "sigma": float(r[2]),
                    "games": int(r[3]),
                    "updated_at": float(r[4]),
                    "name": r[5],
                }
                for r in rows
            ]

        return self.read_async(read)

    def rating_profile(
        self, identity: str, limit: int, points: int = 1000
    ) -> Future[dict[str, Any]]:
        """An identity's ratings per game, its rating history (its newest ``points`` rated
        games, oldest first) and its ``limit`` recent games with their outcome."""

        def read(c: _Conn) -> dict[str, Any]:
            ratings = [
                {"game": str(r[0]), "mu": float(r[1]), "sigma": float(r[2]), "games": int(r[3])}
                for r in c.query(
                    "SELECT game, mu, sigma, games FROM ratings WHERE identity = ? ORDER BY game",
                    (identity,),
                )
            ]
            history = [
                {
                    "game_id": str(r[0]),
                    "game": str(r[1]),
                    "seat": int(r[2]),
                    "place": int(r[3]),
                    "players": int(r[4]),
                    "mu_before": float(r[5]),
                    "sigma_before": float(r[6]),
                    "mu": float(r[7]),
                    "sigma": float(r[8]),
                    "at": float(r[9]),
                }
                for r in c.query(
                    "SELECT game_id, game, seat, place, players, mu_before, sigma_before, mu, "
                    "sigma, at FROM rating_history WHERE identity = ? "
                    "ORDER BY at DESC, game_id DESC LIMIT ?",
                    (identity, points),
                )
            ][::-1]
            games: list[dict[str, Any]] = []
            user = identity.startswith(USER_PREFIX)
            if user or identity.startswith(BOT_PREFIX):  # a bot level: the rated games it played
                rows = c.query(
                    "SELECT g.id, g.game, g.over, g.rated, g.created_at, g.updated_at, s.seat, "
                    "g.options FROM seats s JOIN games g ON g.id = s.game_id "
                    + (
                        "WHERE s.user_id = ?"
                        if user
                        else "JOIN rating_history h ON h.game_id = s.game_id AND h.seat = s.seat "
                        "WHERE h.identity = ?"
                    )
                    + " ORDER BY g.updated_at DESC LIMIT ?",
                    (identity[len(USER_PREFIX) :] if user else identity, limit),
                )
                for gid, game, over, rated, created, updated, seat, options in rows:
                    players = c.query(
                        "SELECT s.seat, s.kind, s.name, s.bot, s.status FROM seats s "
                        "WHERE s.game_id = ? "
                        "ORDER BY s.seat",
                        (gid,),
                    )
                    final = None
                    if int(over):
                        snap = c.query(
                            "SELECT state FROM snapshots WHERE game_id = ? "
                            "ORDER BY version DESC LIMIT 1",
                            (gid,),
                        )
                        final = json.loads(snap[0][0]) if snap else None
                    games.append(
                        {
                            "id": str(gid),
                            "game": str(game),
                            "over": bool(int(over)),
                            "rated": bool(int(rated)),
                            "created_at": float(created),
                            "updated_at": float(updated),
                            "seat": int(seat),
                            "options": json.loads(options),
                            "seats": [
                                {
                                    "seat": int(p[0]),
                                    "kind": p[1],
                                    "name": p[2],
                                    "bot": p[3],
                                    "status": p[4],
                                }
                                for p in players
                            ],
                            "final": final,
                        }
                    )
            return {"ratings": ratings, "history": history, "games": games}

        return self.read_async(read)

    def table_ratings(
        self, game_id: str, game: str, identities: list[str]
    ) -> Future[dict[str, Any]]:
        """What a table's seats have at stake: the ``identities``' ratings in ``game`` now, and
        each seat's change in the game ``game_id`` once it was rated."""

        def read(c: _Conn) -> dict[str, Any]:
            now = {
                str(r[0]): (float(r[1]), float(r[2]), int(r[3]))
                for r in c.query(
                    "SELECT identity, mu, sigma, games FROM ratings WHERE game = ? AND identity "
                    f"IN ({', '.join('?' for _ in identities) or 'NULL'})",
                    (game, *identities),
                )
            }
            changes = {
                int(r[0]): (float(r[1]), float(r[2]), float(r[3]), float(r[4]))
                for r in c.query(
                    "SELECT seat, mu_before, sigma_before, mu, sigma FROM rating_history "
                    "WHERE game_id = ?",
                    (game_id,),
                )
            }
            return {"ratings": now, "changes": changes}

        return self.read_async(read)

    # ------------------------------------------------------------------ accounts
    # Users, their sessions, refused log-ins, seats claimed or held by an account and the device
    # keys of an account's seats. Passwords arrive here only as Argon2id hashes and cookies only
    # as SHA-256 hashes.
    def add_user(
        self, user_id: str, name: str, name_key: str, password_hash: str, at: float
    ) -> Future[None]:
        """A new account; StorageConflict when the (case-folded) name is taken."""
        return self.write(
            [
                (
                    "INSERT INTO users (id, name, name_key, password_hash, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (user_id, name, name_key, password_hash, at),
                )
            ]
        )

    def user_by_key(self, name_key: str) -> Future[tuple[str, str, str] | None]:
        """(id, name, password hash) of the account with this case-folded name."""

        def read(c: _Conn) -> tuple[str, str, str] | None:
            rows = c.query(
                "SELECT id, name, password_hash FROM users WHERE name_key = ?", (name_key,)
            )
            return (str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

        return self.read_async(read)

    def password_hash_of(self, user_id: str) -> Future[str | None]:
        def read(c: _Conn) -> str | None:
            rows = c.query("SELECT password_hash FROM users WHERE id = ?", (user_id,))
            return str(rows[0][0]) if rows else None

        return self.read_async(read)

    def set_password(self, user_id: str, password_hash: str) -> Future[None]:
        return self.write(
            [("UPDATE users SET password_hash = ? WHERE id = ?", (password_hash, user_id))]
        )

    def add_session(
        self, session_id: str, user_id: str, csrf: str, at: float, address: str
    ) -> Future[None]:
        return self.write(
            [
                (
                    "INSERT INTO sessions (id, user_id, csrf, created_at, last_seen, address) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (session_id, user_id, csrf, at, at, address),
                )
            ]
        )

    def session(self, session_id: str) -> Future[tuple[str, str, str, float] | None]:
        """(user id, user name, CSRF token, last seen) of a live session."""

        def read(c: _Conn) -> tuple[str, str, str, float] | None:
            rows = c.query(
                "SELECT s.user_id, u.name, s.csrf, s.last_seen FROM sessions s "
                "JOIN users u ON u.id = s.user_id WHERE s.id = ?",
                (session_id,),
            )
            if not rows:
                return None
            r = rows[0]
            return str(r[0]), str(r[1]), str(r[2]), float(r[3])

        return self.read_async(read)

    def touch_session(self, session_id: str, at: float) -> Future[None]:
        return self.write([("UPDATE sessions SET last_seen = ? WHERE id = ?", (at, session_id))])

    def sessions_of(self, user_id: str) -> Future[list[str]]:
        return self.read_async(
            lambda c: [
                str(r[0]) for r in c.query("SELECT id FROM sessions WHERE user_id = ?", (user_id,))
            ]
        )

    def games_keyed_by(self, session_ids: list[str]) -> Future[list[str]]:
        """The games in which these sessions hold device keys."""

        def read(c: _Conn) -> list[str]:
            found: set[str] = set()
            for sid in session_ids:
                found |= {
                    str(r[0])
                    for r in c.query(
                        "SELECT DISTINCT game_id FROM seat_keys WHERE session_id = ?", (sid,)
                    )
                }
            return sorted(found)

        return self.read_async(read)

    def delete_sessions(self, session_ids: list[str], games: list[str]) -> Future[None]:
        """End sessions and their device keys; ``games`` (where the keys were) hear of it."""
        statements: list[Statement] = []
        for sid in session_ids:
            statements.append(("DELETE FROM seat_keys WHERE session_id = ?", (sid,)))
            statements.append(("DELETE FROM sessions WHERE id = ?", (sid,)))
        for game_id in games:
            statements += self._announce(game_id, "keys")
        return self.write(statements)

    def expire_sessions(self, before: float) -> Future[None]:
        """Forget sessions unseen since ``before`` with their device keys."""
        return self.write(
            [
                (
                    "DELETE FROM seat_keys WHERE session_id IN "
                    "(SELECT id FROM sessions WHERE last_seen < ?)",
                    (before,),
                ),
                ("DELETE FROM sessions WHERE last_seen < ?", (before,)),
            ]
        )

    def record_failure(self, keys: list[str], at: float) -> Future[None]:
        return self.write(
            [("INSERT INTO login_failures (key, at) VALUES (?, ?)", (key, at)) for key in keys]
        )

    def failures_since(self, key: str, since: float) -> Future[tuple[int, float | None]]:
        """How many refused log-ins ``key`` had since ``since``, and when the oldest was."""

        def read(c: _Conn) -> tuple[int, float | None]:
            r = c.query(
                "SELECT COUNT(*), MIN(at) FROM login_failures WHERE key = ? AND at >= ?",
                (key, since),
            )[0]
            return int(r[0]), None if r[1] is None else float(r[1])

        return self.read_async(read)

    def forget_failures(self, key: str | None, before: float) -> Future[None]:
        """Drop one key's failures (a log-in succeeded), and everyone's older than ``before``."""
        statements: list[Statement] = [("DELETE FROM login_failures WHERE at < ?", (before,))]
        if key is not None:
            statements.append(("DELETE FROM login_failures WHERE key = ?", (key,)))
        return self.write(statements)

    def claim_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        token_hash: str,
        invite_hash: str | None,
        user_id: str | None,
        open_seats: int,
        at: float,
        extra: Sequence[Statement] = (),
    ) -> Future[None]:
        """A player claimed a seat: its new credential, the spent invite's hash, its account
        (``extra``: e.g. the clocks starting)."""
        return self.write(
            [
                *extra,
                (
                    "UPDATE seats SET name = ?, token_hash = ?, invite_hash = ?, user_id = ?, "
                    "claimed_at = ? WHERE game_id = ? AND seat = ?",
                    (name, token_hash, invite_hash, user_id, at, game_id, seat),
                ),
                (
                    "UPDATE games SET open_seats = ?, updated_at = ? WHERE id = ?",
                    (open_seats, at, game_id),
                ),
                *self._announce(game_id, "seats"),
            ]
        )

    def add_seat_key(
        self, key_hash: str, game_id: str, seat: int, session_id: str, at: float
    ) -> Future[None]:
        return self.write(
            [
                (
                    "INSERT INTO seat_keys (key_hash, game_id, seat, session_id, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (key_hash, game_id, seat, session_id, at),
                ),
                *self._announce(game_id, "keys"),
            ]
        )

    def games_of_user(self, user_id: str, limit: int) -> Future[list[tuple[str, bool]]]:
        """(game id, over) of the newest ``limit`` games in which the account holds a seat."""

        def read(c: _Conn) -> list[tuple[str, bool]]:
            rows = c.query(
                "SELECT g.id, g.over, MAX(g.updated_at) AS t FROM games g "
                "JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? "
                "GROUP BY g.id, g.over ORDER BY t DESC LIMIT ?",
                (user_id, limit),
            )
            return [(str(r[0]), bool(r[1])) for r in rows]

        return self.read_async(read)

    def last_moves(self, game_ids: list[str]) -> Future[dict[str, float]]:
        """When each game's last action was stored (games without one are left out)."""

        def read(c: _Conn) -> dict[str, float]:
            out: dict[str, float] = {}
            for gid in game_ids:
                r = c.query("SELECT MAX(at) FROM actions WHERE game_id = ?", (gid,))
                if r and r[0][0] is not None:
                    out[gid] = float(r[0][0])
            return out

        return self.read_async(read)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        closing = StorageError("the server is shutting down")
        for writes in self._pending.values():  # made in the last turn of a loop: not handed over
            _settle_all([(w, closing) for w in writes])
        self._pending.clear()
        rating_pool = getattr(self, "_ratings_pool", None)
        if rating_pool is not None:
            rating_pool.shutdown(wait=True)
        self._writes.put(None)
        self._writer.join(timeout=30)
        if self._listener is not None:
            self._listener.join(timeout=5)
        if self._reader is not None:
            reader = self._reader
            self._reader_pool.submit(reader.close).result()
            self._reader = None
        self._reader_pool.shutdown(wait=True)


USER_PREFIX = "user:"  # a user's rating identity is "user:<user id>"; a bot's, "bot:<level>"
BOT_PREFIX = "bot:"


def rating_identity(kind: str, bot: str | None, user_id: Any) -> str | None:
    """Who a seat of a rated game is for the ratings (None: a guest, who is never rated)."""
    if user_id is not None:  # an account's seat stays its own when a bot took it over
        return f"{USER_PREFIX}{user_id}"
    if kind == "bot" and bot:
        return BOT_PREFIX + (bot if ":" in bot or bot != "mcts" else "mcts:normal")
    return None


class _Write(NamedTuple):
    """One write for the writer thread: statements of one transaction and the future their
    commit settles (a concurrent one, or an event loop's)."""

    statements: list[Statement]
    future: Future[None] | asyncio.Future[None]


def _settle_all(outcomes: list[tuple[_Write, StorageError | None]]) -> None:
    """Settle written futures: concurrent ones here, an event loop's all in one call on it."""
    on_loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Any]]] = {}
    for write, error in outcomes:
        fut = write.future
        if isinstance(fut, Future):
            _settle(fut, error)
        else:
            on_loops.setdefault(fut.get_loop(), []).append((fut, error))
    for loop, settled in on_loops.items():
        with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle_on_loop, settled)


def _settle_on_loop(settled: list[tuple[asyncio.Future[None], Any]]) -> None:
    for fut, error in settled:
        if fut.done():  # its waiter gave up on it
            continue
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)


def _settle(fut: Future[None], error: Exception | None) -> None:
    """Resolve a write's future unless its waiter already gave up on it."""
    if fut.done():
        return
    with contextlib.suppress(Exception):  # cancelled between the check and now
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)


def env_default_url() -> str:
    """``GLADE_DB`` if set, else the SQLite file in the user's data directory."""
    url = os.environ.get("GLADE_DB")
    if url:
        return url
    return f"sqlite:///{default_sqlite_path()}"
