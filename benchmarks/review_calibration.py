"""Noise and calibration of the shared evaluation (docs/strength.md); run with nice -n 19.

    python benchmarks/review_calibration.py GAME --games 200 [--samples S] [--out FILE]

Plays greedy 2-player games; at every reviewed decision it records the evaluation of the move
played (each seat's expected final score and win chance) and, every ``--noise-every`` decisions,
evaluates the same position a second time with another seed (noise). When the game ends it
pairs the predictions with the real outcome. Each finished game is appended to ``--out`` as one
JSON line, so an interrupted run keeps what it has; ``--summary`` prints the figures of a file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from benchmarks_support import finished

from glade.bots.evaluation import evaluate_moves
from glade.bots.review import decisions


def one_game(name: str, seed: int, samples: int | None, noise_every: int) -> dict:
    g = finished(name, seed)
    result = g.result()
    found = decisions(g)
    rows = []
    for k, d in enumerate(found):
        e = evaluate_moves(d.position, d.seat, [d.move], samples, seed=k)[0]
        row = {
            "stage": k / max(1, len(found) - 1),
            "seat": d.seat,
            "score": e.scores[d.seat],
            "win": e.wins[d.seat],
            "final": result["scores"][d.seat],
            "won": (1.0 / len(result["winners"])) if d.seat in result["winners"] else 0.0,
        }
        if noise_every and k % noise_every == 0:
            again = evaluate_moves(d.position, d.seat, [d.move], samples, seed=10_000 + k)[0]
            row["again"] = again.scores[d.seat]
            row["again_win"] = again.wins[d.seat]
        rows.append(row)
    return {"seed": seed, "rows": rows}


def summary(path: str) -> None:
    text = Path(path).read_text(encoding="utf-8")
    games = [json.loads(line) for line in text.splitlines() if line.strip()]
    rows = [r for g in games for r in g["rows"]]
    print(f"games {len(games)}, decisions {len(rows)}")
    noise = [abs(r["score"] - r["again"]) for r in rows if "again" in r]
    wnoise = [abs(r["win"] - r["again_win"]) for r in rows if "again" in r]
    if noise:
        print(
            f"noise: mean |difference| of two evaluations {statistics.mean(noise):.2f} points "
            f"(sd of one {statistics.mean(noise) * 0.886:.2f}), win {statistics.mean(wnoise):.3f}, n={len(noise)}"
        )
    for lo, hi in ((0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.01)):
        part = [r for r in rows if lo <= r["stage"] < hi]
        if part:
            mae = statistics.mean(abs(r["score"] - r["final"]) for r in part)
            bias = statistics.mean(r["score"] - r["final"] for r in part)
            print(
                f"stage {lo:.2f}-{min(hi, 1):.2f}: MAE {mae:.2f}, bias {bias:+.2f}, n={len(part)}"
            )
    for lo in (0.0, 0.2, 0.4, 0.6, 0.8):
        part = [r for r in rows if lo <= r["win"] < lo + 0.2 + (1e-9 if lo >= 0.8 else 0)]
        if part:
            print(
                f"win {lo:.1f}-{lo + 0.2:.1f}: predicted {statistics.mean(r['win'] for r in part):.3f}, "
                f"observed {statistics.mean(r['won'] for r in part):.3f}, n={len(part)}"
            )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game", nargs="?", default="harmonies")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--first-seed", type=int, default=1000)
    p.add_argument("--samples", type=int, default=None)
    p.add_argument("--noise-every", type=int, default=3)
    p.add_argument("--out", default=None)
    p.add_argument("--summary", default=None, help="print the figures of an --out file")
    args = p.parse_args()
    if args.summary:
        summary(args.summary)
        return
    for i in range(args.games):
        data = one_game(args.game, args.first_seed + i, args.samples, args.noise_every)
        line = json.dumps(data) + "\n"
        if args.out:
            with Path(args.out).open("a", encoding="utf-8") as out:
                out.write(line)
        else:
            sys.stdout.write(line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
