"""The game server: online tables for both games over HTTP and WebSocket (``glade serve``).

``create_app`` and ``Settings`` load lazily, so ``glade.server.cli`` (the ``serve`` flags) costs
the ``glade`` command nothing until it really serves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .config import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .config import Settings

        return Settings
    raise AttributeError(f"module 'glade.server' has no attribute {name!r}")
