"""Live tables: each in memory behind its own lock, every change stored before any answer.

Every action goes through :meth:`Tables.act`: check the version and the seat, apply the action to
a copy of the state, store it (one transaction), and only then make the copy the table's state,
answer, push each connection its own view and publish :class:`ActionApplied` (and
:class:`GameOver`), to which the features (bots, ratings …) subscribe. Each connection's pushes
wait in a bounded queue; past the bound the queue is replaced by ``{"type": "resync"}`` and the
client re-reads.

What only one process may do (claim a seat, hand a seat to a bot, store a version) is decided by
the database: a conditional write that fails for every process but the first
(:class:`~glade.server.storage.StorageConflict`), after which the loser catches up.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

import glade
from glade.bots import make_bot
from glade.core import Action, BadInput, Game, IllegalAction
from glade.core.refusals import CORE

from ..config import Settings
from ..errors import ApiError
from ..refusals import refuse
from ..storage import (
    NewGame,
    Statement,
    Storage,
    StorageConflict,
    StorageError,
    StoredGame,
    StoredSeat,
)
from .clock import Changes, Clock, ClockSpec, advance, clock_option
from .connections import PUSH_QUEUE, RESYNC, Connection, Origin
from .events import (
    ActionApplied,
    ClockRanOut,
    EventBus,
    GameOver,
    Heard,
    SeatTakenOver,
    TableReady,
)
from .pictures import common_prefix, dumps, public_entries, push_text
from .table import Seat, Table, rebuild
from .tokens import hash_token, new_token

log = logging.getLogger("glade.server")

T = TypeVar("T")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]+")  # secrets.token_urlsafe
TAKEOVER_BOT = "greedy"  # plays a seat whose clock ran out or whose player left
TIMED_OUT, LEFT = "timed out", "left"


def taken_over(status: str | None) -> ApiError:
    """403 for a seat a bot took over: the player left, or the clock ran out."""
    return refuse(403, "server.seat.left" if status == LEFT else "server.seat.timed_out")


def seated_under(account: str | None, user_id: str | None, others: list[Seat]) -> str | None:
    """The name a claim seats its player under: an account's own name, unless that account
    already holds another seat of the table (one browser playing several seats at one table
    keeps the names given to them)."""
    if account is None or user_id is None:
        return None
    if any(s.user_id == user_id for s in others):
        return None
    return account


@dataclass
class ClaimPlan:
    """A claim to store: its seat, the name it is seated under, the credential it keeps (None:
    a fresh one) and the invite hash it spends."""

    target: Seat
    name: str
    keep: str | None
    invite: str | None


class Tables:
    """Every table this server hosts, loaded from storage on first use."""

    def __init__(
        self, settings: Settings, storage: Storage, events: EventBus | None = None
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.events = events or EventBus()
        self.tables: dict[str, Table] = {}
        self.loading: dict[str, asyncio.Future[Table | None]] = {}
        # tables being loaded when another process announced a change: caught up once loaded
        self.missed: set[str] = set()

    # ------------------------------------------------------------------ storage helpers
    @staticmethod
    async def wait(future: Future[T]) -> T:
        """A storage future, awaited on the loop."""
        return await asyncio.wrap_future(future)

    async def write(self, future: Future[None] | Awaitable[None]) -> None:
        """Commit a write: StorageConflict passes (another process was first); any other
        failure is a 503 with a sentence (nothing changed)."""
        try:
            if isinstance(future, Future):
                await asyncio.wrap_future(future)
            else:
                await future
        except StorageConflict:
            raise
        except StorageError as exc:
            log.error("write failed: %s", exc)
            raise refuse(503, "server.table.unsaved") from None

    async def storing(self, table: Table, version: int, write: Awaitable[None]) -> None:
        """Wait for ``write``, the storing of ``version`` of ``table``, as :meth:`write`;
        meanwhile ``table.writing`` is that version (its announcement, heard back, is this
        process's own)."""
        table.writing = version
        try:
            await self.write(write)
        finally:
            table.writing = None

    # ------------------------------------------------------------------ loading
    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if len(table_id) > 64 or not TABLE_ID.fullmatch(table_id):
            raise refuse(404, "server.table.not_found")
        pending = self.loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self.loading[table_id] = pending
            try:
                stored = await self.wait(self.storage.tables.load(table_id))
                loaded = None if stored is None else self.table_from(stored)
                if loaded is not None:
                    self.tables[table_id] = loaded
                    if table_id in self.missed:  # the read may predate that change
                        self.refresh(loaded)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self.loading[table_id]
                self.missed.discard(table_id)
        found = await asyncio.shield(pending)
        if found is None:
            raise refuse(404, "server.table.not_found")
        return found

    @staticmethod
    def table_from(stored: StoredGame) -> Table:
        state = rebuild(stored)
        seats = [
            Seat(
                s.seat,
                s.kind,
                s.name,
                s.bot,
                s.token_hash,
                s.user_id,
                s.invite_hash,
                s.claimed,
                dict(s.keys),
                s.status,
            )
            for s in stored.seats
        ]
        clock = None
        if stored.clock is not None:
            clock = Clock(ClockSpec.from_json(stored.clock), list(stored.clocks or []))
        return Table(
            id=stored.id,
            game=stored.game,
            options=stored.options,
            seed=stored.seed,
            version=stored.version,
            state=state,
            seats=seats,
            clock=clock,
            rated=stored.rated,
        )

    def evict_idle(self, older_than: float) -> int:
        """Forget tables idle for ``older_than`` seconds; storage rebuilds them when asked for."""
        cutoff = time.monotonic() - older_than
        gone = [tid for tid, t in self.tables.items() if t.idle and t.touched < cutoff]
        for tid in gone:
            del self.tables[tid]
        return len(gone)

    async def resume(self) -> int:
        """After a start: load the unfinished tables with bot seats (their bots may move)."""
        ids = await self.wait(self.storage.tables.unfinished_with_bots())
        for table_id in ids:
            self.events.publish(TableReady(await self.get(table_id)))
        return len(ids)

    def ready(self, table: Table) -> None:
        """Tell the features that ``table`` is here to be played (its bots may move)."""
        self.events.publish(TableReady(table))

    # ------------------------------------------------------------------ creating
    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        client: str,
        clock: dict[str, Any] | None = None,
        rated: bool = False,
        check_seats: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> tuple[Table, list[str | None]]:
        """A new table (stored before it is answered) and each seat's token (None: a bot);
        ``check_seats``: one more check of the seats once the game and bots are known to
        exist (a rated table's), refusing with its own sentence."""
        clock_spec = clock_option(clock, self.settings.clock_min_seconds)
        options = dict(options)
        players = options.setdefault("players", len(seats))
        if players != len(seats):
            raise refuse(422, "server.table.players", players=players, seats=len(seats))
        seed = secrets.randbelow(2**63)
        try:  # options as one dict: a "seed" or "name" key is an unknown option, not a keyword
            state = glade.game_class(game).new(seed, options)
        except (BadInput, IllegalAction) as exc:
            raise ApiError.refused(exc) from None
        except ImportError:
            raise refuse(422, "server.table.game_unavailable", game=game) from None
        for spec in seats:
            if spec["kind"] == "bot":
                try:
                    make_bot(spec["bot"], state.game_name, 0)
                except (BadInput, IllegalAction) as exc:
                    raise ApiError.refused(exc) from None
                except ImportError:
                    raise refuse(422, "server.table.bot_unavailable", bot=spec["bot"]) from None
        if check_seats is not None:
            check_seats(seats)
        running = await self.wait(self.storage.tables.unfinished_of(client))
        if running >= self.settings.max_games_per_client:
            raise refuse(429, "server.table.too_many", n=self.settings.max_games_per_client)
        table_id = secrets.token_urlsafe(9)
        tokens: list[str | None] = []
        table_seats: list[Seat] = []
        for i, spec in enumerate(seats):
            if spec["kind"] == "human":
                token = new_token()
                tokens.append(token)
                table_seats.append(Seat(i, "human", spec.get("name"), None, hash_token(token)))
            else:
                tokens.append(None)
                table_seats.append(
                    Seat(i, "bot", spec.get("name") or spec["bot"], spec["bot"], None)
                )
        table_clock = None
        if clock_spec is not None:
            table_clock = Clock.fresh(clock_spec, len(table_seats))
            table_clock.apply(advance(table_clock, table_seats, state, 0, time.time()))
        await self.write(
            self.storage.tables.add(
                NewGame(
                    id=table_id,
                    game=state.game_name,
                    options=dict(state.options),
                    seed=seed,
                    over=state.is_over,
                    client=client,
                    at=time.time(),
                    seats=[
                        StoredSeat(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in table_seats
                    ],
                    clock=None if clock_spec is None else clock_spec.to_json(),
                    clocks=None if table_clock is None else table_clock.seats,
                    rated=rated,
                )
            )
        )
        table = Table(
            id=table_id,
            game=state.game_name,
            options=dict(state.options),
            seed=seed,
            version=0,
            state=state,
            seats=table_seats,
            clock=table_clock,
            rated=rated,
        )
        self.tables[table_id] = table
        self.events.publish(TableReady(table))
        return table, tokens

    # ------------------------------------------------------------------ claiming seats
    async def join(
        self, table: Table, name: str, wanted: int | None, token: str | None
    ) -> tuple[int, str]:
        """Claim an open human seat by name; with a seat's own invite token, name that seat
        (the invite is spent: a fresh seat credential replaces it)."""
        return await self.claim(table, token, name, wanted, None, named_ok=False)

    async def claim(
        self,
        table: Table,
        token: str | None,
        name: str | None,
        wanted: int | None,
        user_id: str | None,
        named_ok: bool = True,
        account: str | None = None,
    ) -> tuple[int, str]:
        """Take a seat for this browser (and account ``user_id``, named ``account``): with an
        invite token, that token's seat (named or not, when ``named_ok``), else an open seat.
        Answers (seat, fresh credential); the invite afterwards opens nothing and says so. A
        seat's own credential claims nothing new and comes back as it is (the holder opened its
        own link again).

        The claim is stored by a conditional UPDATE (the seat still has the credential and
        account it had when judged): of two claims of one invite, on any processes, one wins;
        the other catches up and is judged again, now against a spent invite."""
        for _ in range(3):
            async with table.lock:
                found = self.judge_claim(table, token, name, wanted, user_id, named_ok, account)
                if not isinstance(found, ClaimPlan):
                    return found
                target, new_name, keep, invite = found.target, found.name, found.keep, found.invite
                new = keep or new_token()
                digest = hash_token(new)
                owner = user_id if user_id is not None else target.user_id
                if table.rated and owner is None:  # a rated table's seats belong to accounts
                    raise refuse(403, "server.rated.guest_seat")
                now = time.time()
                started: Changes = {}
                if table.clock is not None:  # the clocks start once every seat has its player
                    before = target.name, target.token_hash
                    target.name, target.token_hash = new_name, digest
                    started = advance(table.clock, table.seats, table.state, table.version, now)
                    target.name, target.token_hash = before
                try:
                    await self.write(
                        self.storage.tables.claim_seat(
                            table.id,
                            target.seat,
                            new_name,
                            digest,
                            invite,
                            owner,
                            (target.token_hash, target.user_id),
                            target.open,
                            now,
                            self.storage.clocks.statements(table.id, started),
                        )
                    )
                except StorageConflict:  # another claim was stored first: look again
                    await self.catch_up(table)
                    continue
                target.name = new_name
                target.token_hash = digest
                target.invite_hash = invite
                target.claimed = True
                target.user_id = owner
                if table.clock is not None:
                    table.clock.apply(started)
                table.forget_texts()
            self.broadcast(table)
            return target.seat, new
        raise refuse(409, "server.seat.taken")

    @staticmethod
    def judge_claim(
        table: Table,
        token: str | None,
        name: str | None,
        wanted: int | None,
        user_id: str | None,
        named_ok: bool,
        account: str | None,
    ) -> tuple[int, str] | ClaimPlan:
        """A claim judged against the seats as this process has them: (seat, credential) when
        nothing is to be stored, else what to store; a refusal raises."""
        keep: str | None = None  # the seat's own credential, kept when it claims again
        if token is not None:
            digest = hash_token(token)
            if table.spent_invite(digest):
                raise refuse(409, "server.seat.invite_spent")
            seat = table.seat_of(token)
            assert seat is not None
            target = table.seats[seat]
            if not hmac.compare_digest(digest, target.token_hash or ""):
                return seat, token  # an account's device key: the seat is its own
            if target.user_id is not None and user_id not in (None, target.user_id):
                raise refuse(403, "server.seat.other_account")
            if target.claimed:
                if user_id is None or target.user_id == user_id:
                    return seat, token
                keep = token  # a guest's claimed seat joins the account now logged in
            if not named_ok and not target.open:
                raise refuse(409, "server.seat.taken")
            if table.over and target.open:
                raise refuse(409, "server.table.over")
            invite: str | None = target.invite_hash if keep else target.token_hash
        else:
            if table.over:
                raise refuse(409, "server.table.over")
            candidates = [s for s in table.seats if s.open]
            if wanted is not None:
                candidates = [s for s in candidates if s.seat == wanted]
            if not candidates:
                raise refuse(409, "server.table.no_open_seat")
            target = candidates[0]
            invite = target.token_hash  # the creator's link for it is spent as well
        others = [s for s in table.seats if s is not target]
        fresh = None if keep else seated_under(account, user_id, others)
        new_name = fresh or target.name or name
        if not new_name:
            raise refuse(422, "server.seat.needs_name")
        return ClaimPlan(target, new_name, keep, invite)

    async def accept_seat(
        self, table: Table, seat: int, user_id: str | None, extra: list[Statement]
    ) -> str:
        """Give a named seat without a credential (a rematch's) its credential, once (409 for
        the second time, on any process); the clocks start when it was the last. ``extra``:
        more statements of the same write. Answers the credential."""
        token = new_token()
        digest = hash_token(token)
        async with table.lock:
            target = table.seats[seat]
            if target.kind != "human" or target.token_hash is not None:
                raise refuse(409, "server.rematch.accepted", table=table.id)
            started: Changes = {}
            if table.clock is not None:  # the last to accept starts the clocks
                target.token_hash = digest
                started = advance(table.clock, table.seats, table.state, table.version, time.time())
                target.token_hash = None
            try:
                await self.write(
                    self.storage.tables.accept_seat(
                        table.id,
                        seat,
                        digest,
                        user_id,
                        [*self.storage.clocks.statements(table.id, started), *extra],
                    )
                )
            except StorageConflict:
                await self.catch_up(table)
                raise refuse(409, "server.rematch.accepted", table=table.id) from None
            target.token_hash = digest
            target.user_id = target.user_id or user_id
            if table.clock is not None:
                table.clock.apply(started)
            table.forget_texts()
        self.broadcast(table)
        return token

    async def add_key(self, table: Table, user_id: str, session_id: str) -> dict[int, str]:
        """A device key for each seat ``user_id`` holds at this table (logged in elsewhere)."""
        async with table.lock:
            seats = [s for s in table.seats if s.user_id == user_id]
            if not seats:
                raise refuse(403, "server.account.no_seat")
            out: dict[int, str] = {}
            for seat in seats:
                key = new_token()
                digest = hash_token(key)
                await self.write(
                    self.storage.tables.add_seat_key(
                        digest, table.id, seat.seat, session_id, time.time()
                    )
                )
                seat.keys[digest] = session_id
                out[seat.seat] = key
        return out

    def drop_sessions(self, session_ids: set[str]) -> None:
        """Sessions ended: their device keys open nothing any more (in this process)."""
        for table in self.tables.values():
            for seat in table.seats:
                for digest, sid in list(seat.keys.items()):
                    if sid in session_ids:
                        del seat.keys[digest]

    # ------------------------------------------------------------------ seats taken over
    async def take_over(self, table: Table, seat: int, status: str) -> bool:
        """Hand ``seat`` to the takeover bot for the rest of the game (``status``: TIMED_OUT or
        LEFT); the seat keeps its player's name and account. False if it was not this call
        that did it (another process did first, or there was nothing to do)."""
        now = time.time()
        clocks = self.storage.clocks
        async with table.lock:
            target = table.seats[seat]
            if table.over or target.kind != "human":
                return False
            if status == TIMED_OUT and (table.clock is None or not table.clock.ran_out(seat, now)):
                return False
            extra: list[Statement] = []
            if table.clock is not None:
                extra = (
                    clocks.timed_out(table.id, seat, now)
                    if status == TIMED_OUT
                    else clocks.stopped(table.id, seat)
                )
            try:
                await self.write(
                    self.storage.tables.take_over(table.id, seat, TAKEOVER_BOT, status, now, extra)
                )
            except StorageConflict:
                await self.catch_up(table)  # another process did it (or the game moved on)
                done = False
            else:
                target.kind, target.bot, target.status = "bot", TAKEOVER_BOT, status
                if table.clock is not None:
                    remaining = 0.0 if status == TIMED_OUT else table.clock.left(seat, now)
                    table.clock.seats[seat] = (remaining, None)
                table.forget_texts()
                done = True
        self.broadcast(table)
        if done:
            log.info("table %s: seat %d %s; %s plays it now", table.id, seat, status, TAKEOVER_BOT)
            self.events.publish(SeatTakenOver(table, seat, status))
        else:
            self.events.publish(TableReady(table))
        return done

    # ------------------------------------------------------------------ reading
    async def summary(
        self, table: Table, mine: list[int], last_move: float | None
    ) -> dict[str, Any]:
        """One line of "my games": whose turn, when the last move was made, the result."""
        async with table.lock:
            state = table.state
            to_act = list(state.to_act) if not state.is_over else []
            return {
                "id": table.id,
                "game": table.game,
                "options": table.options,
                "version": table.version,
                "seats": [s.info() for s in table.seats],
                "mine": mine,
                "to_act": to_act,
                "your_turn": any(seat in to_act for seat in mine),
                "over": state.is_over,
                "result": state.result() if state.is_over else None,
                "last_move_at": last_move,
            }

    async def lobby(self) -> list[dict[str, Any]]:
        found = await self.wait(self.storage.tables.open_tables(self.settings.lobby_limit))
        return [
            {
                "id": g.id,
                "game": g.game,
                "options": g.options,
                "seats": [
                    Seat(s.seat, s.kind, s.name, s.bot, None, s.user_id, status=s.status).info()
                    for s in g.seats
                ],
                "created_at": g.created_at,
            }
            for g in found
        ]

    async def history(self, table: Table) -> list[dict[str, Any]]:
        return await self.wait(self.storage.tables.history(table.id, table.version))

    async def public_log(self, table: Table) -> dict[str, Any]:
        """``GET …/log``: the public record of a table, enough to replay what everyone saw."""
        async with table.lock:
            history = await self.history(table)
            moves = table.state.log_json(None)
            over = table.over
            version = table.version
            result = table.state.result() if over else None
        initial: dict[str, Any] = glade.new_game(table.game, seed=table.seed, **table.options).view(
            None
        )
        return {
            "id": table.id,
            "game": table.game,
            "options": table.options,
            "version": version,
            "over": over,
            "initial_view": initial,
            "history": history,
            "moves": moves,
            "seats": [s.info() for s in table.seats],
            "seed": table.seed if over else None,
            "result": result,
        }

    async def past_view(self, table: Table, move: int) -> dict[str, Any]:
        """A finished table's public view after the first ``move`` moves of its public log.

        Moves are counted as in ``GET …/log`` ``moves`` (undone actions are not moves), so a
        replay page steps through exactly what the log lists.
        """
        if not table.over:
            raise refuse(403, "server.table.past_hidden")
        state = table.state
        if not 0 <= move <= len(state.log):
            raise refuse(422, "server.table.move_range", max=len(state.log))
        entries = list(state.log[:move])

        def build() -> dict[str, Any]:
            past = type(state).replay(state.seed, state.options, entries)
            return {"move": move, "to_act": list(past.to_act), "view": past.view(None)}

        found: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, build)
        return found

    # ------------------------------------------------------------------ acting
    async def act(
        self,
        table: Table,
        seat: int | None,
        raw: dict[str, Any],
        version: int | None,
        by_player: bool = False,
        origin: Origin | None = None,
    ) -> int:
        """Apply one action of ``seat`` (None: a spectator) based on ``version`` (None: any);
        ``by_player``: a person with the seat's token sent it (not the seat's bot). Returns the
        version the action made.

        Runs shielded: a caller that goes away mid-way (a dropped request, a stopping bot) never
        leaves a stored action that the table in memory does not have.
        """
        return await asyncio.shield(self.start_act(table, seat, raw, version, by_player, origin))

    def start_act(
        self,
        table: Table,
        seat: int | None,
        raw: dict[str, Any],
        version: int | None,
        by_player: bool = False,
        origin: Origin | None = None,
    ) -> asyncio.Task[int]:
        """:meth:`act` as a task of its own, for a caller that follows it by a callback (a
        socket's action); nothing cancels it. A spectator is refused at once."""
        if seat is None:
            raise refuse(403, "server.seat.spectator")
        coro = self.apply(table, seat, raw, version, by_player, origin)
        return asyncio.get_running_loop().create_task(coro)

    async def apply(
        self,
        table: Table,
        seat: int,
        raw: dict[str, Any],
        version: int | None,
        by_player: bool,
        origin: Origin | None = None,
    ) -> int:
        async with table.lock:
            if by_player and table.seats[seat].kind != "human":
                raise taken_over(table.seats[seat].status)
            if version is not None and version > table.version:
                await self.catch_up(table)  # the client saw a change this process has not yet
            if version is not None and version != table.version:
                raise refuse(409, "server.table.stale", version=table.version)
            state = table.state
            if state.is_over:
                raise ApiError.refused(CORE.illegal("game.over"), 403)
            try:
                action = Action.from_json(raw)
            except IllegalAction as exc:
                raise ApiError.refused(exc) from None
            if seat not in state.to_act and not (action.type == "undo" and state.can_undo(seat)):
                raise refuse(403, "server.seat.not_turn")
            human = table.seats[seat].kind == "human"
            if table.rated and human and not table.seats[seat].user_id:
                raise refuse(403, "server.rated.guest_seat")
            after = state.copy()
            try:
                after.apply(seat, action)
            except (IllegalAction, BadInput) as exc:
                raise ApiError.refused(exc) from None
            # any other exception is a bug of the engine: it reaches the app's 500 handler,
            # which logs it with its traceback; the table keeps the state from before
            now = time.time()
            new_version = table.version + 1
            extra: list[Statement] = []
            changes: Changes = {}
            if table.clock is not None:
                if human and table.clock.ran_out(seat, now):
                    self.events.publish(ClockRanOut(table, seat))
                    raise taken_over(TIMED_OUT)
                changes = advance(table.clock, table.seats, after, new_version, now)
                extra = self.storage.clocks.statements(
                    table.id, changes, seat if human else None, now
                )
            over = after.is_over
            snapshot = (
                dumps(after.to_json())
                if over or new_version % self.settings.snapshot_every == 0
                else None
            )
            try:
                await self.storing(
                    table,
                    new_version,
                    self.storage.tables.record_action(
                        table.id,
                        new_version,
                        seat,
                        orjson.dumps(action.to_json()).decode(),
                        over,
                        now,
                        snapshot,
                        extra,
                    ),
                )
            except StorageConflict:
                # another process stored this version first: catch up, and say so
                await self.catch_up(table)
                conflict = True
            else:
                before = state.log
                table.state = after
                table.version = new_version
                table.changed = time.monotonic()
                if table.clock is not None:
                    table.clock.apply(changes)
                conflict = False
                self.push_action(table, after, new_version, before, origin)
        if conflict:
            if by_player and table.seats[seat].kind != "human":
                raise taken_over(table.seats[seat].status)
            raise refuse(409, "server.table.stale", version=table.version)
        self.events.publish(ActionApplied(table, new_version, seat, by_player))
        if over:
            self.events.publish(GameOver(table))
        return new_version

    # ------------------------------------------------------------------ other processes
    def listen(self) -> None:
        """Hear the changes other processes commit to the same PostgreSQL (SQLite: nothing)."""
        loop = asyncio.get_running_loop()

        def heard(table_id: str, what: str) -> None:
            loop.call_soon_threadsafe(self.heard, table_id, what)

        def reconnected() -> None:
            loop.call_soon_threadsafe(self.heard_all)

        self.storage.listen(heard, reconnected)

    def heard(self, table_id: str, what: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.loading:  # being read now, maybe from before this change
                self.missed.add(table_id)
            return  # not in memory here: it is read fresh when asked for
        first, _, rest = what.partition(" ")
        if first.isdigit():
            version = int(first)
            if version <= table.version or version == table.writing:
                # this process stored it or is storing it (had another process stored it first,
                # the write fails and the action catches up), or caught up already
                return
            if rest and self.heard_action(table, version, rest):
                return
        elif first not in ("seats", "keys"):  # chat, rematch: for the features
            self.events.publish(Heard(table, first, what))
            return
        self.refresh(table)

    def heard_action(self, table: Table, version: int, told: str) -> bool:
        """Apply the action another process stored as ``version`` from its announcement
        (``<seat> <action JSON>``) and push it, with no read of storage; False (the table then
        catches up from storage): it is not the next version, the table is busy (acting,
        catching up), or it has a clock (its clocks are read with the action)."""
        busy = table.lock.locked() or (
            table.refresh_task is not None and not table.refresh_task.done()
        )
        if version != table.version + 1 or busy or table.clock is not None:
            return False
        seat_text, _, action_text = told.partition(" ")
        try:
            seat, action = int(seat_text), json.loads(action_text)
            after = table.state.copy()
            after.apply(seat, action)
        except Exception:  # noqa: BLE001 - storage holds the truth: read it from there
            log.exception("could not apply the announced version %d of table %s", version, table.id)
            return False
        before = table.state.log
        table.state, table.version = after, version
        table.changed = time.monotonic()
        self.push_action(table, after, version, before)
        return True

    def heard_all(self) -> None:
        for table in list(self.tables.values()):
            self.refresh(table)

    def refresh(self, table: Table) -> None:
        """Catch the table up with storage soon, then push; several calls make one read."""
        if table.refresh_task is not None and not table.refresh_task.done():
            table.refresh_again = True
            return
        table.refresh_task = asyncio.get_running_loop().create_task(self.refreshing(table))

    async def refreshing(self, table: Table) -> None:
        while True:
            table.refresh_again = False
            try:
                async with table.lock:
                    changed = await self.catch_up(table)
            except Exception:  # noqa: BLE001 - e.g. the database is away; the next change retries
                log.exception("could not catch up table %s", table.id)
                return
            if changed:
                log.debug("caught up table %s to version %d", table.id, table.version)
            if not table.refresh_again:
                return

    async def catch_up(self, table: Table) -> bool:
        """Apply what other processes stored after ``table.version`` (the caller holds the
        table's lock), and push each caught-up action on its own, in order (a seat change
        alone: one push)."""
        seats, actions = await self.wait(self.storage.tables.changes_since(table.id, table.version))
        changed = False
        for stored in seats:
            seat = table.seats[stored.seat]
            mine = (seat.name, seat.token_hash, seat.user_id, seat.invite_hash, seat.claimed)
            theirs = (
                stored.name,
                stored.token_hash,
                stored.user_id,
                stored.invite_hash,
                stored.claimed,
            )
            if mine != theirs:
                seat.name, seat.token_hash = stored.name, stored.token_hash
                seat.user_id, seat.invite_hash = stored.user_id, stored.invite_hash
                seat.claimed = stored.claimed
                changed = True
            now = (stored.kind, stored.bot, stored.status)
            if (seat.kind, seat.bot, seat.status) != now:
                seat.kind, seat.bot, seat.status = now
                changed = True
            if seat.keys != stored.keys:
                seat.keys = dict(stored.keys)  # device keys: no one's picture changes
        if table.clock is not None:
            found = await self.wait(self.storage.tables.clocks_of(table.id))
            if found != table.clock.seats:
                table.clock.seats = found
                changed = True
        if changed:
            table.forget_texts()
        steps: list[tuple[Game, int, list[Any]]] = []
        if actions:
            state = table.state.copy()
            version = table.version
            # one push per action; past a queue's worth the clients are told to re-read instead
            pushing = bool(table.sockets) and len(actions) <= PUSH_QUEUE
            for number, seat_no, action in actions:
                if number != version + 1:
                    break
                if steps:  # the previous step's state stays as it was, for its push
                    state = state.copy()
                before = list(state.log) if pushing else []
                state.apply(seat_no, action)
                version = number
                if pushing:
                    steps.append((state, version, before))
            if version != table.version:
                table.state, table.version = state, version
                table.changed = time.monotonic()
                changed = True
                if not pushing:
                    for conn in list(table.sockets):
                        conn.offer(RESYNC)
        if not steps:
            if changed:
                self.broadcast(table)
            return changed
        for step, version, before in steps:
            self.push_action(table, step, version, before)
        return True

    # ------------------------------------------------------------------ pushing
    def subscribe(self, table: Table, conn: Connection) -> None:
        """Add a connection; its first push is its seat's picture now (an empty log delta)."""
        table.sockets.add(conn)
        conn.offer(push_text(table.text(conn.seat), table.version, len(table.state.log), []))
        clock = table.clock_text()
        if clock is not None:
            conn.say(clock)

    def unsubscribe(self, table: Table, conn: Connection) -> None:
        conn.closed = True
        conn.ready.set()
        table.sockets.discard(conn)

    def broadcast(self, table: Table) -> None:
        """Give every connection of the table its seat's picture as it is now (no new log
        entries: a seat was named, or a client reconnected)."""
        start = len(table.state.log)
        for conn in list(table.sockets):
            conn.offer(push_text(table.text(conn.seat), table.version, start, []))
        clock = table.clock_text()
        if clock is not None:
            self.say(table, clock)

    def say(self, table: Table, text: str) -> None:
        """Queue a message that is not a state (chat, clock, rematch) to every connection."""
        for conn in list(table.sockets):
            conn.say(text)

    def push_action(
        self,
        table: Table,
        state: Game,
        version: int,
        before: list[Any],
        origin: Origin | None = None,
    ) -> None:
        """Push the action that made ``version`` (``state`` after it; ``before``: the log before
        it) to every connection: the log entries it changed and each seat's picture then; the
        connection the action came on (``origin``) gets ``"acted": ref`` in front of its push."""
        if not table.sockets:
            return
        start = common_prefix(before, state.log)
        entries = public_entries(state, start, version)
        current = version == table.version and state is table.state
        seats = {conn.seat for conn in table.sockets}
        views: dict[int | None, dict[str, Any]] = {}
        if current:
            table.prepare_texts(seats)
        else:
            views = state.views(seats)
        texts: dict[int | None, str] = {}
        for conn in list(table.sockets):
            text = texts.get(conn.seat)
            if text is None:
                picture = (
                    table.text(conn.seat)
                    if current
                    else dumps(
                        table.picture(conn.seat, state, version, views[conn.seat], encoded=True)
                    )
                )
                text = texts[conn.seat] = push_text(picture, version - 1, start, entries)
            if origin is not None and conn is origin.conn:
                conn.offer(f'{{"acted":{dumps(origin.ref)},{text[1:]}')
                origin.told = True
            else:
                conn.offer(text)
        if current:
            clock = table.clock_text()
            if clock is not None:
                self.say(table, clock)
