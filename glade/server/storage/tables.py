"""The tables' repository: rows of ``games``, their seats, actions, snapshots and device keys.

Every accepted action is written with the table's new version (and a snapshot now and then) in
one transaction before it is answered; a seat is claimed by a conditional UPDATE that only one
process can win.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from .db import Database
from .dialect import DbConnection, Statement, in_list
from .records import NewGame, OpenGame, StoredGame, StoredSeat
from .writer import Guard


def new_table_statements(game: NewGame) -> list[Statement]:
    """The statements that store a new table and its seats (version 0)."""
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
                "INSERT INTO seats (game_id, seat, kind, name, bot, token_hash, user_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.id, s.seat, s.kind, s.name, s.bot, s.token_hash, s.user_id),
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


def read_seats(conn: DbConnection, table_id: str) -> list[StoredSeat]:
    """A table's seats with their credentials' hashes and the device keys of live sessions."""
    seats = [
        StoredSeat(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7] is not None, status=r[8])
        for r in conn.query(
            "SELECT seat, kind, name, bot, token_hash, user_id, invite_hash, claimed_at, status "
            "FROM seats WHERE game_id = ? ORDER BY seat",
            (table_id,),
        )
    ]
    for key_hash, seat, session_id in conn.query(
        "SELECT k.key_hash, k.seat, k.session_id FROM seat_keys k "
        "JOIN sessions s ON s.id = k.session_id WHERE k.game_id = ?",
        (table_id,),
    ):
        if 0 <= int(seat) < len(seats):
            seats[int(seat)].keys[str(key_hash)] = str(session_id)
    return seats


def read_clocks(conn: DbConnection, table_id: str) -> list[tuple[float, float | None]]:
    return [
        (float(r[0]), None if r[1] is None else float(r[1]))
        for r in conn.query(
            "SELECT remaining, deadline FROM clocks WHERE game_id = ? ORDER BY seat",
            (table_id,),
        )
    ]


def read_table(conn: DbConnection, table_id: str) -> StoredGame | None:
    """Everything needed to rebuild one table: row, seats, last snapshot, actions after it."""
    rows = conn.query(
        "SELECT id, game, options, seed, version, over, rated, clock FROM games WHERE id = ?",
        (table_id,),
    )
    if not rows:
        return None
    gid, game, options, seed, version, over, rated, clock_text = rows[0]
    seats = read_seats(conn, table_id)
    clock = json.loads(clock_text) if clock_text else None
    snap = conn.query(
        "SELECT version, state FROM snapshots WHERE game_id = ? AND version <= ? "
        "ORDER BY version DESC LIMIT 1",
        (table_id, version),
    )
    snapshot = json.loads(snap[0][1]) if snap else None
    snapshot_version = int(snap[0][0]) if snap else 0
    actions = [
        (int(r[0]), int(r[1]), json.loads(r[2]))
        for r in conn.query(
            "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? "
            "AND version <= ? ORDER BY version",
            (table_id, snapshot_version, version),
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
        clocks=None if clock is None else read_clocks(conn, table_id),
        rated=bool(rated),
    )


class TableRepository:
    """Tables as stored (the ``games`` rows and what hangs on them)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, game: NewGame) -> Future[None]:
        """Store a new table and its seats (version 0) in one transaction."""
        return self.db.write(new_table_statements(game))

    def record_action(
        self,
        table_id: str,
        version: int,
        seat: int,
        action: str,
        over: bool,
        at: float,
        snapshot: str | None = None,
        extra: Sequence[Statement] = (),
    ) -> asyncio.Future[None]:
        """Store action ``version`` of a table (JSON text) and the table's new version, with a
        snapshot of the whole state after it when one is given (``extra``: more statements of
        the same transaction, e.g. the clocks'). Called on the event loop (``write_soon``)."""
        statements: list[Statement] = [
            (
                "INSERT INTO actions (game_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, version, seat, action, at),
            ),
            # ``over`` only once, with the last action: an UPDATE that names an indexed column
            # rewrites its index entries even to the same value (a third more pages written)
            (
                "UPDATE games SET version = ?, over = 1, updated_at = ? WHERE id = ?"
                if over
                else "UPDATE games SET version = ?, updated_at = ? WHERE id = ?",
                (version, at, table_id),
            ),
        ]
        if snapshot is not None:
            statements.append(
                (
                    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                    (table_id, version, snapshot),
                )
            )
        statements += extra
        # the action rides along (``<version> <seat> <action>``) so that the other processes
        # need not read it back; NOTIFY payloads stop at 8000 bytes: a longer one says only
        # the version and is read back
        told = f"{version} {seat} {action}"
        statements += self.db.announce(table_id, told if len(told) < 7000 else str(version))
        return self.db.write_soon(statements)

    def changes_since(
        self, table_id: str, version: int
    ) -> Future[tuple[list[StoredSeat], list[tuple[int, int, dict[str, Any]]]]]:
        """A table's seats now and its actions after ``version`` (another process stored them)."""

        def read(c: DbConnection) -> tuple[list[StoredSeat], list[tuple[int, int, dict[str, Any]]]]:
            seats = read_seats(c, table_id)
            actions = [
                (int(r[0]), int(r[1]), json.loads(r[2]))
                for r in c.query(
                    "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? "
                    "ORDER BY version",
                    (table_id, version),
                )
            ]
            return seats, actions

        return self.db.read(read)

    def clocks_of(self, table_id: str) -> Future[list[tuple[float, float | None]]]:
        """Each seat's (remaining seconds, running deadline or None) of a table with a clock."""
        return self.db.read(lambda c: read_clocks(c, table_id))

    def load(self, table_id: str) -> Future[StoredGame | None]:
        """Everything needed to rebuild one table (None: no such table)."""
        return self.db.read(lambda c: read_table(c, table_id))

    def unfinished_of(self, client: str) -> Future[int]:
        """How many unfinished tables ``client`` created."""
        return self.db.read(
            lambda c: int(
                c.query("SELECT COUNT(*) FROM games WHERE client = ? AND over = 0", (client,))[0][0]
            )
        )

    def unfinished_with_bots(self) -> Future[list[str]]:
        """The ids of unfinished tables that have a bot seat."""
        return self.db.read(
            lambda c: [
                str(r[0])
                for r in c.query(
                    "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
                    "WHERE g.over = 0 AND s.kind = 'bot'"
                )
            ]
        )

    def open_tables(self, limit: int) -> Future[list[OpenGame]]:
        """The newest ``limit`` unfinished tables with an open human seat (tokens left out)."""

        def read(c: DbConnection) -> list[OpenGame]:
            rows = c.query(
                "SELECT id, game, options, created_at FROM games WHERE open_seats > 0 AND over = 0 "
                "ORDER BY created_at DESC LIMIT ?",
                (limit,),
            )
            out = []
            for gid, game, options, created in rows:
                seats = [
                    StoredSeat(int(r[0]), r[1], r[2], r[3], None, r[4], status=r[5])
                    for r in c.query(
                        "SELECT seat, kind, name, bot, user_id, status FROM seats "
                        "WHERE game_id = ? ORDER BY seat",
                        (gid,),
                    )
                ]
                out.append(OpenGame(gid, game, json.loads(options), float(created), seats))
            return out

        return self.db.read(read)

    def history(self, table_id: str, upto: int) -> Future[list[dict[str, Any]]]:
        """Every stored action of a table up to version ``upto``, in order."""
        return self.db.read(
            lambda c: [
                {"version": int(v), "seat": int(s), "action": json.loads(a), "at": float(t)}
                for v, s, a, t in c.query(
                    "SELECT version, seat, action, at FROM actions WHERE game_id = ? "
                    "AND version <= ? ORDER BY version",
                    (table_id, upto),
                )
            ]
        )

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        invite_hash: str | None,
        user_id: str | None,
        expected: tuple[str | None, str | None],
        was_open: bool,
        at: float,
        extra: Sequence[Statement] = (),
    ) -> Future[None]:
        """A player claimed a seat: its name, new credential, the spent invite's hash and its
        account (``extra``: e.g. the clocks starting). One conditional UPDATE: refused with
        StorageConflict unless the seat still has the credential and account it had when the
        claim was judged (``expected``), so of two claims of one invite, on any processes,
        exactly one is stored."""
        token_before, user_before = expected
        return self.db.write(
            [
                Guard(
                    "UPDATE seats SET name = ?, token_hash = ?, invite_hash = ?, user_id = ?, "
                    "claimed_at = ? WHERE game_id = ? AND seat = ? AND kind = 'human' "
                    "AND token_hash = ? AND COALESCE(user_id, '') = ?",
                    (
                        name,
                        token_hash,
                        invite_hash,
                        user_id,
                        at,
                        table_id,
                        seat,
                        token_before,
                        user_before or "",
                    ),
                ),
                (
                    "UPDATE games SET open_seats = open_seats - ?, updated_at = ? WHERE id = ?",
                    (1 if was_open else 0, at, table_id),
                ),
                *extra,
                *self.db.announce(table_id, "seats"),
            ]
        )

    def accept_seat(
        self,
        table_id: str,
        seat: int,
        token_hash: str,
        user_id: str | None,
        extra: Sequence[Statement] = (),
    ) -> Future[None]:
        """A named seat still without a credential (a rematch's) gets one: refused with
        StorageConflict when it already has one, so it is given once."""
        return self.db.write(
            [
                Guard(
                    "UPDATE seats SET token_hash = ?, user_id = COALESCE(user_id, ?) "
                    "WHERE game_id = ? AND seat = ? AND kind = 'human' AND token_hash IS NULL",
                    (token_hash, user_id, table_id, seat),
                ),
                *extra,
                *self.db.announce(table_id, "seats"),
            ]
        )

    def take_over(
        self,
        table_id: str,
        seat: int,
        bot: str,
        status: str,
        now: float,
        extra: Sequence[Statement] = (),
    ) -> Future[None]:
        """A bot takes a human seat over for the rest of the game (``status``: "timed out" or
        "left"). Refused with :class:`StorageConflict` unless the table is unfinished and the
        seat still human (``extra``: the clocks' guards and changes): whichever process stores
        it first is the only one."""
        return self.db.write(
            [
                Guard(
                    "UPDATE games SET updated_at = ? WHERE id = ? AND over = 0",
                    (now, table_id),
                ),
                Guard(
                    "UPDATE seats SET kind = 'bot', bot = ?, status = ? "
                    "WHERE game_id = ? AND seat = ? AND kind = 'human'",
                    (bot, status, table_id, seat),
                ),
                *extra,
                *self.db.announce(table_id, "seats"),
            ]
        )

    def add_seat_key(
        self, key_hash: str, table_id: str, seat: int, session_id: str, at: float
    ) -> Future[None]:
        return self.db.write(
            [
                (
                    "INSERT INTO seat_keys (key_hash, game_id, seat, session_id, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (key_hash, table_id, seat, session_id, at),
                ),
                *self.db.announce(table_id, "keys"),
            ]
        )

    def keyed_by(self, session_ids: list[str]) -> Future[list[str]]:
        """The tables in which these sessions hold device keys."""
        return self.db.read(
            lambda c: sorted(
                {
                    str(r[0])
                    for r in c.query(
                        "SELECT DISTINCT game_id FROM seat_keys WHERE session_id IN "
                        f"({in_list(session_ids)})",
                        tuple(session_ids),
                    )
                }
            )
        )

    def of_user(self, user_id: str, limit: int) -> Future[list[tuple[str, bool]]]:
        """(table id, over) of the newest ``limit`` tables in which the account holds a seat."""

        def read(c: DbConnection) -> list[tuple[str, bool]]:
            rows = c.query(
                "SELECT g.id, g.over, MAX(g.updated_at) AS t FROM games g "
                "JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? "
                "GROUP BY g.id, g.over ORDER BY t DESC LIMIT ?",
                (user_id, limit),
            )
            return [(str(r[0]), bool(r[1])) for r in rows]

        return self.db.read(read)

    def last_moves(self, table_ids: list[str]) -> Future[dict[str, float]]:
        """When each table's last action was stored (tables without one are left out)."""

        def read(c: DbConnection) -> dict[str, float]:
            out: dict[str, float] = {}
            for gid in table_ids:
                r = c.query("SELECT MAX(at) FROM actions WHERE game_id = ?", (gid,))
                if r and r[0][0] is not None:
                    out[gid] = float(r[0][0])
            return out

        return self.db.read(read)
