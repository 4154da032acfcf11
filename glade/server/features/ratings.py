"""Ratings: rated tables, the rating maths, what keeps ratings from being farmed, the leaderboard
and the players' profiles.

A rated table (``"rated": true`` when it is made) rates its players with OpenSkill
(:mod:`glade.arena.ratings`, Weng-Lin Plackett-Luce) when its game ends. Every human seat belongs
to an account; a bot plays as its level's rated identity (``bot:greedy``, ``bot:mcts:hard`` ...),
which starts from the level's calibrated rating (``glade arena ... --rate``).

**Whether a table counts** is decided once, at its first move, and stored with it; until then the
table says what would be decided now (``forecast``). It does not count when two of its accounts
were seen at one address or on one device (the device cookie) within ``related_days``, when two
of its seats are one account, or when a pair of its accounts already had
``rated_pair_games_per_day`` rated tables that day (UTC): the pair's count of the day is taken in
the same conditional write as the decision, so two tables starting at once cannot both take the
last one.

**Exactly once**: a table is rated by one write that the database refuses if the table was rated
already or a rating it started from changed meanwhile (``storage.ratings``); the loser reads
again and, if the table is still unrated, computes again from the new ratings.

**Display**: next to ``mu``/``sigma`` every rating carries ``display``, ``round(1500 + 30 (mu -
25))`` — an Elo-like scale centred on 1500 where, as in Elo, a 100-point lead is about a 64 %
chance to finish ahead of one other player (OpenSkill's logistic with its beta 25/6 between two
settled players, ``c`` about 6.4: 30 ≈ 400 / (c ln 10)) — and ``provisional``, true while
``sigma`` is above 4 (a new player starts at 25/3; it takes about ten games to get under 4).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Coroutine
from functools import lru_cache
from itertools import combinations
from typing import Any

import glade
from glade.arena.ratings import BOT_LEVELS, GAMES, MODEL_NAME, Rating, load_calibration, ranks_of
from glade.arena.ratings import rate as openskill_rate

from ..config import Settings
from ..domain import ActionApplied, EventBus, GameOver, Table, Tables
from ..refusals import SERVER, refuse
from ..storage import Storage, StorageConflict
from ..storage.ratings import BOT_PREFIX, RATED, USER_PREFIX, RatedSeat, rating_identity

log = logging.getLogger("glade.server")

DAY = 86_400.0
DISPLAY_CENTRE, DISPLAY_SCALE = 1500, 30.0
PROVISIONAL_SIGMA = 4.0
RATE_TRIES = 20
# why a rated table does not count (codes of the server's catalogue, translated by the page)
RELATED = {"address": "server.unrated.address", "device": "server.unrated.device"}
SAME_ACCOUNT = "server.unrated.same_account"
PAIR_CAP = "server.unrated.pair_cap"


def display(mu: float) -> int:
    """The familiar number shown for a rating (see the module)."""
    return round(DISPLAY_CENTRE + DISPLAY_SCALE * (mu - 25.0))


def rating_json(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the API shows it: ``mu``, ``sigma``, ``ordinal``, ``games``, ``display``,
    ``provisional``."""
    return {
        **Rating(mu, sigma, games).to_json(),
        "display": display(mu),
        "provisional": sigma > PROVISIONAL_SIGMA,
    }


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


def places(table: Table) -> list[int]:
    """The finished game's places, 1 = first (winners after tie-breakers, then by score).

    A player who left or whose clock ran out finishes below every player who stayed, whatever
    the bot that took the seat over scored (as Board Game Arena ranks a player who quits or
    runs out of time last): leaving never saves a rating, nor does a bot win one for you.
    """
    result = table.state.result()
    ranks = ranks_of([float(x) for x in result["scores"]], list(result["winners"]))
    keys = [(s.status is not None, ranks[s.seat]) for s in table.seats]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def accounts(table: Table) -> list[str]:
    """The accounts holding the table's seats (a seat a bot took over stays its player's)."""
    return [s.user_id for s in table.seats if s.user_id]


