"""The server's error answer: an HTTP status, one sentence and, for refusals, their code."""

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
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.params = params

    @classmethod
    def refused(cls, exc: IllegalAction | BadInput, status: int = 422) -> ApiError:
        """The engine's refusal: its sentence, code and params."""
        return cls(status, exc.message, exc.code, exc.params)

    def to_json(self) -> dict[str, Any]:
        """``{"error": sentence}``, plus ``code`` and ``params`` when the engine refused."""
        body: dict[str, Any] = {"error": self.message}
        if self.code is not None:
            body["code"] = self.code
            body["params"] = self.params or {}
        return body
