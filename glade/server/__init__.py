"""The game server: online tables for both games over HTTP and WebSocket (``glade serve``)."""

from __future__ import annotations

from .app import create_app
from .config import Settings

__all__ = ["Settings", "create_app"]
