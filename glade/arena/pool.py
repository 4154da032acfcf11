"""``glade arena pool REPORT.json ...``: one set of statistics from several ``--json`` reports.

Runs of the same match (same game, options and bots) with different seeds pool into one sample:
the per-game records are concatenated and the win rates (Wilson interval) and mean scores (normal
interval) computed over all of them. Exit code 0 on success, 2 with one sentence for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from glade.core import BadInput

from .stats import mean_ci, wilson


def _records(rep: Any, name: str) -> list[tuple[list[str], list[float], list[int]]]:
    try:
        rows = rep["results"]["scores"]
        out = [
            (list(seats), [float(x) for x in scores], list(win)) for _, seats, scores, win in rows
        ]
    except (KeyError, TypeError, ValueError):
        raise BadInput(f"{name} is not a glade arena --json report") from None
    return out


def pool(reports: list[tuple[str, Any]]) -> dict[str, Any]:
    """Pooled statistics of ``(name, report)`` pairs of one match."""
    if not reports:
        raise BadInput("give at least one report to pool")
    first_name, first = reports[0]
    key = ("game", "options", "bots", "budget")
    rows: list[tuple[list[str], list[float], list[int]]] = []
    for name, rep in reports:
        if not isinstance(rep, dict) or any(k not in rep for k in key):
            raise BadInput(f"{name} is not a glade arena --json report")
        for k in key:
            if rep[k] != first[k]:
                raise BadInput(
                    f"{name} has {k} {rep[k]!r} but {first_name} has {first[k]!r}: "
                    "only runs of the same match pool"
                )
        rows.extend(_records(rep, name))
    players = len(first["bots"])
    bots: dict[str, Any] = {}
    for seats, scores, winners in rows:
        for s, label in enumerate(seats):
            e = bots.setdefault(label, {"games": 0, "wins": 0, "ties": 0, "scores": []})
            e["games"] += 1
            e["scores"].append(scores[s])
            if players > 1 and s in winners:
                e["wins" if len(winners) == 1 else "ties"] += 1
    out: dict[str, Any] = {}
    for label, e in bots.items():
        mean, half = mean_ci(e["scores"])
        entry: dict[str, Any] = {
            "games": e["games"],
            "score": {"mean": round(mean, 3), "ci95": round(half, 3)},
        }
        if players > 1:
            lo, hi = wilson(e["wins"], e["games"])
            entry.update(
                wins=e["wins"],
                ties=e["ties"],
                win_rate=round(e["wins"] / e["games"], 4),
                win_ci95=[round(lo, 4), round(hi, 4)],
            )
        out[label] = entry
    return {
        "game": first["game"],
        "options": first["options"],
        "bots": first["bots"],
        "budget": first["budget"],
        "reports": [name for name, _ in reports],
        "seeds": [rep.get("seed") for _, rep in reports],
        "games": len(rows),
        "results": {"bots": out},
        "seconds_per_move": [rep.get("timing", {}).get("seconds_per_move") for _, rep in reports],
    }


def main(argv: list[str]) -> int:
    err = Console(stderr=True)
    parser = argparse.ArgumentParser(
        prog="glade arena pool", description="Pool several glade arena --json reports."
    )
    parser.add_argument("reports", nargs="+", metavar="REPORT.json")
    parser.add_argument("--json", metavar="FILE", help="also write the pooled report as JSON")
    args = parser.parse_args(argv)
    try:
        loaded = []
        for path in args.reports:
            try:
                with open(path, encoding="utf-8") as fh:
                    loaded.append((path, json.load(fh)))
            except OSError as exc:
                raise BadInput(f"cannot read {path}: {exc.strerror}") from None
            except json.JSONDecodeError:
                raise BadInput(f"{path} is not JSON") from None
        rep = pool(loaded)
    except BadInput as exc:
        err.print(str(exc), markup=False, highlight=False, soft_wrap=True)
        return 2
    solo = len(rep["bots"]) == 1
    table = Table(title=f"{rep['game']}: {rep['games']} games pooled from {len(loaded)} reports")
    table.add_column("bot")
    if not solo:
        table.add_column("wins")
        table.add_column("win rate (95% CI)")
        table.add_column("ties")
    table.add_column("score ± 95%")
    for label, e in rep["results"]["bots"].items():
        row = [label]
        if not solo:
            lo, hi = e["win_ci95"]
            row += [f"{e['wins']}/{e['games']}", f"{e['win_rate']:.1%} ({lo:.1%}-{hi:.1%})"]
            row.append(str(e["ties"]))
        row.append(f"{e['score']['mean']:.1f} ± {e['score']['ci95']:.1f}")
        table.add_row(*row)
    Console().print(table)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(rep, fh, indent=1)
        except OSError as exc:
            err.print(f"cannot write {args.json}: {exc.strerror}", markup=False, soft_wrap=True)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
