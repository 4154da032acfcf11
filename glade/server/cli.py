"""``glade serve``: run the web table with uvicorn."""

from __future__ import annotations

import argparse
import asyncio
import gc
import socket
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from glade.extras import MissingExtra, missing_extra

from .config import Settings, env_default_url

if TYPE_CHECKING:  # the server extra's, imported when it serves (see serve)
    import uvicorn
    from fastapi import FastAPI


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
        "--sockets-per-client",
        type=int,
        default=defaults.sockets_per_client,
        help="open WebSockets one address may hold",
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
    p.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="IPS",
        help="comma-separated addresses of reverse proxies whose X-Forwarded-For/-Proto to "
        "trust (default: none, so every client is known by its own address)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=0,
        help="open HTTP connections before the longest idle one is closed "
        "(default: what the file-descriptor limit allows)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        help="seconds a new connection has to send a request's headers",
    )
    p.add_argument(
        "--keep-alive",
        type=float,
        default=75.0,
        help="seconds an idle connection stays open between requests",
    )
    p.add_argument(
        "--access-log",
        default="common",
        metavar="FORM",
        help="one line per request on standard output: common (Common Log Format), combined, "
        "json, off, or a format of the fields {client} {time} {method} {path} {protocol} "
        "{status} {bytes} {referer} {user_agent} {ms}",
    )
    p.add_argument(
        "--shutdown-timeout",
        type=float,
        default=30.0,
        help="on SIGTERM, seconds to let requests in flight finish before stopping",
    )
    p.add_argument(
        "--clock-min-seconds",
        type=float,
        default=defaults.clock_min_seconds,
        help="shortest base time of a real-time table clock, in seconds",
    )
    p.add_argument(
        "--clock-poll-seconds",
        type=float,
        default=defaults.clock_poll_seconds,
        help="how often to look for table clocks past their deadline, in seconds",
    )
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])


# The cyclic garbage collector runs on a timer while serving, not on allocation counts: a full
# collection every GC_SECONDS. A table's state lives about as long as a move takes (a second),
# long enough to outlive Python's young collections, so with a thousand tables the automatic
# collector walked tens of thousands of young objects many times a second and every table's
# objects every few seconds (0.3-0.4 s, all tables waiting), although tables make next to no
# cyclic garbage in play (their objects die by reference counting; the little there is comes
# from connections opening and closing). docs/server.md, "Cheaper actions", has the figures.
GC_SECONDS = 300.0


def serve(args: argparse.Namespace) -> int:
    """Start uvicorn with the settings in ``args``; returns when the server stops."""
    try:
        import uvicorn

        from .api.protocol import ConnectionGuard, GladeWebSocketProtocol
        from .app import create_app
        from .storage import Storage, dialect_for
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
        ("--sockets-per-client", args.sockets_per_client if args.sockets_per_client > 0 else None),
        ("--bot-workers", args.bot_workers if args.bot_workers > 0 else None),
        ("--max-connections", args.max_connections + 1 if args.max_connections >= 0 else None),
        ("--header-timeout", args.header_timeout if args.header_timeout > 0 else None),
        ("--keep-alive", args.keep_alive if args.keep_alive > 0 else None),
        ("--shutdown-timeout", args.shutdown_timeout if args.shutdown_timeout > 0 else None),
        ("--clock-min-seconds", args.clock_min_seconds if args.clock_min_seconds > 0 else None),
        ("--clock-poll-seconds", args.clock_poll_seconds if args.clock_poll_seconds > 0 else None),
    ):
        if value is None:
            print(f"glade: {flag} must be a positive number (a port below 65536)", file=sys.stderr)
            return 2
    access = None if args.access_log == "off" else args.access_log
    if access is not None:
        from .api.accesslog import check_format

        try:
            check_format(access)
        except ValueError as exc:
            print(f"glade: {exc}", file=sys.stderr)
            return 2
    settings = Settings(
        db=db,
        access_log=access,
        sqlite_synchronous=args.sqlite_synchronous,
        max_games_per_client=args.max_games_per_client,
        messages_per_second=args.messages_per_second,
        bot_seconds=args.bot_seconds,
        sockets_per_client=args.sockets_per_client,
        bot_workers=args.bot_workers,
        clock_min_seconds=args.clock_min_seconds,
        clock_poll_seconds=args.clock_poll_seconds,
    )
    try:  # open the database once first: a wrong URL is a sentence, not a traceback
        Storage(db, settings.sqlite_synchronous).close()
    except Exception as exc:  # noqa: BLE001 - any driver error means the same to the user
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"glade: cannot open the database {db} ({first})", file=sys.stderr)
        return 2
    proxies = [ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()]
    guard = ConnectionGuard(
        header_seconds=args.header_timeout,
        keep_alive_seconds=args.keep_alive,
        max_header_bytes=settings.max_header_bytes,
        max_connections=args.max_connections or None,
    )
    _logging(args.log_level)
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=65536,
        http=guard.protocol(),
        ws=GladeWebSocketProtocol,
        # players think between moves: keep their connections open as browsers do
        timeout_keep_alive=int(args.keep_alive) + 1,  # the guard closes them first
        # uvicorn trusts 127.0.0.1 by default; glade trusts no proxy unless told
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
        access_log=False,  # glade writes its own (--access-log)
        timeout_graceful_shutdown=int(args.shutdown_timeout + 0.999),
    )
    server = _server(config, app)
    # what is loaded by now (modules, the engines' tables) lives as long as the process: out of
    # the collector's sight, a full collection walks only the tables' own objects (shorter
    # pauses of every table)
    gc.freeze()
    gc.disable()  # collected on a timer instead (GC_SECONDS, started with the server)
    try:
        server.run()
    except OSError as exc:
        print(f"glade: cannot serve on {args.host}:{args.port} ({exc.strerror})", file=sys.stderr)
        return 2
    return 0 if server.started else 2


def _logging(level: str) -> None:
    """The access log on standard output, the server's own log (tracebacks too) on stderr."""
    import logging

    access = logging.getLogger("glade.access")
    out = logging.StreamHandler(sys.stdout)
    out.setFormatter(logging.Formatter("%(message)s"))
    access.addHandler(out)
    access.setLevel(logging.INFO)
    access.propagate = False
    server = logging.getLogger("glade.server")
    err = logging.StreamHandler(sys.stderr)
    err.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    server.addHandler(err)
    server.setLevel(level.upper())
    server.propagate = False


def _server(config: uvicorn.Config, app: FastAPI) -> uvicorn.Server:
    """uvicorn's server, saying where to point a browser once it listens; on SIGTERM or
    SIGINT the health check says 503 at once while requests in flight finish."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            services = getattr(app.state, "services", None)
            if services is not None:  # the health check says 503 from now on
                services.draining = True
            super().handle_exit(sig, frame)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                self.collector = asyncio.get_running_loop().create_task(collect_garbage())
                host = self.config.host
                shown = f"[{host}]" if ":" in host else host
                print(f"glade: serving on http://{shown}:{self.config.port}/", flush=True)

    return Server(config)


async def collect_garbage(every: float = GC_SECONDS) -> None:
    """Collect cyclic garbage every ``every`` seconds while the server runs (the collector's
    automatic runs are off: see GC_SECONDS)."""
    while True:
        await asyncio.sleep(every)
        gc.collect()


def main(argv: Sequence[str] | None = None) -> int:
    return serve(parser().parse_args(argv))
