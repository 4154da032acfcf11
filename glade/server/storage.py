"""Durable storage of tables: games, seats, the action log and periodic snapshots.

One writer thread owns the writing connection and commits whatever has queued up in one transaction
(group commit), so many tables share each disk flush and an action is acknowledged only once its
transaction has committed. Reads go through a second connection on their own thread. SQLite
(the default, WAL journal) and PostgreSQL (``postgresql://`` URLs, psycopg 3) speak the same SQL
here; the schema is created and upgraded by numbered migrations recorded in ``schema_migrations``.
"""

from __future__ import annotations

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any
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
]

SCHEMA_VERSION = max(number for number, _ in MIGRATIONS)


class StorageError(RuntimeError):
    """The database refused or failed a write; the action it carried was not stored."""


class StorageConflict(StorageError):
    """Another process stored that version of the game first (the database decided)."""


# PostgreSQL channel on which every committed change of a game is announced: "<game id> <what>"
CHANNEL = "glade_changes"


def _is_conflict(exc: BaseException) -> bool:
    """A unique-key violation: the row (e.g. a game's next version) is already there."""
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
        self._writes: queue.Queue[tuple[list[Statement], Future[None]] | None] = queue.Queue()
        self._writer = threading.Thread(
            target=self._write_loop, name="glade-db-writer", daemon=True
        )
        self._reader_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="glade-db-read")
        self._reader: _Conn | None = None
        self._closed = False
        self._listener: threading.Thread | None = None
        self._writer_conn = _Conn(self.dialect)
        self._writer.start()

    # ------------------------------------------------------------------ schema
    def _migrate(self, conn: _Conn) -> None:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        for number, statements in sorted(MIGRATIONS, key=lambda m: m[0]):  # by number
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
        self._writes.put((statements, fut))
        return fut

    def _write_loop(self) -> None:
        try:
            self._write_batches()
        finally:
            self._writer_conn.close()
            # anything still queued will never be written: say so instead of leaving it waiting
            while True:
                try:
                    item = self._writes.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    _settle(item[1], StorageError("the database writer stopped"))

    def _write_batches(self) -> None:
        conn = self._writer_conn
        while True:
            item = self._writes.get()
            if item is None:
                break
            batch = [item]
            stop = False
            while len(batch) < 256:
                try:
                    more = self._writes.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                self._commit_batch(conn, batch)
            except Exception as exc:  # noqa: BLE001 - e.g. the connection broke: try a new one
                for _, fut in batch:
                    _settle(fut, StorageError(f"the database write failed: {exc}"))
                with contextlib.suppress(Exception):
                    conn.close()
                try:
                    conn = self._writer_conn = _Conn(self.dialect)
                except Exception:  # noqa: BLE001 - retried on the next batch
                    time.sleep(0.5)
            if stop:
                break

    def _commit_batch(self, conn: _Conn, batch: list[tuple[list[Statement], Future[None]]]) -> None:
        try:
            with conn.batch():
                conn.begin()
                for statements, _ in batch:
                    for sql, params in statements:
                        conn.execute(sql, params)
                conn.commit()
        except Exception as exc:  # noqa: BLE001 - isolate the failing write below
            conn.rollback()
            if len(batch) > 1:
                for one in batch:
                    self._commit_batch(conn, [one])
                return
            error: StorageError = (
                StorageConflict(f"another process stored it first: {exc}")
                if _is_conflict(exc)
                else StorageError(f"the database refused the write: {exc}")
            )
            _settle(batch[0][1], error)
            return
        for _, fut in batch:
            _settle(fut, None)

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
        statements: list[Statement] = [
            (
                "INSERT INTO games (id, game, options, seed, version, over, open_seats, client, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
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
        return self.write(statements)

    def record_action(
        self,
        game_id: str,
        version: int,
        seat: int,
        action: str,
        over: bool,
        at: float,
        snapshot: str | None = None,
    ) -> Future[None]:
        """Store action ``version`` of a game (JSON text) and the game's new version, with a
        snapshot of the whole state after it when one is given."""
        statements: list[Statement] = [
            (
                "INSERT INTO actions (game_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, seat, action, at),
            ),
            (
                "UPDATE games SET version = ?, over = ?, updated_at = ? WHERE id = ?",
                (version, int(over), at, game_id),
            ),
        ]
        if snapshot is not None:
            statements.append(
                (
                    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                    (game_id, version, snapshot),
                )
            )
        statements += self._announce(game_id, str(version))
        return self.write(statements)

    def _announce(self, game_id: str, what: str) -> list[Statement]:
        """PostgreSQL: tell every listening process, at commit, that the game changed."""
        if self.kind != "postgresql":
            return []
        return [("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {what}"))]

    def name_seat(
        self, game_id: str, seat: int, name: str, token_hash: str, open_seats: int, at: float
    ) -> Future[None]:
        """A player took (or named) an open seat."""
        return self.write(
            [
                (
                    "UPDATE seats SET name = ?, token_hash = ? WHERE game_id = ? AND seat = ?",
                    (name, token_hash, game_id, seat),
                ),
                (
                    "UPDATE games SET open_seats = ?, updated_at = ? WHERE id = ?",
                    (open_seats, at, game_id),
                ),
                *self._announce(game_id, "seats"),
            ]
        )

    def changes_since(
        self, game_id: str, version: int
    ) -> Future[tuple[list[StoredSeat], list[tuple[int, int, dict[str, Any]]]]]:
        """A game's seats now and its actions after ``version`` (another process stored them)."""

        def read(c: _Conn) -> tuple[list[StoredSeat], list[tuple[int, int, dict[str, Any]]]]:
            seats = [
                StoredSeat(int(r[0]), r[1], r[2], r[3], r[4])
                for r in c.query(
                    "SELECT seat, kind, name, bot, token_hash FROM seats WHERE game_id = ? "
                    "ORDER BY seat",
                    (game_id,),
                )
            ]
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
        commits, and ``reconnected()`` after the listening connection was lost and came back
        (changes may have been missed). SQLite: nothing (one process)."""
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
                    StoredSeat(int(r[0]), r[1], r[2], r[3], None)
                    for r in c.query(
                        "SELECT seat, kind, name, bot FROM seats WHERE game_id = ? ORDER BY seat",
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
    def _load_game(conn: _Conn, game_id: str) -> StoredGame | None:
        """Everything needed to rebuild one game: row, seats, last snapshot, actions after it."""
        rows = conn.query(
            "SELECT id, game, options, seed, version, over FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            return None
        gid, game, options, seed, version, over = rows[0]
        seats = [
            StoredSeat(int(r[0]), r[1], r[2], r[3], r[4])
            for r in conn.query(
                "SELECT seat, kind, name, bot, token_hash FROM seats WHERE game_id = ? "
                "ORDER BY seat",
                (game_id,),
            )
        ]
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
        )

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._writes.put(None)
        self._writer.join(timeout=30)
        if self._listener is not None:
            self._listener.join(timeout=5)
        if self._reader is not None:
            reader = self._reader
            self._reader_pool.submit(reader.close).result()
            self._reader = None
        self._reader_pool.shutdown(wait=True)


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
