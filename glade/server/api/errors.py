"""The API's error answers: one sentence (capitalised) in ``{"error": …}``, and for a refusal its
code and params, whatever raised it (a refusal of ours, the request's validation, Starlette's own
404/405, a bug)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from glade.core.errors import Refusal

from ..errors import ApiError, capitalised

log = logging.getLogger("glade.server")

SERVER_ERROR = "The server failed on this request (a bug, logged); nothing changed"


def error_response(
    status: int, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": capitalised(message)}, status_code=status, headers=headers)


def validation_sentence(exc: RequestValidationError) -> tuple[int, str]:
    """One plain sentence (and status) for the first problem pydantic found."""
    errors = exc.errors()
    if not errors:
        return 422, "the request is not valid"
    first = errors[0]
    kind = first.get("type", "")
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    where = ".".join(loc)
    if kind == "value_error":
        message = str(first.get("msg", "is not valid")).removeprefix("Value error, ")
        return 422, f"the field {where!r} is not valid: {message}"
    if kind == "json_invalid":
        return 400, "the request body is not valid JSON"
    if kind == "extra_forbidden":
        return 422, f"unknown field {where!r} in the request"
    if kind == "missing":
        return (
            422,
            f"the request needs the field {where!r}" if where else "the request needs a body",
        )
    if not where and kind in ("model_attributes_type", "dict_type"):
        return 422, "the request body must be a JSON object"
    message = str(first.get("msg", "is not valid")).rstrip(".")
    if where:
        return 422, f"the field {where!r} is not valid: {message[0].lower()}{message[1:]}"
    return 422, f"the request body is not valid: {message[0].lower()}{message[1:]}"


def validation_refusal(exc: RequestValidationError) -> Refusal | None:
    """The coded refusal behind the first problem, when one of our validators raised it."""
    errors = exc.errors()
    error = errors[0].get("ctx", {}).get("error") if errors else None
    reason = error.args[0] if isinstance(error, ValueError) and error.args else None
    return reason if isinstance(reason, Refusal) else None


def allowed_methods(request: Request) -> str:
    """The methods some route takes at this path (the static files take GET and HEAD)."""
    path = request.url.path
    methods: set[str] = set()
    routes = list(request.app.routes)
    while routes:
        route = routes.pop()
        included = getattr(route, "original_router", None)  # a router the app includes
        if included is not None:
            routes += included.routes
            continue
        found = getattr(route, "methods", None)
        regex = getattr(route, "path_regex", None)
        if found and regex is not None and regex.match(path):
            methods |= set(found)
    if not methods:
        methods = {"GET", "HEAD"}
    return ", ".join(sorted(methods))


def install(app: FastAPI) -> None:
    """The app's handlers of every error answer."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        # a bug (e.g. in an engine): logged with its traceback, answered 500, nothing changed
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, SERVER_ERROR)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = validation_sentence(exc)
        refusal = validation_refusal(exc)
        if refusal is not None:  # a coded check of ours (names, passwords): the page translates it
            body = ApiError(status, str(refusal), refusal.code, refusal.params).to_json()
            return JSONResponse(body, status_code=status)
        return error_response(status, message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "The request was refused"
        if exc.status_code == 404 and message == "Not Found":
            message = "There is nothing at this address"
        elif exc.status_code == 400 and "parsing the body" in message:
            message = "The request body is not valid JSON (or nests or numbers too deep to read)"
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            message = f"{request.method} is not allowed here"
            headers["Allow"] = allowed_methods(request)
        return error_response(exc.status_code, message, headers or None)
