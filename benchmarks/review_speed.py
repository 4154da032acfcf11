"""CPU time of a whole review of a 2-player greedy game, per game (run with nice -n 19).

    python benchmarks/review_speed.py [--games N] [--samples S]

Prints the CPU seconds (process time: one core) of each review, the load average, and how
many decisions got each mark (both greedy players: read it as the marks' noise floor).
"""

from __future__ import annotations

import argparse
import os
import time

from benchmarks_support import finished

from glade.bots.review import review


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--samples", type=int, default=None)
    p.add_argument("--only", default=None)
    args = p.parse_args()
    for name in ("harmonies", "living-forest"):
        if args.only and name != args.only:
            continue
        for seed in range(args.games):
            g = finished(name, 100 + seed)
            t, w = time.process_time(), time.perf_counter()
            r = review(g, samples=args.samples)
            cpu, wall = time.process_time() - t, time.perf_counter() - w
            print(
                f"{name} seed {100 + seed}: {len(r['turns'])} decisions, cpu {cpu:.1f} s, "
                f"wall {wall:.1f} s, load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            marks = {m: sum(x["marks"][m] for x in r["summary"]) for m in r["summary"][0]["marks"]}
            accuracy = [x["accuracy"] for x in r["summary"]]
            print(f"  marks {marks}, accuracy {accuracy}", flush=True)


if __name__ == "__main__":
    main()
