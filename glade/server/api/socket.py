"""The table socket: ``/api/games/{game_id}/ws?token=<seat token>`` (no token: a spectator).

It sends the seat's picture on connecting and one push per accepted action, in order (see
``glade.server.domain.pictures``); it takes ``{"type": "ping"}`` and ``{"type": "action", "ref",
"action", "version"}``, played as ``POST …/actions`` with the socket's token. Under ``glade
serve`` the protocol hands each text message to the socket's :class:`Inbox` as it arrives and
writes pushes at once when it can (``protocol.SEND_NOW``); under any other server the same code
runs behind the ASGI calls.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..domain import Connection, Origin, Table, Tables
from ..errors import ApiError
from .deps import socket_services
from .errors import SERVER_ERROR
from .guard import RateLimiter, action_and_version
from .protocol import SEND_NOW

log = logging.getLogger("glade.server")


class SocketLimits:
    """The per-address limits of the table sockets: messages a second (the API's rate limiter)
    and open sockets."""

    def __init__(self, limiter: RateLimiter, per_client: int, max_message: int) -> None:
        self.limiter = limiter
        self.per_client = per_client
        self.max_message = max_message
        self.open: dict[str, int] = {}  # open WebSockets per client address

    def admitted(self, client: str, text: str) -> bool:
        return len(text) <= self.max_message and self.limiter.allow(client)


def socket_router(limits: SocketLimits) -> APIRouter:
    """The socket's route, under ``limits`` (one set per app)."""
    router = APIRouter()

    @router.websocket("/api/games/{game_id}/ws")
    async def updates(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Pushes ``{type: "state", log_base, log_from, log, version, to_act, view, ...}``
        after every accepted action (``{type: "resync"}``: re-read; see the app description)."""
        client = websocket.client.host if websocket.client else "unknown"
        if not limits.limiter.allow(client):
            await websocket.close(code=1008, reason="Too many requests; slow down")
            return
        if limits.open.get(client, 0) >= limits.per_client:
            await websocket.close(code=1008, reason="Too many connections from your address")
            return
        limits.open[client] = limits.open.get(client, 0) + 1
        try:
            await serve_socket(websocket, game_id, token, client, limits)
        finally:
            left = limits.open.get(client, 1) - 1
            if left > 0:
                limits.open[client] = left
            else:
                limits.open.pop(client, None)

    return router


async def serve_socket(
    websocket: WebSocket, game_id: str, token: str | None, client: str, limits: SocketLimits
) -> None:
    tables = socket_services(websocket).tables
    await websocket.accept()
    try:
        table = await tables.get(game_id)
        seat = table.seat_of(token)
    except ApiError as exc:  # close codes 4403 and 4404 mirror the HTTP statuses
        await websocket.close(code=4000 + exc.status, reason=exc.message)
        return
    fast = websocket.scope.get("extensions", {}).get(SEND_NOW)
    conn = Connection(websocket.send_text, seat, send_now=fast and fast["send"])
    tables.subscribe(table, conn)  # its first push: the picture now, then one per action
    pump = start_pump(conn)

    def admitted(text: str) -> bool:
        return limits.admitted(client, text)

    def begun(text: str) -> Begun | None:
        return begin(text, tables, table, token, conn)

    async def refuse_flood() -> None:
        await websocket.close(code=1008, reason="Too many or too large messages")

    inbox = None
    if fast is not None:  # the protocol hands each text message over as it arrives
        inbox = Inbox(begun, admitted, refuse_flood, conn)
        fast["listen"](inbox.heard)
    try:
        while True:  # with an inbox: only what the protocol does not hand over
            text = await websocket.receive_text()
            if not admitted(text):
                await refuse_flood()
                break
            started = begun(text)
            if started is not None:
                await asyncio.wait([started.task])  # its outcome is read by finish
                finish(started, conn)
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket closed under us
        pass
    finally:
        if inbox is not None:
            inbox.closed = True
            fast["listen"](None)
        tables.unsubscribe(table, conn)
        pump.cancel()


SOCKET_ACTION = (
    'An action sent on the WebSocket is {"type": "action", "action": {...}, "version": <int>}'
    ' with an optional integer "ref"'
)


def socket_action(message: dict[str, Any]) -> tuple[Any, dict[str, Any], int] | str:
    """The ref, action and version of an ``{"type": "action"}`` message (the same shape as the
    body of ``POST …/actions``, plus its ``ref``), or the sentence that refuses it."""
    ref = message.get("ref")
    if not set(message) <= {"type", "ref", "action", "version"}:
        return SOCKET_ACTION
    if ref is not None and (type(ref) is not int or not 0 <= ref < 2**53):
        return SOCKET_ACTION
    played = action_and_version(message)
    if played is None:
        return SOCKET_ACTION
    return ref, played[0], played[1]


@dataclass
class Begun:
    """A socket's action being played: its ``ref``, the task playing it and where it came on."""

    ref: Any
    task: asyncio.Task[int]
    origin: Origin


def begin(
    text: str, tables: Tables, table: Table, token: str | None, conn: Connection
) -> Begun | None:
    """A client's message: ``{"type": "ping"}`` (answered ``pong``) or ``{"type": "action", "ref",
    "action", "version"}``, played as ``POST …/actions`` would with the socket's token (started
    here, answered by :func:`finish`); anything else, or an action refused before it is
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
        conn.say(json.dumps({"error": 'Send {"type": "ping"} or {"type": "action", ...} here'}))
        return None
    assert isinstance(message, dict)
    found = socket_action(message)
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
        table.touched = time.monotonic()
        seat = table.seat_of(token)  # checked again: the seat may have changed hands
        origin = Origin(conn, ref)
        task = tables.start_act(table, seat, action, version, by_player=True, origin=origin)
    except ApiError as exc:
        conn.say(orjson.dumps(refused_answer(ref, exc)).decode())
        return None
    return Begun(ref, task, origin)


def refused_answer(ref: Any, exc: ApiError) -> dict[str, Any]:
    """A socket's answer to its action ``ref`` refused with ``exc`` (nothing changed)."""
    return {"type": "refused", "ref": ref, "status": exc.status, **exc.to_json()}


def finish(begun: Begun, conn: Connection) -> None:
    """The answer to a socket's action once played: the push of the new state, which then begins
    ``{"acted": ref, "type": "state", …}`` (or, were there no such push, ``{"type": "acted",
    "ref", "version"}``), or ``{"type": "refused", "ref", "status", "error", "code", "params"}``
    (nothing changed)."""
    ref, task = begun.ref, begun.task
    exc = task.exception()
    if isinstance(exc, ApiError):
        answer = refused_answer(ref, exc)
    elif exc is not None:  # as the app's 500 handler: logged, nothing changed
        log.error("unexpected error on a WebSocket action", exc_info=exc)
        answer = {"type": "refused", "ref": ref, "status": 500, "error": SERVER_ERROR}
    elif begun.origin.told:  # the push of the new state said "acted": ref
        return
    else:
        answer = {"type": "acted", "ref": ref, "version": task.result()}
    conn.say(orjson.dumps(answer).decode())


class Inbox:
    """The text messages a socket's protocol hands over as they arrive (``heard``), answered one
    at a time in order: a message past the size or rate limit closes the socket (1008) and
    drops what waits, so what may wait is bounded by the rate limit's burst."""

    def __init__(
        self,
        begin: Callable[[str], Begun | None],
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
            self.next()

    def next(self) -> None:
        while self.waiting and not self.closed:
            begun = self.begin(self.waiting.popleft())
            if begun is not None:
                self.playing = True
                begun.task.add_done_callback(partial(self.played, begun))
                return
        self.playing = False

    def played(self, begun: Begun, task: asyncio.Task[int]) -> None:
        finish(begun, self.conn)
        self.next()


def start_pump(conn: Connection) -> asyncio.Task[None]:
    async def run() -> None:
        try:
            await conn.pump()
        except Exception:  # noqa: BLE001 - a dead socket ends its pump
            conn.closed = True

    return asyncio.get_running_loop().create_task(run())
