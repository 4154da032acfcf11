"""Ratings on the server: rated tables, the leaderboard per game and the players' profiles.

A rated table (``"rated": true`` when it is created) rates its players with OpenSkill
(:mod:`glade.arena.ratings`, Weng-Lin Plackett-Luce) when it ends. Every human seat must belong to
an account (a guest can neither take nor play a seat of a rated table); a bot plays as its level's
rated identity (``bot:greedy``, ``bot:mcts:hard`` ...), which starts from the level's calibrated
rating (``glade arena ... --rate``, ``glade/arena/data/bot_ratings.json``). The update runs in one
database transaction that first checks the game was not rated yet, so a game is rated exactly
once whichever process (or how many) saw it end.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse

from glade.arena.ratings import BOT_LEVELS, GAMES, MODEL_NAME, Rating, load_calibration, ranks_of

from .refusals import refuse
from .storage import BOT_PREFIX, USER_PREFIX, rating_identity

log = logging.getLogger("glade.server")


@lru_cache(maxsize=1)
def calibration() -> dict[str, dict[str, Rating]]:
    """Per game, each bot level's calibrated rating (read once from the package's file)."""
    return load_calibration()


def prior(game: str, identity: str) -> Rating:
    """Where an identity starts: a bot level at its calibrated rating, a person at the prior."""
    if identity.startswith(BOT_PREFIX):
        found = calibration().get(game, {}).get(identity[len(BOT_PREFIX) :])
        if found is not None:
            return Rating(found.mu, found.sigma, 0)
    return Rating()


def bot_level(spec: str) -> str:
    """The rated identity's level of a bot spec (``mcts`` plays as ``mcts:normal``)."""
    return "mcts:normal" if spec == "mcts" else spec


def check_rated_seats(seats: list[dict[str, Any]]) -> None:
    """Refuse a rated table that could not be rated: one sentence, nothing created."""
    if len(seats) < 2:
        raise refuse(422, "server.rated.seats")
    levels = [bot_level(s["bot"]) for s in seats if s["kind"] == "bot"]
    for level in levels:
        if level not in BOT_LEVELS:
            raise refuse(422, "server.rated.bot", bot=level, levels=", ".join(BOT_LEVELS))
    if len(set(levels)) != len(levels):
        raise refuse(422, "server.rated.bot_twice")
    if not any(s["kind"] == "human" for s in seats):
        raise refuse(422, "server.rated.no_person")


async def check_rated_creator(request: Request) -> None:
    """Only a logged-in account makes a rated table (its seats are then claimed by accounts)."""
    from .accounts import check_csrf, session_of

    session = await session_of(request)
    if session is None:
        raise refuse(403, "server.rated.guest_table")
    check_csrf(request, session)  # the session authorises it, so the cookie needs its token


def require_account(user_id: str | None) -> None:
    """A seat of a rated table is taken and played only by a logged-in account."""
    if not user_id:
        raise refuse(403, "server.rated.guest_seat")


def places(room: Any) -> list[int]:
    """The finished game's places, 1 = first (winners after tie-breakers, then by score).

    A player who left or whose clock ran out finishes below every player who stayed, whatever
    the bot that took the seat over scored (as Board Game Arena ranks a player who quits or
    runs out of time last): leaving never saves a rating, nor does a bot win one for you.
    """
    result = room.state.result()
    ranks = ranks_of([float(x) for x in result["scores"]], list(result["winners"]))
    keys = [(s.status is not None, ranks[s.seat]) for s in room.seats]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


async def rate_room(storage: Any, room: Any) -> list[dict[str, Any]] | None:
    """Rate a finished rated table (exactly once: the database decides)."""
    if not room.rated or not room.over:
        return None
    try:
        changes: list[dict[str, Any]] | None = await asyncio.wrap_future(
            storage.rate_game(room.id, places(room), prior, time.time())
        )
    except Exception:  # a failed rating is logged; a restart retries it (see recover)
        log.exception("could not rate game %s", room.id)
        return None
    if changes:
        log.info("rated game %s: %s", room.id, [(c["identity"], c["place"]) for c in changes])
    return changes


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    tables = app.state.tables
    pending: set[asyncio.Task[Any]] = set()

    def over(room: Any) -> None:
        if room.rated:
            task = asyncio.get_running_loop().create_task(rate_room(tables.storage, room))
            pending.add(task)
            task.add_done_callback(pending.discard)

    tables.game_over_hooks.append(over)
    # rated games that ended while no process could rate them (it stopped in between)
    try:
        missed = await asyncio.wrap_future(tables.storage.unrated_finished_games())
        for game_id in missed:
            await rate_room(tables.storage, await tables.get(game_id))
    except Exception:  # noqa: BLE001 - never keep the server from starting; retried next start
        log.exception("could not rate the finished games left unrated")
    try:
        yield
    finally:
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)


router = APIRouter(lifespan=_lifespan)


def _entry(identity: str, rating: Rating, name: str | None) -> dict[str, Any]:
    is_bot = identity.startswith(BOT_PREFIX)
    return {
        "identity": identity,
        "kind": "bot" if is_bot else "user",
        "name": identity[len(BOT_PREFIX) :] if is_bot else name,
        **rating.to_json(),
    }


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise refuse(404, "server.ratings.game", games=" and ".join(GAMES))
    return game


def _bot_calibration(game: str) -> dict[str, Any]:
    return {level: r.to_json() for level, r in calibration().get(game, {}).items()}


@router.get(
    "/api/ratings/bots",
    summary="Each bot level's calibrated rating per game (bot-vs-bot arena games)",
)
async def bot_ratings() -> Any:
    return JSONResponse(
        {"model": MODEL_NAME, "games": {game: _bot_calibration(game) for game in GAMES}}
    )


