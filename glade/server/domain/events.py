"""What happens to a table, told to whoever subscribed: the features (bots, clocks, ratings …)
react to the tables' events instead of being called by them.

Handlers run on the event loop, in the order they subscribed, right after the change is stored
and applied; a handler that fails is logged and the others still run (an event never undoes the
change it tells of).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .table import Table

log = logging.getLogger("glade.server")


@dataclass(frozen=True)
class ActionApplied:
    """This process stored action ``version`` of ``table`` (a seat's, or its bot's)."""

    table: Table
    version: int
    seat: int
    by_player: bool


@dataclass(frozen=True)
class GameOver:
    """This process stored the action that ended ``table``'s game."""

    table: Table


@dataclass(frozen=True)
class SeatTakenOver:
    """This process handed ``seat`` to the takeover bot (``status``: "timed out" or "left")."""

    table: Table
    seat: int
    status: str


@dataclass(frozen=True)
class TableReady:
    """A table is here to be played: created, or resumed after a start (its bots may move)."""

    table: Table


@dataclass(frozen=True)
class ClockRanOut:
    """A move found its seat's clock run out before the sweep did."""

    table: Table
    seat: int


@dataclass(frozen=True)
class Heard:
    """Another process announced something about ``table`` beyond its actions and seats
    (``kind``: "chat" or "rematch"; ``what``: the whole announcement)."""

    table: Table
    kind: str
    what: str


E = TypeVar("E")


class EventBus:
    """Subscribers per event type; :meth:`publish` calls each in turn."""

    def __init__(self) -> None:
        self.handlers: dict[type[Any], list[Callable[[Any], None]]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[E], None]) -> None:
        self.handlers.setdefault(kind, []).append(handler)

    def unsubscribe(self, kind: type[E], handler: Callable[[E], None]) -> None:
        self.handlers[kind] = [h for h in self.handlers.get(kind, []) if h != handler]

    def publish(self, event: object) -> None:
        for handler in self.handlers.get(type(event), ()):
            try:
                handler(event)
            except Exception:  # noqa: BLE001 - one subscriber's bug never undoes the change
                log.exception("a handler of %s failed", type(event).__name__)
