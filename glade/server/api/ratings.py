"""The rating routes: the bots' calibrated ratings, a game's leaderboard, what a table has at
stake (and whether it counts), and a player's profile."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ..features.ratings import bots_board
from .deps import ServicesDep

router = APIRouter()


@router.get(
    "/api/ratings/bots",
    summary="Each bot level's calibrated rating per game (bot-vs-bot arena games)",
)
async def bot_ratings() -> Any:
    return JSONResponse(bots_board())


@router.get(
    "/api/ratings/{game}",
    summary="The leaderboard of a game: players and bot levels by conservative rating",
)
async def leaderboard(
    game: str, services: ServicesDep, limit: int = Query(default=50, ge=1, le=200)
) -> Any:
    return JSONResponse(await services.ratings.leaderboard(game, limit))


@router.get(
    "/api/games/{game_id}/ratings",
    summary="Whether a table is rated, whether its game counts (and why not), and what is at "
    "stake: each seat's rating (and change)",
)
async def table_ratings(game_id: str, services: ServicesDep) -> Any:
    table = await services.tables.get(game_id)
    return JSONResponse(await services.ratings.at_table(table))


@router.get(
    "/api/profiles/{name}",
    summary="A player's (or bot level's) ratings, rating history and recent games",
)
async def profile(name: str, services: ServicesDep) -> Any:
    return JSONResponse(await services.ratings.profile(name))
