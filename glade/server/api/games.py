"""The table routes: create a table, read it, act, its log, hints, the past, the lobby, joining
(the web API calls a table a game: ``/api/games/{game_id}``), the health check and the engines'
data files."""

from __future__ import annotations

import asyncio
import logging
from importlib import resources
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from glade.learn.gains import lesson, page_cell

from ..domain import Tables
from ..features.ratings import check_rated_seats
from ..refusals import refuse
from .deps import (
    Auth,
    ClientDep,
    ServicesDep,
    TablesDep,
    base_url,
    bearer,
    check_csrf,
    seat_url,
    session_of,
)
from .errors import error_response
from .models import (
    Created,
    CreateGame,
    Error,
    GameLog,
    GameState,
    Hints,
    Join,
    Joined,
    Lobby,
    PastView,
    PostAction,
)

log = logging.getLogger("glade.server")
router = APIRouter()

GAME_DATA = {  # data file served at /data/<name> -> the package that holds it
    "harmonies-cards.json": "glade.harmonies",
    "living-forest-cards.json": "glade.living_forest",
}

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Error, "description": text}
    for code, text in {
        400: "malformed request",
        403: "not your seat, not your turn, or a token of no seat",
        404: "no such game",
        409: "stale version, or no open seat",
        413: "request too large",
        422: "illegal action or invalid input",
        429: "too many requests or games",
    }.items()
}


async def play_action(
    tables: Tables,
    game_id: str,
    authorization: str | None,
    action: dict[str, Any],
    version: int,
) -> str:
    """``POST /api/games/{id}/actions`` (the route and the guard's fast path alike): play
    ``action`` for the seat the bearer token opens; the seat's new picture (JSON text), or
    :class:`ApiError` (nothing changed)."""
    table = await tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    await tables.act(table, seat, action, version, by_player=True)
    return table.text(seat)


@router.post(
    "/api/games",
    status_code=201,
    response_model=Created,
    responses=ERRORS,
    summary="Create a game; each human seat gets a secret token and an invite link",
)
async def create_game(
    body: CreateGame, request: Request, tables: TablesDep, client: ClientDep
) -> dict[str, Any]:
    seats = [s.model_dump() for s in body.seats]
    clock = None if body.clock is None else body.clock.model_dump()
    if body.rated:  # a rated table is made by a logged-in account (its seats are accounts')
        session = await session_of(request)
        if session is None:
            raise refuse(403, "server.rated.guest_table")
        check_csrf(request, session)  # the session authorises it, so the cookie needs its token
    table, tokens = await tables.create(
        body.game,
        body.options,
        seats,
        client,
        clock,
        rated=body.rated,
        check_seats=check_rated_seats if body.rated else None,
    )
    return {
        "id": table.id,
        "seats": [
            {
                "seat": i,
                "token": token,
                "url": None if token is None else seat_url(request, table.id, token),
            }
            for i, token in enumerate(tokens)
        ],
        "spectate_url": f"{base_url(request)}/?game={table.id}",
    }


@router.get(
    "/api/games/{game_id}",
    response_model=GameState,
    responses=ERRORS,
    summary="The game as one seat sees it (no token: as a spectator)",
)
async def get_game(game_id: str, tables: TablesDep, authorization: Auth = None) -> Any:
    table = await tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    return Response(table.text(seat), media_type="application/json")


@router.post(
    "/api/games/{game_id}/actions",
    response_model=GameState,
    responses=ERRORS,
    summary="Play an action chosen on state `version`; answers the new state",
)
async def post_action(
    game_id: str, body: PostAction, tables: TablesDep, authorization: Auth = None
) -> Any:
    text = await play_action(tables, game_id, authorization, body.action, body.version)
    return Response(text, media_type="application/json")


@router.get(
    "/api/games/{game_id}/log",
    response_model=GameLog,
    responses=ERRORS,
    summary="The public record of a game, enough to replay what everyone saw",
)
async def game_log(game_id: str, tables: TablesDep) -> Any:
    return JSONResponse(await tables.public_log(await tables.get(game_id)))


@router.get(
    "/api/games/{game_id}/hint",
    response_model=Hints,
    responses=ERRORS,
    summary="The search bot's best moves for your seat now, best first",
)
async def get_hint(
    game_id: str,
    services: ServicesDep,
    client: ClientDep,
    authorization: Auth = None,
    lang: Literal["en", "ko", "zh"] = Query(
        default="en", description="the language of each move's lesson"
    ),
) -> Any:
    table = await services.tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    if seat is None:
        raise refuse(403, "server.hint.spectator")
    version, moves = await services.analysis.hint(table, seat, client)
    for move in moves:  # what the move gains, in words, its cells named as the page names them
        teach = move.get("teach") or []
        move["lesson"] = lesson(table.game, teach, lang, page_cell(table.game)) if teach else None
    best = moves[0]["actions"] if moves else []
    return JSONResponse({"version": version, "actions": best, "hints": moves})


@router.get(
    "/api/games/{game_id}/past/{move}",
    response_model=PastView,
    responses=ERRORS,
    summary="A finished game's public view after its first `move` logged moves (replays)",
)
async def past_view(game_id: str, move: int, tables: TablesDep) -> Any:
    return JSONResponse(await tables.past_view(await tables.get(game_id), move))


@router.get(
    "/api/health",
    responses={503: {"model": Error, "description": "stopping, or the database is down"}},
    summary="200 while this process serves and reaches its database (for load balancers)",
)
async def health(services: ServicesDep) -> Any:
    if services.draining:
        return error_response(503, "This server is stopping; use another one")
    try:
        await asyncio.wait_for(asyncio.wrap_future(services.storage.ping()), 5.0)
    except Exception as exc:  # noqa: BLE001 - any failure means the same to a load balancer
        log.warning("health check: the database does not answer (%s)", exc)
        return error_response(503, "This server cannot reach its database")
    return JSONResponse(
        {
            "status": "ok",
            "database": services.storage.kind,
            "tables": len(services.tables.tables),
        }
    )


@router.get(
    "/api/lobby",
    response_model=Lobby,
    responses=ERRORS,
    summary="Games that wait for players (open human seats)",
)
async def lobby(tables: TablesDep) -> Any:
    return JSONResponse({"games": await tables.lobby()})


@router.post(
    "/api/games/{game_id}/join",
    response_model=Joined,
    responses=ERRORS,
    summary="Take an open human seat by name (with an invite token: name that seat)",
)
async def join(
    game_id: str, body: Join, request: Request, tables: TablesDep, authorization: Auth = None
) -> Any:
    table = await tables.get(game_id)
    seat, token = await tables.join(table, body.name, body.seat, bearer(authorization))
    return {"id": table.id, "seat": seat, "token": token, "url": seat_url(request, table.id, token)}


@router.get("/data/{name}", include_in_schema=False)
async def game_data(name: str) -> Response:
    """The engines' own card and board data, so the browser never keeps a copy that drifts."""
    package = GAME_DATA.get(name)
    if package is None:
        raise StarletteHTTPException(404, f"There is no data file {name!r}")
    text = resources.files(package).joinpath("data", name).read_text("utf-8")
    return Response(text, media_type="application/json")
