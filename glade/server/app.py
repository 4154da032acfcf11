"""The FastAPI application: the web API under ``/api`` and the browser table at ``/``."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import orjson
from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from glade.bots import LEVEL_TIME
from glade.core.errors import Refusal

from .accesslog import AccessLog
from .accounts import router as accounts_router
from .config import Settings
from .errors import ApiError
from .models import (
    Created,
    CreateGame,
    Error,
    GameLog,
    GameState,
    Hints,
    Join,
    Joined,
    Lobby,
    PastView,
    PostAction,
)
from .protocol import SEND_NOW
from .ratings import check_rated_creator
from .ratings import router as ratings_router
from .refusals import refuse
from .review import router as review_router
from .social import router as social_router
from .storage import Storage
from .tables import Connection, Origin, Room, Tables

log = logging.getLogger("glade.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
GAME_DATA = {  # data file served at /data/<name> -> the package that holds it
    "harmonies-cards.json": "glade.harmonies",
    "living-forest-cards.json": "glade.living_forest",
}

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Error, "description": text}
    for code, text in {
        400: "malformed request",
        403: "not your seat, not your turn, or a token of no seat",
        404: "no such game",
        409: "stale version, or no open seat",
        413: "request too large",
        422: "illegal action or invalid input",
        429: "too many requests or games",
    }.items()
}


Auth = Annotated[
    str | None,
    Header(description="Bearer <seat token>; leave out to watch as a spectator"),
]


ClientOf = Callable[[Scope], str]


SERVER_ERROR = "the server failed on this request (a bug, logged); nothing changed"


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it (a trusted proxy's X-Forwarded-For applied)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RateLimiter:
    """A token bucket per client: ``rate`` messages a second, bursts of twice that.

    Buckets are kept in the order they were last used, so forgetting the clients that have been
    away long enough for a full bucket looks only at the oldest few (``sweep`` a call): the
    cost of a call does not grow with the number of clients seen.
    """

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = max(1.0, 2 * rate)
        self.clock = clock
        # a bucket untouched this long is full again: forgetting it changes nothing
        self.forget_after = self.burst / rate if rate > 0 else 60.0
        self.sweep = 4
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        now = self.clock()
        buckets = self.buckets
        found = buckets.pop(client, None)
        if found is None:
            tokens = self.burst
        else:
            tokens = min(self.burst, found[0] + (now - found[1]) * self.rate)
        allowed = tokens >= 1.0
        buckets[client] = (tokens - 1.0 if allowed else tokens, now)  # now the newest
        cutoff = now - self.forget_after
        for _ in range(self.sweep):
            oldest = next(iter(buckets))
            if buckets[oldest][1] > cutoff:
                break
            del buckets[oldest]
        return allowed


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
# the page loads only its own scripts, styles, data and WebSocket; nobody may frame it
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
NO_CSP = ("/docs", "/redoc")  # FastAPI's own pages run inline scripts


def _host(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"host":
            host: str = value.decode("latin-1")
            if host and all(c.isalnum() or c in ".-:[]" for c in host):
                return host
    return ""


class GuardMiddleware:
    """Security headers on every answer; refuses API requests that are too large, too slow or
    too frequent before any route sees them; answers a plain ``POST …/actions`` itself
    (:func:`_fast_action`). It sits in front of FastAPI's own stack (:class:`GladeApp`)."""

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        limiter: RateLimiter,
        client_of: ClientOf,
        state: Any,
    ) -> None:
        self.app = app
        self.max_body = settings.max_body_bytes
        self.body_seconds = settings.body_seconds
        self.limiter = limiter
        self.client_of = client_of
        self.state = state  # the app's state: its ``tables`` once the app has started
        # the security headers by Host header (the CSP names the page's own WebSocket origin)
        self._headers: dict[bytes | None, list[tuple[bytes, bytes]]] = {}

    def _extra(self, scope: Scope, path: str) -> list[tuple[bytes, bytes]]:
        """The security headers of an answer to ``scope`` (built once per Host header)."""
        if path.startswith(NO_CSP):
            return SECURITY_HEADERS
        raw = None
        for name, value in scope["headers"]:
            if name == b"host":
                raw = value
                break
        found = self._headers.get(raw)
        if found is None:
            host = _host(scope)
            ws = f"ws://{host} wss://{host}" if host else ""
            csp = (b"content-security-policy", CSP.format(ws=ws).encode())
            found = [*SECURITY_HEADERS, csp]
            if len(self._headers) >= 256:  # any client may send any Host: keep a few
                self._headers.clear()
            self._headers[raw] = found
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        extra = self._extra(scope, path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        async def answer(status: int, message: str) -> None:
            await _error(status, message)(scope, receive, send_with_headers)

        if not path.startswith("/api/"):
            await self.app(scope, receive, send_with_headers)
            return
        if not self.limiter.allow(self.client_of(scope)):
            await answer(429, "too many requests; slow down")
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await answer(400, "the Content-Length header is not a number")
                    return
                if declared > self.max_body:
                    await answer(413, f"the request body is over {self.max_body} bytes")
                    return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        break
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await answer(408, f"the request body did not arrive within {self.body_seconds:g} s")
            return
        if size > self.max_body:
            await answer(413, f"the request body is over {self.max_body} bytes")
            return
        body = b"".join(chunks)
        if scope["method"] == "POST" and path.endswith("/actions"):
            found = _ACTION_PATH.fullmatch(path)
            if found is not None and await _fast_action(
                scope, body, found.group(1), send, self.state.tables, extra
            ):
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


_ACTION_PATH = re.compile(r"/api/games/([^/]+)/actions")
_JSON = b"application/json"


def _plain_action(scope: Scope, body: bytes) -> tuple[dict[str, Any], int, str | None] | None:
    """The action, version and Authorization of a ``POST …/actions`` whose JSON body and headers
    need no checking beyond what :class:`PostAction` states (None: anything else, which takes
    the full route and its validation sentences)."""
    content_type = authorization = None
    for name, value in scope["headers"]:
        if name == b"content-type":
            if content_type is not None:
                return None
            content_type = value
        elif name == b"authorization":
            if authorization is not None:
                return None
            authorization = value.decode("latin-1")
    if content_type is None or content_type.split(b";")[0].strip().lower() != _JSON:
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if type(data) is not dict or len(data) != 2:
        return None
    played = _action_and_version(data)
    if played is None:
        return None
    return played[0], played[1], authorization


def _action_and_version(data: dict[str, Any]) -> tuple[dict[str, Any], int] | None:
    """The ``action`` and ``version`` of a POST's body or a socket's action message, when they
    have the shape :class:`PostAction` states (None: they do not)."""
    action, version = data.get("action"), data.get("version")
    if type(action) is not dict or len(action) > 8:
        return None
    if type(version) is not int or not 0 <= version <= 1_000_000:
        return None
    return action, version


async def play_action(
    tables: Tables,
    game_id: str,
    authorization: str | None,
    action: dict[str, Any],
    version: int,
) -> str:
    """``POST /api/games/{id}/actions`` (the route and :func:`_fast_action` alike): play
    ``action`` for the seat the bearer token opens; the seat's new picture (JSON text), or
    :class:`ApiError` (nothing changed)."""
    room = await tables.get(game_id)
    seat = room.seat_of(_bearer(authorization))
    await tables.act(room, seat, action, version, by_player=True)
    return room.text(seat)


async def _fast_action(
    scope: Scope,
    body: bytes,
    game_id: str,
    send: Send,
    tables: Tables,
    extra: list[tuple[bytes, bytes]],
) -> bool:
    """``POST /api/games/{id}/actions`` without FastAPI's stack, routing, dependencies and
    model (most of the CPU of an action): :func:`play_action` with the same answers as the
    route (``extra``: the security headers), for a body in the plain form every client
    sends; False: not that form, the route answers it."""
    plain = _plain_action(scope, body)
    if plain is None:
        return False
    action, version, authorization = plain
    try:
        text = await play_action(tables, game_id, authorization, action, version)
    except ApiError as exc:
        status, answer = exc.status, exc.to_json()
    except Exception as exc:  # noqa: BLE001 - as the app's 500 handler: logged, nothing changed
        log.error("unexpected error on %s %s", scope["method"], scope["path"], exc_info=exc)
        status, answer = 500, {"error": SERVER_ERROR}
    else:
        data = text.encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-length", str(len(data)).encode()),
                    (b"content-type", _JSON),
                    *extra,
                ],
            }
        )
        await send({"type": "http.response.body", "body": data})
        return True
    response = JSONResponse(answer, status_code=status)
    response.raw_headers.extend(extra)

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    await response(scope, nothing, send)
    return True


