"""The review routes: start the review of a finished game, follow it, read it.

A review runs in a worker thread pool (never on the event loop); its progress and its result
are kept per game on the server (``app.state.reviews``) and served to everyone who asks.
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import APIRouter, Request

from .tables import ApiError

router = APIRouter()
POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="glade-review")


class Reviews:
    """Per game id: {"status": running|done|failed, "done": n, "total": n, "review": {...}}."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: dict[str, dict[str, Any]] = {}

    def get(self, game_id: str) -> dict[str, Any] | None:
        with self.lock:
            item = self.items.get(game_id)
            return dict(item) if item is not None else None

    def update(self, game_id: str, **fields: Any) -> None:
        with self.lock:
            self.items.setdefault(game_id, {}).update(fields)


def reviews_of(request: Request) -> Reviews:
    found = getattr(request.app.state, "reviews", None)
    if found is None:
        found = request.app.state.reviews = Reviews()
    return found


def run_review(store: Reviews, game_id: str, final: Any, samples: int | None) -> None:
    """The review itself, in a worker thread."""
    from glade.bots.review import review

    def step(done: int, total: int) -> None:
        store.update(game_id, done=done, total=total)

    try:
        result = review(final, samples=samples, progress=step)
    except Exception as exc:  # a review that fails is reported, never lost silently
        store.update(game_id, status="failed", error=str(exc))
        return
    store.update(game_id, status="done", review=result)


@router.post("/api/games/{game_id}/review", summary="Start the review of a finished game")
async def start_review(game_id: str, request: Request) -> Any:
    tables = request.app.state.tables
    room = await tables.get(game_id)
    async with room.lock:
        if not room.over:
            raise ApiError(409, "only a finished game can be reviewed")
        final = room.state.copy()
    store = reviews_of(request)
    known = store.get(game_id)
    if known is not None and known.get("status") in ("running", "done"):
        return progress_of(known)
    store.update(game_id, status="running", done=0, total=0)
    samples = getattr(request.app.state, "review_samples", None) or env_samples()
    asyncio.get_running_loop().run_in_executor(POOL, run_review, store, game_id, final, samples)
    found = store.get(game_id)
    assert found is not None
    return progress_of(found)


def env_samples() -> int | None:
    """Samples per decision from ``GLADE_REVIEW_SAMPLES`` (None: the evaluation's default)."""
    raw = os.environ.get("GLADE_REVIEW_SAMPLES", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else None


def progress_of(item: dict[str, Any]) -> dict[str, Any]:
    out = {k: item.get(k) for k in ("status", "done", "total")}
    if item.get("status") == "done":
        out["review"] = item.get("review")
    if item.get("status") == "failed":
        out["error"] = item.get("error")
    return out


@router.get("/api/games/{game_id}/review", summary="A game's review: its progress, then its result")
async def get_review(game_id: str, request: Request) -> Any:
    await request.app.state.tables.get(game_id)  # an unknown game is a clear 404
    found = reviews_of(request).get(game_id)
    if found is None:
        return {"status": "none", "done": 0, "total": 0}
    return progress_of(found)


__all__ = ["POOL", "Reviews", "router", "run_review"]
