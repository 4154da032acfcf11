"""The HTTP connection guard: no socket may hold a file descriptor for long without a request.

uvicorn closes a keep-alive connection only after a first request, and has no limit on how many
sockets may sit open doing nothing. :class:`ConnectionGuard` adds three bounds to uvicorn's
httptools protocol:

- a connection that has not finished sending a request's headers within ``header_seconds`` of
  opening (``keep_alive_seconds`` after its last answer) is closed, however many bytes it trickled;
- request headers larger than ``max_header_bytes`` get 431 and the connection is closed;
- past ``max_connections`` open HTTP connections, a new one closes the connection that has been
  idle the longest (none idle: the new one is closed), so idle sockets can never use up the
  process's file descriptors while normal requests come in;
- an answer given before its request's body arrived (413, 429, 408 … with ``Connection: close``)
  closes the connection gently: the server stops writing, then drops whatever the client still
  sends for up to ``LINGER_SECONDS`` before closing, so the client reads the answer (an abrupt
  close with data still arriving resets the connection, and the answer may be lost) and nothing
  of that body is ever read as a next request.

WebSocket connections leave the guard when they upgrade (they have their own ping timeout) and are
served by :class:`GladeWebSocketProtocol`, uvicorn's sans-I/O WebSocket protocol with a direct way
to send a text message (``send_now``) for the table pushes.
"""

from __future__ import annotations

import asyncio
import resource
import time
from collections.abc import Callable
from typing import Any, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

LINGER_SECONDS = 2.0

_431 = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: application/json\r\n"
    b"connection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)


def default_max_connections() -> int:
    """What the file-descriptor limit leaves for HTTP connections (some kept for the rest)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 65536
    return max(16, min(soft - 128, int(soft * 0.8), 10_000))


class ConnectionGuard:
    """The open HTTP connections of one server, oldest idle first."""

    def __init__(
        self,
        header_seconds: float = 10.0,
        keep_alive_seconds: float = 75.0,
        max_header_bytes: int = 16_384,
        max_connections: int | None = None,
    ) -> None:
        self.header_seconds = header_seconds
        self.keep_alive_seconds = keep_alive_seconds
        self.max_header_bytes = max_header_bytes
        self.max_connections = max_connections or default_max_connections()
        # connections waiting for a request's headers, by the time the wait began (oldest first):
        # new connections, and kept-alive ones between requests
        self.fresh: dict[GuardedProtocol, float] = {}
        self.kept: dict[GuardedProtocol, float] = {}
        self.busy: set[GuardedProtocol] = set()
        self.closed_idle = 0
        self._sweeper: asyncio.TimerHandle | None = None

    @property
    def open(self) -> int:
        return len(self.fresh) + len(self.kept) + len(self.busy)

    def protocol(self) -> type[GuardedProtocol]:
        """The protocol class to give uvicorn (``http=``), bound to this guard."""
        return type("GladeHttpProtocol", (GuardedProtocol,), {"guard": self})

    # ------------------------------------------------------------------ bookkeeping
    def waiting(self, proto: GuardedProtocol, kept: bool) -> None:
        """``proto`` now waits for a request's headers (``kept``: after an answer)."""
        self.gone(proto)
        (self.kept if kept else self.fresh)[proto] = time.monotonic()
        self._arm(proto.loop)

    def working(self, proto: GuardedProtocol) -> None:
        """``proto`` sent its headers: the app has the request now."""
        self.gone(proto)
        self.busy.add(proto)

    def gone(self, proto: GuardedProtocol) -> None:
        self.fresh.pop(proto, None)
        self.kept.pop(proto, None)
        self.busy.discard(proto)

    def admit(self, proto: GuardedProtocol) -> bool:
        """Make room for a new connection; False if there is none (close the new one)."""
        while self.open >= self.max_connections:
            oldest: list[tuple[float, GuardedProtocol]] = []
            for waits in (self.fresh, self.kept):
                if waits:
                    first = next(iter(waits))
                    oldest.append((waits[first], first))
            if not oldest:
                return False
            self._close(min(oldest, key=lambda pair: pair[0])[1])
        return True

    def _close(self, proto: GuardedProtocol) -> None:
        self.gone(proto)
        self.closed_idle += 1
        proto.transport.abort()

    # ------------------------------------------------------------------ the sweep
    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._sweeper is None:
            self._sweeper = loop.call_later(1.0, self._sweep, loop)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Close every connection whose wait is over (each dict is in the order of its waits)."""
        self._sweeper = None
        now = time.monotonic()
        for waits, seconds in (
            (self.fresh, self.header_seconds),
            (self.kept, self.keep_alive_seconds),
        ):
            cutoff = now - seconds
            late = []
            for proto, since in waits.items():
                if since > cutoff:
                    break
                late.append(proto)
            for proto in late:
                self._close(proto)
        if self.fresh or self.kept:
            self._arm(loop)


class LingeringClose:
    """The transport as a request's cycle sees it: closing it while the request's body is still
    arriving lingers (:meth:`GuardedProtocol.linger`) instead of closing at once."""

    def __init__(self, protocol: GuardedProtocol, transport: asyncio.Transport) -> None:
        self.protocol = protocol
        self.transport = transport

    def write(self, data: bytes) -> None:
        self.transport.write(data)

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def close(self) -> None:
        cycle = self.protocol.cycle
        if cycle is not None and cycle.more_body and not self.transport.is_closing():
            self.protocol.linger()
        else:
            self.transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol under a :class:`ConnectionGuard` (see the module)."""

    guard: ConnectionGuard

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0
        self._tail = b""
        self._in_head = True
        self._body_pending = False  # answered, but the request's body is still arriving
        self._discarding = False  # lingering: what the client sends is dropped
        self._linger: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(self):
            self.connections.discard(self)
            transport.abort()
            return
        self.guard.waiting(self, kept=False)

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.gone(self)
        if self._linger is not None:
            self._linger.cancel()
        super().connection_lost(exc)

    def linger(self) -> None:
        """Close after an answer given before the request's body arrived (see the module)."""
        self.guard.gone(self)
        self._discarding = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._linger = self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            return
        if self._in_head:
            limit = self.guard.max_header_bytes
            end = (self._tail + data).find(b"\r\n\r\n")
            used = self._head_bytes + (len(data) if end < 0 else end + 4 - len(self._tail))
            if used > limit:
                self._too_large()
                return
            self._head_bytes += len(data)
            self._tail = data[-3:]
        super().data_received(data)

    def _too_large(self) -> None:
        body = b'{"error": "the request headers are over %d bytes"}' % self.guard.max_header_bytes
        self.guard.gone(self)
        if not self.transport.is_closing():
            self.transport.write(_431 % (len(body), body))
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self.guard.working(self)
        before = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is not None and cycle is not before:  # a request (not an upgrade): its task
            # has not started yet, and writes and closes through this
            cycle.transport = cast(asyncio.Transport, LingeringClose(self, self.transport))

    def on_message_complete(self) -> None:
        super().on_message_complete()
        if self._body_pending:  # the answered request's body is over: a new head may come
            self._body_pending = False
            self._waiting_for_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing() or self._discarding:
            self.guard.gone(self)
            return
        if self.cycle is not None and self.cycle.more_body:
            self._body_pending = True  # its bytes are body, not the next request's head
            return
        self._waiting_for_head()

    def _waiting_for_head(self) -> None:
        self._in_head = True
        self._head_bytes = 0
        self._tail = b""
        self.guard.waiting(self, kept=True)

    def handle_websocket_upgrade(self) -> None:
        self.guard.gone(self)
        super().handle_websocket_upgrade()


