"""The server's error answer: an HTTP status, one sentence and, for refusals, their code.

Every sentence the server answers starts with a capital letter (the engines' refusals, written to
be read inside a sentence too, are capitalised here; the page translates by code).
"""

from __future__ import annotations

from typing import Any

from glade.core import BadInput, IllegalAction


class ApiError(Exception):
    """An answer other than success: HTTP status plus one sentence (and a refusal's code)."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        message = capitalised(message)
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.params = params

    @classmethod
    def refused(cls, exc: IllegalAction | BadInput, status: int = 422) -> ApiError:
        """The engine's refusal: its sentence, code and params (which may quote what the client
        sent, so text that UTF-8 cannot carry, such as a lone surrogate, is replaced)."""
        return cls(status, _utf8(exc.message), exc.code, _utf8(exc.params))

    def to_json(self) -> dict[str, Any]:
        """``{"error": sentence}``, plus ``code`` and ``params`` when the engine refused."""
        body: dict[str, Any] = {"error": self.message}
        if self.code is not None:
            body["code"] = self.code
            body["params"] = self.params or {}
        return body


def _utf8(value: Any) -> Any:
    """``value`` with every string made encodable as UTF-8 (unencodable characters become "?")."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {_utf8(k): _utf8(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_utf8(v) for v in value]
    return value


def capitalised(sentence: str) -> str:
    """``sentence`` with its first letter in capitals, unless its first word is a name written
    as the API writes it (``take_tokens needs …``), which stays as it is."""
    first = sentence.split(" ", 1)[0]
    if "_" in first or not first[:1].isalpha():
        return sentence
    return sentence[:1].upper() + sentence[1:]
