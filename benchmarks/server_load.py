"""Load test of ``glade serve``: N live tables of M WebSocket clients playing random legal moves.

    python benchmarks/server_load.py --tables 200 --players 2 --seconds 30

Starts a real server (``python -m glade.server`` on a fresh SQLite file, or ``--db URL``) unless
``--url`` points at one already running. Each seat holds a WebSocket; the seat to act picks a random
legal move from its latest push, sends it (``--transport http``: ``POST …/actions``;
``--transport ws``: an ``{"type": "action"}`` message on its WebSocket, as the browser table
does, answered by that socket's push), and the latency is the time from sending it to the push
of the new version arriving at another seat of the table. Tables wait ``--think`` seconds (random,
mean) between moves as people do; a finished game is replaced by a new table. ``--clients K`` splits
the tables over K load processes (each one event loop) so that the load client is not what limits
the rate; their own CPU is measured and reported beside the servers'. The client is minimal on
purpose (raw asyncio protocols: one keep-alive HTTP/1.1 connection per seat sending prebuilt
request bytes, a WebSocket reader of unmasked frames that answers pings): on one machine its CPU
is taken from the server's. ``--glade DIR`` starts the servers of another checkout (before/after). The last line printed is one JSON object: actions/s, p50/p99 latency in ms, the CPU per
action of the servers and of the clients, errors.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[1]
JSON = "application/json"


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measure_from = 0.0  # perf_counter time the measured window opens (after warm-up)
        self.measure_to = 0.0  # and closes: actions sent in [measure_from, measure_to) count
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.games = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Closed(Exception):
    """The server closed a connection."""


class Http(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection, one request at a time, requests sent as prebuilt
    bytes and answers read with no header parsing beyond the status and Content-Length (a
    fraction of a full client's CPU, so that the load client is not what the machine runs)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.host = url.removeprefix("http://")
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.waiting: asyncio.Future[tuple[int, bytes]] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(Closed())

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        end = buf.find(b"\r\n\r\n")
        if end < 0 or self.waiting is None:
            return
        head = bytes(buf[:end]).lower() + b"\r\n"
        at = head.find(b"\r\ncontent-length:")
        length = int(head[at + 17 : head.find(b"\r\n", at + 2)]) if at >= 0 else 0
        if len(buf) < end + 4 + length:
            return
        body = bytes(buf[end + 4 : end + 4 + length])
        status = int(buf[9:12])
        del buf[: end + 4 + length]
        waiting, self.waiting = self.waiting, None
        if not waiting.done():
            waiting.set_result((status, body))

    def request(self, method: str, path: str, body: bytes, headers: str = "") -> bytes:
        """The bytes of a request (build once, send many times)."""
        return (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{headers}"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body

    async def send(self, data: bytes) -> tuple[int, bytes]:
        """Send a request and read its answer; a connection the server closed meanwhile (its
        idle timeout) is opened again first, as a browser does."""
        loop = asyncio.get_running_loop()
        if self.transport is None or self.transport.is_closing():
            host, port = self.host.split(":")
            self.buf = bytearray()
            await loop.create_connection(lambda: self, host, int(port))
        assert self.transport is not None
        self.waiting = loop.create_future()
        self.transport.write(data)
        return await self.waiting


class Seat(asyncio.Protocol):
    """One player's WebSocket (a minimal client: unmasked server frames read in place, pings
    answered): remembers the newest push and when each version arrived."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.open: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.latest: dict[str, Any] | None = None
        self.arrived: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future[None]] = {}
        self.parts: list[bytes] = []
        self.answers: dict[int, asyncio.Future[int]] = {}  # ref -> status of a socket action
        self.refs = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.open.done():
            self.open.set_result(False)
        for waiter in [*self.waiters.values(), *self.answers.values()]:
            if not waiter.done():
                waiter.set_exception(Closed())

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.open.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            self.open.set_result(buf.startswith(b"HTTP/1.1 101"))
            del buf[: end + 4]
        while len(buf) >= 2:
            first, n = buf[0], buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at : at + n])
            del buf[: at + n]
            self.frame(first & 0x80, first & 0x0F, payload)

    def frame(self, fin: int, opcode: int, payload: bytes) -> None:
        if opcode == 9:  # ping: a pong, masked with a zero key as a client must mask
            if self.transport is not None:
                self.transport.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
            return
        if opcode == 8:
            if self.transport is not None:
                self.transport.close()
            return
        if opcode in (0, 1):
            self.parts.append(payload)
            if not fin:
                return
            text = b"".join(self.parts)
            self.parts = []
            push = orjson.loads(text)
            kind = push.get("type")
            if kind == "acted" or kind == "refused":
                answer = self.answers.pop(push.get("ref"), None)
                if answer is not None and not answer.done():
                    answer.set_result(200 if kind == "acted" else push.get("status", 0))
                return
            if "acted" in push:  # the answer to this socket's action: the push of its state
                answer = self.answers.pop(push["acted"], None)
                if answer is not None and not answer.done():
                    answer.set_result(200)
            version = push.get("version")
            if version is None:
                self.stats.error("unexpected message")
                return
            self.arrived[version] = time.perf_counter()
            self.latest = push
            waiter = self.waiters.pop(version, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

    async def wait_version(self, version: int, timeout: float) -> float:
        if version not in self.arrived:
            waiter = self.waiters.get(version)
            if waiter is None:
                waiter = self.waiters[version] = asyncio.get_running_loop().create_future()
            async with asyncio.timeout(timeout):
                await waiter
        return self.arrived[version]

    async def act(self, action: Any, version: int) -> int:
        """Send an action on this socket (``--transport ws``: as the browser does) and wait
        for its answer; the status (200: accepted)."""
        if self.transport is None:
            raise Closed()
        self.refs += 1
        ref = self.refs
        payload = orjson.dumps({"type": "action", "ref": ref, "action": action, "version": version})
        n = len(payload)
        if n < 126:
            head = bytes([0x81, 0x80 | n])
        elif n < 65536:
            head = bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head = bytes([0x81, 0x80 | 127]) + n.to_bytes(8, "big")
        answer = self.answers[ref] = asyncio.get_running_loop().create_future()
        self.transport.write(head + b"\0\0\0\0" + payload)  # masked with a zero key
        async with asyncio.timeout(10):
            return await answer

    def close(self) -> None:
        if self.transport is not None:
            self.transport.write(b"\x88\x82\0\0\0\0\x03\xe8")  # close 1000, masked
            self.transport.close()


async def ws_connect(url: str, path: str, stats: Stats) -> Seat:
    host, port = url.removeprefix("http://").split(":")
    _, seat = await asyncio.get_running_loop().create_connection(
        lambda: Seat(stats), host, int(port)
    )
    assert seat.transport is not None
    key = base64.b64encode(os.urandom(16)).decode()
    seat.transport.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    if not await seat.open:
        raise Closed("the WebSocket was refused")
    return seat


async def table(
    urls: list[str],
    index: int,
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    rng: random.Random,
) -> None:
    """Play tables one after another until the time is up. Seat ``i`` of table ``index`` talks
    to process ``(index + i) % len(urls)`` (so with two processes the seats of one table are
    on different processes). Tables start spread over the first half of the warm-up."""
    await asyncio.sleep(rng.uniform(0, args.warmup / 2))
    home = urls[index % len(urls)]
    mine = [urls[(index + i) % len(urls)] for i in range(args.players)]
    https = [Http(u) for u in mine]  # each connects when it first sends
    try:
        await _tables(home, mine, https, args, stats, stop, rng)
    finally:
        for h in https:
            if h.transport is not None:
                h.transport.close()


async def _tables(
    home: str,
    mine: list[str],
    https: list[Http],
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    rng: random.Random,
) -> None:
    seats_spec = [{"kind": "human", "name": f"p{i}"} for i in range(args.players)]
    create = orjson.dumps({"game": args.game, "seats": seats_spec})
    home_http = https[mine.index(home)]
    while time.perf_counter() < stop:
        status, answer = await home_http.send(home_http.request("POST", "/api/games", create))
        if status != 201:
            stats.error(f"create {status}")
            await asyncio.sleep(1)
            continue
        body = orjson.loads(answer)
        game_id = body["id"]
        tokens = [s["token"] for s in body["seats"]]
        seats = [
            await ws_connect(mine[i], f"/api/games/{game_id}/ws?token={t}", stats)
            for i, t in enumerate(tokens)
        ]
        try:
            await _play(https, game_id, tokens, seats, args, stats, stop, rng)
        finally:
            for s in seats:
                s.close()


async def _play(
    https: list[Http],
    game_id: str,
    tokens: list[str],
    seats: list[Seat],
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    rng: random.Random,
) -> None:
    version = 0
    for s in seats:
        await s.wait_version(0, 10)
    path = f"/api/games/{game_id}/actions"
    auth = [f"Authorization: Bearer {t}\r\n" for t in tokens]
    while time.perf_counter() < stop:
        state = seats[0].latest
        assert state is not None
        if state["over"]:
            stats.games += 1
            return
        seat = rng.choice(state["to_act"])
        mine = seats[seat].latest
        assert mine is not None and mine["version"] == version
        choices = [a for a in mine["legal_actions"] if a["type"] != "undo"]
        await asyncio.sleep(rng.expovariate(1 / args.think) if args.think > 0 else 0)
        action = rng.choice(choices)
        try:
            if args.transport == "ws":
                sent = time.perf_counter()
                status = await seats[seat].act(action, version)
            else:
                http = https[seat]
                data = http.request(
                    "POST", path, orjson.dumps({"action": action, "version": version}), auth[seat]
                )
                sent = time.perf_counter()
                status, _ = await http.send(data)
        except Closed:
            stats.error("action: connection closed")
            return
        except TimeoutError:
            stats.error("action: no answer")
            return
        if status != 200:
            stats.error(f"action {status}")
            return
        version += 1
        other = seats[(seat + 1) % len(seats)]
        try:
            arrived = await other.wait_version(version, 10)
            for s in seats:
                await s.wait_version(version, 10)
        except TimeoutError:
            stats.error("push timeout")
            return
        except Closed:
            stats.error("websocket closed")
            return
        if stats.measure_from <= sent < stats.measure_to:
            stats.latencies.append(arrived - sent)
            stats.actions += 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_servers(
    db: str | None, processes: int, root: Path = ROOT
) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """``processes`` servers on one database (a fresh SQLite file unless ``db``), running the
    glade of the checkout ``root``."""
    if db is None:
        if processes > 1:
            raise SystemExit("several processes need --db postgresql://…")
        folder = tempfile.mkdtemp(prefix="glade-load-")
        db = f"sqlite:///{folder}/load.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(root))
    procs, urls = [], []
    for _ in range(processes):
        port = free_port()
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "glade.server",
                    "--port",
                    str(port),
                    "--db",
                    db,
                    "--messages-per-second",
                    "1000000",
                    "--max-games-per-client",
                    "1000000",
                    "--sockets-per-client",
                    "1000000",
                    "--access-log",
                    "off",
                ],
                env=env,
                cwd=root,  # ``-m`` puts the working directory first on the path
                stdout=subprocess.DEVNULL,
            )
        )
        urls.append(f"http://127.0.0.1:{port}")
    for url in urls:
        deadline = time.monotonic() + 90  # a loaded machine starts slowly
        while True:
            try:
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                for p in procs:
                    p.kill()
                raise SystemExit("the server did not start")
            time.sleep(0.1)
    return procs, urls


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time used so far by these processes (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def postgres_cpu() -> dict[int, float]:
    """User + system CPU time so far of every process of this machine named ``postgres`` (the
    backends of a local PostgreSQL serving the servers), by pid; those it cannot read are left
    out."""
    tick = os.sysconf("SC_CLK_TCK")
    seen: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                head, _, rest = fh.read().rpartition(")")
        except OSError:
            continue  # gone meanwhile
        if head.endswith("(postgres"):
            fields = rest.split()
            seen[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    return seen


def cpu_self() -> float:
    """User + system CPU time of this process so far (every thread)."""
    t = os.times()
    return t.user + t.system


async def drive(
    args: argparse.Namespace, urls: list[str], part: int, start: float
) -> dict[str, Any]:
    """One load process: the tables ``i`` with ``i % args.clients == part``; ``start`` is the
    shared perf_counter time (CLOCK_MONOTONIC, the same in every process) the run began."""
    stats = Stats()
    stats.measure_from = start + args.warmup
    stats.measure_to = stop = stats.measure_from + args.seconds
    cpu = [0.0, 0.0]

    async def window() -> None:
        await asyncio.sleep(max(0.0, stats.measure_from - time.perf_counter()))
        cpu[0] = cpu_self()
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        cpu[1] = cpu_self()

    timer = asyncio.create_task(window())
    rng = random.Random(args.seed)
    seeds = [rng.random() for _ in range(args.tables)]
    results = await asyncio.gather(
        *(
            table(urls, i, args, stats, stop, random.Random(seeds[i]))
            for i in range(part, args.tables, args.clients)
        ),
        return_exceptions=True,
    )
    await timer
    for res in results:
        if isinstance(res, BaseException):
            stats.error(f"table: {type(res).__name__}: {res}")
    return {
        "latencies": stats.latencies,
        "actions": stats.actions,
        "games": stats.games,
        "errors": stats.errors,
        "cpu_s": cpu[1] - cpu[0],
    }


def _drive_in_process(
    args: argparse.Namespace, urls: list[str], part: int, start: float, out: Any
) -> None:
    # a load process holds hundreds of tables' parsed pushes: the cyclic collector's pauses
    # over them would be counted as the server's latency (what it keeps has no cycles)
    gc.disable()
    try:
        import uvloop

        report = uvloop.run(drive(args, urls, part, start))
    except ImportError:
        report = asyncio.run(drive(args, urls, part, start))
    out.send(report)
    out.close()


def run(
    args: argparse.Namespace, urls: list[str], pids: list[int], database: bool = False
) -> dict[str, Any]:
    """``args.clients`` load processes against ``urls``; the servers' CPU (``pids``) is read
    over the same measured window, and with ``database`` that of the local PostgreSQL too (a
    backend started within the window counts whole)."""
    start = time.perf_counter() + 0.5  # the load processes start meanwhile
    ctx = multiprocessing.get_context("fork")
    pipes, workers = [], []
    for part in range(args.clients):
        here, there = ctx.Pipe(duplex=False)
        worker = ctx.Process(target=_drive_in_process, args=(args, urls, part, start, there))
        worker.start()
        there.close()
        pipes.append(here)
        workers.append(worker)
    opens = start + args.warmup
    time.sleep(max(0.0, opens - time.perf_counter()))
    cpu_before = cpu_seconds(pids) if pids else 0.0
    db_before = postgres_cpu() if database else {}
    load_start = [round(x, 2) for x in os.getloadavg()]
    time.sleep(max(0.0, opens + args.seconds - time.perf_counter()))
    cpu = cpu_seconds(pids) - cpu_before if pids else float("nan")
    db_cpu = float("nan")
    if database:
        db_cpu = sum(v - db_before.get(pid, 0.0) for pid, v in postgres_cpu().items())
    load = [round(x, 2) for x in os.getloadavg()]
    reports = []
    for here, worker in zip(pipes, workers, strict=True):
        try:
            reports.append(here.recv())
        except EOFError:
            reports.append(
                {
                    "latencies": [],
                    "actions": 0,
                    "games": 0,
                    "cpu_s": 0.0,
                    "errors": {"load process died": 1},
                }
            )
        worker.join()
    lat = sorted(x for r in reports for x in r["latencies"])
    actions = sum(r["actions"] for r in reports)
    errors: dict[str, int] = {}
    for r in reports:
        for kind, n in r["errors"].items():
            errors[kind] = errors.get(kind, 0) + n
    client_cpu = sum(r["cpu_s"] for r in reports)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    def per_action(seconds: float) -> float:
        return round(1000 * seconds / actions, 3) if actions else float("nan")

    return {
        "tables": args.tables,
        "players": args.players,
        "game": args.game,
        "think_s": args.think,
        "seconds": args.seconds,
        "actions": actions,
        "actions_per_s": round(actions / args.seconds, 1),
        "finished_games": sum(r["games"] for r in reports),
        "latency_ms_p50": pct(0.50),
        "latency_ms_p99": pct(0.99),
        "latency_ms_max": round(1000 * lat[-1], 2) if lat else float("nan"),
        "latency_ms_mean": round(1000 * statistics.fmean(lat), 2) if lat else float("nan"),
        "processes": len(urls),
        "transport": args.transport,
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_action": per_action(cpu),
        "server_cpu_cores": round(cpu / args.seconds, 2),
        "clients": args.clients,
        "client_cpu_ms_per_action": per_action(client_cpu),
        "client_cpu_cores": round(client_cpu / args.seconds, 2),
        "database_cpu_ms_per_action": per_action(db_cpu),
        "load_average_start": load_start,
        "load_average": load,
        "errors": sum(errors.values()),
        "error_kinds": errors,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--game", default="harmonies")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--think", type=float, default=0.5, help="mean pause between moves, seconds")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds of play (tables created, sockets opened) before the measured window",
    )
    p.add_argument("--url", default=None, help="a running server (default: start one)")
    p.add_argument("--db", default=None, help="database of the started server (default: SQLite)")
    p.add_argument(
        "--processes", type=int, default=1, help="servers on one --db (PostgreSQL for 2 or more)"
    )
    p.add_argument(
        "--clients", type=int, default=1, help="load processes the tables are split over"
    )
    p.add_argument(
        "--transport",
        choices=("http", "ws"),
        default="http",
        help="how a seat sends its actions: POST …/actions, or on its WebSocket (as the browser)",
    )
    p.add_argument(
        "--glade",
        type=Path,
        default=ROOT,
        help="the checkout whose server is started (default: this one; another to compare)",
    )
    args = p.parse_args(argv)
    procs: list[subprocess.Popen[bytes]] = []
    if args.url is None:
        procs, urls = start_servers(args.db, args.processes, args.glade)
    else:
        urls = args.url.split(",")
    try:
        local_pg = bool(args.db) and args.db.startswith("postgres") and args.url is None
        report = run(args, urls, [p.pid for p in procs], database=local_pg)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(15)
    print(json.dumps(report))
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
