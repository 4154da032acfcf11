"""The clocks' repository: each seat's remaining time and running deadline, in the database so a
clock is the same for every process and survives restarts."""

from __future__ import annotations

from concurrent.futures import Future

from .db import Database
from .dialect import Statement
from .writer import Guard


class ClockRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def statements(
        table_id: str,
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
                    (table_id, mover),
                )
            )
            statements.append(
                Guard(
                    "UPDATE clocks SET remaining = remaining WHERE game_id = ? AND seat = ? "
                    "AND (deadline IS NULL OR deadline > ?)",
                    (table_id, mover, now),
                )
            )
        for seat, (remaining, deadline) in sorted(changes.items()):
            statements.append(
                (
                    "UPDATE clocks SET remaining = ?, deadline = ? WHERE game_id = ? AND seat = ?",
                    (remaining, deadline, table_id, seat),
                )
            )
        return statements

    @staticmethod
    def timed_out(table_id: str, seat: int, now: float) -> list[Statement]:
        """A seat's clock ran out: refused unless it still runs and its deadline has passed."""
        return [
            Guard(
                "UPDATE clocks SET remaining = 0, deadline = NULL WHERE game_id = ? "
                "AND seat = ? AND deadline IS NOT NULL AND deadline <= ?",
                (table_id, seat, now),
            )
        ]

    @staticmethod
    def stopped(table_id: str, seat: int) -> list[Statement]:
        """A seat's clock stops for good (its player left)."""
        return [
            (
                "UPDATE clocks SET deadline = NULL WHERE game_id = ? AND seat = ?",
                (table_id, seat),
            )
        ]

    def overdue(self, now: float, limit: int = 100) -> Future[list[tuple[str, int]]]:
        """(table id, seat) of the running clocks whose deadline is ``now`` or earlier."""
        return self.db.read(
            lambda c: [
                (str(r[0]), int(r[1]))
                for r in c.query(
                    "SELECT game_id, seat FROM clocks WHERE deadline IS NOT NULL AND deadline <= ? "
                    "ORDER BY deadline LIMIT ?",
                    (now, limit),
                )
            ]
        )
