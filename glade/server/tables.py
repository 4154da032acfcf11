"""Live tables: each game in memory behind its own lock, written to storage before any answer.

A table (``Room``) holds the engine state, the seats and the open WebSockets. Every change goes
through :meth:`Tables.act`: check the version and the seat, apply the action to a copy of the state,
store it (one transaction), and only then make the copy the table's state, answer, push each
connection its own view and let the bot seats move.

Pushes: every accepted action (a seat's, a bot's, or one caught up from storage) is one push to
every connection of the table, in order: ``{"type": "state", "log_base", "log_from", "log", ...the
seat's picture}``. ``log`` holds the public log entries from index ``log_from`` on, each with its
``move`` (1-based index) and the ``version`` of the push; a client whose log is at version
``log_base`` drops its entries from ``log_from`` on and appends these (an undo takes an entry out,
so ``log_from`` may be below the client's length). Each connection's pushes wait in a bounded
queue; past the bound the queue is replaced by ``{"type": "resync"}`` and the client re-reads.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

import glade
from glade.bots import make_bot
from glade.core import Action, BadInput, Game, IllegalAction
from glade.core.game import UNDO
from glade.core.refusals import CORE

from . import clocks, social
from .botrunner import BotRunner, bot_seats
from .config import Settings
from .errors import ApiError
from .refusals import refuse
from .storage import NewGame, Storage, StorageConflict, StorageError, StoredGame, StoredSeat

log = logging.getLogger("glade.server")

T = TypeVar("T")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]+")  # secrets.token_urlsafe

__all__ = ["ApiError", "Connection", "Origin", "Room", "Seat", "Tables"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot"
    name: str | None
    bot: str | None
    token_hash: str | None
    user_id: str | None = None  # the account holding this seat (None: a guest or a bot)
    invite_hash: str | None = None  # the hash of its invite token once that was claimed
    claimed: bool = False  # the invite was exchanged for a seat credential
    keys: dict[str, str] = field(default_factory=dict)  # account device key hash -> session id
    status: str | None = None  # "timed out" or "left": a bot plays the seat now

    @property
    def open(self) -> bool:
        return self.kind == "human" and not self.name

    def info(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "open": self.open,
            "user_id": self.user_id,  # an account's public id, never a credential
            "status": self.status,
        }


PUSH_QUEUE = 256  # pushes a connection may have waiting before it is told to re-read
RESYNC = '{"type": "resync"}'


class Connection:
    """One WebSocket: its pushes (states, and chat, clock and rematch messages) are sent in
    order, none dropped; when more than ``limit`` wait (the client does not read), they are
    replaced by one ``{"type": "resync"}``."""

    def __init__(
        self,
        send: Callable[[str], Any],
        seat: int | None,
        limit: int = PUSH_QUEUE,
        send_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.send = send
        # writes a message at once when the socket is idle and writable (False: it did not)
        self.send_now = send_now
        self.seat = seat
        self.limit = max(1, limit)
        self.queue: deque[str] = deque()
        self.ready = asyncio.Event()
        self.closed = False
        self.sending = False  # the pump is sending a message
        self.resyncs = 0  # how many times the queue overflowed

    def offer(self, text: str) -> None:
        if (
            self.send_now is not None
            and not self.queue
            and not self.sending
            and not self.closed
            and self.send_now(text)
        ):
            return  # nothing was waiting: written now, in order
        if len(self.queue) >= self.limit:
            self.queue.clear()
            self.queue.append(RESYNC)
            self.resyncs += 1
        else:
            self.queue.append(text)
        self.ready.set()

    def say(self, text: str) -> None:
        """Queue a message that is not a state (chat, clock, rematch), in order with the rest."""
        self.offer(text)

    async def pump(self) -> None:
        """Send pushes, oldest first, until the connection closes."""
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            while self.queue and not self.closed:
                self.sending = True
                try:
                    await self.send(self.queue.popleft())
                finally:
                    self.sending = False


@dataclass
class Origin:
    """The connection an action came on (``{"type": "action"}`` on a WebSocket) and its ref:
    that connection's push of the new state carries ``"acted": ref`` in front (its answer)."""

    conn: Connection
    ref: int | None
    told: bool = False  # the push with "acted" was queued


