"""Bot moves computed in worker processes, so a thinking bot never holds up the event loop."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import glade
from glade.bots import Budget, make_bot


def choose_actions(
    state_json: dict[str, Any], spec: str, seat: int, seconds: float, seed: int
) -> list[dict[str, Any]]:
    """The actions bot ``spec`` plays now for ``seat`` (runs in a worker process)."""
    state = glade.load_game(state_json)
    bot = make_bot(spec, state.game_name, seed)
    return [action.to_json() for action in bot.choose(state, seat, Budget(seconds=seconds))]


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
