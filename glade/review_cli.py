"""``glade review``: review a finished game from a saved file or from a server."""

from __future__ import annotations

import argparse
import io
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


def fetch(server: str, game_id: str) -> tuple[Game, list[dict[str, Any]]]:
    """A finished game from a server's public log, and its seats as the log has them."""
    url = server.rstrip("/") + f"/api/games/{game_id}/log"
    try:
        with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 (a URL the user gave)
            log = json.loads(r.read().decode())
    except OSError as exc:
        raise BadInput(f"could not read the game from {url} ({exc})") from None
    game = from_server_log(log)
    seats = [s for s in log.get("seats") or [] if isinstance(s, dict)]
    return game, seats if len(seats) == game.num_players else []


def seat_words(seats: list[dict[str, Any]], lang: Any) -> tuple[list[str] | None, list[str]]:
    """The players' names as a server's log has them (a seat a bot took over keeps its player's
    name), and a line for each such seat: "Ann (Greedy bot plays for them) · left the game"."""
    from glade.terminal.common import seat_names

    names = [str(s.get("name") or s.get("bot") or "") for s in seats]
    notes = []
    for s in seats:
        if s.get("taken_over") and s.get("name") and s.get("bot"):
            bot = seat_names([str(s["bot"])], lang)[0]
            why = lang.t("seat.whyLeft" if s.get("status") == "left" else "seat.whyTimedOut")
            notes.append(f"{lang.t('seat.takenOver', name=s['name'], bot=bot)} · {why}")
    return (names if names and all(names) else None), notes


def terminal_client(game: Game, names: list[str], lang: Any, console: Any) -> Any:
    """The game's terminal client, to say moves in the words a player types (``take 3``,
    ``place blue 2,1``, ``plant 3a at 2,3``), with the players' names."""
    from glade.terminal.harmonies import HarmoniesClient
    from glade.terminal.living_forest import LivingForestClient

    kind = HarmoniesClient if game.game_name == "harmonies" else LivingForestClient
    client = kind(game, ["you"] * game.num_players, lang, console)
    client.names = list(names)
    return client


def rows_in_words(
    game: Game, turns: list[dict[str, Any]], client: Any
) -> list[tuple[int | None, int, str, dict[str, Any] | None, str]]:
    """Every move of the game in the player's words, in order: one row per reviewed decision
    ``(index, seat, played, turn, best)``, and one per stretch of moves that were not judged
    (``index`` None: draws that could not end the drawing, moves with no other choice)."""
    log = game.log_json(None)
    pos = glade.new_game(game.game_name, seed=game.seed, **game.options)
    starts = {t["log"][0]: t for t in turns}
    rows: list[tuple[int | None, int, str, dict[str, Any] | None, str]] = []
    i = 0
    while i < len(log):
        turn = starts.get(i)
        if turn is not None:
            seat = int(turn["seat"])
            played = client.typed_words(pos, seat, turn["played"]["actions"])
            best = "" if turn["is_best"] else client.typed_words(pos, seat, turn["best"]["actions"])
            rows.append((int(turn["index"]), seat, played, turn, best))
            end = int(turn["log"][1])
        else:
            seat = int(log[i]["seat"])
            end = i
            while end < len(log) and end not in starts and int(log[end]["seat"]) == seat:
                end += 1
            words = client.typed_words(pos, seat, [e["action"] for e in log[i:end]])
            rows.append((None, seat, words, None, ""))
        for e in log[i:end]:
            pos.apply(int(e["seat"]), e["action"])
        i = end
    return rows


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table
    from rich.text import Text

    from glade.bots.review import review
    from glade.terminal.i18n import Lang, detect

    try:
        lang = Lang(detect(getattr(args, "lang", None)))
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    names: list[str] | None = None
    taken_over: list[str] = []
    if args.server or args.game_id:
        if not (args.server and args.game_id):
            raise BadInput("--server and --id go together")
        game, seats = fetch(args.server, args.game_id)
        names, taken_over = seat_words(seats, lang)
    elif args.game:
        try:
            data = json.loads(Path(args.game).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BadInput(f"could not read {args.game} ({exc})") from None
        game = load_saved(data)
        saved = data.get("names") if isinstance(data, dict) else None
        if isinstance(saved, list) and len(saved) == game.num_players:
            names = [str(n) for n in saved]
    else:
        raise BadInput("name a saved game file, or --server and --id")
    if not game.is_over:
        raise BadInput("only a finished game can be reviewed, and this one is not over")
    names = names or [lang.t("seat.player", n=s + 1) for s in range(game.num_players)]
    to_stdout = args.json_out == "-"
    console = Console(stderr=to_stdout)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(lang.t("review.progress"), total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(game, samples=args.samples, progress=step)
    lf = game.game_name == "living-forest"
    unit = lang.t("review.unit.win" if lf else "review.unit.points")
    title = lang.term(f"game.{game.game_name}", game.game_name)
    res = game.result()
    console.print(Text(lang.t("review.title", game=title), style="bold"))
    scores = lang.join([f"{names[s]} {res['scores'][s]}" for s in range(game.num_players)])
    console.print(lang.t("review.header", seed=game.seed, scores=scores))
    for line in taken_over:
        console.print(line)
    console.print(lang.t("review.explain.lf" if lf else "review.explain.harmonies"))
    client = terminal_client(game, names, lang, Console(file=io.StringIO(), width=200))
    table = Table()
    for col in ("n", "seat", "played", "mark", "loss", "best"):
        table.add_column(lang.t(f"review.col.{col}", unit=unit), overflow="fold")
    skipped = 0
    for index, seat, played, turn, best in rows_in_words(game, result["turns"], client):
        if turn is None or index is None:
            skipped += 1
            table.add_row("", names[seat], played, lang.t("review.notJudged"), "", "", style="dim")
            continue
        table.add_row(
            str(index + 1),
            names[seat],
            played,
            lang.t(f"review.mark.{turn['mark']}"),
            f"{turn['loss']:.1f}",
            best,
        )
    console.print(table)
    if skipped:
        console.print(lang.t("review.notJudgedWhy"))
    # one column per player, one row per figure: fits a narrow terminal with four players
    summary = Table(title=lang.t("review.summary"))
    summary.add_column("")
    for s in result["summary"]:
        summary.add_column(names[s["seat"]], justify="right")
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


__all__ = ["add_parser", "fetch", "from_server_log", "load_saved", "rows_in_words", "run"]
