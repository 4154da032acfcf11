"""What the repositories hand over: a table as stored, a new one, a lobby entry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
    """Everything needed to rebuild one table: its row, seats, last snapshot and the actions
    after it (the database calls a table a game: its rows are in ``games``)."""

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
    """A table about to be stored: its row and its seats."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    over: bool
    client: str
    at: float
    seats: list[StoredSeat]
    clock: dict[str, Any] | None = None  # the clock option, stored with the table
    clocks: list[tuple[float, float | None]] | None = None  # (remaining, deadline) per seat
    rated: bool = False  # a rated table (ratings)


@dataclass
class OpenGame:
    """A lobby entry: an unfinished table with an open human seat."""

    id: str
    game: str
    options: dict[str, Any]
    created_at: float
    seats: list[StoredSeat]
