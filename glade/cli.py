"""The ``glade`` command: play, score, bench (and more as the project grows).

User mistakes print one plain sentence on stderr and exit with code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from glade import __version__
from glade.core import BadInput, IllegalAction, compiled
from glade.extras import MissingExtra, missing_extra

# Subcommands that own their whole argument list: name -> (module with main(argv), what it does).
DELEGATES = {
    "serve": ("glade.server.cli", "the web table: host online, hot-seat and solo games"),
    "arena": ("glade.arena.cli", "bot tournament with confidence intervals"),
}


class UserError(Exception):
    """A mistake of the person at the keyboard: printed as one sentence, exit code 2."""


def _parser() -> argparse.ArgumentParser:
    # (raw: the version's two lines stay two lines)
    p = argparse.ArgumentParser(
        prog="glade",
        description="Harmonies and Living Forest.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    version = f"glade {__version__}\nengines: {compiled.status()}"
    p.add_argument("--version", action="version", version=version)
    sub = p.add_subparsers(dest="command", required=True)
    for name, (_, text) in DELEGATES.items():
        sub.add_parser(name, help=text, add_help=False)

    play = sub.add_parser("play", help="play in the terminal")
    play.add_argument("game", choices=["harmonies", "living-forest"])
    play.add_argument(
        "--seats",
        default=None,
        help="comma-separated: you, random, greedy, mcts, mcts:easy|normal|hard",
    )
    play.add_argument("--side", default="A", choices=["A", "B"], help="Harmonies board side")
    play.add_argument("--spirits", action="store_true", help="Harmonies: Nature's Spirit variant")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--lang", default=None, help="en, ko or zh (default: from LC_ALL/LANG)")
    play.add_argument("--plain", action="store_true", help="no colour (also when NO_COLOR is set)")
    play.add_argument("--save", default=None, help="save the finished game to this JSON file")

    rules = sub.add_parser("rules", help="the rules summary of a game (paged in a terminal)")
    rules.add_argument("game", choices=["harmonies", "living-forest"])
    rules.add_argument("--lang", default=None, help="en, ko or zh (default: from LC_ALL/LANG)")
    rules.add_argument("--plain", action="store_true", help="no colour (also when NO_COLOR is set)")

    learn = sub.add_parser("learn", help="a guided first game in the terminal")
    learn.add_argument("game", choices=["harmonies", "living-forest"])
    learn.add_argument("--lang", default=None, help="en, ko or zh (default: from LC_ALL/LANG)")
    learn.add_argument("--plain", action="store_true", help="no colour (also when NO_COLOR is set)")
    learn.add_argument("--progress", default=None, help="keep the progress in this file, resume it")

    harm = sub.add_parser("harmonies", help="Harmonies tools")
    harm_sub = harm.add_subparsers(dest="tool", required=True)
    score = harm_sub.add_parser("score", help="score a finished board (JSON file)")
    score.add_argument("board", help="path of a board JSON file, or - for standard input")
    score.add_argument("--solo", action="store_true", help="also count the solo suns")
    score.add_argument(
        "--explain", action="store_true", help="also list the parts that make up each category"
    )

    from glade.review_cli import add_parser as add_review

    add_review(sub)

    bench = sub.add_parser("bench", help="random-play throughput on one core")
    bench.add_argument("game", choices=["harmonies", "living-forest"])
    bench.add_argument("--games", type=int, default=200)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--players", type=int, default=2)
    bench.add_argument("--side", default="A", choices=["A", "B"])
    bench.add_argument("--spirits", action="store_true")
    return p


def _cmd_score(args: argparse.Namespace) -> int:
    from glade.harmonies.scoring import score_board

    try:
        if args.board == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.board, encoding="utf-8") as fh:
                data = json.load(fh)
    except FileNotFoundError:
        raise UserError(f"there is no file {args.board}") from None
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{args.board} is not valid JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    print(json.dumps(score_board(data, solo=args.solo, explain=args.explain)))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from glade.core.bench import run_bench

    if args.games < 1:
        raise UserError("--games must be at least 1")
    options: dict[str, Any] = {"players": args.players}
    if args.game == "harmonies":
        options.update(side=args.side, spirits=args.spirits)
    report = run_bench(args.game, args.games, args.seed, options)
    print(f"{report['games']} games of {args.game} in {report['seconds']} s")
    print(f"games/s     {report['games_per_s']}")
    print(f"actions/s   {report['actions_per_s']}  ({report['actions_per_game']} per game)")
    print(f"copy()      {report['copy_us']} µs")
    print(f"mean score  {report['mean_score']}")
    print(f"engines     {report['engines']}")
    print(json.dumps(report))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from glade.terminal.i18n import LANGS

    if args.lang is not None and args.lang.lower().split("_")[0].split("-")[0] not in LANGS:
        raise UserError(f"unknown language {args.lang!r}: choose one of {', '.join(LANGS)}")
    if args.game == "harmonies":
        from glade.terminal.harmonies import play_harmonies

        return play_harmonies(args)
    from glade.terminal.living_forest import play_living_forest

    return play_living_forest(args)


def _check_lang(args: argparse.Namespace) -> None:
    from glade.terminal.i18n import LANGS

    if args.lang is not None and args.lang.lower().split("_")[0].split("-")[0] not in LANGS:
        raise UserError(f"unknown language {args.lang!r}: choose one of {', '.join(LANGS)}")


def _cmd_rules(args: argparse.Namespace) -> int:
    from glade.terminal.rules import show_rules

    _check_lang(args)
    return show_rules(args)


def _cmd_learn(args: argparse.Namespace) -> int:
    from glade.terminal.learn import learn

    _check_lang(args)
    return learn(args)


def _delegate(name: str, rest: list[str]) -> int:
    module = importlib.import_module(DELEGATES[name][0])
    code: int = module.main(rest)
    return code


def _run(argv: list[str]) -> int:
    if argv and argv[0] in DELEGATES:
        return _delegate(argv[0], argv[1:])
    args = _parser().parse_args(argv)
    from glade.review_cli import run as _cmd_review

    handlers = {
        "harmonies": _cmd_score,
        "bench": _cmd_bench,
        "play": _cmd_play,
        "review": _cmd_review,
        "rules": _cmd_rules,
        "learn": _cmd_learn,
    }
    return handlers[args.command](args)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _run(argv)
    except (UserError, BadInput, IllegalAction) as exc:
        print(f"glade: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # a package of an extra that this install lacks
        missing = missing_extra(" ".join(["glade", *argv[:1]]), exc)
        if not isinstance(missing, MissingExtra):
            raise
        print(f"glade: {missing}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("glade: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
