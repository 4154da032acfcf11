"""How the samples per decision trade against noise (docs/strength.md); run with nice -n 19.

    python benchmarks/review_noise.py GAME [--games 2] [--every 3]

For positions of greedy 2-player games, the move played is evaluated twice (two seeds) at
3, 6, 12 and 24 samples: the mean absolute difference of the two expected final scores (and
win chances) and the CPU seconds per evaluation of one move.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks_support import finished

from glade.bots.evaluation import evaluate_moves
from glade.bots.review import decisions


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game", nargs="?", default="harmonies")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--every", type=int, default=3)
    args = p.parse_args()
    found = []
    for seed in range(args.games):
        found += decisions(finished(args.game, 500 + seed))[:: args.every]
    for samples in (3, 6, 12, 24):
        diffs, wdiffs, cpu = [], [], 0.0
        for k, d in enumerate(found):
            t = time.process_time()
            a = evaluate_moves(d.position, d.seat, [d.move], samples, seed=k)[0]
            b = evaluate_moves(d.position, d.seat, [d.move], samples, seed=77_000 + k)[0]
            cpu += time.process_time() - t
            diffs.append(abs(a.scores[d.seat] - b.scores[d.seat]))
            wdiffs.append(abs(a.wins[d.seat] - b.wins[d.seat]))
        print(
            f"{args.game} samples {samples}: |score difference| {statistics.mean(diffs):.2f} "
            f"(max {max(diffs):.1f}), |win difference| {statistics.mean(wdiffs):.3f}, "
            f"cpu per evaluation of one move {cpu / (2 * len(found)):.3f} s, n={len(found)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