# the scope extension under which a WebSocket's protocol offers :meth:`GladeWebSocketProtocol.send_now`
SEND_NOW = "glade.send_now"


class GladeWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with a shorter way in and out for the table's
    messages, offered in the scope's extensions (``SEND_NOW``: ``send`` and ``listen``).

    A table push is a text message to every socket of the table. Sent as an ASGI message it
    takes a task switch of the socket's sender, Starlette's and uvicorn's send layers and the
    websockets frame builder; most pushes find the socket idle and writable, and ``send_now``
    writes them at once (the frame header built here when no extension such as compression
    applies, else by websockets). Anything else (not open yet, closing, a full write buffer)
    is left to the ASGI path, which waits as it always did.

    A client's text message reaches the app through uvicorn's queue (reading paused until the
    app takes it), Starlette's receive and every layer of the app the socket's task runs in;
    with a ``listen`` handler, each whole text message is handed to it as it arrives, in order
    (the handler answers them one at a time and bounds what may wait). Everything else
    (binary messages, the close) still takes the ASGI path.
    """

    listener: Callable[[str], None] | None = None

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:
            self.scope["extensions"][SEND_NOW] = {"send": self.send_now, "listen": self.listen}

    def listen(self, handler: Callable[[str], None] | None) -> None:
        """Hand each text message to ``handler`` as it arrives (None: back to the ASGI queue)."""
        self.listener = handler

    def send_receive_event_to_app(self) -> None:
        listener = self.listener
        if listener is None or self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            super().send_receive_event_to_app()  # uvicorn refuses it (close 1007)
            return
        self.frames = []
        try:
            listener(text)
        except Exception:  # noqa: BLE001 - a bug of the handler: logged, this socket closed
            self.logger.exception("the WebSocket message handler failed")
            self.conn.fail(1011, "server error")
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()

    def send_now(self, text: str) -> bool:
        """Write ``text`` as one text message now; False (nothing written) when the socket is
        not open, is closing, or its write buffer is full: send it the ASGI way instead."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        data = text.encode()
        if self.conn.extensions:  # e.g. permessage-deflate: websockets frames it
            self.conn.send_text(data)
            self.transport.write(b"".join(self.conn.data_to_send()))
        else:
            self.transport.write(text_frame(data))
        return True


def text_frame(data: bytes) -> bytes:
    """A whole text message from a server: one final, unmasked frame (RFC 6455, 5.2)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data
