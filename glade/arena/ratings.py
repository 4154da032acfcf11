"""OpenSkill ratings of free-for-all games, and the bots' calibration file.

The model is OpenSkill's Weng-Lin Plackett-Luce (``openskill.models.PlackettLuce``, its default
parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300). Plackett-Luce rates a full ranking of any
number of one-player teams, which is what a 2-4 player game of Harmonies or Living Forest ends
with, and handles ties (equal ranks). A rating is shown by its conservative *ordinal*
``mu - 3 sigma``: the skill the player has with 99.7% confidence.

A game's ranking comes from its result: the winners (after the game's own tie-breakers) share
first place, the others follow by score, equal scores sharing a place.

The calibration file (``glade/arena/data/bot_ratings.json``, written by ``glade arena ... --rate
FILE``) keeps, per game, every rated tournament (its command, bots, budget, game count and the
ranking of each game) and the bot levels' ratings recomputed from all of them.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from glade.core import BadInput

MU = 25.0
SIGMA = MU / 3
Z = 3.0  # the ordinal is mu - Z * sigma
MODEL_NAME = "openskill PlackettLuce (mu 25, sigma 25/3, beta 25/6, tau 25/300)"
GAMES = ("harmonies", "living-forest")
BOT_LEVELS = ("random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard")
CALIBRATION = "bot_ratings.json"

_MODEL: Any = None


@dataclass(frozen=True)
class Rating:
    """One identity's rating in one game: the skill's mean, its uncertainty, games rated."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` (what leaderboards sort by)."""
        return self.mu - Z * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 6),
            "sigma": round(self.sigma, 6),
            "ordinal": round(self.ordinal, 6),
            "games": self.games,
        }


def model() -> Any:
    """The OpenSkill model every rating of glade uses (``openskill.models.PlackettLuce``)."""
    global _MODEL
    if _MODEL is None:
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            raise BadInput(
                "ratings need the openskill package: pip install 'glade[server]'"
            ) from None
        _MODEL = PlackettLuce(mu=MU, sigma=SIGMA)
    return _MODEL


def ranks_of(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Places (1 = first) of a game's seats: winners first, then by score; equal share a place.

    >>> ranks_of([80, 95, 95], [1, 2])
    [3, 1, 1]
    >>> ranks_of([80, 95, 70], [1])
    [2, 1, 3]
    """
    n = len(scores)
    if n == 0:
        raise BadInput("a rated game needs at least one seat")
    if any(not 0 <= w < n for w in winners):
        raise BadInput("a winner must be one of the game's seats")
    keys = [(0 if s in winners else 1, -float(scores[s])) for s in range(n)]
    return [1 + sum(1 for other in keys if other < keys[s]) for s in range(n)]


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one game of these players (one per seat) finishing at ``ranks``."""
    if len(ratings) != len(ranks):
        raise BadInput("give one rank per player")
    if len(ratings) < 2:
        raise BadInput("a rated game needs at least two players")
    m = model()
    teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    new = m.rate(teams, ranks=[float(x) for x in ranks])
    return [
        Rating(team[0].mu, team[0].sigma, old.games + 1)
        for team, old in zip(new, ratings, strict=True)
    ]


def rate_games(
    results: Iterable[tuple[Sequence[str], Sequence[int]]],
    start: dict[str, Rating] | None = None,
) -> dict[str, Rating]:
    """Rate a list of games in order: each is ``(players, ranks)``, a player named per seat.

    A player rated for the first time starts from ``start`` (if it is there) or the prior.
    """
    out = dict(start or {})
    for players, ranks in results:
        if len(set(players)) != len(players):
            raise BadInput("a player can hold only one seat of a rated game")
        before = [out.get(p, Rating()) for p in players]
        for p, r in zip(players, rate(before, ranks), strict=True):
            out[p] = r
    return out


def interleave(runs: Sequence[Sequence[Any]]) -> Iterator[Any]:
    """The games of several runs alternately (1st of each, then 2nd of each, ...), so that no
    run's games all come last when ratings are computed in order."""
    longest = max((len(r) for r in runs), default=0)
    for i in range(longest):
        for run in runs:
            if i < len(run):
                yield run[i]


def rank_of_records(records: Iterable[Any]) -> list[list[Any]]:
    """``[[bot per seat], [rank per seat]]`` of each arena record (``runner.Record``)."""
    return [[list(r.seats), ranks_of(r.scores, r.winners)] for r in records]


# ---------------------------------------------------------------------- the calibration file
def default_path() -> Path:
    return Path(__file__).resolve().parent / "data" / CALIBRATION


def empty_calibration() -> dict[str, Any]:
    return {"model": MODEL_NAME, "games": {}}


def recompute(entry: dict[str, Any]) -> dict[str, Any]:
    """A game's ratings from all its runs (interleaved), sorted best ordinal first."""
    rated = rate_games(interleave([run["results"] for run in entry["runs"]]))
    return {
        name: r.to_json()
        for name, r in sorted(rated.items(), key=lambda kv: kv[1].ordinal, reverse=True)
    }


def add_run(calibration: dict[str, Any], game: str, run: dict[str, Any]) -> dict[str, Any]:
    """Append a rated tournament to a game's entry and recompute that game's ratings."""
    entry = calibration.setdefault("games", {}).setdefault(game, {"runs": [], "ratings": {}})
    entry["runs"].append(run)
    entry["games"] = sum(len(r["results"]) for r in entry["runs"])
    entry["ratings"] = recompute(entry)
    calibration["model"] = MODEL_NAME
    return calibration


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on the file's folder, so two arenas never lose each other's runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def update_file(path: str | Path, game: str, run: dict[str, Any]) -> dict[str, Any]:
    """Add one tournament to the calibration file at ``path`` (created if missing)."""
    path = Path(path)
    with _locked(path):
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            data = empty_calibration()
        else:
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                raise BadInput(f"{path} is not a calibration file (not JSON)") from None
            if not isinstance(data, dict) or not isinstance(data.get("games", {}), dict):
                raise BadInput(f"{path} is not a calibration file")
        add_run(data, game, run)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        os.replace(tmp, path)
    return data


def load_calibration(path: str | Path | None = None) -> dict[str, dict[str, Rating]]:
    """Per game, the calibrated rating of each bot level (empty if there is no file)."""
    try:
        if path is None:
            text = resources.files("glade.arena").joinpath("data", CALIBRATION).read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        data = json.loads(text)
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    out: dict[str, dict[str, Rating]] = {}
    for game, entry in data.get("games", {}).items():
        out[game] = {
            name: Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
            for name, r in entry.get("ratings", {}).items()
            if math.isfinite(float(r["mu"])) and math.isfinite(float(r["sigma"]))
        }
    return out


__all__ = [
    "BOT_LEVELS",
    "GAMES",
    "MODEL_NAME",
    "Rating",
    "add_run",
    "interleave",
    "load_calibration",
    "model",
    "rank_of_records",
    "ranks_of",
    "rate",
    "rate_games",
    "update_file",
]