def _common_prefix(old: list[Any], new: list[Any]) -> int:
    """How many first entries two logs share."""
    n = min(len(old), len(new))
    if old[:n] == new[:n]:
        return n
    i = 0
    while i < n and old[i] == new[i]:
        i += 1
    return i


def public_entries(state: Game, start: int, version: int) -> list[dict[str, Any]]:
    """The public log entries of ``state`` from index ``start`` on (as ``GET …/log`` ``moves``),
    each with its ``move`` number and the ``version`` of the push that carries it."""
    table = state.action_table()
    out = []
    for i in range(start, len(state.log)):
        entry = state.log[i]
        item: dict[str, Any] = {
            "move": i + 1,
            "version": version,
            "seat": entry[0],
            "action": table[entry[1]].to_json(),
        }
        chance = state.describe_chance(entry, None)
        if chance is not None:
            item["chance"] = chance
        out.append(item)
    return out


def dumps(value: Any) -> str:
    """JSON text of a picture, a push or a snapshot (orjson: a fraction of ``json.dumps``'s
    CPU; the standard encoder for anything orjson does not take, e.g. an integer past 64 bits).
    ``value`` may hold :func:`encoded_legal` fragments (JSON encoded once)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, default=_unfragment)


def _unfragment(value: Any) -> Any:
    if isinstance(value, orjson.Fragment):
        return orjson.loads(value.contents)
    raise TypeError(f"{type(value).__name__} is not JSON")


# each engine action table (shared and immutable, one per game configuration; by id) -> the JSON
# text of each of its actions, encoded once for the life of the process
_TABLE_JSON: dict[int, tuple[list[Action], list[bytes]]] = {}
_TABLE_JSON_LIMIT = 256
_UNDO_JSON = orjson.dumps(UNDO.to_json())


def _action_texts(table: list[Action]) -> list[bytes]:
    """The JSON text of every action of an engine's action table, index by index."""
    found = _TABLE_JSON.get(id(table))
    if found is None or found[0] is not table:
        if len(_TABLE_JSON) >= _TABLE_JSON_LIMIT:  # an engine that makes new tables each time
            _TABLE_JSON.clear()
        found = _TABLE_JSON[id(table)] = (table, [orjson.dumps(a.to_json()) for a in table])
    return found[1]


def encoded_legal(state: Game, seat: int) -> orjson.Fragment:
    """``[a.to_json() for a in state.legal_actions(seat)]`` for :func:`dumps` as one JSON
    fragment, joined from the texts of the game's action table (``Game.legal_moves``)."""
    ids, undo = state.legal_moves(seat)
    texts = _action_texts(state.action_table())
    parts = [texts[i] for i in ids]
    if undo:
        parts.append(_UNDO_JSON)
    return orjson.Fragment(b"[" + b",".join(parts) + b"]")


def push_text(picture: str, base: int, start: int, entries: list[dict[str, Any]]) -> str:
    """A state push: the picture's JSON text with the push's type and its log delta in front."""
    head = dumps({"type": "state", "log_base": base, "log_from": start, "log": entries})
    return f"{head[:-1]},{picture[1:]}"


