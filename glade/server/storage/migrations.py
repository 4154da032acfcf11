"""The schema: numbered migrations, each applied once and recorded in ``schema_migrations``.

A step is SQL text or a function of the connection (for what SQL alone cannot compute, e.g. the
confusable skeletons of existing user names). Never edit a released step: append a new one. On
PostgreSQL every step runs under one advisory lock, so processes starting together on a new
database apply each migration once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..names import NameRefused, case_mapped, skeletons
from .dialect import DbConnection

Step = str | Callable[[DbConnection], None]
MIGRATION_LOCK = 7212024


def name_skeletons(conn: DbConnection) -> None:
    """Migration 6: the skeletons of every existing account's name (see ``glade.server.names``).

    Existing look-alike accounts both keep working: accounts are taken oldest first, and a
    skeleton already held by an older account stays with it (the younger account keeps its other
    skeletons), so a new name that looks like either is refused from now on."""
    rows = conn.query("SELECT id, name FROM users ORDER BY created_at, id")
    held: set[str] = set()
    for user_id, name in rows:
        try:
            case_mapped(str(name))
            found = skeletons(str(name))
        except (NameRefused, UnicodeError):  # a name from before the PRECIS rules
            found = {str(name).casefold()}
        for skeleton in sorted(found - held):
            held.add(skeleton)
            conn.execute(
                "INSERT INTO name_skeletons (skeleton, user_id) VALUES (?, ?)", (skeleton, user_id)
            )


# Numbered schema migrations; a database records each number it has applied. Never edit a
# released step: append a new one.
MIGRATIONS: list[tuple[int, list[Step]]] = [
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
    (
        6,  # user names by PRECIS and UTS #39: each account's confusable skeletons, unique
        [
            """CREATE TABLE name_skeletons (
                skeleton TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id)
            )""",
            "CREATE INDEX name_skeletons_user ON name_skeletons (user_id)",
            name_skeletons,
        ],
    ),
    (
        7,  # limits taken as counted slots before the work they limit (log-ins, sign-ups)
        [
            """CREATE TABLE limit_slots (
                key TEXT PRIMARY KEY,
                since DOUBLE PRECISION NOT NULL,
                n INTEGER NOT NULL
            )""",
            "DROP TABLE login_failures",
        ],
    ),
    (
        8,  # ratings that cannot be farmed: where accounts were seen, rated games per pair a day
        [
            # kind "address" or "device"; value the SHA-256 of it
            """CREATE TABLE sightings (
                user_id TEXT NOT NULL REFERENCES users(id),
                kind TEXT NOT NULL,
                value TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (user_id, kind, value)
            )""",
            "CREATE INDEX sightings_value ON sightings (kind, value, at)",
            """CREATE TABLE rated_pairs (
                a TEXT NOT NULL,
                b TEXT NOT NULL,
                day INTEGER NOT NULL,
                n INTEGER NOT NULL,
                PRIMARY KEY (a, b, day)
            )""",
            # NULL: not decided yet; "rated", or the code of the reason it is not
            "ALTER TABLE games ADD COLUMN rating_decision TEXT",
        ],
    ),
    (
        9,  # rematch replies (#31): a seat's decline or acceptance once (the primary key), the
        # offer withdrawn only while no other seat accepted (both a guarded UPDATE of one row)
        [
            """CREATE TABLE rematch_replies (
                game_id TEXT NOT NULL REFERENCES rematches(game_id),
                seat INTEGER NOT NULL,
                reply TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game_id, seat)
            )""",
            "ALTER TABLE rematches ADD COLUMN accepted INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE rematches ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0",
            # the acceptances of the rematches offered before: every credentialed human seat
            # of the new table but the offerer's
            """UPDATE rematches SET accepted = (
                SELECT COUNT(*) FROM seats WHERE seats.game_id = rematches.new_id
                AND seats.kind = 'human' AND seats.token_hash IS NOT NULL) - 1""",
        ],
    ),
]
MIGRATIONS.sort(key=lambda step: step[0])  # applied by number, whatever order they were added in

SCHEMA_VERSION = max(number for number, _ in MIGRATIONS)


def migrate(conn: DbConnection) -> None:
    """Apply every migration the database has not recorded, in the order of their numbers."""
    postgres = conn.kind == "postgresql"
    conn.begin()
    try:
        if postgres:  # two servers starting at once on a new database
            conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        conn.commit()
    except Exception:
        conn.rollback()
        raise
    for number, steps in MIGRATIONS:
        conn.begin()
        try:
            if postgres:  # one migrator at a time across servers
                conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            done = conn.query("SELECT 1 FROM schema_migrations WHERE version = ?", (number,))
            if not done:
                for step in steps:
                    if isinstance(step, str):
                        conn.execute(step)
                    else:
                        step(conn)
                conn.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    (number, time.time()),
                )
            conn.commit()
        except Exception:
            conn.rollback()
            raise
