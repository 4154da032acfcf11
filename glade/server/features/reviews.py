"""Reviews of finished tables: started on request, worked out decision by decision in the
analysis queue (:mod:`glade.server.features.analysis`), stored as they go.

Progress and, once done, the whole review are stored (``storage.reviews``): a review is computed
once and served to everyone who opens it later, from any server process and after a restart. A
review whose process went away (no progress for ``STALE_SECONDS``) or that failed is started again
by the next request. While a review waits for a worker, its progress says so (``queued``: how many
jobs go before it) and its row is kept fresh, so no other process takes it over for stale.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any

import glade
from glade.bots.review import Decision, after_best, assemble, decisions, judge
from glade.core import Game

from ..domain import Table, Tables
from ..refusals import refuse
from ..storage import Storage, StorageConflict, StorageError
from .analysis import REVIEW, Analysis

log = logging.getLogger("glade.server")
STALE_SECONDS = 300.0  # a running review with no progress for this long is taken over
HEARTBEAT_SECONDS = 60.0  # a waiting review's row is kept fresh this often
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
    """One decision of a review judged (runs in an analysis worker)."""
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


@dataclass(eq=False)
class Job:
    """A review this process works on."""

    table_id: str
    client: str


class Reviews:
    """The reviews this process starts and works out."""

    def __init__(self, storage: Storage, tables: Tables, analysis: Analysis) -> None:
        self.storage = storage
        self.tables = tables
        self.analysis = analysis
        self.jobs: dict[str, Job] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.samples: int | None = env_samples()

    def progress(self, table_id: str, stored: dict[str, Any] | None) -> dict[str, Any]:
        """A review's progress: the stored one and, while this process works on it,
        ``queued``: how many hints and decisions of other reviews go before its next decision
        (0: it is being worked out, or goes next)."""
        out = progress_of(stored)
        job = self.jobs.get(table_id)
        if job is not None and out["status"] == "running":
            out["queued"] = self.analysis.slots.position(job) or 0
        return out

    async def start(self, table: Table, client: str) -> dict[str, Any]:
        """Start the review of a finished table (or answer the one stored or running)."""
        async with table.lock:
            if not table.over:
                raise refuse(409, "server.review.not_over")
            final = table.state.copy()
        reviews = self.storage.reviews
        known = await asyncio.wrap_future(reviews.load(table.id))
        now = time.time()
        if known is not None and (
            known["status"] == "done"
            or (known["status"] == "running" and known["updated_at"] >= now - STALE_SECONDS)
        ):
            return self.progress(table.id, known)
        self.analysis.reviews.take(client)  # 429 or 503 past the bounds: nothing started
        try:
            await asyncio.wrap_future(reviews.claim(table.id, OWNER, now, now - STALE_SECONDS))
        except StorageConflict:  # another process started it a moment ago
            self.analysis.reviews.give_back(client)
            return self.progress(table.id, await asyncio.wrap_future(reviews.load(table.id)))
        except StorageError:
            self.analysis.reviews.give_back(client)
            raise refuse(503, "server.review.unstarted") from None
        job = Job(table.id, client)
        self.jobs[table.id] = job
        task = asyncio.get_running_loop().create_task(self.run(job, final))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return {"status": "running", "done": 0, "total": 0, "queued": 0}

    async def get(self, table_id: str) -> dict[str, Any]:
        await self.tables.get(table_id)  # an unknown table is a clear 404
        stored = await asyncio.wrap_future(self.storage.reviews.load(table_id))
        return self.progress(table_id, stored)

    async def judged(self, job: Job, args: tuple[Any, ...], done: int, total: int) -> Any:
        """One decision judged in the analysis queue; while it waits, the review's row is kept
        fresh every ``HEARTBEAT_SECONDS``."""
        work = asyncio.ensure_future(self.analysis.run(REVIEW, judge_position, *args, tag=job))
        try:
            while True:
                finished, _ = await asyncio.wait({work}, timeout=HEARTBEAT_SECONDS)
                if finished:
                    return work.result()
                await asyncio.wrap_future(
                    self.storage.reviews.progress(job.table_id, OWNER, done, total, time.time())
                )
        finally:
            if not work.done():
                work.cancel()

    async def run(self, job: Job, final: Game) -> None:
        """The review of ``final``, decision by decision, stored as it goes."""
        loop = asyncio.get_running_loop()
        reviews = self.storage.reviews
        samples = self.samples
        try:
            found = await loop.run_in_executor(None, decisions, final)
            total = len(found)
            await asyncio.wrap_future(reviews.progress(job.table_id, OWNER, 0, total, time.time()))
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
                turns.append(await self.judged(job, args, k, total))
                await asyncio.wrap_future(
                    reviews.progress(job.table_id, OWNER, k + 1, total, time.time())
                )
            result = await loop.run_in_executor(None, assemble, final, turns, samples)
            await asyncio.wrap_future(
                reviews.finish(job.table_id, OWNER, result, None, time.time())
            )
        except asyncio.CancelledError:  # the server stops: the next one takes the review over
            raise
        except Exception as exc:  # noqa: BLE001 - a review that fails is reported, never lost
            log.exception("the review of table %s failed", job.table_id)
            try:
                await asyncio.wrap_future(
                    reviews.finish(job.table_id, OWNER, None, str(exc), time.time())
                )
            except StorageError:
                log.error("the failure of the review of table %s could not be stored", job.table_id)
        finally:
            self.jobs.pop(job.table_id, None)
            self.analysis.reviews.give_back(job.client)

    async def best(self, table: Table, index: int) -> dict[str, Any]:
        """``{"index", "move", "view"}``: the public view after the best alternative of decision
        ``index`` (``move``: the log position of the move played, to show side by side)."""
        if not table.over:
            raise refuse(403, "server.table.past_hidden")
        found = await asyncio.wrap_future(self.storage.reviews.load(table.id))
        if found is None or found["status"] != "done":
            raise refuse(404, "server.review.none")
        turns = found["review"]["turns"]
        if not 0 <= index < len(turns):
            raise refuse(422, "server.review.decision_range", max=len(turns) - 1)
        turn = turns[index]
        final = table.state.copy()

        def build() -> dict[str, Any]:
            game = after_best(final, turn)
            return {"index": index, "move": turn["log"][1], "view": game.view(None)}

        out: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, build)
        return out

    async def close(self) -> None:
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