def _validation_sentence(exc: RequestValidationError) -> tuple[int, str]:
    """One plain sentence (and status) for the first problem pydantic found."""
    errors = exc.errors()
    if not errors:
        return 422, "the request is not valid"
    first = errors[0]
    kind = first.get("type", "")
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    where = ".".join(loc)
    if kind == "value_error":
        message = str(first.get("msg", "is not valid")).removeprefix("Value error, ")
        return 422, f"the field {where!r} is not valid: {message}"
    if kind == "json_invalid":
        return 400, "the request body is not valid JSON"
    if kind == "extra_forbidden":
        return 422, f"unknown field {where!r} in the request"
    if kind == "missing":
        return (
            422,
            f"the request needs the field {where!r}" if where else "the request needs a body",
        )
    if not where and kind in ("model_attributes_type", "dict_type"):
        return 422, "the request body must be a JSON object"
    message = str(first.get("msg", "is not valid")).rstrip(".")
    if where:
        return 422, f"the field {where!r} is not valid: {message[0].lower()}{message[1:]}"
    return 422, f"the request body is not valid: {message[0].lower()}{message[1:]}"


def _validation_refusal(exc: RequestValidationError) -> Refusal | None:
    """The coded refusal behind the first problem, when one of our validators raised it."""
    errors = exc.errors()
    error = errors[0].get("ctx", {}).get("error") if errors else None
    reason = error.args[0] if isinstance(error, ValueError) and error.args else None
    return reason if isinstance(reason, Refusal) else None