@router.get(
    "/api/ratings/{game}",
    summary="The leaderboard of a game: players and bot levels by conservative rating",
)
async def leaderboard(
    game: str, request: Request, limit: int = Query(default=50, ge=1, le=200)
) -> Any:
    _check_game(game)
    tables = request.app.state.tables
    rows = await asyncio.wrap_future(tables.storage.ratings_of_game(game, limit))
    entries = [
        _entry(r["identity"], Rating(r["mu"], r["sigma"], r["games"]), r["name"])
        for r in rows
        if not r["identity"].startswith(USER_PREFIX) or r["name"] is not None
    ]
    seen = {e["identity"] for e in entries}
    cal = calibration().get(game, {})
    for level in BOT_LEVELS:  # every level is on the board, rated on this server or not yet
        identity = BOT_PREFIX + level
        if identity not in seen and level in cal:
            entries.append(_entry(identity, prior(game, identity), None))
    for e in entries:
        if e["kind"] == "bot" and e["name"] in cal:
            e["calibration"] = cal[e["name"]].to_json()
    entries.sort(key=lambda e: (-e["ordinal"], e["identity"]))
    entries = entries[:limit]
    for i, e in enumerate(entries):
        e["rank"] = i + 1
    return JSONResponse({"game": game, "model": MODEL_NAME, "entries": entries})


def _rating(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return Rating(mu, sigma, games).to_json()


@router.get(
    "/api/games/{game_id}/ratings",
    summary="Whether a table is rated and what is at stake: each seat's rating (and change)",
)
async def table_ratings(game_id: str, request: Request) -> Any:
    tables = request.app.state.tables
    room = await tables.get(game_id)
    if not room.rated:
        return JSONResponse({"id": room.id, "rated": False, "model": MODEL_NAME, "seats": []})
    identities = [rating_identity(s.kind, s.bot, s.user_id) for s in room.seats]
    known = sorted({i for i in identities if i is not None})
    found = await asyncio.wrap_future(tables.storage.table_ratings(room.id, room.game, known))
    seats = []
    for seat, identity in zip(room.seats, identities, strict=True):
        now: dict[str, Any] | None = None
        if identity is not None:
            stored = found["ratings"].get(identity)
            now = _rating(*stored) if stored else prior(room.game, identity).to_json()
        change = found["changes"].get(seat.seat)
        seats.append(
            {
                "seat": seat.seat,
                "identity": identity,
                "rating": now,
                "change": None
                if change is None
                else {
                    "before": round(change[0] - 3 * change[1], 6),
                    "after": round(change[2] - 3 * change[3], 6),
                },
            }
        )
    return JSONResponse({"id": room.id, "rated": True, "model": MODEL_NAME, "seats": seats})


def _outcome(final: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """A finished game's result for one seat: place, players, scores (from its last snapshot)."""
    if final is None:
        return None
    import glade

    try:
        result = glade.load_game(final).result()
        scores = [float(x) for x in result["scores"]]
        ranks = ranks_of(scores, list(result["winners"]))
    except Exception:  # noqa: BLE001 - a snapshot this version cannot read has no outcome
        return None
    return {"place": ranks[seat], "players": len(scores), "scores": scores}


@router.get(
    "/api/profiles/{name}",
    summary="A player's (or bot level's) ratings, rating history and recent games",
)
async def profile(name: str, request: Request) -> Any:
    tables = request.app.state.tables
    storage = tables.storage
    if len(name) > 60:
        raise refuse(404, "server.ratings.no_player")
    if name.startswith(BOT_PREFIX) and name[len(BOT_PREFIX) :] in BOT_LEVELS:
        level = name[len(BOT_PREFIX) :]
        identity, kind, shown = name, "bot", level
    else:
        user = await asyncio.wrap_future(storage.user_named(name))
        if user is None:
            raise refuse(404, "server.ratings.no_player")
        identity, kind, shown = USER_PREFIX + user[0], "user", user[1]
    found = await asyncio.wrap_future(storage.rating_profile(identity, 30))
    ratings: dict[str, Any] = {}
    for r in found["ratings"]:
        ratings[r["game"]] = Rating(r["mu"], r["sigma"], r["games"]).to_json()
    if kind == "bot":
        for game in GAMES:
            if game not in ratings and level in calibration().get(game, {}):
                ratings[game] = prior(game, identity).to_json()
    history = [
        {
            **h,
            "ordinal_before": round(h["mu_before"] - 3 * h["sigma_before"], 6),
            "ordinal": round(h["mu"] - 3 * h["sigma"], 6),
        }
        for h in found["history"]
        if math.isfinite(h["mu"])
    ]
    by_game = {h["game_id"]: h for h in history}
    loop = asyncio.get_running_loop()
    games = []
    for g in found["games"]:
        outcome = await loop.run_in_executor(None, _outcome, g.pop("final"), g["seat"])
        rated = by_game.get(g["id"])
        if outcome is not None and rated is not None:
            outcome["place"] = rated["place"]  # the rated place (one who left finished last)
        games.append(
            {
                **g,
                "result": outcome,
                "rating": None
                if rated is None
                else {"before": rated["ordinal_before"], "after": rated["ordinal"]},
            }
        )
    return JSONResponse(
        {
            "name": shown,
            "kind": kind,
            "identity": identity,
            "model": MODEL_NAME,
            "ratings": ratings,
            "calibration": {g: _bot_calibration(g).get(level) for g in GAMES}
            if kind == "bot"
            else None,
            "history": history,
            "games": games,
        }
    )


__all__ = [
    "calibration",
    "check_rated_seats",
    "prior",
    "rate_room",
    "rating_identity",
    "require_account",
    "router",
]
