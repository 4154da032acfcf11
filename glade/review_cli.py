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
    p.add_argument("--lang", default=None, help="en, ko or zh (default: from LC_ALL/LANG)")


SILENT = {"end_turn", "end_actions", "done"}  # the end of a turn goes without saying


def action_words(lang: Any, a: dict[str, Any]) -> str:
    """One action in present-tense words in ``lang`` (a terminal ``Lang``): "take space 3"."""
    kind = str(a.get("type"))
    key = f"review.act.{kind}"
    if kind == "take_tokens":
        return str(lang.t(key, n=int(a["space"]) + 1))
    if kind == "place_token":
        return str(lang.t(key, colour=lang.t(f"colour.{a['color']}"), cell=a["cell"]))
    if kind in ("take_card", "discard_card"):
        return str(lang.t(key, n=int(a["slot"]) + 1))
    if kind in ("place_cube", "choose_spirit"):
        card = str(a["card"])
        name = lang.term(f"card.{card}", card.replace("_", " "))
        return str(lang.t(key, card=name, cell=a.get("cell", "")))
    if kind == "choose_action":
        return str(lang.t(key, action=lang.t(f"lf.kind.{a['action']}")))
    if kind == "pick_card":
        return str(lang.t(key, level=a["level"], n=int(a["slot"]) + 1))
    if kind == "pick_fire":
        return str(lang.t(key, n=int(a["index"]) + 1))
    if kind == "plant":
        from glade.living_forest.data import TREE_BY_ID, TREES

        cost = TREES.cost[TREE_BY_ID[a["tree"]]] if a.get("tree") in TREE_BY_ID else a.get("tree")
        return str(lang.t(key, cost=cost, row=int(a["row"]) + 1, column=int(a["column"]) + 1))
    if kind == "move":
        return str(lang.t(key, n=a["steps"]))
    if kind == "steal":
        return str(lang.t(key, tile=lang.t(f"lf.tile.{a.get('tile', 'tree')}")))
    return str(lang.opt(key, kind.replace("_", " ")))


def move_words(lang: Any, actions: list[dict[str, Any]]) -> str:
    """A move (its actions' JSON) in ``lang``: "take space 3 → place blue on 0,0 → …"."""
    parts = [action_words(lang, a) for a in actions if a.get("type") not in SILENT]
    return " → ".join(parts) if parts else str(lang.t("review.act.end"))


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
    from glade.terminal.i18n import Lang, detect

    try:
        lang = Lang(detect(getattr(args, "lang", None)))
    except ValueError as exc:
        raise BadInput(str(exc)) from None
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
        task = bar.add_task(lang.t("review.progress"), total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(game, samples=args.samples, progress=step)
    unit = lang.t("review.unit.win" if game.game_name == "living-forest" else "review.unit.points")
    title = lang.term(f"game.{game.game_name}", game.game_name)
    table = Table(title=lang.t("review.title", game=title))
    for col in ("n", "seat", "played", "mark", "loss", "best"):
        table.add_column(lang.t(f"review.col.{col}", unit=unit), overflow="fold")
    for t in result["turns"]:
        best = "" if t["is_best"] else move_words(lang, t["best"]["actions"])
        table.add_row(
            str(t["index"] + 1),
            lang.t("review.seatN", n=t["seat"] + 1),
            move_words(lang, t["played"]["actions"]),
            lang.t(f"review.mark.{t['mark']}"),
            f"{t['loss']:.1f}",
            best,
        )
    console.print(table)
    # one column per player, one row per figure: fits a narrow terminal with four players
    summary = Table(title=lang.t("review.summary"))
    summary.add_column("")
    for s in result["summary"]:
        summary.add_column(lang.t("review.seatN", n=s["seat"] + 1), justify="right")
    rows: list[tuple[str, list[str]]] = [
        (lang.t("review.col.decisions"), [str(s["decisions"]) for s in result["summary"]]),
        (
            lang.t("review.col.average", unit=unit),
            [f"{s['average_loss']:.2f}" for s in result["summary"]],
        ),
        (lang.t("review.col.accuracy"), [f"{s['accuracy']:.1f}" for s in result["summary"]]),
    ]
    for m in ("best", "good", "inaccuracy", "mistake", "blunder"):
        rows.append((lang.t(f"review.mark.{m}"), [str(s["marks"][m]) for s in result["summary"]]))
    for label, cells in rows:
        summary.add_row(label, *cells)
    console.print(summary)
    if args.json_out:
        text = json.dumps(result, indent=1)
        if to_stdout:
            print(text)
        else:
            Path(args.json_out).write_text(text, encoding="utf-8")
    return 0


__all__ = ["add_parser", "fetch", "from_server_log", "load_saved", "run"]
