"""Durable storage of the server: the database engine (dialects, migrations, the group-commit
writer, the reader, the listener) and one small repository per aggregate (tables, clocks, chat,
rematches, reviews, ratings, users, sessions, limits). The bottom layer above the settings: it
imports nothing of the server but ``config`` and ``names``."""

from __future__ import annotations

from .dialect import Statement, dialect_for
from .engine import Storage
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .records import NewGame, OpenGame, StoredGame, StoredSeat
from .rematches import ACCEPTED, DECLINED, StoredRematch
from .writer import Guard, StorageConflict, StorageError

__all__ = [
    "ACCEPTED",
    "DECLINED",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Guard",
    "NewGame",
    "OpenGame",
    "Statement",
    "Storage",
    "StorageConflict",
    "StorageError",
    "StoredGame",
    "StoredRematch",
    "StoredSeat",
    "dialect_for",
]
