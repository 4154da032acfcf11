"""Worker processes: a pool started by a fork server, whose workers end with the server.

The bots have a pool of their own (:mod:`glade.server.features.bots`), and so do hints and
reviews (:mod:`glade.server.features.analysis`): the event loop never thinks, and nothing but a
bot's move ever waits for a bot worker.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing import get_context


def watch(server_pid: int) -> None:
    """End this worker as soon as the server process is gone (even after a SIGKILL)."""
    while True:
        time.sleep(0.5)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid now belongs to someone else's process
            os._exit(0)


def warm_up(server_pid: int) -> None:
    """Import the engines and bots once per worker and watch the server's life."""
    import glade.bots  # noqa: F401 - loaded once here rather than at each first move
    import glade.harmonies.game  # noqa: F401

    threading.Thread(target=watch, args=(server_pid,), daemon=True).start()


def make_pool(workers: int) -> Executor:
    """A pool of ``workers`` processes started by a fork server (safe with threads around)."""
    context = get_context("forkserver")
    context.set_forkserver_preload(["glade", "glade.bots", "glade.harmonies.game"])
    return ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=context,
        initializer=warm_up,
        initargs=(os.getpid(),),
    )
