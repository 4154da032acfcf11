"""The rematches' repository: one rematch table per finished table (the primary key decides)."""

from __future__ import annotations

from concurrent.futures import Future

from .db import Database
from .dialect import Statement
from .records import NewGame
from .tables import new_table_statements


class RematchRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def of(self, table_id: str) -> Future[tuple[str, int] | None]:
        """(new table id, offering seat) of a finished table's rematch, or None."""
        return self.db.read(
            lambda c: next(
                (
                    (str(r[0]), int(r[1]))
                    for r in c.query(
                        "SELECT new_id, by_seat FROM rematches WHERE game_id = ?", (table_id,)
                    )
                ),
                None,
            )
        )

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

    def told(self, table_id: str) -> list[Statement]:
        """Statements telling the other processes that a rematch of ``table_id`` moved on (to
        add to the write that accepts it)."""
        return self.db.announce(table_id, "rematch")
