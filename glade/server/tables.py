"""Live tables: each game in memory behind its own lock, written to storage before any answer.

A table (``Room``) holds the engine state, the seats and the open WebSockets. Every change goes
through :meth:`Tables.act`: check the version and the seat, apply the action to a copy of the state,
store it (one transaction), and only then make the copy the table's state, answer, push each
connection its own view and let the bot seats move.
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
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

import glade
from glade.bots import make_bot
from glade.core import Action, BadInput, Game, IllegalAction

from .botrunner import BotRunner, bot_seats
from .config import Settings
from .errors import ApiError
from .storage import NewGame, Storage, StorageConflict, StorageError, StoredGame, StoredSeat

log = logging.getLogger("glade.server")

T = TypeVar("T")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]+")  # secrets.token_urlsafe

__all__ = ["INVITE_SPENT", "ApiError", "Connection", "Room", "Seat", "Tables"]


INVITE_SPENT = (
    "this invite link was already claimed by another player, so it no longer opens the seat; "
    "you can watch the game instead"
)


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
        }


class Connection:
    """One WebSocket: only the newest push waits to be sent (each push is a whole state)."""

    def __init__(self, send: Callable[[str], Any], seat: int | None) -> None:
        self.send = send
        self.seat = seat
        self.latest: str | None = None
        self.ready = asyncio.Event()
        self.closed = False

    def offer(self, text: str) -> None:
        self.latest = text
        self.ready.set()

    async def pump(self) -> None:
        """Send pushes until the connection closes."""
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            text, self.latest = self.latest, None
            if text is not None:
                await self.send(text)


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
            found = self._texts[seat] = json.dumps(self.picture(seat))
        return found

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
                raise ApiError(403, INVITE_SPENT)
            raise ApiError(403, "this token does not open any seat of this game")
        return found

    def spent_invite(self, digest: str) -> bool:
        """Whether ``digest`` is the hash of an invite token that was already claimed."""
        spent = False
        for seat in self.seats:
            if seat.invite_hash and hmac.compare_digest(digest, seat.invite_hash):
                spent = True
        return spent

    def picture(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees now (GET answer, POST answer and WebSocket push alike)."""
        state = self.state
        over = state.is_over
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "version": self.version,
            "seat": seat,
            "to_act": list(state.to_act),
            "over": over,
            "view": state.view(seat),
            "legal_actions": []
            if seat is None
            else [a.to_json() for a in state.legal_actions(seat)],
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
        self.bots = BotRunner(settings, self.act)
        # called (on the event loop) after this process stored the action that ended a game
        self.game_over_hooks: list[Callable[[Room], None]] = []

    # ------------------------------------------------------------------ storage helpers
    @staticmethod
    async def _wait(future: Future[T]) -> T:
        return await asyncio.wrap_future(future)

    async def _write_or_503(self, future: Future[None]) -> None:
        try:
            await asyncio.wrap_future(future)
        except StorageConflict:
            raise
        except StorageError as exc:
            log.error("write failed: %s", exc)
            raise ApiError(
                503, "the game could not be saved, so nothing changed; try again"
            ) from None

    # ------------------------------------------------------------------ loading
    async def get(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is not None:
            room.touched = time.monotonic()
            return room
        if len(game_id) > 64 or not _GAME_ID.fullmatch(game_id):
            raise ApiError(404, "there is no game with this id")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                stored = await self._wait(self.storage.load_game(game_id))
                loaded = None if stored is None else self._room_from(stored)
                if loaded is not None:
                    self.rooms[game_id] = loaded
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise ApiError(404, "there is no game with this id")
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
            )
            for s in stored.seats
        ]
        return Room(
            id=stored.id,
            game=stored.game,
            options=stored.options,
            seed=stored.seed,
            version=stored.version,
            state=state,
            seats=seats,
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
        return len(ids)

    # ------------------------------------------------------------------ creating and joining
    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        client: str,
        rated: bool = False,
    ) -> tuple[Room, list[str | None]]:
        options = dict(options)
        players = options.setdefault("players", len(seats))
        if players != len(seats):
            raise ApiError(
                422, f"the game is for {players} players but {len(seats)} seats were given"
            )
        seed = secrets.randbelow(2**63)
        try:  # options as one dict: a "seed" or "name" key is an unknown option, not a keyword
            state = glade.game_class(game).new(seed, options)
        except (BadInput, IllegalAction) as exc:
            raise ApiError.refused(exc) from None
        except ImportError:
            raise ApiError(422, f"this server cannot host {game} yet") from None
        for spec in seats:
            if spec["kind"] == "bot":
                try:
                    make_bot(spec["bot"], state.game_name, 0)
                except (BadInput, IllegalAction) as exc:
                    raise ApiError.refused(exc) from None
                except ImportError:
                    raise ApiError(
                        422, f"the bot {spec['bot']!r} is not installed on this server yet"
                    ) from None
        if rated:
            from .ratings import check_rated_seats

            check_rated_seats(seats)
        running = await self._wait(self.storage.unfinished_games_of(client))
        if running >= self.settings.max_games_per_client:
            raise ApiError(
                429,
                f"you already have {self.settings.max_games_per_client} unfinished games; "
                "finish one first",
            )
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
                    raise ApiError(409, INVITE_SPENT)
                seat = room.seat_of(token)
                assert seat is not None
                target = room.seats[seat]
                if not hmac.compare_digest(digest, target.token_hash or ""):
                    return seat, token  # an account's device key: the seat is its own
                if target.user_id is not None and user_id not in (None, target.user_id):
                    raise ApiError(403, "this seat belongs to another account")
                if target.claimed:
                    if user_id is None or target.user_id == user_id:
                        return seat, token
                    keep = token  # a guest's claimed seat joins the account now logged in
                if not named_ok and not target.open:
                    raise ApiError(409, "this seat already has a player")
                if room.over and target.open:
                    raise ApiError(409, "this game is over")
                invite: str | None = target.invite_hash if keep else target.token_hash
            else:
                if room.over:
                    raise ApiError(409, "this game is over")
                candidates = [s for s in room.seats if s.open]
                if wanted is not None:
                    candidates = [s for s in candidates if s.seat == wanted]
                if not candidates:
                    raise ApiError(409, "this game has no open seat to join")
                target = candidates[0]
                invite = target.token_hash  # the creator's link for it is spent as well
            new_name = target.name or name
            if not new_name:
                raise ApiError(422, "this seat has no name yet: send your name to claim it")
            new = keep or new_token()
            digest = hash_token(new)
            owner = user_id if user_id is not None else target.user_id
            if room.rated and owner is None:  # a rated table's seats belong to accounts
                from .ratings import require_account

                require_account(owner)
            open_after = sum(s.open for s in room.seats) - (1 if target.open else 0)
            await self._write_or_503(
                self.storage.claim_seat(
                    room.id, target.seat, new_name, digest, invite, owner, open_after, time.time()
                )
            )
            target.name = new_name
            target.token_hash = digest
            target.invite_hash = invite
            target.claimed = True
            target.user_id = owner
            room.forget_texts()
        self.broadcast(room)
        return target.seat, new

    async def add_key(self, room: Room, user_id: str, session_id: str) -> dict[int, str]:
        """A device key for each seat ``user_id`` holds at this table (logged in elsewhere)."""
        async with room.lock:
            seats = [s for s in room.seats if s.user_id == user_id]
            if not seats:
                raise ApiError(403, "your account holds no seat in this game")
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
            raise ApiError(403, "past positions are shown once the game is over")
        state = room.state
        if not 0 <= move <= len(state.log):
            raise ApiError(422, f"the move must be a whole number from 0 to {len(state.log)}")
        entries = list(state.log[:move])

        def rebuild() -> dict[str, Any]:
            past = type(state).replay(state.seed, state.options, entries)
            return {"move": move, "to_act": list(past.to_act), "view": past.view(None)}

        found: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, rebuild)
        return found

    # ------------------------------------------------------------------ acting
    async def act(
        self, room: Room, seat: int | None, raw: dict[str, Any], version: int | None
    ) -> None:
        """Apply one action of ``seat`` (None: a spectator) based on ``version`` (None: any).

        Runs shielded: a caller that goes away mid-way (a dropped request, a stopping bot) never
        leaves a stored action that the table in memory does not have.
        """
        if seat is None:
            raise ApiError(403, "spectators cannot act; open the game with a seat's token")
        await asyncio.shield(self._act(room, seat, raw, version))

    async def _act(self, room: Room, seat: int, raw: dict[str, Any], version: int | None) -> None:
        async with room.lock:
            if version is not None and version > room.version:
                await self._catch_up(room)  # the client saw a change this process has not yet
            if version is not None and version != room.version:
                raise ApiError(
                    409, f"the game has moved on to version {room.version}; reload and try again"
                )
            state = room.state
            if state.is_over:
                raise ApiError(403, "the game is over")
            try:
                action = Action.from_json(raw)
            except IllegalAction as exc:
                raise ApiError.refused(exc) from None
            if seat not in state.to_act and not (action.type == "undo" and state.can_undo(seat)):
                raise ApiError(403, "it is not your turn")
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
            new_version = room.version + 1
            over = after.is_over
            snapshot = (
                json.dumps(after.to_json())
                if over or new_version % self.settings.snapshot_every == 0
                else None
            )
            try:
                await self._write_or_503(
                    self.storage.record_action(
                        room.id,
                        new_version,
                        seat,
                        json.dumps(action.to_json()),
                        over,
                        time.time(),
                        snapshot,
                    )
                )
            except StorageConflict:
                # another process stored this version first: catch up, and say so
                await self._catch_up(room)
                conflict = True
            else:
                room.state = after
                room.version = new_version
                room.changed = time.monotonic()
                conflict = False
        self.broadcast(room)
        if conflict:
            raise ApiError(
                409, f"the game has moved on to version {room.version}; reload and try again"
            )
        if over:
            for hook in self.game_over_hooks:
                hook(room)
        self.bots.schedule(room)

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
            return  # not in memory here: it is read fresh when asked for
        if what.isdigit() and int(what) <= room.version:
            return  # this process stored it (or already caught up)
        self.refresh(room)

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
                self.broadcast(room)
            if not room.refresh_again:
                return

    async def _catch_up(self, room: Room) -> bool:
        """Apply what other processes stored after ``room.version`` (the lock is held)."""
        seats, actions = await self._wait(self.storage.changes_since(room.id, room.version))
        changed = False
        for stored in seats:
            seat = room.seats[stored.seat]
            if (seat.name, seat.token_hash, seat.user_id, seat.invite_hash, seat.claimed) != (
                stored.name,
                stored.token_hash,
                stored.user_id,
                stored.invite_hash,
                stored.claimed,
            ):
                seat.name, seat.token_hash = stored.name, stored.token_hash
                seat.user_id, seat.invite_hash = stored.user_id, stored.invite_hash
                seat.claimed = stored.claimed
                changed = True
            if seat.keys != stored.keys:
                seat.keys = dict(stored.keys)  # device keys: no one's picture changes
        if actions:
            state = room.state.copy()
            version = room.version
            for number, seat_no, action in actions:
                if number != version + 1:
                    break
                state.apply(seat_no, action)
                version = number
            room.state, room.version = state, version
            room.changed = time.monotonic()
            changed = True
        if changed:
            room.forget_texts()
        return changed

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
        room.sockets.add(conn)

    def unsubscribe(self, room: Room, conn: Connection) -> None:
        conn.closed = True
        conn.ready.set()
        room.sockets.discard(conn)

    def broadcast(self, room: Room) -> None:
        """Give every connection of the table its own seat's picture."""
        for conn in list(room.sockets):
            conn.offer(room.text(conn.seat))

    def schedule_bots(self, room: Room) -> None:
        self.bots.schedule(room)

    async def close(self) -> None:
        await self.bots.close()
