"""Bot tournaments: fair seat rotation, serial / multi-process / Ray execution, one report.

A tournament is a list of independent :class:`Match` tasks (one game each). Game ``i`` seats the
bots rotated by ``i`` places, so over any multiple of the number of bots every bot has sat in every
seat equally often. Seeds derive from the tournament seed and the game index only, so the same
seed and bots give the same games (and, with iteration budgets, the same report) on any backend.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import glade
from glade.bots import Budget, make_bot
from glade.core import BadInput, Game

from .stats import mean_ci, wilson

SEED_STRIDE = 1_000_003
MAX_DECISIONS = 100_000  # a game this long is a bot or engine bug, not a result


@dataclass(frozen=True)
class Match:
    """One game of a tournament: which bot sits where, with what seeds."""

    index: int
    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[str, ...]  # bot label per seat
    specs: tuple[str, ...]  # bot spec per seat
    seconds: float | None
    iterations: int | None


@dataclass
class Record:
    """The outcome of one game."""

    index: int
    seed: int
    seats: list[str]
    scores: list[float]
    winners: list[int]
    breakdown: list[dict[str, float]]
    turns: int
    decisions: list[int]
    think: list[float]  # seconds spent choosing, per seat
    extra: list[dict[str, Any]] = field(default_factory=list)  # per seat: e.g. solo suns


def labels(bots: list[str]) -> list[str]:
    """Unique labels for the bots: a spec used twice becomes ``spec``, ``spec#2``."""
    seen: dict[str, int] = {}
    out = []
    for spec in bots:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def schedule(
    game: str,
    bots: list[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    seconds: float | None = None,
    iterations: int | None = None,
) -> list[Match]:
    """The tournament's games, seats rotated fairly."""
    names = labels(bots)
    k = len(bots)
    out = []
    for i in range(games):
        shift = i % k
        order = list(range(k))[shift:] + list(range(k))[:shift]
        out.append(
            Match(
                index=i,
                game=game,
                options=dict(options or {}),
                seed=(seed * SEED_STRIDE + i) % (2**63),
                seats=tuple(names[j] for j in order),
                specs=tuple(bots[j] for j in order),
                seconds=seconds,
                iterations=iterations,
            )
        )
    return out


def game_length(state: Game, decisions: int) -> int:
    """Turns played (Harmonies), rounds (Living Forest), else bot decisions."""
    for name in ("turn", "round"):
        value = getattr(state, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return decisions


def play(match: Match) -> Record:
    """Play one game of the tournament; every action is checked by the engine."""
    state = glade.new_game(match.game, seed=match.seed, players=len(match.specs), **match.options)
    bots = [
        make_bot(spec, match.game, seed=match.seed * 8 + s) for s, spec in enumerate(match.specs)
    ]
    budget = Budget(seconds=match.seconds, iterations=match.iterations)
    n = len(bots)
    decisions = [0] * n
    think = [0.0] * n
    total = 0
    while not state.is_over:
        seat = state.to_act[0]
        start = time.perf_counter()
        actions = bots[seat].choose(state, seat, budget)
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        for action in actions:
            state.apply(seat, action)
        total += 1
        if total > MAX_DECISIONS:
            raise RuntimeError(f"game {match.index} did not end after {MAX_DECISIONS} decisions")
    result = state.result()
    breakdown = [
        {
            k: float(v)
            for k, v in d.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }
        for d in result.get("breakdown", [{} for _ in range(n)])
    ]
    extra: list[dict[str, Any]] = [{} for _ in range(n)]
    if "suns" in result and n == 1:
        extra[0]["suns"] = result["suns"]
    return Record(
        index=match.index,
        seed=match.seed,
        seats=list(match.seats),
        scores=[float(x) for x in result["scores"]],
        winners=list(result["winners"]),
        breakdown=breakdown,
        turns=game_length(state, sum(decisions)),
        decisions=decisions,
        think=think,
        extra=extra,
    )


# ---------------------------------------------------------------------- backends
def run_serial(matches: list[Match]) -> Iterator[Record]:
    for match in matches:
        yield play(match)


def run_processes(matches: list[Match], workers: int) -> Iterator[Record]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, m) for m in matches]
        for future in as_completed(futures):
            yield future.result()


