"""The ratings' repository: OpenSkill ratings per identity and game, their history, and what
keeps them from being farmed (where accounts were seen, rated games per pair of accounts a day,
each rated table's decision).

No rating maths here (``glade.server.features.ratings`` has it): a table is rated by one write
that records the new ratings only if every rating it started from is still the stored one (a
conditional UPDATE on each identity's game count, an INSERT for a new identity) and only if the
table has no rating history yet (its primary key): the database decides, so a table is rated
exactly once whichever processes try, and two tables sharing a player never both write over the
same starting rating.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from .db import Database
from .dialect import DbConnection, Statement, in_list
from .writer import Guard

USER_PREFIX = "user:"  # a user's rating identity is "user:<user id>"; a bot's, "bot:<level>"
BOT_PREFIX = "bot:"
RATED = "rated"  # a table's rating decision when it counts (else the reason's code)


def rating_identity(kind: str, bot: str | None, user_id: str | None) -> str | None:
    """Who a seat of a rated table is for the ratings (None: a guest, who is never rated)."""
    if user_id is not None:  # an account's seat stays its own when a bot took it over
        return f"{USER_PREFIX}{user_id}"
    if kind == "bot" and bot:
        return BOT_PREFIX + (bot if ":" in bot or bot != "mcts" else "mcts:normal")
    return None


@dataclass
class RatedSeat:
    """One seat's line of a rating: who, its place, its rating before and after."""

    seat: int
    identity: str
    place: int
    players: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    games: int  # the identity's rated games after this one


@dataclass
class StoredRating:
    mu: float
    sigma: float
    games: int


class RatingRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def of(self, game: str, identities: Sequence[str]) -> Future[dict[str, StoredRating]]:
        """The stored ratings of ``identities`` in ``game`` (a new identity is missing)."""
        return self.db.read(
            lambda c: {
                str(r[0]): StoredRating(float(r[1]), float(r[2]), int(r[3]))
                for r in c.query(
                    "SELECT identity, mu, sigma, games FROM ratings WHERE game = ? "
                    f"AND identity IN ({in_list(identities)})",
                    (game, *identities),
                )
            }
        )

    def table_row(self, table_id: str) -> Future[tuple[str, bool, bool, str | None] | None]:
        """(game, rated, over, rating decision) of a table, or None."""

        def read(c: DbConnection) -> tuple[str, bool, bool, str | None] | None:
            rows = c.query(
                "SELECT game, rated, over, rating_decision FROM games WHERE id = ?", (table_id,)
            )
            if not rows:
                return None
            game, rated, over, decision = rows[0]
            return str(game), bool(int(rated)), bool(int(over)), decision

        return self.db.read(read)

    def record(
        self,
        table_id: str,
        game: str,
        seats: Sequence[RatedSeat],
        started: dict[str, StoredRating | None],
        at: float,
    ) -> Future[None]:
        """Store a table's rating: each seat's history line and each identity's new rating.
        StorageConflict when the table was rated already, is not over or not decided rated, or
        a rating it started from (``started``: None for an identity new to ``game``) changed."""
        statements: list[Statement] = [
            Guard(
                "UPDATE games SET rated = rated WHERE id = ? AND rated = 1 AND over = 1 "
                "AND rating_decision = ?",
                (table_id, RATED),
            )
        ]
        for s in seats:
            before = started[s.identity]
            if before is None:
                statements.append(
                    (
                        "INSERT INTO ratings (game, identity, mu, sigma, games, updated_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (game, s.identity, s.mu, s.sigma, s.games, at),
                    )
                )
            else:
                statements.append(
                    Guard(
                        "UPDATE ratings SET mu = ?, sigma = ?, games = ?, updated_at = ? "
                        "WHERE game = ? AND identity = ? AND games = ?",
                        (s.mu, s.sigma, s.games, at, game, s.identity, before.games),
                    )
                )
            statements.append(
                (
                    "INSERT INTO rating_history (game_id, seat, game, identity, place, "
                    "players, mu_before, sigma_before, mu, sigma, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table_id,
                        s.seat,
                        game,
                        s.identity,
                        s.place,
                        s.players,
                        s.mu_before,
                        s.sigma_before,
                        s.mu,
                        s.sigma,
                        at,
                    ),
                )
            )
        return self.db.write(statements)

    def is_rated(self, table_id: str) -> Future[bool]:
        """Whether a table's rating is stored."""
        return self.db.read(
            lambda c: bool(
                c.query("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (table_id,))
            )
        )

    # ------------------------------------------------------------------ farming
    def decide(
        self,
        table_id: str,
        decision: str,
        pairs: Sequence[tuple[str, str]] = (),
        day: int = 0,
        per_day: int = 0,
    ) -> Future[None]:
        """Record whether a rated table counts (``decision``: RATED or the reason's code), once:
        StorageConflict when it was decided already, or, for RATED, when a pair of its accounts
        (``pairs``, each ``(a, b)`` with ``a < b``) already had ``per_day`` rated tables on
        ``day``; otherwise each pair's count of the day goes up by one in the same write."""
        statements: list[Statement] = [
            Guard(
                "UPDATE games SET rating_decision = ? WHERE id = ? AND rating_decision IS NULL",
                (decision, table_id),
            )
        ]
        if decision == RATED:
            for a, b in pairs:
                statements.append(
                    Guard(
                        "INSERT INTO rated_pairs (a, b, day, n) VALUES (?, ?, ?, 1) "
                        "ON CONFLICT (a, b, day) DO UPDATE SET n = rated_pairs.n + 1 "
                        "WHERE rated_pairs.n < ?",
                        (a, b, day, per_day),
                    )
                )
        return self.db.write(statements)

    def decision_of(self, table_id: str) -> Future[str | None]:
        """A rated table's decision (None: not decided yet)."""
        return self.db.read(
            lambda c: next(
                (
                    None if r[0] is None else str(r[0])
                    for r in c.query("SELECT rating_decision FROM games WHERE id = ?", (table_id,))
                ),
                None,
            )
        )

    def pair_counts(self, pairs: Sequence[tuple[str, str]], day: int) -> Future[int]:
        """The most rated tables any of these pairs of accounts had on ``day``."""

        def read(c: DbConnection) -> int:
            most = 0
            for a, b in pairs:
                rows = c.query(
                    "SELECT n FROM rated_pairs WHERE a = ? AND b = ? AND day = ?", (a, b, day)
                )
                if rows:
                    most = max(most, int(rows[0][0]))
            return most

        return self.db.read(read)

    def related(self, user_ids: Sequence[str], since: float) -> Future[list[tuple[str, str, str]]]:
        """(a, b, kind) for each pair of these accounts seen at one address or on one device
        (``kind``) at or after ``since``, ``a < b``."""

        def read(c: DbConnection) -> list[tuple[str, str, str]]:
            marks = in_list(user_ids)
            rows = c.query(
                "SELECT DISTINCT a.user_id, b.user_id, a.kind FROM sightings a "
                "JOIN sightings b ON a.kind = b.kind AND a.value = b.value "
                f"AND a.user_id < b.user_id WHERE a.user_id IN ({marks}) "
                f"AND b.user_id IN ({marks}) AND a.at >= ? AND b.at >= ? "
                "ORDER BY a.user_id, b.user_id, a.kind",
                (*user_ids, *user_ids, since, since),
            )
            return [(str(a), str(b), str(kind)) for a, b, kind in rows]

        return self.db.read(read)

    def unrated_finished(self) -> Future[list[str]]:
        """Rated tables that are over but were not rated (a process stopped in between), except
        those decided unrated."""
        return self.db.read(
            lambda c: [
                str(r[0])
                for r in c.query(
                    "SELECT g.id FROM games g WHERE g.rated = 1 AND g.over = 1 AND NOT EXISTS "
                    "(SELECT 1 FROM rating_history h WHERE h.game_id = g.id) "
                    "AND (g.rating_decision IS NULL OR g.rating_decision = 'rated')"
                )
            ]
        )

    def leaderboard(self, game: str, limit: int) -> Future[list[dict[str, Any]]]:
        """The ``limit`` best identities of a game by ordinal (mu - 3 sigma), with user names."""

        def read(c: DbConnection) -> list[dict[str, Any]]:
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

        return self.db.read(read)

    def profile(self, identity: str, limit: int, points: int = 1000) -> Future[dict[str, Any]]:
        """An identity's ratings per game, its rating history (its newest ``points`` rated
        games, oldest first) and its ``limit`` recent games with their outcome."""

        def read(c: DbConnection) -> dict[str, Any]:
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

        return self.db.read(read)

    def at_table(self, table_id: str, game: str, identities: list[str]) -> Future[dict[str, Any]]:
        """What a table's seats have at stake: the ``identities``' ratings in ``game`` now, and
        each seat's change in the game ``table_id`` once it was rated."""

        def read(c: DbConnection) -> dict[str, Any]:
            now = {
                str(r[0]): (float(r[1]), float(r[2]), int(r[3]))
                for r in c.query(
                    "SELECT identity, mu, sigma, games FROM ratings WHERE game = ? AND identity "
                    f"IN ({in_list(identities)})",
                    (game, *identities),
                )
            }
            changes = {
                int(r[0]): (float(r[1]), float(r[2]), float(r[3]), float(r[4]))
                for r in c.query(
                    "SELECT seat, mu_before, sigma_before, mu, sigma FROM rating_history "
                    "WHERE game_id = ?",
                    (table_id,),
                )
            }
            return {"ratings": now, "changes": changes}

        return self.db.read(read)
