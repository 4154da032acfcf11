"""``glade arena GAME --bots a,b[,c,d] --games N ...``: a bot tournament with a report.

``glade arena pool REPORT.json ...`` pools the ``--json`` reports of several runs (``pool.py``).

Exit code 0 on success, 2 with one sentence on stderr for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import glade
from glade.bots import bot_names, make_bot
from glade.core import BadInput

from .ratings import default_path, rank_of_records, update_file
from .runner import Record, report, run, schedule


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.2f} games/s" if speed else "- games/s")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one sentence and exit code 2, no usage dump
        raise BadInput(message[0].upper() + message[1:].rstrip(".") + ".")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="glade arena", description="Play bots against each other and report.")
    p.add_argument("game", help="harmonies or living-forest")
    p.add_argument(
        "--bots",
        required=True,
        help=f"comma-separated bots, one per seat ({', '.join(bot_names())})",
    )
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--workers", type=int, default=1, help="processes on this machine (default 1)")
    p.add_argument(
        "--ray", metavar="ADDRESS", help="run the games on Ray: auto, local or host:port"
    )
    p.add_argument(
        "--options",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="game options, e.g. side=B spirits=true (players follows --bots)",
    )
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--seconds", type=float, help="thinking time per move for search bots")
    p.add_argument("--iterations", type=int, help="search iterations per move (reproducible)")
    p.add_argument("--json", metavar="FILE", help="also write the full report as JSON")
    p.add_argument(
        "--rate",
        nargs="?",
        const=str(default_path()),
        metavar="FILE",
        help="rate the bots with OpenSkill and add this tournament to a calibration file "
        "(default: the bot ratings the server shows, glade/arena/data/bot_ratings.json)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["side=B", "spirits=true"]`` -> ``{"side": "B", "spirits": True}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise BadInput(f"the option {item!r} must be written KEY=VALUE, for example side=B")
        if key == "players":
            raise BadInput("the number of players follows the number of bots given to --bots")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key] = value
    return out


def _check(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    bots = [b.strip() for b in args.bots.split(",")]
    if not all(bots):
        raise BadInput("--bots needs bot names separated by commas, for example greedy,random")
    if not 1 <= len(bots) <= 4:
        raise BadInput("a tournament seats 1 to 4 bots")
    if args.games < 1:
        raise BadInput("--games must be at least 1")
    if args.workers < 1:
        raise BadInput("--workers must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        raise BadInput("--seconds must be a positive number")
    if args.iterations is not None and args.iterations < 1:
        raise BadInput("--iterations must be at least 1")
    if args.rate is not None:
        if len(bots) < 2:
            raise BadInput("--rate needs at least two bots: a rating compares players")
        if len(set(bots)) != len(bots):
            raise BadInput("--rate needs different bots: each bot is one rated identity")
    options = parse_options(args.options)
    glade.new_game(args.game, seed=0, players=len(bots), **options)  # validates game and options
    for spec in bots:
        make_bot(spec, args.game, seed=0)  # validates every bot name for this game
    return bots, options


def _table(rep: dict[str, Any]) -> Table:
    solo = len(rep["bots"]) == 1
    table = Table(title=f"{rep['game']}: {rep['games']} games, seed {rep['seed']}")
    table.add_column("bot")
    if not solo:
        table.add_column("win rate (95% CI)")
        table.add_column("ties")
    table.add_column("score ± 95%")
    table.add_column("s/move")
    timing = rep["timing"]["seconds_per_move"]
    for name, e in rep["results"]["bots"].items():
        score = f"{e['score']['mean']:.1f} ± {e['score']['ci95']:.1f}"
        row = [name]
        if not solo:
            lo, hi = e["win_ci95"]
            row += [f"{e['win_rate']:.1%} ({lo:.1%}-{hi:.1%})", f"{e['tie_rate']:.1%}"]
        row += [score, f"{timing[name]:.3f}"]
        table.add_row(*row)
    return table


def _categories(rep: dict[str, Any]) -> Table:
    per = rep["results"]["bots"]
    cats: list[str] = []
    for e in per.values():
        for k in e["categories"]:
            if k not in cats:
                cats.append(k)
    table = Table(title="mean points per category (± 95%)")
    table.add_column("bot")
    for c in cats:
        table.add_column(c)
    for name, e in per.items():
        row = [name]
        for c in cats:
            v = e["categories"].get(c)
            row.append(f"{v['mean']:.1f}±{v['ci95']:.1f}" if v else "-")
        table.add_row(*row)
    return table


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["pool"]:
        from .pool import main as pool_main

        return pool_main(argv[1:])
    err = Console(stderr=True)
    try:
        args = _parser().parse_args(argv)
        bots, options = _check(args)
    except BadInput as exc:
        err.print(str(exc), markup=False, highlight=False)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    matches = schedule(
        args.game.replace("_", "-").lower(),
        bots,
        args.games,
        args.seed,
        options,
        seconds=args.seconds,
        iterations=args.iterations,
    )
    use_ray = args.ray is not None
    backend = "ray" if use_ray else ("processes" if args.workers > 1 else "serial")
    address = None if args.ray in (None, "local") else args.ray
    progress = Progress(
        TextColumn("[bold]arena"),
        BarColumn(),
        MofNCompleteColumn(),
        _Rate(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        disable=args.quiet,
    )
    with progress:
        task = progress.add_task("games", total=len(matches))

        def tick(_: Record) -> None:
            progress.advance(task)

        records, wall = run(matches, args.workers, address, use_ray, tick)
    budget = {"seconds": args.seconds, "iterations": args.iterations}
    rep = report(
        records, bots, matches[0].game, options, args.seed, wall, args.workers, backend, budget
    )
    out = Console()
    out.print(_table(rep))
    out.print(_categories(rep))
    res = rep["results"]
    t = rep["timing"]
    if res["tie_rate"] is not None:
        out.print(f"tie rate {res['tie_rate']:.1%}", highlight=False)
    out.print(
        f"mean length {res['turns']['mean']:.1f} ± {res['turns']['ci95']:.1f} turns; "
        f"{t['games_per_second']:.3f} games/s on {backend} ({args.workers} workers), "
        f"{t['seconds']:.1f} s",
        highlight=False,
    )
    for name, e in res["bots"].items():
        if "suns" in e:
            out.print(f"{name} suns: {e['suns']}", highlight=False)
    if args.rate is not None:
        run_entry = {
            "command": "glade arena " + " ".join(argv),
            "bots": bots,
            "options": options,
            "seed": args.seed,
            "budget": budget,
            "games": len(records),
            "seconds": rep["timing"]["seconds"],
            "results": rank_of_records(records),
        }
        try:
            data = update_file(args.rate, rep["game"], run_entry)
        except BadInput as exc:
            err.print(str(exc), markup=False, highlight=False)
            return 2
        except OSError as exc:
            err.print(f"cannot write {args.rate}: {exc.strerror}", markup=False)
            return 2
        entry = data["games"][rep["game"]]
        table = Table(
            title=f"OpenSkill ratings, {rep['game']}: {entry['games']} games in {args.rate}"
        )
        for col in ("bot", "mu", "sigma", "mu - 3 sigma", "games"):
            table.add_column(col)
        for name, r in entry["ratings"].items():
            table.add_row(
                name, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}", str(r["games"])
            )
        out.print(table)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(rep, fh, indent=1)
        except OSError as exc:
            err.print(f"cannot write {args.json}: {exc.strerror}", markup=False)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