def run_ray(matches: list[Match], address: str | None) -> Iterator[Record]:
    """Games as Ray tasks on the running Ray instance, or one reached through ``address``."""
    import ray

    if not ray.is_initialized():
        if address in (None, "", "local"):
            ray.init(include_dashboard=False)
        else:
            ray.init(address=address, runtime_env={"py_modules": [glade]})
    remote = ray.remote(play)
    pending = [remote.remote(m) for m in matches]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)


def run(
    matches: list[Match],
    workers: int = 1,
    ray_address: str | None = None,
    use_ray: bool = False,
    progress: Callable[[Record], None] | None = None,
) -> tuple[list[Record], float]:
    """Play every match on the chosen backend; the records in game order and the wall time."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BadInput("workers must be a whole number of at least 1")
    start = time.perf_counter()
    if use_ray:
        stream = run_ray(matches, ray_address)
    elif workers > 1 and len(matches) > 1:
        stream = run_processes(matches, workers)
    else:
        stream = run_serial(matches)
    records = []
    for record in stream:
        records.append(record)
        if progress is not None:
            progress(record)
    records.sort(key=lambda r: r.index)
    return records, time.perf_counter() - start


# ---------------------------------------------------------------------- report
def _interval(values: list[float]) -> dict[str, float]:
    mean, half = mean_ci(values)
    return {"mean": round(mean, 3), "ci95": round(half, 3)}


def report(
    records: list[Record],
    bots: list[str],
    game: str,
    options: dict[str, Any],
    seed: int,
    wall: float,
    workers: int,
    backend: str,
    budget: dict[str, Any],
) -> dict[str, Any]:
    """Win rates with Wilson intervals, scores with intervals (per category too), ties, lengths.

    ``results`` depends only on the games played; wall-clock numbers are kept in ``timing``.
    """
    names = labels(bots)
    players = len(bots)
    per: dict[str, dict[str, Any]] = {}
    for name in names:
        games = wins = ties = 0
        scores: list[float] = []
        categories: dict[str, list[float]] = {}
        seats: dict[str, int] = {}
        suns: dict[str, int] = {}
        for r in records:
            if name not in r.seats:
                continue
            s = r.seats.index(name)
            games += 1
            seats[str(s)] = seats.get(str(s), 0) + 1
            scores.append(r.scores[s])
            if players > 1 and s in r.winners:
                if len(r.winners) == 1:
                    wins += 1
                else:
                    ties += 1
            for key, value in r.breakdown[s].items():
                categories.setdefault(key, []).append(value)
            if "suns" in r.extra[s]:
                key = str(r.extra[s]["suns"])
                suns[key] = suns.get(key, 0) + 1
        entry: dict[str, Any] = {"games": games, "seats": seats, "score": _interval(scores)}
        if players > 1:
            lo, hi = wilson(wins, games)
            entry["wins"] = wins
            entry["win_rate"] = round(wins / games, 4) if games else None
            entry["win_ci95"] = [round(lo, 4), round(hi, 4)]
            entry["ties"] = ties
            entry["tie_rate"] = round(ties / games, 4) if games else None
        entry["categories"] = {
            k: _interval(v) for k, v in categories.items() if k not in ("total", "suns")
        }
        if suns:
            entry["suns"] = dict(sorted(suns.items(), key=lambda kv: int(kv[0])))
        per[name] = entry
    tied_games = sum(1 for r in records if len(r.winners) > 1) if players > 1 else 0
    think: dict[str, float] = {}
    for name in names:
        secs = sum(r.think[r.seats.index(name)] for r in records if name in r.seats)
        moves = sum(r.decisions[r.seats.index(name)] for r in records if name in r.seats)
        think[name] = round(secs / moves, 4) if moves else 0.0
    return {
        "game": game,
        "options": options,
        "bots": bots,
        "seed": seed,
        "budget": budget,
        "games": len(records),
        "results": {
            "bots": per,
            "tie_rate": round(tied_games / len(records), 4) if records and players > 1 else None,
            "turns": _interval([float(r.turns) for r in records]),
            "scores": [[r.index, r.seats, r.scores, r.winners] for r in records],
        },
        "timing": {
            "backend": backend,
            "workers": workers,
            "seconds": round(wall, 3),
            "games_per_second": round(len(records) / wall, 4) if wall > 0 else None,
            "seconds_per_move": think,
        },
    }


__all__ = ["Match", "Record", "labels", "play", "report", "run", "schedule"]
