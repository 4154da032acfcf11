"""``glade serve``: run the web table with uvicorn."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from glade.extras import MissingExtra, missing_extra

from .config import Settings
from .storage import dialect_for, env_default_url


def parser(prog: str = "glade serve") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description="Host online tables of both games.")
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The flags of ``glade serve`` (also used by ``glade.cli`` for its subcommand)."""
    defaults = Settings(db="")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument(
        "--db", default=None, help="sqlite:///PATH (default: user data dir) or postgresql://…"
    )
    p.add_argument(
        "--max-games-per-client",
        type=int,
        default=defaults.max_games_per_client,
        help="unfinished games one address may have created",
    )
    p.add_argument(
        "--messages-per-second",
        type=float,
        default=defaults.messages_per_second,
        help="requests and WebSocket messages one address may send a second",
    )
    p.add_argument(
        "--bot-seconds", type=float, default=defaults.bot_seconds, help="bot thinking time"
    )
    p.add_argument("--bot-workers", type=int, default=defaults.bot_workers, help="bot processes")
    p.add_argument(
        "--sqlite-synchronous",
        choices=["FULL", "NORMAL"],
        default=defaults.sqlite_synchronous,
        help="FULL survives power loss; NORMAL survives a crash of the server only",
    )
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])


def serve(args: argparse.Namespace) -> int:
    """Start uvicorn with the settings in ``args``; returns when the server stops."""
    try:
        import uvicorn

        from .app import create_app
    except ModuleNotFoundError as exc:  # installed without the server extra
        missing = missing_extra("glade serve", exc)
        if not isinstance(missing, MissingExtra):
            raise
        print(f"glade: {missing}", file=sys.stderr)
        return 2

    db = args.db or env_default_url()
    try:
        dialect_for(db)
    except ValueError as exc:
        print(f"glade: {exc}", file=sys.stderr)
        return 2
    for flag, value in (
        ("--port", args.port if 0 < args.port < 65536 else None),
        (
            "--max-games-per-client",
            args.max_games_per_client if args.max_games_per_client > 0 else None,
        ),
        (
            "--messages-per-second",
            args.messages_per_second if args.messages_per_second > 0 else None,
        ),
        ("--bot-seconds", args.bot_seconds if args.bot_seconds > 0 else None),
        ("--bot-workers", args.bot_workers if args.bot_workers > 0 else None),
    ):
        if value is None:
            print(f"glade: {flag} must be a positive number (a port below 65536)", file=sys.stderr)
            return 2
    settings = Settings(
        db=db,
        sqlite_synchronous=args.sqlite_synchronous,
        max_games_per_client=args.max_games_per_client,
        messages_per_second=args.messages_per_second,
        bot_seconds=args.bot_seconds,
        bot_workers=args.bot_workers,
    )
    try:  # open the database once first: a wrong URL is a sentence, not a traceback
        from .storage import Storage

        Storage(db, settings.sqlite_synchronous).close()
    except Exception as exc:  # noqa: BLE001 - any driver error means the same to the user
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"glade: cannot open the database {db} ({first})", file=sys.stderr)
        return 2
    try:
        app = create_app(settings)
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            ws_max_size=65536,
            # players think between moves: keep their connections open as browsers do
            timeout_keep_alive=75,
        )
    except OSError as exc:
        print(f"glade: cannot serve on {args.host}:{args.port} ({exc.strerror})", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return serve(parser().parse_args(argv))
