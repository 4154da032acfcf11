"""This checkout's engines and search bots against another checkout's, side by side.

    python benchmarks/engine_compare.py --base /path/to/old/checkout [--repeats 5] [--callgrind]

Each measurement runs in a fresh process pinned to one core (``taskset -c 0``) with the checkout
first on ``PYTHONPATH``; the two checkouts alternate (old, new, old, new, ...) so that a change of
the machine's load falls on both. Measured: random 2-player games per second of both games and
the cost of ``copy()`` (``glade.core.bench``), and the search bot's iterations per second on a
fixed mid-game position of each game (Living Forest: a choice of an action, where the flat search
plays every candidate out; a draw decision is not searched). With ``--callgrind`` each
measurement is instead counted in instructions under valgrind (immune to the load): the
difference between two sizes of the same run, per game or per iteration. Prints one JSON line per measurement and medians at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

GAMES = """
import json, sys, time
from glade.core.bench import run_bench
name, games = sys.argv[1], int(sys.argv[2])
out = run_bench(name, games, 1, {"players": 2})
print(json.dumps({"games_per_s": out["games_per_s"], "copy_us": out["copy_us"],
                  "engines": out.get("engines", "plain source (before compilation)")}))
"""

SEARCH = """
import json, random, sys, time
import glade
from glade.bots import Budget
from glade.bots.mcts import MCTSBot
name, iterations = sys.argv[1], int(sys.argv[2])
state = glade.new_game(name, seed=5, players=2)
rng = random.Random(5)
n = 0
while True:  # Harmonies: after 30 random moves; Living Forest: the first choice of an action
    # after 150 random moves with at least 4 moves to choose from (the search plays them out)
    seat = state.to_act[0]
    ids = state.legal_action_ids(seat)
    if name == "harmonies" and n == 30:
        break
    if name != "harmonies" and n >= 150 and len(ids) >= 4:
        view = state.view(None)
        if view["phase"] == "actions" and view["in_progress"] is None:
            break
    state.apply_action_id(seat, rng.choice(ids))
    n += 1
bot = MCTSBot(seed=1)
start = time.perf_counter()
ranked = bot.search(state, state.to_act[0], Budget(iterations=iterations))
seconds = time.perf_counter() - start
done = bot.last_stats["iterations"]
print(json.dumps({"iterations_per_s": done / seconds, "move": list(ranked[0][0])}))
"""

GAMES_RUN = {"harmonies": 300, "living-forest": 60}
SEARCH_RUN = {"harmonies": 20, "living-forest": 20}


def run(checkout: Path, script: str, *args: object, callgrind: bool = False) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.pop("GLADE_PURE", None)
    cmd = [sys.executable, "-c", script, *map(str, args)]
    if callgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    elif shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True, cwd="/")
    out: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    if callgrind:
        found = re.search(r"Collected : (\d+)", proc.stderr)
        assert found, proc.stderr[-2000:]
        out["instructions"] = int(found.group(1))
    return out


def instructions(checkout: Path, script: str, name: str, small: int, large: int) -> float:
    """Instructions per unit (game or iteration): the difference of two run sizes."""
    a = run(checkout, script, name, small, callgrind=True)["instructions"]
    b = run(checkout, script, name, large, callgrind=True)["instructions"]
    assert isinstance(a, int) and isinstance(b, int)
    return (b - a) / (large - small)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument(
        "--game", choices=sorted(GAMES_RUN), action="append", help="(default: both)"
    )
    args = parser.parse_args()
    games = args.game or list(GAMES_RUN)
    checkouts = {"base": args.base.resolve(), "this": HERE}
    results: dict[tuple[str, str, str], list[float]] = {}

    def note(which: str, what: str, game: str, value: float, extra: object = None) -> None:
        results.setdefault((which, what, game), []).append(value)
        line = {"checkout": which, "what": what, "game": game, "value": round(value, 2)}
        if extra is not None:
            line["detail"] = extra
        print(json.dumps(line), flush=True)

    if args.callgrind:
        for which, checkout in checkouts.items():
            for game in games:
                per = instructions(checkout, GAMES, game, 5, 25)
                note(which, "instructions per game", game, per)
                per = instructions(checkout, SEARCH, game, 4, 12)
                note(which, "instructions per search iteration", game, per)
    else:
        for _ in range(args.repeats):
            for which, checkout in checkouts.items():
                for game in games:
                    out = run(checkout, GAMES, game, GAMES_RUN[game])
                    note(which, "games/s", game, float(out["games_per_s"]))  # type: ignore[arg-type]
                    note(which, "copy us", game, float(out["copy_us"]))  # type: ignore[arg-type]
                for game in games:
                    out = run(checkout, SEARCH, game, SEARCH_RUN[game])
                    rate = float(out["iterations_per_s"])  # type: ignore[arg-type]
                    note(which, "search iterations/s", game, rate, out["move"])
    print()
    print(f"{'measure':36} {'game':14} {'base':>14} {'this':>14} {'ratio':>7}")
    for (which, what, game), values in sorted(results.items()):
        if which != "base":
            continue
        base = statistics.median(values)
        this = statistics.median(results[("this", what, game)])
        print(f"{what:36} {game:14} {base:14.2f} {this:14.2f} {this / base:7.2f}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