def day_of(at: float) -> int:
    """The UTC day number of a Unix time (the pair cap's day)."""
    return int(at // DAY)


class Ratings:
    """Decides whether rated tables count, rates them when they end, and reads the boards."""

    def __init__(
        self, settings: Settings, storage: Storage, tables: Tables, events: EventBus
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.tables = tables
        self.pending: set[asyncio.Task[object]] = set()
        events.subscribe(ActionApplied, self.applied)
        events.subscribe(GameOver, self.game_over)

    def spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    def applied(self, event: ActionApplied) -> None:
        if event.table.rated and event.version == 1:  # the first move: decide now
            self.spawn(self.decide(event.table))

    def game_over(self, event: GameOver) -> None:
        if event.table.rated:
            self.spawn(self.rate(event.table))

    # ------------------------------------------------------------------ counting or not
    async def judge(self, table: Table) -> tuple[str, list[tuple[str, str]], int]:
        """What would be decided now: (RATED or a reason's code, the table's pairs of accounts,
        today)."""
        users = accounts(table)
        today = day_of(time.time())
        if len(set(users)) != len(users):
            return SAME_ACCOUNT, [], today
        pairs = sorted((a, b) if a < b else (b, a) for a, b in combinations(users, 2))
        if not pairs:
            return RATED, [], today
        since = time.time() - self.settings.related_days * DAY
        related = await asyncio.wrap_future(self.storage.ratings.related(users, since))
        if related:
            return RELATED.get(related[0][2], RELATED["address"]), pairs, today
        most = await asyncio.wrap_future(self.storage.ratings.pair_counts(pairs, today))
        if most >= self.settings.rated_pair_games_per_day:
            return PAIR_CAP, pairs, today
        return RATED, pairs, today

    async def decide(self, table: Table) -> str:
        """Whether the rated ``table`` counts, decided once for every process (see the
        module): RATED or the reason's code."""
        ratings = self.storage.ratings
        decided = await asyncio.wrap_future(ratings.decision_of(table.id))
        if decided is not None:
            return decided
        decision, pairs, today = await self.judge(table)
        cap = self.settings.rated_pair_games_per_day
        try:
            await asyncio.wrap_future(ratings.decide(table.id, decision, pairs, today, cap))
            return decision
        except StorageConflict:  # decided elsewhere first, or the pair's last game was taken
            decided = await asyncio.wrap_future(ratings.decision_of(table.id))
            if decided is not None:
                return decided
        try:
            await asyncio.wrap_future(ratings.decide(table.id, PAIR_CAP))
            return PAIR_CAP
        except StorageConflict:
            found = await asyncio.wrap_future(ratings.decision_of(table.id))
            return found or PAIR_CAP

    async def forecast(self, table: Table) -> dict[str, Any]:
        """``{"counts", "reason", "note", "decided"}``: whether the table's game moves ratings
        (decided at its first move; before it, what would be decided now) and, if not, why (a
        code and its English sentence)."""
        if not table.rated:
            return {"counts": False, "reason": None, "note": None, "decided": True}
        decided = await asyncio.wrap_future(self.storage.ratings.decision_of(table.id))
        decision = decided if decided is not None else (await self.judge(table))[0]
        counts = decision == RATED
        return {
            "counts": counts,
            "reason": None if counts else decision,
            "note": None if counts else str(SERVER.refuse(decision)),
            "decided": decided is not None,
        }

    # ------------------------------------------------------------------ rating
    async def rate(self, table: Table) -> list[dict[str, Any]] | None:
        """Rate a finished rated table, exactly once over every process; each seat's change,
        or None (not rated here: not rated, not over, not counting, or rated already)."""
        if not table.rated or not table.over:
            return None
        try:
            return await self.rating(table)
        except Exception:  # a failed rating is logged; a restart retries it (see recover)
            log.exception("could not rate table %s", table.id)
            return None

    async def rating(self, table: Table) -> list[dict[str, Any]] | None:
        ratings = self.storage.ratings
        if await self.decide(table) != RATED:
            return None
        identities = [rating_identity(s.kind, s.bot, s.user_id) for s in table.seats]
        if None in identities or len(set(identities)) != len(identities):
            return None
        names = [str(i) for i in identities]
        where = places(table)
        for _ in range(RATE_TRIES):
            if await asyncio.wrap_future(ratings.is_rated(table.id)):
                return None
            stored = await asyncio.wrap_future(ratings.of(table.game, names))
            before = [
                Rating(stored[n].mu, stored[n].sigma, stored[n].games)
                if n in stored
                else prior(table.game, n)
                for n in names
            ]
            after = openskill_rate(before, where)
            seats = [
                RatedSeat(
                    seat.seat,
                    name,
                    place,
                    len(names),
                    old.mu,
                    old.sigma,
                    new.mu,
                    new.sigma,
                    new.games,
                )
                for seat, name, old, new, place in zip(
                    table.seats, names, before, after, where, strict=True
                )
            ]
            started = {n: stored.get(n) for n in names}
            try:
                await asyncio.wrap_future(
                    ratings.record(table.id, table.game, seats, started, time.time())
                )
            except StorageConflict:  # rated elsewhere, or a starting rating moved: look again
                continue
            changes = [
                {
                    "seat": s.seat,
                    "identity": s.identity,
                    "place": s.place,
                    "before": old.to_json(),
                    "after": new.to_json(),
                }
                for s, old, new in zip(seats, before, after, strict=True)
            ]
            log.info("rated table %s: %s", table.id, [(c["identity"], c["place"]) for c in changes])
            return changes
        log.error("table %s: its rating kept losing races; a restart retries it", table.id)
        return None

    async def recover(self) -> None:
        """Rate the rated tables that ended while no process could rate them."""
        try:
            missed = await asyncio.wrap_future(self.storage.ratings.unrated_finished())
            for table_id in missed:
                await self.rate(await self.tables.get(table_id))
        except Exception:  # noqa: BLE001 - never keep the server from starting; retried next start
            log.exception("could not rate the finished tables left unrated")

    async def close(self) -> None:
        if self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)

    # ------------------------------------------------------------------ reading
    @staticmethod
    def entry(
        identity: str, mu: float, sigma: float, games: int, name: str | None
    ) -> dict[str, Any]:
        is_bot = identity.startswith(BOT_PREFIX)
        return {
            "identity": identity,
            "kind": "bot" if is_bot else "user",
            "name": identity[len(BOT_PREFIX) :] if is_bot else name,
            **rating_json(mu, sigma, games),
        }

    async def leaderboard(self, game: str, limit: int) -> dict[str, Any]:
        check_game(game)
        rows = await asyncio.wrap_future(self.storage.ratings.leaderboard(game, limit))
        entries = [
            self.entry(r["identity"], r["mu"], r["sigma"], r["games"], r["name"])
            for r in rows
            if not r["identity"].startswith(USER_PREFIX) or r["name"] is not None
        ]
        seen = {e["identity"] for e in entries}
        cal = calibration().get(game, {})
        for level in BOT_LEVELS:  # every level is on the board, rated on this server or not yet
            identity = BOT_PREFIX + level
            if identity not in seen and level in cal:
                start = prior(game, identity)
                entries.append(self.entry(identity, start.mu, start.sigma, start.games, None))
        for e in entries:
            if e["kind"] == "bot" and e["name"] in cal:
                e["calibration"] = calibrated(cal[e["name"]])
        entries.sort(key=lambda e: (-e["ordinal"], e["identity"]))
        entries = entries[:limit]
        for i, e in enumerate(entries):
            e["rank"] = i + 1
        return {"game": game, "model": MODEL_NAME, "entries": entries}

    async def at_table(self, table: Table) -> dict[str, Any]:
        """Whether a table is rated, whether its game counts and why not, and what is at stake:
        each seat's rating (and change once rated)."""
        counting = await self.forecast(table)
        if not table.rated:
            return {"id": table.id, "rated": False, "model": MODEL_NAME, "seats": [], **counting}
        identities = [rating_identity(s.kind, s.bot, s.user_id) for s in table.seats]
        known = sorted({i for i in identities if i is not None})
        found = await asyncio.wrap_future(
            self.storage.ratings.at_table(table.id, table.game, known)
        )
        seats = []
        for seat, identity in zip(table.seats, identities, strict=True):
            now: dict[str, Any] | None = None
            if identity is not None:
                stored = found["ratings"].get(identity)
                start = Rating(*stored) if stored else prior(table.game, identity)
                now = rating_json(start.mu, start.sigma, start.games)
            change = found["changes"].get(seat.seat)
            seats.append(
                {
                    "seat": seat.seat,
                    "identity": identity,
                    "rating": now,
                    "change": None if change is None else change_json(*change),
                }
            )
        return {"id": table.id, "rated": True, "model": MODEL_NAME, "seats": seats, **counting}

    async def profile(self, name: str) -> dict[str, Any]:
        storage = self.storage
        if len(name) > 60:
            raise refuse(404, "server.ratings.no_player")
        level = ""
        if name.startswith(BOT_PREFIX) and name[len(BOT_PREFIX) :] in BOT_LEVELS:
            level = name[len(BOT_PREFIX) :]
            identity, kind, shown = name, "bot", level
        else:
            user = await asyncio.wrap_future(storage.users.named(name))
            if user is None:
                raise refuse(404, "server.ratings.no_player")
            identity, kind, shown = USER_PREFIX + user[0], "user", user[1]
        found = await asyncio.wrap_future(storage.ratings.profile(identity, 30))
        ratings: dict[str, Any] = {}
        for r in found["ratings"]:
            ratings[r["game"]] = rating_json(r["mu"], r["sigma"], r["games"])
        if kind == "bot":
            for game in GAMES:
                if game not in ratings and level in calibration().get(game, {}):
                    start = prior(game, identity)
                    ratings[game] = rating_json(start.mu, start.sigma, start.games)
        history = [
            {
                **h,
                "ordinal_before": round(h["mu_before"] - 3 * h["sigma_before"], 6),
                "ordinal": round(h["mu"] - 3 * h["sigma"], 6),
                "display_before": display(h["mu_before"]),
                "display": display(h["mu"]),
            }
            for h in found["history"]
            if math.isfinite(h["mu"])
        ]
        by_table = {h["game_id"]: h for h in history}
        loop = asyncio.get_running_loop()
        games = []
        for g in found["games"]:
            outcome = await loop.run_in_executor(None, outcome_of, g.pop("final"), g["seat"])
            rated = by_table.get(g["id"])
            if outcome is not None and rated is not None:
                outcome["place"] = rated["place"]  # the rated place (one who left finished last)
            games.append(
                {
                    **g,
                    "result": outcome,
                    "rating": None
                    if rated is None
                    else {
                        "before": rated["ordinal_before"],
                        "after": rated["ordinal"],
                        "display_before": rated["display_before"],
                        "display_after": rated["display"],
                    },
                }
            )
        return {
            "name": shown,
            "kind": kind,
            "identity": identity,
            "model": MODEL_NAME,
            "ratings": ratings,
            "calibration": {g: bot_calibration(g).get(level) for g in GAMES}
            if kind == "bot"
            else None,
            "history": history,
            "games": games,
        }


def check_game(game: str) -> str:
    if game not in GAMES:
        raise refuse(404, "server.ratings.game", games=" and ".join(GAMES))
    return game


def calibrated(rating: Rating) -> dict[str, Any]:
    return rating_json(rating.mu, rating.sigma, rating.games)


def bot_calibration(game: str) -> dict[str, Any]:
    return {level: calibrated(r) for level, r in calibration().get(game, {}).items()}


def bots_board() -> dict[str, Any]:
    """``GET /api/ratings/bots``: each bot level's calibrated rating per game."""
    return {"model": MODEL_NAME, "games": {game: bot_calibration(game) for game in GAMES}}


def change_json(mu_before: float, sigma_before: float, mu: float, sigma: float) -> dict[str, Any]:
    """A seat's change in a rated game: conservative ratings and displays, before and after."""
    return {
        "before": round(mu_before - 3 * sigma_before, 6),
        "after": round(mu - 3 * sigma, 6),
        "display_before": display(mu_before),
        "display_after": display(mu),
    }


def outcome_of(final: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """A finished game's result for one seat: place, players, scores (from its last snapshot)."""
    if final is None:
        return None
    try:
        result = glade.load_game(final).result()
        scores = [float(x) for x in result["scores"]]
        ranks = ranks_of(scores, list(result["winners"]))
    except Exception:  # noqa: BLE001 - a snapshot this version cannot read has no outcome
        return None
    return {"place": ranks[seat], "players": len(scores), "scores": scores}
