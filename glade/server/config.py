"""Settings of one server: database, limits and bot thinking time (the bottom layer: it imports
nothing of the server's)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def default_sqlite_path() -> Path:
    """The SQLite file in the user's data directory."""
    from platformdirs import user_data_path  # the server extra's; `glade --help` needs none

    return user_data_path("glade", appauthor=False) / "glade.sqlite3"


def env_default_url() -> str:
    """``GLADE_DB`` if set, else the SQLite file in the user's data directory."""
    url = os.environ.get("GLADE_DB")
    if url:
        return url
    return f"sqlite:///{default_sqlite_path()}"


@dataclass
class Settings:
    """Everything ``glade serve`` can be told; the defaults suit a table among friends."""

    db: str = field(default_factory=env_default_url)
    # SQLite's synchronous pragma: FULL flushes the journal on every commit.
    sqlite_synchronous: str = "FULL"
    # A client (its IP address) may hold this many unfinished tables it created.
    max_games_per_client: int = 20
    # Requests and WebSocket messages a client may send per second (burst: twice that).
    messages_per_second: float = 20.0
    # Largest request body or WebSocket message accepted, in bytes.
    max_body_bytes: int = 16_384
    # Largest request line plus headers, in bytes (431 past it).
    max_header_bytes: int = 16_384
    # A request body must arrive within this many seconds of its headers (408 past it).
    body_seconds: float = 10.0
    # Open WebSockets one address may hold (close 1008 past it).
    sockets_per_client: int = 32
    # Thinking time of a bot seat per move, in seconds (search bots use it; random ignores it).
    bot_seconds: float = 1.0
    # Worker processes for bot seats: they think bot moves and nothing else.
    bot_workers: int = 2
    # Worker processes for analysis (hints and reviews), apart from the bot workers: a flood of
    # hints or reviews never queues a bot's move.
    hint_workers: int = 1
    # Thinking time of one hint, in seconds (None: the bot time, at most 2 s).
    hint_seconds: float | None = None
    # Hints being worked out or waiting, over all clients (503 past it), and per client (429).
    hint_queue: int = 4
    hints_per_client: int = 1
    # Reviews being worked out or waiting, over all clients (503 past it), and per client (429).
    review_queue: int = 4
    reviews_per_client: int = 1
    # A snapshot of the full state is stored every this many actions (and when a game ends).
    snapshot_every: int = 25
    # A table nobody touched for this many seconds leaves memory (it stays stored).
    table_idle_seconds: float = 600.0
    # Access log form ("common", "combined", "json" or a format of glade.server.api.accesslog's
    # fields); None: no access log.
    access_log: str | None = None
    # Lobby list length.
    lobby_limit: int = 50
    # Shortest base time of a real-time clock, in seconds (tests lower it).
    clock_min_seconds: float = 60.0
    # How often each process looks for clocks past their deadline, in seconds.
    clock_poll_seconds: float = 1.0
    # Rated games two accounts may play against each other per day (UTC); past it, unrated.
    rated_pair_games_per_day: int = 3
    # Accounts seen at one address or on one device within this many days never rate each other.
    related_days: float = 30.0
