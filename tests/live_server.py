"""Start ``python -m glade.server`` as a real process for the server and browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import zlib
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


# Ports handed out by this process so far (never twice), and, under pytest-xdist, the range of
# ports of this worker: workers never pick the same port between one's check and its server's
# bind (a port the system hands out for port 0 may be handed to another worker too). The ranges
# lie below the system's ephemeral ports, in a block of their own per checkout (as pg.sh's port).
TAKEN: set[int] = set()
WORKER_PORTS = 500
CHECKOUT_BLOCK = 20000 + 2000 * (zlib.crc32(str(ROOT).encode()) % 6)  # 4 workers' ranges


def free_port() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
            return port
    first = CHECKOUT_BLOCK + WORKER_PORTS * (int(worker[2:]) % 4)
    for port in range(first, first + WORKER_PORTS):
        if port in TAKEN:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:  # in use by something else on the machine
                continue
        TAKEN.add(port)
        return port
    raise AssertionError(f"no free port left in worker {worker}'s range")


def start_server(port: int, args: list[str], probe: str = "/") -> subprocess.Popen[bytes]:
    """``python -m glade.server --port PORT ARGS…`` from this checkout, once ``probe`` answers
    200; AssertionError with the server's error output if it exits or is silent for 30 s."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "glade.server", "--port", str(port), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}{probe}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"the server exited: {err}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    proc.wait(10)
    raise AssertionError("the server did not answer within 30 s")
