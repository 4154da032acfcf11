"""The guard in front of the app: security headers on every answer; API requests that are too
large, too slow or too frequent refused before any route sees them (and the connection closed
after such an answer); a plain ``POST …/actions`` answered here without FastAPI's stack
(:func:`fast_action`: most of the CPU of an action is FastAPI's routing, dependencies and model).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..config import Settings
from ..domain import Tables
from ..errors import ApiError
from .errors import SERVER_ERROR, error_response
from .games import play_action

log = logging.getLogger("glade.server")

ClientOf = Callable[[Scope], str]


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


def host_of(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"host":
            host: str = value.decode("latin-1")
            if host and all(c.isalnum() or c in ".-:[]" for c in host):
                return host
    return ""


class GuardMiddleware:
    """Security headers on every answer; refuses API requests that are too large, too slow or
    too frequent before any route sees them; answers a plain ``POST …/actions`` itself
    (:func:`fast_action`). It sits in front of FastAPI's own stack (:class:`GladeApp`)."""

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        limiter: RateLimiter,
        client_of: ClientOf,
        tables: Callable[[], Tables],
    ) -> None:
        self.app = app
        self.max_body = settings.max_body_bytes
        self.body_seconds = settings.body_seconds
        self.limiter = limiter
        self.client_of = client_of
        self.tables = tables  # the app's tables (once it has started)
        # the security headers by Host header (the CSP names the page's own WebSocket origin)
        self.by_host: dict[bytes | None, list[tuple[bytes, bytes]]] = {}

    def security_headers(self, scope: Scope, path: str) -> list[tuple[bytes, bytes]]:
        """The security headers of an answer to ``scope`` (built once per Host header)."""
        if path.startswith(NO_CSP):
            return SECURITY_HEADERS
        raw = None
        for name, value in scope["headers"]:
            if name == b"host":
                raw = value
                break
        found = self.by_host.get(raw)
        if found is None:
            host = host_of(scope)
            ws = f"ws://{host} wss://{host}" if host else ""
            csp = (b"content-security-policy", CSP.format(ws=ws).encode())
            found = [*SECURITY_HEADERS, csp]
            if len(self.by_host) >= 256:  # any client may send any Host: keep a few
                self.by_host.clear()
            self.by_host[raw] = found
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        extra = self.security_headers(scope, path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        async def answer(status: int, message: str) -> None:
            """An answer before the request's body was read: the connection closes after it
            (what is left of the body is never read as a next request)."""
            response = error_response(status, message, {"connection": "close"})
            await response(scope, receive, send_with_headers)

        if not path.startswith("/api/"):
            await self.app(scope, receive, send_with_headers)
            return
        if not self.limiter.allow(self.client_of(scope)):
            await answer(429, "Too many requests; slow down")
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await answer(400, "The Content-Length header is not a number")
                    return
                if declared > self.max_body:
                    await answer(413, f"The request body is over {self.max_body} bytes")
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
            await answer(408, f"The request body did not arrive within {self.body_seconds:g} s")
            return
        if size > self.max_body:
            await answer(413, f"The request body is over {self.max_body} bytes")
            return
        body = b"".join(chunks)
        if scope["method"] == "POST" and path.endswith("/actions"):
            found = ACTION_PATH.fullmatch(path)
            if found is not None and await fast_action(
                scope, body, found.group(1), send, self.tables(), extra
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


ACTION_PATH = re.compile(r"/api/games/([^/]+)/actions")
JSON_TYPE = b"application/json"


def plain_action(scope: Scope, body: bytes) -> tuple[dict[str, Any], int, str | None] | None:
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
    if content_type is None or content_type.split(b";")[0].strip().lower() != JSON_TYPE:
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if type(data) is not dict or len(data) != 2:
        return None
    played = action_and_version(data)
    if played is None:
        return None
    return played[0], played[1], authorization


def action_and_version(data: dict[str, Any]) -> tuple[dict[str, Any], int] | None:
    """The ``action`` and ``version`` of a POST's body or a socket's action message, when they
    have the shape :class:`PostAction` states (None: they do not)."""
    action, version = data.get("action"), data.get("version")
    if type(action) is not dict or len(action) > 8:
        return None
    if type(version) is not int or not 0 <= version <= 1_000_000:
        return None
    return action, version


async def fast_action(
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
    plain = plain_action(scope, body)
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
                    (b"content-type", JSON_TYPE),
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
