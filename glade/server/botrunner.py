"""Bot turns and hints, computed off the event loop.

Bot seats think in one pool of worker processes, hints in another, so a flood of hints can delay a
bot turn only by sharing the CPU, never by queueing in front of it. Hints are bounded: a client may
have one hint in flight, the server a few (``hint_queue``); past that, or when a hint does not come
back in time, the answer is a 429 or 503 with a sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

import glade
from glade.bots import Budget, make_bot, thinking_seconds
from glade.bots.hint import hint_seconds

from .config import Settings
from .errors import ApiError
from .refusals import refuse

if TYPE_CHECKING:
    from .tables import Room

log = logging.getLogger("glade.server")

# Bots cheap enough to run on a thread; every other bot thinks in a worker process.
FAST_BOTS = {"random"}


def choose_actions(
    state_json: dict[str, Any], spec: str, seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """The actions bot ``spec`` plays now for ``seat`` (runs in a worker process)."""
    state = glade.load_game(state_json)
    bot = make_bot(spec, state.game_name, seed)
    return [action.to_json() for action in bot.choose(state, seat, Budget(seconds=seconds))]


def hint_moves(
    state_json: dict[str, Any], seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """The search bot's ranked moves for ``seat`` (runs in a worker process)."""
    from glade.bots.hint import hint

    state = glade.load_game(state_json)
    return hint(state, seat, Budget(seconds=seconds), top=3, seed=seed)


def _watch(server_pid: int) -> None:
    """End this worker as soon as the server process is gone (even after a SIGKILL)."""
    while True:
        time.sleep(0.5)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid now belongs to someone else's process
            os._exit(0)


def _warm_up(server_pid: int) -> None:
    """Import the engines and bots once per worker and watch the server's life."""
    import glade.bots  # noqa: F401
    import glade.harmonies.game  # noqa: F401

    threading.Thread(target=_watch, args=(server_pid,), daemon=True).start()


def make_pool(workers: int) -> Executor:
    """A pool of ``workers`` processes started by a fork server (safe with threads around)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["glade", "glade.bots", "glade.harmonies.game"])
    return ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=context,
        initializer=_warm_up,
        initargs=(os.getpid(),),
    )


Act = Callable[["Room", int, dict[str, Any], "int | None"], Awaitable[object]]


def bot_seats(room: Room) -> list[int]:
    """The table's bot seats that have a move now (a Living Forest spirit in ``to_act`` with no
    move may only undo its stop, which bots never do)."""
    state = room.state
    return [s for s in state.to_act if room.seats[s].kind == "bot" and state.legal_action_ids(s)]


class BotRunner:
    """Plays the bot seats of every table and answers hints, each on its own worker pool."""

    def __init__(self, settings: Settings, act: Act) -> None:
        self.settings = settings
        self.act = act
        self._bots: Executor | None = None
        self._hints: Executor | None = None
        self._hints_running = 0
        self._hints_by_client: dict[str, int] = {}
        self._closing = False
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ pools
    def bot_pool(self) -> Executor:
        if self._bots is None:
            self._bots = make_pool(self.settings.bot_workers)
        return self._bots

    def hint_pool(self) -> Executor:
        if self._hints is None:
            self._hints = make_pool(self.settings.hint_workers)
        return self._hints

    # ------------------------------------------------------------------ bot turns
    def schedule(self, room: Room) -> None:
        """Start the table's bot seats if one of them is to act and none is thinking yet."""
        if self._closing or room.over:
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        if bot_seats(room):
            task = asyncio.get_running_loop().create_task(self._play(room))
            room.bot_task = task
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _think(self, room: Room, spec: str, seat: int) -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        snapshot = room.state.to_json()
        seconds = thinking_seconds(spec, self.settings.bot_seconds)
        args = (snapshot, spec, seat, seconds, secrets.randbelow(2**63))
        try:
            if spec.split(":", 1)[0] in FAST_BOTS:
                # microseconds of work: a thread, so it never queues behind a thinking bot
                return await loop.run_in_executor(None, choose_actions, *args)
            found: list[dict[str, Any]] = await asyncio.wait_for(
                loop.run_in_executor(self.bot_pool(), choose_actions, *args),
                timeout=10 + 10 * seconds,
            )
            return found
        except BrokenProcessPool:
            log.error("the bot workers died; new ones start with the next move")
            self._bots = None
        except Exception:  # noqa: BLE001 - a failing or stuck bot falls back to a random move
            log.exception("bot %s failed in game %s; playing a random move", spec, room.id)
        return choose_actions(snapshot, "random", seat, 0.0, secrets.randbelow(2**63))

    async def _play(self, room: Room) -> None:
        refused = 0
        while not self._closing and not room.over:
            bots = bot_seats(room)
            if not bots:
                return
            seat = bots[0]
            # a bot whose moves keep being refused plays random moves instead of looping
            spec = (room.seats[seat].bot or "random") if refused < 3 else "random"
            base_version = room.version
            actions = await self._think(room, spec, seat)
            if self._closing:
                return
            for action in actions:
                if room.version != base_version and seat not in room.state.to_act:
                    break
                try:
                    await self.act(room, seat, action, None)
                except ApiError as exc:
                    if exc.status == 409:  # another process moved first: look again
                        break
                    log.warning("bot %s move refused in game %s: %s", spec, room.id, exc.message)
                    refused += 1
                    break
                except Exception:  # noqa: BLE001 - an engine failure is logged, the bot goes on
                    log.exception("bot %s move failed in game %s", spec, room.id)
                    refused += 1
                    break
                base_version = room.version

    # ------------------------------------------------------------------ hints
    async def hint(self, room: Room, seat: int, client: str) -> tuple[int, list[dict[str, Any]]]:
        """The search bot's best moves for ``seat`` now, computed in the hint pool."""
        async with room.lock:
            if room.over:
                raise refuse(409, "server.hint.over")
            if seat not in room.state.to_act:
                raise refuse(409, "server.hint.not_turn")
            snapshot = room.state.to_json()
            version = room.version
            game = room.state.game_name
        if self._hints_by_client.get(client, 0) >= self.settings.hints_per_client:
            raise refuse(429, "server.hint.pending")
        if self._hints_running >= self.settings.hint_queue:
            raise refuse(503, "server.hint.busy")
        seconds = self.settings.hint_seconds or hint_seconds(game)
        # the queue ahead of this hint, plus its own time and a margin
        waves = 1 + self._hints_running // max(1, self.settings.hint_workers)
        timeout = 2.0 + 2.0 * seconds * waves
        self._hints_running += 1
        self._hints_by_client[client] = self._hints_by_client.get(client, 0) + 1
        future = self.hint_pool().submit(
            hint_moves, snapshot, seat, seconds, secrets.randbelow(2**63)
        )
        try:
            moves: list[dict[str, Any]] = await asyncio.wait_for(
                asyncio.wrap_future(future), timeout=timeout
            )
        except TimeoutError:
            future.cancel()
            raise refuse(503, "server.hint.slow") from None
        except BrokenProcessPool:
            log.error("the hint workers died; new ones start with the next hint")
            self._hints = None
            raise refuse(503, "server.hint.failed") from None
        finally:
            self._hints_running -= 1
            left = self._hints_by_client.get(client, 1) - 1
            if left > 0:
                self._hints_by_client[client] = left
            else:
                self._hints_by_client.pop(client, None)
        return version, moves

    # ------------------------------------------------------------------ stopping
    async def close(self) -> None:
        self._closing = True
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for pool in (self._bots, self._hints):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._bots = self._hints = None
