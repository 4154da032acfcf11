"""The access log: one line per request in a standard form (Common or Combined Log Format, or
JSON), or a format of your own made of the same fields.

Seat tokens never reach the log: a ``token`` in a query string (the WebSocket's) is written
``token=-``.
"""

from __future__ import annotations

import json
import logging
import re
import string
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FIELDS = (
    "client",
    "time",
    "method",
    "path",
    "protocol",
    "status",
    "bytes",
    "referer",
    "user_agent",
    "ms",
)
FORMATS = {
    "common": '{client} - - [{time}] "{method} {path} {protocol}" {status} {bytes}',
    "combined": '{client} - - [{time}] "{method} {path} {protocol}" {status} {bytes} '
    '"{referer}" "{user_agent}"',
    "json": "json",
}
_TOKEN = re.compile(r"(^|&)(token=)[^&]*")

log = logging.getLogger("glade.access")


def check_format(form: str) -> str:
    """The format string for ``form`` (a name of :data:`FORMATS` or a custom one).

    ValueError with a sentence if it names a field that does not exist.
    """
    form = FORMATS.get(form, form)
    if form == "json":
        return form
    try:
        names = {f for _, f, _, _ in string.Formatter().parse(form) if f is not None}
    except ValueError as exc:
        raise ValueError(f"the access log format is not valid ({exc})") from None
    unknown = names - set(FIELDS)
    if unknown:
        raise ValueError(
            f"the access log format names {', '.join(sorted(unknown))}; "
            f"the fields are {', '.join(FIELDS)}"
        )
    return form


def _quoted(text: str) -> str:
    """Text safe inside a quoted log field: quotes, backslashes and control characters escaped."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return text
    return json.dumps(text)[1:-1]


def _clf_time(now: float) -> str:
    return time.strftime("%d/%b/%Y:%H:%M:%S %z", time.localtime(now))


class AccessLog:
    """ASGI middleware writing one line to the ``glade.access`` logger per answered request."""

    def __init__(self, app: ASGIApp, form: str) -> None:
        self.app = app
        self.form = check_format(form)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.time()
        status = 0
        size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
            elif kind == "http.response.body":
                size += len(message.get("body", b""))
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status == 0:
                status = 403
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            self.write(scope, status or 500, size, started)

    def write(self, scope: Scope, status: int, size: int, started: float) -> None:
        if not log.isEnabledFor(logging.INFO):
            return
        query = scope.get("query_string", b"").decode("latin-1")
        path = scope.get("path", "")
        if query:
            path = path + "?" + _TOKEN.sub(r"\1\2-", query)
        headers = dict(scope.get("headers", []))
        client = scope.get("client")
        fields: dict[str, Any] = {
            "client": client[0] if client else "-",
            "time": _clf_time(started),
            "method": scope.get("method", "GET") if scope["type"] == "http" else "WS",
            "path": _quoted(path),
            "protocol": f"HTTP/{scope.get('http_version', '1.1')}",
            "status": status,
            "bytes": size or "-",
            "referer": _quoted(headers.get(b"referer", b"-").decode("latin-1")),
            "user_agent": _quoted(headers.get(b"user-agent", b"-").decode("latin-1")),
            "ms": round((time.time() - started) * 1000, 1),
        }
        if self.form == "json":
            log.info(json.dumps(fields))
        else:
            log.info(self.form.format(**fields))
