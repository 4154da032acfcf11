"""A table's subscribers: one per open WebSocket, each with its own ordered queue of pushes."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PUSH_QUEUE = 256  # pushes a connection may have waiting before it is told to re-read
RESYNC = '{"type": "resync"}'


class Connection:
    """One WebSocket: its pushes (states, and chat, clock and rematch messages) are sent in
    order, none dropped; when more than ``limit`` wait (the client does not read), they are
    replaced by one ``{"type": "resync"}``."""

    def __init__(
        self,
        send: Callable[[str], Any],
        seat: int | None,
        limit: int = PUSH_QUEUE,
        send_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.send = send
        # writes a message at once when the socket is idle and writable (False: it did not)
        self.send_now = send_now
        self.seat = seat
        self.limit = max(1, limit)
        self.queue: deque[str] = deque()
        self.ready = asyncio.Event()
        self.closed = False
        self.sending = False  # the pump is sending a message
        self.resyncs = 0  # how many times the queue overflowed

    def offer(self, text: str) -> None:
        if (
            self.send_now is not None
            and not self.queue
            and not self.sending
            and not self.closed
            and self.send_now(text)
        ):
            return  # nothing was waiting: written now, in order
        if len(self.queue) >= self.limit:
            self.queue.clear()
            self.queue.append(RESYNC)
            self.resyncs += 1
        else:
            self.queue.append(text)
        self.ready.set()

    def say(self, text: str) -> None:
        """Queue a message that is not a state (chat, clock, rematch), in order with the rest."""
        self.offer(text)

    async def pump(self) -> None:
        """Send pushes, oldest first, until the connection closes."""
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            while self.queue and not self.closed:
                self.sending = True
                try:
                    await self.send(self.queue.popleft())
                finally:
                    self.sending = False


@dataclass
class Origin:
    """The connection an action came on (``{"type": "action"}`` on a WebSocket) and its ref:
    that connection's push of the new state carries ``"acted": ref`` in front (its answer)."""

    conn: Connection
    ref: int | None
    told: bool = False  # the push with "acted" was queued
