"""The domain: tables and their live state (:class:`Tables`, :class:`Table`, :class:`Seat`), the
clock model, the pictures and pushes each seat gets, and the events a table publishes (an action
applied, a game over, a seat taken over …) for the features above to subscribe to. It imports
only the storage and the settings below it."""

from __future__ import annotations

from .clock import Clock, ClockSpec
from .connections import RESYNC, Connection, Origin
from .events import (
    ActionApplied,
    ClockRanOut,
    EventBus,
    GameOver,
    Heard,
    SeatTakenOver,
    TableReady,
)
from .table import Seat, Table
from .tables import LEFT, TAKEOVER_BOT, TIMED_OUT, Tables
from .tokens import hash_token, new_token

__all__ = [
    "LEFT",
    "RESYNC",
    "TAKEOVER_BOT",
    "TIMED_OUT",
    "ActionApplied",
    "Clock",
    "ClockSpec",
    "ClockRanOut",
    "Connection",
    "EventBus",
    "GameOver",
    "Heard",
    "Origin",
    "Seat",
    "SeatTakenOver",
    "Table",
    "TableReady",
    "Tables",
    "hash_token",
    "new_token",
]
