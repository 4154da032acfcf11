"""Noise and calibration of the shared evaluation (docs/strength.md); run with nice.

    python benchmarks/review_calibration.py GAME --games 200 [--samples S] [--per-game N] [--out FILE]

Plays greedy 2-player games; at every reviewed decision (or, with ``--per-game N``, at N of
them: ``chosen``) it records the evaluation of the move played (each seat's expected final score
and win chance; Living Forest also the expected trees, fires and flowers) and, every
``--noise-every`` recorded decisions, evaluates the same position a second time with another seed
(noise). When the game ends it pairs the predictions with the real outcome. Each finished game is
appended to ``--out`` as one JSON line, so an interrupted run keeps what it has; ``--summary``
prints the figures of one or more files.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

from benchmarks_support import finished

from glade.bots.evaluation import evaluate_moves
from glade.bots.review import decisions


def chosen(seed: int, n: int, per_game: int) -> list[int]:
    """Which of a game's ``n`` decisions are recorded: all when ``per_game`` is 0, else one in
    each of ``per_game`` equal slices of the game (decision index k * n // per_game up to the
    next), picked by a generator seeded from the game's seed alone (never from the outcome)."""
    if per_game <= 0 or per_game >= n:
        return list(range(n))
    rng = random.Random(f"calibration {seed}")
    out = []
    for b in range(per_game):
        lo, hi = b * n // per_game, (b + 1) * n // per_game
        out.append(rng.randrange(lo, max(lo + 1, hi)))
    return out


def one_game(
    name: str, seed: int, samples: int | None, noise_every: int, per_game: int = 0
) -> dict:
    g = finished(name, seed)
    result = g.result()
    found = decisions(g)
    rows = []
    for j, k in enumerate(chosen(seed, len(found), per_game)):
        d = found[k]
        e = evaluate_moves(d.position, d.seat, [d.move], samples, seed=k)[0]
        row = {
            "k": k,
            "stage": k / max(1, len(found) - 1),
            "seat": d.seat,
            "score": e.scores[d.seat],
            "win": e.wins[d.seat],
            "final": result["scores"][d.seat],
            "won": (1.0 / len(result["winners"])) if d.seat in result["winners"] else 0.0,
        }
        if e.detail:
            row["detail"] = e.detail[d.seat]
            b = result["breakdown"][d.seat]
            row["final_detail"] = [b["trees"], b["fires"], b["flowers"]]
        if noise_every and j % noise_every == 0:
            again = evaluate_moves(d.position, d.seat, [d.move], samples, seed=10_000 + k)[0]
            row["again"] = again.scores[d.seat]
            row["again_win"] = again.wins[d.seat]
        rows.append(row)
    return {"seed": seed, "decisions": len(found), "rows": rows}


STAGES = ((0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.01))


def _buckets(rows: list[dict], indent: str = "") -> None:
    for lo in (0.0, 0.2, 0.4, 0.6, 0.8):
        part = [r for r in rows if lo <= r["win"] < lo + 0.2 + (1e-9 if lo >= 0.8 else 0)]
        if part:
            print(
                f"{indent}win {lo:.1f}-{lo + 0.2:.1f}: predicted {statistics.mean(r['win'] for r in part):.3f}, "
                f"observed {statistics.mean(r['won'] for r in part):.3f}, n={len(part)}"
            )


def summary(paths: list[str]) -> None:
    games = []
    for path in paths:
        text = Path(path).read_text(encoding="utf-8")
        games += [json.loads(line) for line in text.splitlines() if line.strip()]
    rows = [r for g in games for r in g["rows"]]
    print(f"games {len(games)}, decisions {len(rows)}")
    noise = [abs(r["score"] - r["again"]) for r in rows if "again" in r]
    wnoise = [abs(r["win"] - r["again_win"]) for r in rows if "again" in r]
    if noise:
        print(
            f"noise: mean |difference| of two evaluations {statistics.mean(noise):.2f} points "
            f"(sd of one {statistics.mean(noise) * 0.886:.2f}), win {statistics.mean(wnoise):.3f}, n={len(noise)}"
        )
    for lo, hi in STAGES:
        part = [r for r in rows if lo <= r["stage"] < hi]
        if part:
            mae = statistics.mean(abs(r["score"] - r["final"]) for r in part)
            bias = statistics.mean(r["score"] - r["final"] for r in part)
            line = (
                f"stage {lo:.2f}-{min(hi, 1):.2f}: MAE {mae:.2f}, bias {bias:+.2f}, n={len(part)}"
            )
            counts = [r for r in part if "detail" in r]
            if counts:
                line += "; trees/fires/flowers MAE " + " / ".join(
                    f"{statistics.mean(abs(r['detail'][i] - r['final_detail'][i]) for r in counts):.2f}"
                    for i in range(3)
                )
                line += ", bias " + " / ".join(
                    f"{statistics.mean(r['detail'][i] - r['final_detail'][i] for r in counts):+.2f}"
                    for i in range(3)
                )
            print(line)
    _buckets(rows)
    brier = statistics.mean((r["win"] - r["won"]) ** 2 for r in rows) if rows else 0.0
    print(f"Brier score of the win chance {brier:.3f} (always 0.5: 0.250)")
    for lo, hi in ((0, 0.5), (0.5, 1.01)):
        part = [r for r in rows if lo <= r["stage"] < hi]
        if part:
            print(f"win buckets, stage {lo:.2f}-{min(hi, 1):.2f}:")
            _buckets(part, "  ")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game", nargs="?", default="harmonies")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--first-seed", type=int, default=1000)
    p.add_argument("--samples", type=int, default=None)
    p.add_argument("--noise-every", type=int, default=3)
    p.add_argument("--per-game", type=int, default=0, help="decisions recorded per game (0: all)")
    p.add_argument("--out", default=None)
    p.add_argument("--summary", nargs="+", default=None, help="print the figures of --out files")
    args = p.parse_args()
    if args.summary:
        summary(args.summary)
        return
    for i in range(args.games):
        data = one_game(
            args.game, args.first_seed + i, args.samples, args.noise_every, args.per_game
        )
        line = json.dumps(data) + "\n"
        if args.out:
            with Path(args.out).open("a", encoding="utf-8") as out:
                out.write(line)
        else:
            sys.stdout.write(line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
