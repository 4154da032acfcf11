"""The social routes: a table's clock, chat and rematch now; chat; leaving; rematches."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from .deps import Auth, ClientDep, ServicesDep, bearer, seat_url
from .models import ChatPost

router = APIRouter()


@router.get("/api/games/{game_id}/social", summary="A table's clock, chat and rematch now")
async def social_now(game_id: str, services: ServicesDep) -> Any:
    table = await services.tables.get(game_id)
    social = services.social
    now = time.time()
    return JSONResponse(
        {
            "now": now,
            "clock": None if table.clock is None else table.clock.to_json(now),
            "chat": await social.chat(table),
            "rematch": await social.rematch_status(table) if table.over else None,
        }
    )


@router.get("/api/games/{game_id}/chat", summary="The table chat, oldest first (the newest 200)")
async def get_chat(game_id: str, services: ServicesDep) -> Any:
    table = await services.tables.get(game_id)
    return JSONResponse({"messages": await services.social.chat(table)})


@router.post(
    "/api/games/{game_id}/chat",
    summary="Say something at the table (players only; 1–200 characters, no control characters)",
)
async def post_chat(
    game_id: str,
    body: ChatPost,
    services: ServicesDep,
    client: ClientDep,
    authorization: Auth = None,
) -> Any:
    table = await services.tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    return JSONResponse(await services.social.post_chat(table, seat, body.text, client))


@router.post(
    "/api/games/{game_id}/leave",
    summary="Leave the game: a bot plays your seat for the rest of it",
)
async def leave(game_id: str, services: ServicesDep, authorization: Auth = None) -> Any:
    table = await services.tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    await services.social.leave(table, seat)
    return Response(table.text(seat), media_type="application/json")


@router.post(
    "/api/games/{game_id}/rematch",
    summary="Offer the finished game's rematch (seats moved one on), or accept the offer",
)
async def rematch(
    game_id: str,
    request: Request,
    services: ServicesDep,
    client: ClientDep,
    authorization: Auth = None,
) -> Any:
    table = await services.tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    answer = await services.social.rematch(table, seat, client)
    answer["url"] = seat_url(request, answer["id"], answer["token"])
    return JSONResponse(answer)


@router.post(
    "/api/games/{game_id}/rematch/decline",
    summary="Decline the rematch offered (the offerer: withdraw it while nobody accepted)",
)
async def decline_rematch(game_id: str, services: ServicesDep, authorization: Auth = None) -> Any:
    table = await services.tables.get(game_id)
    seat = table.seat_of(bearer(authorization))
    return JSONResponse(await services.social.decline(table, seat))
