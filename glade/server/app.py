"""The app: the layers wired together, the web API under ``/api`` and the browser table at ``/``.

``create_app`` builds the FastAPI app with one router per feature; when it starts it opens the
storage, makes the tables and each feature (which subscribe to the tables' events), resumes what
was running, and puts them all in ``app.state.services`` for the routes' dependencies.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from .api import accounts, errors, games, ratings, reviews, social
from .api.accesslog import AccessLog
from .api.deps import Services
from .api.guard import GuardMiddleware, RateLimiter, client_address
from .api.socket import SocketLimits, socket_router
from .config import Settings
from .domain import EventBus, Tables
from .features.accounts import Accounts
from .features.analysis import Analysis
from .features.bots import Bots
from .features.clocks import Clocks
from .features.ratings import Ratings
from .features.reviews import Reviews
from .features.social import Social
from .storage import Storage

log = logging.getLogger("glade.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DESCRIPTION = (
    'Errors are `{"error": "one sentence"}`. Seats act with '
    "`Authorization: Bearer <seat token>`; without it you watch as a spectator.\n\n"
    "**WebSocket** `/api/games/{game_id}/ws?token=<seat token>` (no token: spectator) "
    "sends the seat's `GameState` (the schema below) on connecting and after every "
    'accepted action, one push per action in order, as `{"type": "state", '
    '"log_base": v, "log_from": k, "log": [new public log entries], ...GameState}`: '
    "a client whose log is at version `log_base` keeps its first `k` entries and "
    'appends `log`. `{"type": "resync"}` means pushes were too many to queue: '
    'read the state and the log again. It accepts `{"type": "ping"}` (answer '
    '`{"type": "pong"}`) and `{"type": "action", "ref": n, "action": {...}, '
    '"version": v}`, played as `POST …/actions` with the socket\'s token: answered by '
    'the push of the new state, which then begins `{"acted": n, ...}`, or by '
    '`{"type": "refused", "ref": n, "status", "error", "code", "params"}` (nothing '
    "changed). It closes with 4403 for a token of no seat, 4404 for "
    "an unknown game and 1008 past the message limits."
)


def wire(settings: Settings) -> Services:
    """The storage, the tables and every feature, subscribed to the tables' events."""
    storage = Storage(settings.db, settings.sqlite_synchronous)
    events = EventBus()
    tables = Tables(settings, storage, events)
    analysis = Analysis(settings)
    return Services(
        settings=settings,
        storage=storage,
        tables=tables,
        bots=Bots(settings, tables, events),
        analysis=analysis,
        clocks=Clocks(settings, storage, tables, events),
        social=Social(settings, storage, tables, events),
        ratings=Ratings(settings, storage, tables, events),
        reviews=Reviews(storage, tables, analysis),
        accounts=Accounts(storage, tables),
    )


async def sweep(services: Services) -> None:
    """Every few seconds: bots another process left due (PostgreSQL), idle tables forgotten."""
    settings = services.settings
    every = min(60.0, settings.table_idle_seconds)
    last = time.monotonic()
    while True:
        await asyncio.sleep(2.0)
        if services.storage.kind == "postgresql":  # several processes may share the tables
            services.bots.stalled(services.bots.stall_seconds())
        if time.monotonic() - last >= every:
            last = time.monotonic()
            services.tables.evict_idle(settings.table_idle_seconds)


class GladeApp(FastAPI):
    """FastAPI behind glade's own front layers (``front``: the access log and the guard), which
    see every HTTP request and WebSocket before FastAPI's stack (and answer plain actions
    without it)."""

    front: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front is not None and scope["type"] in ("http", "websocket"):
            await self.front(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    async def inner(self, scope: Scope, receive: Receive, send: Send) -> None:
        """FastAPI's own stack (routing, exception handlers)."""
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The glade web app; storage opens when the app starts and closes when it stops."""
    settings = settings or Settings()
    limiter = RateLimiter(settings.messages_per_second)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = wire(settings)
        app.state.services = services
        resumed = await services.tables.resume()
        if resumed:
            log.info("resumed %d tables with bot seats", resumed)
        services.clocks.start()  # its first sweep times out the seats that fell due meanwhile
        await services.ratings.recover()
        services.tables.listen()
        sweeper = asyncio.get_running_loop().create_task(sweep(services))
        try:
            yield
        finally:
            sweeper.cancel()
            await services.ratings.close()
            await services.clocks.close()
            await services.social.close()
            await services.reviews.close()
            await services.bots.close()
            await services.analysis.close()
            services.storage.close()

    app = GladeApp(
        title="glade",
        version="1",
        summary="Online tables for Harmonies and Living Forest.",
        description=DESCRIPTION,
        lifespan=lifespan,
    )

    def tables() -> Tables:
        found: Services = app.state.services
        return found.tables

    front: ASGIApp = GuardMiddleware(
        app.inner, settings=settings, limiter=limiter, client_of=client_address, tables=tables
    )
    if settings.access_log:
        front = AccessLog(front, form=settings.access_log)  # outermost: sees every answer
    app.front = front
    errors.install(app)
    for router in (
        games.router,
        reviews.router,
        ratings.router,
        accounts.router,
        social.router,
        socket_router(SocketLimits(limiter, settings.sockets_per_client, settings.max_body_bytes)),
    ):
        app.include_router(router)
    if (WEB_DIR / "index.html").is_file():  # the page's files, compressed for whoever takes gzip
        static = StaticFiles(directory=WEB_DIR, html=True)
        app.mount("/", GZipMiddleware(static, minimum_size=500), name="web")
    return app