@dataclass
class Room:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    version: int
    state: Game
    seats: list[Seat]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    touched: float = field(default_factory=time.monotonic)
    changed: float = field(default_factory=time.monotonic)  # when the version last moved
    refresh_task: asyncio.Task[None] | None = None
    refresh_again: bool = False
    # the version this process is storing now (its announcement, heard back, is its own)
    writing: int | None = None
    clock: clocks.Clock | None = None  # None: the table has no clock
    rated: bool = False  # a rated table: its end updates the players' ratings (ratings.py)
    # JSON text of each seat's picture at ``_texts_version`` (GET, POST and pushes share it)
    _texts: dict[int | None, str] = field(default_factory=dict)
    _texts_version: int = -1

    def text(self, seat: int | None) -> str:
        """``picture(seat)`` as JSON text, computed once per version and seat."""
        if self._texts_version != self.version:
            self._texts = {}
            self._texts_version = self.version
        found = self._texts.get(seat)
        if found is None:
            found = self._texts[seat] = dumps(self.picture(seat, encoded=True))
        return found

    def prepare_texts(self, seats: set[int | None]) -> None:
        """Compute the texts of several seats now, their views at once (``Game.views``: the
        public part is built once for all of them)."""
        if self._texts_version != self.version:
            self._texts = {}
            self._texts_version = self.version
        missing = [seat for seat in seats if seat not in self._texts]
        if len(missing) > 1:
            views = self.state.views(missing)
            for seat in missing:
                self._texts[seat] = dumps(self.picture(seat, view=views[seat], encoded=True))

    def forget_texts(self) -> None:
        """Seats changed without a new version (someone joined)."""
        self._texts = {}

    @property
    def idle(self) -> bool:
        """Nobody is connected, acting or thinking here: memory may let it go."""
        busy = self.bot_task is not None and not self.bot_task.done()
        catching_up = self.refresh_task is not None and not self.refresh_task.done()
        return not self.sockets and not busy and not catching_up and not self.lock.locked()

    @property
    def over(self) -> bool:
        return self.state.is_over

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None: spectator); 403 for a token of no seat here.

        Every seat's hash is compared, in constant time, whatever matches first.
        """
        if token is None:
            return None
        digest = hash_token(token)
        found: int | None = None
        for seat in self.seats:
            if hmac.compare_digest(digest, seat.token_hash or "") and seat.token_hash:
                found = seat.seat
        if found is None:
            for seat in self.seats:  # a device key of the account holding the seat
                if digest in seat.keys:
                    found = seat.seat
        if found is None:
            if self.spent_invite(digest):
                raise refuse(403, "server.seat.invite_spent")
            raise refuse(403, "server.seat.no_seat")
        return found

    def spent_invite(self, digest: str) -> bool:
        """Whether ``digest`` is the hash of an invite token that was already claimed."""
        spent = False
        for seat in self.seats:
            if seat.invite_hash and hmac.compare_digest(digest, seat.invite_hash):
                spent = True
        return spent

    def picture(
        self,
        seat: int | None,
        state: Game | None = None,
        version: int | None = None,
        view: dict[str, Any] | None = None,
        encoded: bool = False,
    ) -> dict[str, Any]:
        """What ``seat`` sees now (GET answer, POST answer and WebSocket push alike); with
        ``state`` and ``version``: what it saw then (a push of a caught-up action); ``view``:
        ``state.view(seat)`` when it is already built; ``encoded``: the legal actions as
        :func:`encoded_legal` (for :func:`dumps` only)."""
        state = self.state if state is None else state
        over = state.is_over
        legal: Any = []
        if seat is not None and self.seats[seat].kind == "human":
            if encoded:
                legal = encoded_legal(state, seat)
            else:
                legal = [a.to_json() for a in state.legal_actions(seat)]
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "version": self.version if version is None else version,
            "seat": seat,
            "to_act": list(state.to_act),
            "over": over,
            "view": state.view(seat) if view is None else view,
            # a seat a bot took over (timed out, left) has no move of its player's any more
            "legal_actions": legal,
            "seats": [s.info() for s in self.seats],
            "result": state.result() if over else None,
        }


def _rebuild(stored: StoredGame) -> Game:
    """The game state from its last snapshot plus the actions stored after it."""
    if stored.snapshot is not None:
        state = glade.load_game(stored.snapshot)
    else:
        state = glade.new_game(stored.game, seed=stored.seed, **stored.options)
    for _version, seat, action in stored.actions:
        state.apply(seat, action)
    return state


class Tables:
    """Every table this server hosts, loaded from storage on first use."""

    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        # games being loaded when another process announced a change: caught up once loaded
        self._missed: set[str] = set()
        self.bots = BotRunner(settings, self.act)
        self.clocks = clocks.ClockKeeper(self)
        # what other processes announce besides versions and seats ("chat", "rematch")
        self.heard_hooks: dict[str, Callable[[Room, str], None]] = {}
        self.social = social.Social(self)
        # called (on the event loop) after this process stored the action that ended a game
        self.game_over_hooks: list[Callable[[Room], None]] = []

    # ------------------------------------------------------------------ storage helpers
    @staticmethod
    async def _wait(future: Future[T]) -> T:
        return await asyncio.wrap_future(future)

    async def _storing(self, room: Room, version: int, write: asyncio.Future[None]) -> None:
        """Wait for ``write``, the storing of ``version`` of ``room``, as :meth:`_write_or_503`;
        meanwhile ``room.writing`` is that version (its announcement, heard back, is this
        process's own)."""
        room.writing = version
        try:
            await self._write_or_503(write)
        finally:
            room.writing = None

    async def _write_or_503(self, future: Future[None] | asyncio.Future[None]) -> None:
        try:
            await asyncio.wrap_future(future)
        except StorageConflict:
            raise
        except StorageError as exc:
            log.error("write failed: %s", exc)
            raise refuse(503, "server.table.unsaved") from None

    # ------------------------------------------------------------------ loading
    async def get(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is not None:
            room.touched = time.monotonic()
            return room
        if len(game_id) > 64 or not _GAME_ID.fullmatch(game_id):
            raise refuse(404, "server.table.not_found")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                stored = await self._wait(self.storage.load_game(game_id))
                loaded = None if stored is None else self._room_from(stored)
                if loaded is not None:
                    self.rooms[game_id] = loaded
                    if game_id in self._missed:  # the read may predate that change
                        self.refresh(loaded)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
                self._missed.discard(game_id)
        found = await asyncio.shield(pending)
        if found is None:
            raise refuse(404, "server.table.not_found")
        return found

    def _room_from(self, stored: StoredGame) -> Room:
        state = _rebuild(stored)
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
            clock = clocks.Clock(
                clocks.ClockSpec.from_json(stored.clock), list(stored.clocks or [])
            )
        return Room(
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
        gone = [gid for gid, r in self.rooms.items() if r.idle and r.touched < cutoff]
        for gid in gone:
            del self.rooms[gid]
        return len(gone)

    async def resume(self) -> int:
        """After a start: load unfinished games with bot seats and let their bots move."""
        ids = await self._wait(self.storage.unfinished_games_with_bots())
        for game_id in ids:
            self.bots.schedule(await self.get(game_id))
        self.clocks.start()  # its first sweep times out the seats that fell due meanwhile
        return len(ids)

    # ------------------------------------------------------------------ creating and joining
    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        client: str,
        clock: dict[str, Any] | None = None,
        rated: bool = False,
    ) -> tuple[Room, list[str | None]]:
        clock_spec = clocks.clock_option(clock, self.settings.clock_min_seconds)
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
        if rated:
            from .ratings import check_rated_seats

            check_rated_seats(seats)
        running = await self._wait(self.storage.unfinished_games_of(client))
        if running >= self.settings.max_games_per_client:
            raise refuse(429, "server.table.too_many", n=self.settings.max_games_per_client)
        game_id = secrets.token_urlsafe(9)
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
            table_clock = clocks.Clock.fresh(clock_spec, len(table_seats))
            clocks.apply(table_clock, clocks.advance(table_clock, table_seats, state, time.time()))
        await self._write_or_503(
            self.storage.add_game(
                NewGame(
                    id=game_id,
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
        room = Room(
            id=game_id,
            game=state.game_name,
            options=dict(state.options),
            seed=seed,
            version=0,
            state=state,
            seats=table_seats,
            clock=table_clock,
            rated=rated,
        )
        self.rooms[game_id] = room
        self.bots.schedule(room)
        return room, tokens

    async def join(
        self, room: Room, name: str, wanted: int | None, token: str | None
    ) -> tuple[int, str]:
        """Claim an open human seat by name; with a seat's own invite token, name that seat
        (the invite is spent: a fresh seat credential replaces it)."""
        return await self.claim(room, token, name, wanted, None, named_ok=False)

    # ------------------------------------------------------------------ claiming (accounts)
    async def claim(
        self,
        room: Room,
        token: str | None,
        name: str | None,
        wanted: int | None,
        user_id: str | None,
        named_ok: bool = True,
    ) -> tuple[int, str]:
        """Take a seat for this browser (and account): with an invite token, that token's seat
        (named or not, when ``named_ok``), else an open seat. Answers (seat, fresh credential);
        the invite afterwards opens nothing and says so. A seat's own credential claims nothing
        new and comes back as it is (the holder opened its own link again)."""
        async with room.lock:
            keep: str | None = None  # the seat's own credential, kept when it claims again
            if token is not None:
                digest = hash_token(token)
                if room.spent_invite(digest):
                    raise refuse(409, "server.seat.invite_spent")
                seat = room.seat_of(token)
                assert seat is not None
                target = room.seats[seat]
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
                if room.over and target.open:
                    raise refuse(409, "server.table.over")
                invite: str | None = target.invite_hash if keep else target.token_hash
            else:
                if room.over:
                    raise refuse(409, "server.table.over")
                candidates = [s for s in room.seats if s.open]
                if wanted is not None:
                    candidates = [s for s in candidates if s.seat == wanted]
                if not candidates:
                    raise refuse(409, "server.table.no_open_seat")
                target = candidates[0]
                invite = target.token_hash  # the creator's link for it is spent as well
            new_name = target.name or name
            if not new_name:
                raise refuse(422, "server.seat.needs_name")
            new = keep or new_token()
            digest = hash_token(new)
            owner = user_id if user_id is not None else target.user_id
            if room.rated and owner is None:  # a rated table's seats belong to accounts
                from .ratings import require_account

                require_account(owner)
            open_after = sum(s.open for s in room.seats) - (1 if target.open else 0)
            now = time.time()
            started: dict[int, tuple[float, float | None]] = {}
            if room.clock is not None:  # the clocks start once every seat has its player
                before = target.name, target.token_hash
                target.name, target.token_hash = new_name, digest
                started = clocks.advance(room.clock, room.seats, room.state, now)
                target.name, target.token_hash = before
            await self._write_or_503(
                self.storage.claim_seat(
                    room.id,
                    target.seat,
                    new_name,
                    digest,
                    invite,
                    owner,
                    open_after,
                    now,
                    self.storage.clock_statements(room.id, started),
                )
            )
            target.name = new_name
            target.token_hash = digest
            target.invite_hash = invite
            target.claimed = True
            target.user_id = owner
            if room.clock is not None:
                clocks.apply(room.clock, started)
            room.forget_texts()
        self.broadcast(room)
        return target.seat, new

    async def add_key(self, room: Room, user_id: str, session_id: str) -> dict[int, str]:
        """A device key for each seat ``user_id`` holds at this table (logged in elsewhere)."""
        async with room.lock:
            seats = [s for s in room.seats if s.user_id == user_id]
            if not seats:
                raise refuse(403, "server.account.no_seat")
            out: dict[int, str] = {}
            for seat in seats:
                key = new_token()
                digest = hash_token(key)
                await self._write_or_503(
                    self.storage.add_seat_key(digest, room.id, seat.seat, session_id, time.time())
                )
                seat.keys[digest] = session_id
                out[seat.seat] = key
        return out

    def drop_sessions(self, session_ids: set[str]) -> None:
        """Sessions ended: their device keys open nothing any more (in this process)."""
        for room in self.rooms.values():
            for seat in room.seats:
                for digest, sid in list(seat.keys.items()):
                    if sid in session_ids:
                        del seat.keys[digest]

    async def summary(self, room: Room, mine: list[int], last_move: float | None) -> dict[str, Any]:
        """One line of "my games": whose turn, when the last move was made, the result."""
        async with room.lock:
            state = room.state
            to_act = list(state.to_act) if not state.is_over else []
            return {
                "id": room.id,
                "game": room.game,
                "options": room.options,
                "version": room.version,
                "seats": [s.info() for s in room.seats],
                "mine": mine,
                "to_act": to_act,
                "your_turn": any(seat in to_act for seat in mine),
                "over": state.is_over,
                "result": state.result() if state.is_over else None,
                "last_move_at": last_move,
            }

    async def lobby(self) -> list[dict[str, Any]]:
        found = await self._wait(self.storage.open_games(self.settings.lobby_limit))
        return [
            {
                "id": g.id,
                "game": g.game,
                "options": g.options,
                "seats": [
                    Seat(s.seat, s.kind, s.name, s.bot, None, s.user_id).info() for s in g.seats
                ],
                "created_at": g.created_at,
            }
            for g in found
        ]

    async def history(self, room: Room) -> list[dict[str, Any]]:
        return await self._wait(self.storage.history(room.id, room.version))

    # ------------------------------------------------------------------ hints and the past
    async def hint(self, room: Room, seat: int, client: str) -> tuple[int, list[dict[str, Any]]]:
        """The search bot's best moves for ``seat`` now (see :class:`BotRunner`)."""
        return await self.bots.hint(room, seat, client)

    async def past_view(self, room: Room, move: int) -> dict[str, Any]:
        """A finished game's public view after the first ``move`` moves of its public log.

        Moves are counted as in ``GET …/log`` ``moves`` (undone actions are not moves), so a
        replay page steps through exactly what the log lists.
        """
        if not room.over:
            raise refuse(403, "server.table.past_hidden")
        state = room.state
        if not 0 <= move <= len(state.log):
            raise refuse(422, "server.table.move_range", max=len(state.log))
        entries = list(state.log[:move])

        def rebuild() -> dict[str, Any]:
            past = type(state).replay(state.seed, state.options, entries)
            return {"move": move, "to_act": list(past.to_act), "view": past.view(None)}

        found: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, rebuild)
        return found

    # ------------------------------------------------------------------ acting
    async def act(
        self,
        room: Room,
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
        return await asyncio.shield(self.start_act(room, seat, raw, version, by_player, origin))

    def start_act(
        self,
        room: Room,
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
        coro = self._act(room, seat, raw, version, by_player, origin)
        return asyncio.get_running_loop().create_task(coro)

    async def _act(
        self,
        room: Room,
        seat: int,
        raw: dict[str, Any],
        version: int | None,
        by_player: bool,
        origin: Origin | None = None,
    ) -> int:
        async with room.lock:
            if by_player and room.seats[seat].kind != "human":
                raise _taken_over(room.seats[seat].status)
            if version is not None and version > room.version:
                await self._catch_up(room)  # the client saw a change this process has not yet
            if version is not None and version != room.version:
                raise refuse(409, "server.table.stale", version=room.version)
            state = room.state
            if state.is_over:
                raise ApiError.refused(CORE.illegal("game.over"), 403)
            try:
                action = Action.from_json(raw)
            except IllegalAction as exc:
                raise ApiError.refused(exc) from None
            if seat not in state.to_act and not (action.type == "undo" and state.can_undo(seat)):
                raise refuse(403, "server.seat.not_turn")
            if room.rated and room.seats[seat].kind == "human":
                from .ratings import require_account

                require_account(room.seats[seat].user_id)
            after = state.copy()
            try:
                after.apply(seat, action)
            except (IllegalAction, BadInput) as exc:
                raise ApiError.refused(exc) from None
            # any other exception is a bug of the engine: it reaches the app's 500 handler,
            # which logs it with its traceback; the table keeps the state from before
            now = time.time()
            extra: list[Any] = []
            changes: dict[int, tuple[float, float | None]] = {}
            if room.clock is not None:
                human = room.seats[seat].kind == "human"
                if human and room.clock.ran_out(seat, now):
                    self.clocks.start_sweep()
                    raise _taken_over("timed out")
                changes = clocks.advance(room.clock, room.seats, after, now)
                extra = self.storage.clock_statements(
                    room.id, changes, seat if human else None, now
                )
            new_version = room.version + 1
            over = after.is_over
            snapshot = (
                dumps(after.to_json())
                if over or new_version % self.settings.snapshot_every == 0
                else None
            )
            try:
                await self._storing(
                    room,
                    new_version,
                    self.storage.record_action(
                        room.id,
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
                await self._catch_up(room)
                conflict = True
            else:
                before = state.log
                room.state = after
                room.version = new_version
                room.changed = time.monotonic()
                if room.clock is not None:
                    clocks.apply(room.clock, changes)
                conflict = False
                self._push_action(room, after, new_version, before, origin)
        if conflict:
            if by_player and room.seats[seat].kind != "human":
                raise _taken_over(room.seats[seat].status)
            raise refuse(409, "server.table.stale", version=room.version)
        if over:
            for hook in self.game_over_hooks:
                hook(room)
        self.bots.schedule(room)
        return new_version

    # ------------------------------------------------------------------ other processes
    def listen(self) -> None:
        """Hear the changes other processes commit to the same PostgreSQL (SQLite: nothing)."""
        loop = asyncio.get_running_loop()

        def heard(game_id: str, what: str) -> None:
            loop.call_soon_threadsafe(self._heard, game_id, what)

        def reconnected() -> None:
            loop.call_soon_threadsafe(self._heard_all)

        self.storage.listen(heard, reconnected)

    def _heard(self, game_id: str, what: str) -> None:
        room = self.rooms.get(game_id)
        if room is None:
            if game_id in self._loading:  # being read now, maybe from before this change
                self._missed.add(game_id)
            return  # not in memory here: it is read fresh when asked for
        first, _, rest = what.partition(" ")
        if first.isdigit():
            version = int(first)
            if version <= room.version or version == room.writing:
                # this process stored it or is storing it (had another process stored it first,
                # the write fails and the action catches up), or caught up already
                return
            if rest and self._heard_action(room, version, rest):
                return
        hook = self.heard_hooks.get(first)
        if hook is not None:
            hook(room, what)
            return
        self.refresh(room)

    def _heard_action(self, room: Room, version: int, told: str) -> bool:
        """Apply the action another process stored as ``version`` from its announcement
        (``<seat> <action JSON>``) and push it, with no read of storage; False (the table then
        catches up from storage): it is not the next version, the table is busy (acting,
        catching up), or it has a clock (its clocks are read with the action)."""
        busy = room.lock.locked() or (
            room.refresh_task is not None and not room.refresh_task.done()
        )
        if version != room.version + 1 or busy or room.clock is not None:
            return False
        seat_text, _, action_text = told.partition(" ")
        try:
            seat, action = int(seat_text), json.loads(action_text)
            after = room.state.copy()
            after.apply(seat, action)
        except Exception:  # noqa: BLE001 - storage holds the truth: read it from there
            log.exception("could not apply the announced version %d of game %s", version, room.id)
            return False
        before = room.state.log
        room.state, room.version = after, version
        room.changed = time.monotonic()
        self._push_action(room, after, version, before)
        return True

    def _heard_all(self) -> None:
        for room in list(self.rooms.values()):
            self.refresh(room)

    def refresh(self, room: Room) -> None:
        """Catch the table up with storage soon, then push; several calls make one read."""
        if room.refresh_task is not None and not room.refresh_task.done():
            room.refresh_again = True
            return
        room.refresh_task = asyncio.get_running_loop().create_task(self._refresh(room))

    async def _refresh(self, room: Room) -> None:
        while True:
            room.refresh_again = False
            try:
                async with room.lock:
                    changed = await self._catch_up(room)
            except Exception:  # noqa: BLE001 - e.g. the database is away; the next change retries
                log.exception("could not catch up game %s", room.id)
                return
            if changed:
                log.debug("caught up game %s to version %d", room.id, room.version)
            if not room.refresh_again:
                return

    async def _catch_up(self, room: Room) -> bool:
        """Apply what other processes stored after ``room.version`` (the lock is held), and push
        each caught-up action on its own, in order (a seat change alone: one push)."""
        seats, actions = await self._wait(self.storage.changes_since(room.id, room.version))
        changed = False
        for stored in seats:
            seat = room.seats[stored.seat]
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
        if room.clock is not None:
            found = await self._wait(self.storage.clocks_of(room.id))
            if found != room.clock.seats:
                room.clock.seats = found
                changed = True
        if changed:
            room.forget_texts()
        steps: list[tuple[Game, int, list[Any]]] = []
        if actions:
            state = room.state.copy()
            version = room.version
            # one push per action; past a queue's worth the clients are told to re-read instead
            pushing = bool(room.sockets) and len(actions) <= PUSH_QUEUE
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
            if version != room.version:
                room.state, room.version = state, version
                room.changed = time.monotonic()
                changed = True
                if not pushing:
                    for conn in list(room.sockets):
                        conn.offer(RESYNC)
        if not steps:
            if changed:
                self.broadcast(room)
            return changed
        for step, version, before in steps:
            self._push_action(room, step, version, before)
        return True

    def stalled_bots(self, older_than: float) -> int:
        """Start the bots of tables whose bot has been due for ``older_than`` seconds with no
        process playing it (the process that would have was killed); returns how many."""
        cutoff = time.monotonic() - older_than
        started = 0
        for room in list(self.rooms.values()):
            busy = room.bot_task is not None and not room.bot_task.done()
            if busy or room.over or room.changed > cutoff:
                continue
            if bot_seats(room):
                self.bots.schedule(room)
                started += 1
        return started

    # ------------------------------------------------------------------ pushing
    def subscribe(self, room: Room, conn: Connection) -> None:
        """Add a connection; its first push is its seat's picture now (an empty log delta)."""
        room.sockets.add(conn)
        conn.offer(push_text(room.text(conn.seat), room.version, len(room.state.log), []))
        if room.clock is not None:
            conn.say(clocks.clock_message(room) or "")

    def unsubscribe(self, room: Room, conn: Connection) -> None:
        conn.closed = True
        conn.ready.set()
        room.sockets.discard(conn)

    def broadcast(self, room: Room) -> None:
        """Give every connection of the table its seat's picture as it is now (no new log
        entries: a seat was named, or a client reconnected)."""
        start = len(room.state.log)
        for conn in list(room.sockets):
            conn.offer(push_text(room.text(conn.seat), room.version, start, []))
        if room.clock is not None:
            self.say(room, clocks.clock_message(room) or "")

    def say(self, room: Room, text: str) -> None:
        """Queue a message that is not a state (chat, clock, rematch) to every connection."""
        for conn in list(room.sockets):
            conn.say(text)

    def _push_action(
        self,
        room: Room,
        state: Game,
        version: int,
        before: list[Any],
        origin: Origin | None = None,
    ) -> None:
        """Push the action that made ``version`` (``state`` after it; ``before``: the log before
        it) to every connection: the log entries it changed and each seat's picture then; the
        connection the action came on (``origin``) gets ``"acted": ref`` in front of its push."""
        if not room.sockets:
            return
        start = _common_prefix(before, state.log)
        entries = public_entries(state, start, version)
        current = version == room.version and state is room.state
        seats = {conn.seat for conn in room.sockets}
        views: dict[int | None, dict[str, Any]] = {}
        if current:
            room.prepare_texts(seats)
        else:
            views = state.views(seats)
        texts: dict[int | None, str] = {}
        for conn in list(room.sockets):
            text = texts.get(conn.seat)
            if text is None:
                picture = (
                    room.text(conn.seat)
                    if current
                    else dumps(
                        room.picture(conn.seat, state, version, views[conn.seat], encoded=True)
                    )
                )
                text = texts[conn.seat] = push_text(picture, version - 1, start, entries)
            if origin is not None and conn is origin.conn:
                conn.offer(f'{{"acted":{dumps(origin.ref)},{text[1:]}')
                origin.told = True
            else:
                conn.offer(text)
        if current and room.clock is not None:
            self.say(room, clocks.clock_message(room) or "")

    def schedule_bots(self, room: Room) -> None:
        self.bots.schedule(room)

    async def close(self) -> None:
        await self.clocks.close()
        await self.social.close()
        await self.bots.close()


def _taken_over(status: str | None) -> ApiError:
    """403 for a seat a bot took over: the player left, or the clock ran out."""
    return refuse(403, "server.seat.left" if status == "left" else "server.seat.timed_out")
