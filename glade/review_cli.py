"""``glade review``: review a finished game from a saved file or from a server."""

from __future__ import annotations

import argparse
import json
import urllib.request
from pathlib import Path
from typing import Any

import glade
from glade.core import BadInput, Game


def add_parser(sub: Any) -> None:
    """Register the ``review`` subcommand on ``sub`` (the CLI's subparsers)."""
    p = sub.add_parser("review", help="review a finished game: marks, points lost, best moves")
    p.add_argument("game", nargs="?", help="a game saved by glade play (JSON file)")
    p.add_argument("--server", help="a glade server's address, e.g. http://127.0.0.1:8000")
    p.add_argument("--id", dest="game_id", help="the game's id on that server")
    p.add_argument("--samples", type=int, default=None, help="samples per decision")
    p.add_argument(
        "--json", dest="json_out", help="write the whole review to this file (- for stdout)"
    )


def load_saved(data: Any) -> Game:
    """A finished game from a saved file's JSON: a state, or a dict holding it under game/state."""
    if not isinstance(data, dict):
        raise BadInput("a saved game is a JSON object")
    for key in ("game", "state"):
        inner = data.get(key)
        if isinstance(inner, dict):
            data = inner
            break
    try:
        return glade.load_game(data)
    except (KeyError, ValueError, TypeError) as exc:
        raise BadInput(f"this file does not hold a saved game ({exc})") from None


def from_server_log(log: dict[str, Any]) -> Game:
    """A finished game rebuilt from a server's public log (its seed is public once it is over)."""
    if not log.get("over") or log.get("seed") is None:
        raise BadInput("only a finished game can be reviewed, and this one is not over")
    g = glade.new_game(log["game"], seed=int(log["seed"]), **(log.get("options") or {}))
    for m in log.get("moves", []):
        g.apply(int(m["seat"]), m["action"])
    return g


def fetch(server: str, game_id: str) -> Game:
    url = server.rstrip("/") + f"/api/games/{game_id}/log"
    try:
        with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 (a URL the user gave)
            log = json.loads(r.read().decode())
    except OSError as exc:
        raise BadInput(f"could not read the game from {url} ({exc})") from None
    return from_server_log(log)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from glade.bots.review import review

    if args.server or args.game_id:
        if not (args.server and args.game_id):
            raise BadInput("--server and --id go together")
        game = fetch(args.server, args.game_id)
    elif args.game:
        try:
            data = json.loads(Path(args.game).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BadInput(f"could not read {args.game} ({exc})") from None
        game = load_saved(data)
    else:
        raise BadInput("name a saved game file, or --server and --id")
    if not game.is_over:
        raise BadInput("only a finished game can be reviewed, and this one is not over")
    to_stdout = args.json_out == "-"
    console = Console(stderr=to_stdout)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("reviewing", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(game, samples=args.samples, progress=step)
    unit = result["unit"]
    table = Table(title=f"{game.game_name} review")
    for col in ("#", "seat", "played", "mark", f"lost ({unit})", "best found"):
        table.add_column(col)
    for t in result["turns"]:
        best = "" if t["is_best"] else t["best"]["text"]
        table.add_row(
            str(t["index"] + 1),
            str(t["seat"]),
            t["played"]["text"],
            t["mark"],
            f"{t['loss']:.1f}",
            best,
        )
    console.print(table)
    summary = Table(title="summary")
    for col in (
        "seat",
        "decisions",
        f"average lost ({unit})",
        "accuracy %",
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ):
        summary.add_column(col)
    for s in result["summary"]:
        m = s["marks"]
        summary.add_row(
            str(s["seat"]),
            str(s["decisions"]),
            f"{s['average_loss']:.2f}",
            f"{s['accuracy']:.1f}",
            *(str(m[k]) for k in ("best", "good", "inaccuracy", "mistake", "blunder")),
        )
    console.print(summary)
    if args.json_out:
        text = json.dumps(result, indent=1)
        if to_stdout:
            print(text)
        else:
            Path(args.json_out).write_text(text, encoding="utf-8")
    return 0


__all__ = ["add_parser", "fetch", "from_server_log", "load_saved", "run"]
