"""The review routes: start the review of a finished game, follow it (its progress says while it
waits for a worker), read it, and see the best alternative of a decision on the board."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .deps import ClientDep, ServicesDep

router = APIRouter()


@router.post("/api/games/{game_id}/review", summary="Start the review of a finished game")
async def start_review(game_id: str, services: ServicesDep, client: ClientDep) -> Any:
    table = await services.tables.get(game_id)
    return await services.reviews.start(table, client)


@router.get("/api/games/{game_id}/review", summary="A game's review: its progress, then its result")
async def get_review(game_id: str, services: ServicesDep) -> Any:
    return await services.reviews.get(game_id)


@router.get(
    "/api/games/{game_id}/review/{index}/best",
    summary="The position after the best move found at a reviewed decision",
)
async def best_position(game_id: str, index: int, services: ServicesDep) -> Any:
    """``{"index", "move", "view"}``: the public view after the best alternative of decision
    ``index`` (``move``: the log position of the move played, to show side by side)."""
    table = await services.tables.get(game_id)
    return await services.reviews.best(table, index)