def _allowed(request: Request) -> str:
    """The methods some route takes at this path (the static files take GET and HEAD)."""
    path = request.url.path
    methods: set[str] = set()
    for route in request.app.routes:
        found = getattr(route, "methods", None)
        regex = getattr(route, "path_regex", None)
        if found and regex is not None and regex.match(path):
            methods |= set(found)
    if not methods:
        methods = {"GET", "HEAD"}
    return ", ".join(sorted(methods))


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise refuse(403, "server.seat.bearer")
    return token.strip()


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
    sockets: dict[str, int] = {}  # open WebSockets per client address

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.db, settings.sqlite_synchronous)
        tables = Tables(settings, storage)
        app.state.tables = tables
        resumed = await tables.resume()
        if resumed:
            log.info("resumed %d games with bot seats", resumed)

        tables.listen()

        async def sweep() -> None:
            every = min(60.0, settings.room_idle_seconds)
            last = time.monotonic()
            while True:
                await asyncio.sleep(2.0)
                if storage.kind == "postgresql":  # several processes may share the games
                    tables.stalled_bots(5.0 + 3 * settings.bot_seconds * max(LEVEL_TIME.values()))
                if time.monotonic() - last >= every:
                    last = time.monotonic()
                    tables.evict_idle(settings.room_idle_seconds)

        sweeper = asyncio.get_running_loop().create_task(sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            await tables.close()
            storage.close()

    app = GladeApp(
        title="glade",
        version="1",
        summary="Online tables for Harmonies and Living Forest.",
        description=(
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
        ),
        lifespan=lifespan,
    )
    front: ASGIApp = GuardMiddleware(
        app.inner, settings=settings, limiter=limiter, client_of=client_address, state=app.state
    )
    if settings.access_log:
        front = AccessLog(front, form=settings.access_log)  # outermost: sees every answer
    app.front = front
    app.include_router(review_router)
    app.include_router(ratings_router)
    app.include_router(accounts_router)
    app.include_router(social_router)
    app.state.draining = False

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        # a bug (e.g. in an engine): logged with its traceback, answered 500, nothing changed
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return _error(500, SERVER_ERROR)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = _validation_sentence(exc)
        refusal = _validation_refusal(exc)
        if refusal is not None:  # a coded check of ours (names, passwords): the page translates it
            body = ApiError(status, message, refusal.code, refusal.params).to_json()
            return JSONResponse(body, status_code=status)
        return _error(status, message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        if exc.status_code == 404 and message == "Not Found":
            message = "there is nothing at this address"
        elif exc.status_code == 400 and "parsing the body" in message:
            message = "the request body is not valid JSON (or nests or numbers too deep to read)"
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            message = f"{request.method} is not allowed here"
            headers["Allow"] = _allowed(request)
        return _error(exc.status_code, message, headers or None)

    def tables_of(request: Request | WebSocket) -> Tables:
        found: Tables = request.app.state.tables
        return found

    def base_url(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    @app.post(
        "/api/games",
        status_code=201,
        response_model=Created,
        responses=ERRORS,
        summary="Create a game; each human seat gets a secret token and an invite link",
    )
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        tables = tables_of(request)
        client = request.client.host if request.client else "unknown"
        seats = [s.model_dump() for s in body.seats]
        clock = None if body.clock is None else body.clock.model_dump()
        if body.rated:  # a rated table is made by a logged-in account (see ratings.py)
            await check_rated_creator(request)
        room, tokens = await tables.create(
            body.game, body.options, seats, client, clock, rated=body.rated
        )
        base = base_url(request)
        return {
            "id": room.id,
            "seats": [
                {
                    "seat": i,
                    "token": token,
                    "url": None if token is None else f"{base}/?game={room.id}#token={token}",
                }
                for i, token in enumerate(tokens)
            ],
            "spectate_url": f"{base}/?game={room.id}",
        }

    @app.get(
        "/api/games/{game_id}",
        response_model=GameState,
        responses=ERRORS,
        summary="The game as one seat sees it (no token: as a spectator)",
    )
    async def get_game(game_id: str, request: Request, authorization: Auth = None) -> Any:
        room = await tables_of(request).get(game_id)
        seat = room.seat_of(_bearer(authorization))
        return Response(room.text(seat), media_type="application/json")

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=GameState,
        responses=ERRORS,
        summary="Play an action chosen on state `version`; answers the new state",
    )
    async def post_action(
        game_id: str, body: PostAction, request: Request, authorization: Auth = None
    ) -> Any:
        text = await play_action(
            tables_of(request), game_id, authorization, body.action, body.version
        )
        return Response(text, media_type="application/json")

    @app.get(
        "/api/games/{game_id}/log",
        response_model=GameLog,
        responses=ERRORS,
        summary="The public record of a game, enough to replay what everyone saw",
    )
    async def game_log(game_id: str, request: Request) -> Any:
        tables = tables_of(request)
        room = await tables.get(game_id)
        async with room.lock:
            history = await tables.history(room)
            moves = room.state.log_json(None)
            over = room.over
            version = room.version
            result = room.state.result() if over else None
        initial = glade_initial_view(room)
        return JSONResponse(
            {
                "id": room.id,
                "game": room.game,
                "options": room.options,
                "version": version,
                "over": over,
                "initial_view": initial,
                "history": history,
                "moves": moves,
                "seats": [s.info() for s in room.seats],
                "seed": room.seed if over else None,
                "result": result,
            }
        )

    @app.get(
        "/api/games/{game_id}/hint",
        response_model=Hints,
        responses=ERRORS,
        summary="The search bot's best moves for your seat now, best first",
    )
    async def get_hint(game_id: str, request: Request, authorization: Auth = None) -> Any:
        tables = tables_of(request)
        room = await tables.get(game_id)
        seat = room.seat_of(_bearer(authorization))
        if seat is None:
            raise refuse(403, "server.hint.spectator")
        client = request.client.host if request.client else "unknown"
        version, moves = await tables.hint(room, seat, client)
        best = moves[0]["actions"] if moves else []
        return JSONResponse({"version": version, "actions": best, "hints": moves})

    @app.get(
        "/api/games/{game_id}/past/{move}",
        response_model=PastView,
        responses=ERRORS,
        summary="A finished game's public view after its first `move` logged moves (replays)",
    )
    async def past_view(game_id: str, move: int, request: Request) -> Any:
        tables = tables_of(request)
        room = await tables.get(game_id)
        return JSONResponse(await tables.past_view(room, move))

    @app.get(
        "/api/health",
        responses={503: {"model": Error, "description": "stopping, or the database is down"}},
        summary="200 while this process serves and reaches its database (for load balancers)",
    )
    async def health(request: Request) -> Any:
        if request.app.state.draining:
            return _error(503, "this server is stopping; use another one")
        tables = tables_of(request)
        try:
            await asyncio.wait_for(asyncio.wrap_future(tables.storage.ping()), 5.0)
        except Exception as exc:  # noqa: BLE001 - any failure means the same to a load balancer
            log.warning("health check: the database does not answer (%s)", exc)
            return _error(503, "this server cannot reach its database")
        return JSONResponse(
            {"status": "ok", "database": tables.storage.kind, "tables": len(tables.rooms)}
        )

    @app.get(
        "/api/lobby",
        response_model=Lobby,
        responses=ERRORS,
        summary="Games that wait for players (open human seats)",
    )
    async def lobby(request: Request) -> Any:
        return JSONResponse({"games": await tables_of(request).lobby()})

    @app.post(
        "/api/games/{game_id}/join",
        response_model=Joined,
        responses=ERRORS,
        summary="Take an open human seat by name (with an invite token: name that seat)",
    )
    async def join(game_id: str, body: Join, request: Request, authorization: Auth = None) -> Any:
        tables = tables_of(request)
        room = await tables.get(game_id)
        seat, token = await tables.join(room, body.name, body.seat, _bearer(authorization))
        return {
            "id": room.id,
            "seat": seat,
            "token": token,
            "url": f"{base_url(request)}/?game={room.id}#token={token}",
        }

    @app.websocket("/api/games/{game_id}/ws")
    async def updates(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Pushes ``{type: "state", log_base, log_from, log, version, to_act, view, ...}``
        after every accepted action (``{type: "resync"}``: re-read; see the app description)."""
        client = websocket.client.host if websocket.client else "unknown"
        if not limiter.allow(client):
            await websocket.close(code=1008, reason="too many requests; slow down")
            return
        if sockets.get(client, 0) >= settings.sockets_per_client:
            await websocket.close(code=1008, reason="too many connections from your address")
            return
        sockets[client] = sockets.get(client, 0) + 1
        try:
            await _serve_socket(websocket, game_id, token, client)
        finally:
            left = sockets.get(client, 1) - 1
            if left > 0:
                sockets[client] = left
            else:
                sockets.pop(client, None)

    async def _serve_socket(
        websocket: WebSocket, game_id: str, token: str | None, client: str
    ) -> None:
        tables = tables_of(websocket)
        await websocket.accept()
        try:
            room = await tables.get(game_id)
            seat = room.seat_of(token)
        except ApiError as exc:  # close codes 4403 and 4404 mirror the HTTP statuses
            await websocket.close(code=4000 + exc.status, reason=exc.message)
            return
        fast = websocket.scope.get("extensions", {}).get(SEND_NOW)
        conn = Connection(websocket.send_text, seat, send_now=fast and fast["send"])
        tables.subscribe(room, conn)  # its first push: the picture now, then one per action
        pump = _start(conn)

        def admitted(text: str) -> bool:
            return len(text) <= settings.max_body_bytes and limiter.allow(client)

        def begin(text: str) -> _Begun | None:
            return _begin(text, tables, room, token, conn)

        async def refuse_flood() -> None:
            await websocket.close(code=1008, reason="too many or too large messages")

        inbox = None
        if fast is not None:  # the protocol hands each text message over as it arrives
            inbox = _Inbox(begin, admitted, refuse_flood, conn)
            fast["listen"](inbox.heard)
        try:
            while True:  # with an inbox: only what the protocol does not hand over
                text = await websocket.receive_text()
                if not admitted(text):
                    await refuse_flood()
                    break
                begun = begin(text)
                if begun is not None:
                    await asyncio.wait([begun.task])  # its outcome is read by _finish
                    _finish(begun, conn)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket closed under us
            pass
        finally:
            if inbox is not None:
                inbox.closed = True
                fast["listen"](None)
            tables.unsubscribe(room, conn)
            pump.cancel()

    @app.get("/data/{name}", include_in_schema=False)
    async def game_data(name: str) -> Response:
        """The engines' own card and board data, so the browser never keeps a copy that drifts."""
        package = GAME_DATA.get(name)
        if package is None:
            raise StarletteHTTPException(404, f"there is no data file {name!r}")
        text = resources.files(package).joinpath("data", name).read_text("utf-8")
        return Response(text, media_type="application/json")

    if (WEB_DIR / "index.html").is_file():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")

    return app


def glade_initial_view(room: Room) -> dict[str, Any]:
    """The spectator's view of the game before its first action."""
    import glade

    view: dict[str, Any] = glade.new_game(room.game, seed=room.seed, **room.options).view(None)
    return view


_SOCKET_ACTION = (
    'an action sent on the WebSocket is {"type": "action", "action": {...}, "version": <int>}'
    ' with an optional integer "ref"'
)


def _socket_action(message: dict[str, Any]) -> tuple[Any, dict[str, Any], int] | str:
    """The ref, action and version of an ``{"type": "action"}`` message (the same shape as the
    body of ``POST …/actions``, plus its ``ref``), or the sentence that refuses it."""
    ref = message.get("ref")
    if not set(message) <= {"type", "ref", "action", "version"}:
        return _SOCKET_ACTION
    if ref is not None and (type(ref) is not int or not 0 <= ref < 2**53):
        return _SOCKET_ACTION
    played = _action_and_version(message)
    if played is None:
        return _SOCKET_ACTION
    return ref, played[0], played[1]


@dataclass
class _Begun:
    """A socket's action being played: its ``ref``, the task playing it and where it came on."""

    ref: Any
    task: asyncio.Task[int]
    origin: Origin


def _begin(
    text: str, tables: Tables, room: Room, token: str | None, conn: Connection
) -> _Begun | None:
    """A client's message: ``{"type": "ping"}`` (answered ``pong``) or ``{"type": "action", "ref",
    "action", "version"}``, played as ``POST …/actions`` would with the socket's token (started
    here, answered by :func:`_finish`); anything else, or an action refused before it is
    played, is answered at once (None)."""
    try:
        message = orjson.loads(text)
    except ValueError:  # orjson.JSONDecodeError, also past its nesting limit
        message = None
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "ping":
        conn.say('{"type": "pong"}')
        return None
    if kind != "action":
        conn.say(json.dumps({"error": 'send {"type": "ping"} or {"type": "action", ...} here'}))
        return None
    assert isinstance(message, dict)
    found = _socket_action(message)
    if isinstance(found, str):
        ref = message.get("ref")
        answer: dict[str, Any] = {
            "type": "refused",
            "ref": ref if type(ref) is int and 0 <= ref < 2**53 else None,
            "status": 422,
            "error": found,
        }
        conn.say(orjson.dumps(answer).decode())
        return None
    ref, action, version = found
    try:
        room.touched = time.monotonic()
        seat = room.seat_of(token)  # checked again: the seat may have changed hands
        origin = Origin(conn, ref)
        task = tables.start_act(room, seat, action, version, by_player=True, origin=origin)
    except ApiError as exc:
        conn.say(orjson.dumps(_refused(ref, exc)).decode())
        return None
    return _Begun(ref, task, origin)


def _refused(ref: Any, exc: ApiError) -> dict[str, Any]:
    """A socket's answer to its action ``ref`` refused with ``exc`` (nothing changed)."""
    return {"type": "refused", "ref": ref, "status": exc.status, **exc.to_json()}


def _finish(begun: _Begun, conn: Connection) -> None:
    """The answer to a socket's action once played: the push of the new state, which then begins
    ``{"acted": ref, "type": "state", …}`` (or, were there no such push, ``{"type": "acted",
    "ref", "version"}``), or ``{"type": "refused", "ref", "status", "error", "code", "params"}``
    (nothing changed)."""
    ref, task = begun.ref, begun.task
    exc = task.exception()
    if isinstance(exc, ApiError):
        answer = _refused(ref, exc)
    elif exc is not None:  # as the app's 500 handler: logged, nothing changed
        log.error("unexpected error on a WebSocket action", exc_info=exc)
        answer = {"type": "refused", "ref": ref, "status": 500, "error": SERVER_ERROR}
    elif begun.origin.told:  # the push of the new state said "acted": ref
        return
    else:
        answer = {"type": "acted", "ref": ref, "version": task.result()}
    conn.say(orjson.dumps(answer).decode())


class _Inbox:
    """The text messages a socket's protocol hands over as they arrive (``heard``), answered one
    at a time in order: a message past the size or rate limit closes the socket (1008) and
    drops what waits, so what may wait is bounded by the rate limit's burst."""

    def __init__(
        self,
        begin: Callable[[str], _Begun | None],
        admitted: Callable[[str], bool],
        refuse: Callable[[], Coroutine[Any, Any, None]],
        conn: Connection,
    ) -> None:
        self.begin = begin
        self.admitted = admitted
        self.refuse = refuse
        self.conn = conn
        self.waiting: deque[str] = deque()
        self.playing = False
        self.closed = False

    def heard(self, text: str) -> None:
        if self.closed:
            return
        if not self.admitted(text):
            self.closed = True
            self.waiting.clear()
            asyncio.get_running_loop().create_task(self.refuse())
            return
        self.waiting.append(text)
        if not self.playing:
            self._next()

    def _next(self) -> None:
        while self.waiting and not self.closed:
            begun = self.begin(self.waiting.popleft())
            if begun is not None:
                self.playing = True
                begun.task.add_done_callback(partial(self._played, begun))
                return
        self.playing = False

    def _played(self, begun: _Begun, task: asyncio.Task[int]) -> None:
        _finish(begun, self.conn)
        self._next()


def _start(conn: Connection) -> Any:
    async def run() -> None:
        try:
            await conn.pump()
        except Exception:  # noqa: BLE001 - a dead socket ends its pump
            conn.closed = True

    return asyncio.get_running_loop().create_task(run())
