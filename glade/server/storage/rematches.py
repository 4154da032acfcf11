"""The rematches' repository: one rematch table per finished table (the primary key decides),
each seat's reply to it once (``rematch_replies``' primary key decides: an accepted seat cannot
decline, a declined one cannot accept), and the offer withdrawn only while no other seat accepted
(a guarded UPDATE of the rematch's row, which every acceptance updates too)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import NamedTuple

from .db import Database
from .dialect import DbConnection, Statement, in_list
from .records import NewGame
from .tables import new_table_statements
from .writer import Guard

ACCEPTED = "accepted"
DECLINED = "declined"


class StoredRematch(NamedTuple):
    """A finished table's rematch: its new table, the offering seat (of the finished table),
    whether the offer was withdrawn, and each other seat's reply so far (old seat numbers)."""

    new_id: str
    by: int
    withdrawn: bool
    replies: dict[int, str]


class RematchRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def called_off(self, table_ids: list[str]) -> Future[set[str]]:
        """Those of ``table_ids`` that are rematch tables which will never start: their offer was
        withdrawn or a seat declined it (a declined seat is never claimed)."""
        return self.db.read(
            lambda c: {
                str(r[0])
                for r in c.query(
                    "SELECT r.new_id FROM rematches r WHERE r.new_id IN "
                    f"({in_list(table_ids)}) AND (r.withdrawn = 1 OR EXISTS ("
                    "SELECT 1 FROM rematch_replies p WHERE p.game_id = r.game_id AND p.reply = ?))",
                    (*table_ids, DECLINED),
                )
            }
        )

    def of(self, table_id: str) -> Future[StoredRematch | None]:
        """A finished table's rematch, or None."""

        def read(c: DbConnection) -> StoredRematch | None:
            rows = c.query(
                "SELECT new_id, by_seat, withdrawn FROM rematches WHERE game_id = ?", (table_id,)
            )
            if not rows:
                return None
            replies = c.query(
                "SELECT seat, reply FROM rematch_replies WHERE game_id = ?", (table_id,)
            )
            new_id, by, withdrawn = rows[0]
            return StoredRematch(
                str(new_id), int(by), bool(withdrawn), {int(s): str(r) for s, r in replies}
            )

        return self.db.read(read)

    def add(self, table_id: str, new: NewGame, by_seat: int, at: float) -> Future[None]:
        """Store the rematch table of a table (StorageConflict: it already has one)."""
        return self.db.write(
            [
                *new_table_statements(new),
                (
                    "INSERT INTO rematches (game_id, new_id, by_seat, at) VALUES (?, ?, ?, ?)",
                    (table_id, new.id, by_seat, at),
                ),
                *self.db.announce(table_id, "rematch"),
            ]
        )

    def accepting(self, table_id: str, seat: int, at: float) -> list[Statement]:
        """Statements recording that ``seat`` accepted the rematch of ``table_id`` and telling
        the other processes (to add to the write that gives the seat its credential): the write
        is refused with StorageConflict if the seat declined or the offer was withdrawn."""
        return [
            (
                "INSERT INTO rematch_replies (game_id, seat, reply, at) VALUES (?, ?, ?, ?)",
                (table_id, seat, ACCEPTED, at),
            ),
            Guard(
                "UPDATE rematches SET accepted = accepted + 1 WHERE game_id = ? AND withdrawn = 0",
                (table_id,),
            ),
            *self.db.announce(table_id, "rematch"),
        ]

    def decline(self, table_id: str, seat: int, at: float) -> Future[None]:
        """``seat`` declines the rematch of ``table_id`` (StorageConflict: it had replied)."""
        return self.db.write(
            [
                (
                    "INSERT INTO rematch_replies (game_id, seat, reply, at) VALUES (?, ?, ?, ?)",
                    (table_id, seat, DECLINED, at),
                ),
                *self.db.announce(table_id, "rematch"),
            ]
        )

    def withdraw(self, table_id: str) -> Future[None]:
        """The offerer withdraws the rematch of ``table_id`` (StorageConflict: another seat
        accepted it, or it was withdrawn already)."""
        return self.db.write(
            [
                Guard(
                    "UPDATE rematches SET withdrawn = 1 "
                    "WHERE game_id = ? AND withdrawn = 0 AND accepted = 0",
                    (table_id,),
                ),
                *self.db.announce(table_id, "rematch"),
            ]
        )
