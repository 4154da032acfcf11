"""The review routes: start the review of a finished game, follow it, read it, and see the best
alternative of a decision on the board.

A review is worked out in the bot workers (``BotRunner.bot_pool``, never on the event loop), one
decision per task, so bot turns of other tables interleave with it. Its progress and, once done,
the whole review are stored (``Storage`` reviews section, migration 5): it is computed once and
served to everyone who opens it later, from any server process and after a restart. A review
whose process went away (no progress for ``STALE_SECONDS``) or that failed is started again by
the next request.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request

import glade

from .refusals import refuse
from .storage import StorageConflict, StorageError

if TYPE_CHECKING:
    from .tables import Tables

router = APIRouter()
log = logging.getLogger("glade.server")
STALE_SECONDS = 300.0  # a running review with no progress for this long is taken over
OWNER = f"{os.getpid()}-{secrets.token_hex(4)}"  # this process, as the owner of the reviews it runs


def judge_position(
    name: str,
    position: dict[str, Any],
    seat: int,
    move: list[int],
    log_span: list[int],
    k: int,
    samples: int | None,
) -> dict[str, Any]:
    """One decision of a review judged (runs in a bot worker process)."""
    from glade.bots.review import Decision, judge

    pos = glade.load_game(position)
    return judge(name, Decision(pos, seat, tuple(move), log_span[0], log_span[1]), k, samples)


def env_samples() -> int | None:
    """Samples per decision from ``GLADE_REVIEW_SAMPLES`` (None: the evaluation's default)."""
    raw = os.environ.get("GLADE_REVIEW_SAMPLES", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else None


def progress_of(item: dict[str, Any] | None) -> dict[str, Any]:
    if item is None:
        return {"status": "none", "done": 0, "total": 0}
    out = {k: item.get(k) for k in ("status", "done", "total")}
    if item.get("status") == "done":
        out["review"] = item.get("review")
    if item.get("status") == "failed":
        out["error"] = item.get("error")
    return out


async def run_review(tables: Tables, game_id: str, final: Any, samples: int | None) -> None:
    """The review of ``final``, decision by decision in the bot workers, stored as it goes."""
    from glade.bots.review import assemble, decisions

    loop = asyncio.get_running_loop()
    storage = tables.storage
    try:
        found = await loop.run_in_executor(None, decisions, final)
        total = len(found)
        await asyncio.wrap_future(storage.review_progress(game_id, OWNER, 0, total, time.time()))
        turns = []
        for k, d in enumerate(found):
            args = (
                final.game_name,
                d.position.to_json(),
                d.seat,
                list(d.move),
                [d.start, d.end],
                k,
                samples,
            )
            turns.append(await loop.run_in_executor(tables.bots.bot_pool(), judge_position, *args))
            await asyncio.wrap_future(
                storage.review_progress(game_id, OWNER, k + 1, total, time.time())
            )
        result = await loop.run_in_executor(None, assemble, final, turns, samples)
        await asyncio.wrap_future(storage.finish_review(game_id, OWNER, result, None, time.time()))
    except asyncio.CancelledError:  # the server stops: the next one takes the review over
        raise
    except Exception as exc:  # noqa: BLE001 - a review that fails is reported, never lost silently
        log.exception("the review of game %s failed", game_id)
        try:
            await asyncio.wrap_future(
                storage.finish_review(game_id, OWNER, None, str(exc), time.time())
            )
        except StorageError:
            log.error("the failure of the review of game %s could not be stored", game_id)


def _tables(request: Request) -> Tables:
    found: Tables = request.app.state.tables
    return found


@router.post("/api/games/{game_id}/review", summary="Start the review of a finished game")
async def start_review(game_id: str, request: Request) -> Any:
    tables = _tables(request)
    room = await tables.get(game_id)
    async with room.lock:
        if not room.over:
            raise refuse(409, "server.review.not_over")
        final = room.state.copy()
    storage = tables.storage
    known = await asyncio.wrap_future(storage.load_review(game_id))
    now = time.time()
    if known is not None and (
        known["status"] == "done"
        or (known["status"] == "running" and known["updated_at"] >= now - STALE_SECONDS)
    ):
        return progress_of(known)
    try:
        await asyncio.wrap_future(storage.claim_review(game_id, OWNER, now, now - STALE_SECONDS))
    except StorageConflict:  # another process started it a moment ago
        return progress_of(await asyncio.wrap_future(storage.load_review(game_id)))
    except StorageError:
        raise refuse(503, "server.review.unstarted") from None
    samples = getattr(request.app.state, "review_samples", None) or env_samples()
    task = asyncio.get_running_loop().create_task(run_review(tables, game_id, final, samples))
    tables.bots.tasks.add(task)  # cancelled when the server stops
    task.add_done_callback(tables.bots.tasks.discard)
    return {"status": "running", "done": 0, "total": 0}


@router.get("/api/games/{game_id}/review", summary="A game's review: its progress, then its result")
async def get_review(game_id: str, request: Request) -> Any:
    tables = _tables(request)
    await tables.get(game_id)  # an unknown game is a clear 404
    return progress_of(await asyncio.wrap_future(tables.storage.load_review(game_id)))


@router.get(
    "/api/games/{game_id}/review/{index}/best",
    summary="The position after the best move found at a reviewed decision",
)
async def best_position(game_id: str, index: int, request: Request) -> Any:
    """``{"index", "move", "view"}``: the public view after the best alternative of decision
    ``index`` (``move``: the log position of the move played, to show side by side)."""
    from glade.bots.review import after_best

    tables = _tables(request)
    room = await tables.get(game_id)
    if not room.over:
        raise refuse(403, "server.table.past_hidden")
    found = await asyncio.wrap_future(tables.storage.load_review(game_id))
    if found is None or found["status"] != "done":
        raise refuse(404, "server.review.none")
    turns = found["review"]["turns"]
    if not 0 <= index < len(turns):
        raise refuse(422, "server.review.decision_range", max=len(turns) - 1)
    turn = turns[index]
    final = room.state.copy()

    def build() -> dict[str, Any]:
        game = after_best(final, turn)
        return {"index": index, "move": turn["log"][1], "view": game.view(None)}

    out: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, build)
    return out


__all__ = ["OWNER", "STALE_SECONDS", "judge_position", "router", "run_review"]
