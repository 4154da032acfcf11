"""Live tables: each game in memory behind its own lock, written to storage before any answer.

A table (``Room``) holds the engine state, the seats and the open WebSockets. Every change goes
through :meth:`Tables.act`: check the version and the seat, apply the action to a copy of the state,
store it (one transaction), and only then make the copy the table's state, answer, push each
connection its own view and let the bot seats move.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import glade
from glade.bots import make_bot
from glade.core import Action, BadInput, Game, IllegalAction

from .botrunner import choose_actions, hint_moves, make_pool
from .config import Settings
from .storage import Statement, Storage, StorageError, StoredGame

log = logging.getLogger("glade.server")


class ApiError(Exception):
    """An answer other than success: HTTP status plus one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
        return not self.sockets and not busy and not self.lock.locked()

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
            raise ApiError(403, "this token does not open any seat of this game")
        return found

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


# Bots cheap enough to run on a thread; every other bot thinks in a worker process.
FAST_BOTS = {"random"}


def _offered(state: Game, seat: int, action: Action) -> bool:
    """True if ``action`` is, in its exact JSON form, one of the actions offered to ``seat``."""
    text = json.dumps(action.to_json(), sort_keys=True)
    return any(
        json.dumps(a.to_json(), sort_keys=True) == text
        for a in state.legal_actions(seat)
        if a == action
    )


class Tables:
    """Every table this server hosts, loaded from storage on first use."""

    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._pool: Executor | None = None
        self._closing = False

    # ------------------------------------------------------------------ storage helpers
    async def _read(self, fn: Callable[[Any], Any]) -> Any:
        return await asyncio.wrap_future(self.storage.read_async(fn))

    async def _write(self, statements: list[Statement]) -> None:
        await asyncio.wrap_future(self.storage.write(statements))

    # ------------------------------------------------------------------ loading
    async def get(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is not None:
            room.touched = time.monotonic()
            return room
        if len(game_id) > 64:
            raise ApiError(404, "there is no game with this id")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                stored = await self._read(lambda c: self.storage.load_game(c, game_id))
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
        seats = [Seat(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in stored.seats]
        return Room(
            id=stored.id,
            game=stored.game,
            options=stored.options,
            seed=stored.seed,
            version=stored.version,
            state=state,
            seats=seats,
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
        ids = await self._read(
            lambda c: c.query(
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
                "WHERE g.over = 0 AND s.kind = 'bot'"
            )
        )
        for (game_id,) in ids:
            self.schedule_bots(await self.get(game_id))
        return len(ids)

    # ------------------------------------------------------------------ creating and joining
    async def create(
        self, game: str, options: dict[str, Any], seats: list[dict[str, Any]], client: str
    ) -> tuple[Room, list[str | None]]:
        options = dict(options)
        players = options.setdefault("players", len(seats))
        if players != len(seats):
            raise ApiError(
                422, f"the game is for {players} players but {len(seats)} seats were given"
            )
        seed = secrets.randbelow(2**63)
        try:
            state = glade.new_game(game, seed=seed, **options)
        except (BadInput, IllegalAction) as exc:
            raise ApiError(422, str(exc)) from None
        except ImportError:
            raise ApiError(422, f"this server cannot host {game} yet") from None
        for spec in seats:
            if spec["kind"] == "bot":
                try:
                    make_bot(spec["bot"], state.game_name, 0)
                except (BadInput, IllegalAction) as exc:
                    raise ApiError(422, str(exc)) from None
                except ImportError:
                    raise ApiError(
                        422, f"the bot {spec['bot']!r} is not installed on this server yet"
                    ) from None
        running = await self._read(
            lambda c: c.query("SELECT COUNT(*) FROM games WHERE client = ? AND over = 0", (client,))
        )
        if int(running[0][0]) >= self.settings.max_games_per_client:
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
        stamp = time.time()
        open_seats = sum(s.open for s in table_seats)
        statements: list[Statement] = [
            (
                "INSERT INTO games (id, game, options, seed, version, over, open_seats, client, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    state.game_name,
                    json.dumps(state.options),
                    str(seed),
                    int(state.is_over),
                    open_seats,
                    client,
                    stamp,
                    stamp,
                ),
            )
        ]
        for s in table_seats:
            statements.append(
                (
                    "INSERT INTO seats (game_id, seat, kind, name, bot, token_hash) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, s.seat, s.kind, s.name, s.bot, s.token_hash),
                )
            )
        await self._write_or_503(statements)
        room = Room(
            id=game_id,
            game=state.game_name,
            options=dict(state.options),
            seed=seed,
            version=0,
            state=state,
            seats=table_seats,
        )
        self.rooms[game_id] = room
        self.schedule_bots(room)
        return room, tokens

    async def join(
        self, room: Room, name: str, wanted: int | None, token: str | None
    ) -> tuple[int, str]:
        """Claim an open human seat by name; with a seat's own invite token, name that seat."""
        async with room.lock:
            if room.over:
                raise ApiError(409, "this game is over")
            if token is not None:
                seat = room.seat_of(token)
                assert seat is not None
                target = room.seats[seat]
                if not target.open:
                    raise ApiError(409, "this seat already has a player")
                new = token
            else:
                candidates = [s for s in room.seats if s.open]
                if wanted is not None:
                    candidates = [s for s in candidates if s.seat == wanted]
                if not candidates:
                    raise ApiError(409, "this game has no open seat to join")
                target = candidates[0]
                new = new_token()
            digest = hash_token(new)
            open_after = sum(s.open for s in room.seats) - 1
            await self._write_or_503(
                [
                    (
                        "UPDATE seats SET name = ?, token_hash = ? WHERE game_id = ? AND seat = ?",
                        (name, digest, room.id, target.seat),
                    ),
                    (
                        "UPDATE games SET open_seats = ?, updated_at = ? WHERE id = ?",
                        (open_after, time.time(), room.id),
                    ),
                ]
            )
            target.name = name
            target.token_hash = digest
            room.forget_texts()
        self.broadcast(room)
        return target.seat, new

    async def lobby(self) -> list[dict[str, Any]]:
        limit = self.settings.lobby_limit

        def read(c: Any) -> list[dict[str, Any]]:
            rows = c.query(
                "SELECT id, game, options, created_at FROM games WHERE open_seats > 0 AND over = 0 "
                "ORDER BY created_at DESC LIMIT ?",
                (limit,),
            )
            out = []
            for gid, game, options, created in rows:
                seats = [
                    Seat(int(r[0]), r[1], r[2], r[3], None).info()
                    for r in c.query(
                        "SELECT seat, kind, name, bot FROM seats WHERE game_id = ? ORDER BY seat",
                        (gid,),
                    )
                ]
                out.append(
                    {
                        "id": gid,
                        "game": game,
                        "options": json.loads(options),
                        "seats": seats,
                        "created_at": float(created),
                    }
                )
            return out

        result: list[dict[str, Any]] = await self._read(read)
        return result

    async def history(self, room: Room) -> list[dict[str, Any]]:
        rows = await self._read(
            lambda c: c.query(
                "SELECT version, seat, action, at FROM actions WHERE game_id = ? AND version <= ? "
                "ORDER BY version",
                (room.id, room.version),
            )
        )
        return [
            {"version": int(v), "seat": int(s), "action": json.loads(a), "at": float(t)}
            for v, s, a, t in rows
        ]

    # ------------------------------------------------------------------ hints and the past
    async def hint(self, room: Room, seat: int) -> tuple[int, list[dict[str, Any]]]:
        """The search bot's best moves for ``seat`` now, computed in the bot worker pool."""
        async with room.lock:
            if room.over:
                raise ApiError(409, "the game is over: there is nothing left to suggest")
            if seat not in room.state.to_act:
                raise ApiError(409, "it is not your turn, so there is nothing to suggest yet")
            snapshot = room.state.to_json()
            version = room.version
        seconds = min(self.settings.bot_seconds, 2.0)
        loop = asyncio.get_running_loop()
        moves: list[dict[str, Any]] = await asyncio.wait_for(
            loop.run_in_executor(
                self._bot_pool(), hint_moves, snapshot, seat, seconds, secrets.randbelow(2**63)
            ),
            timeout=10 + 10 * seconds,
        )
        return version, moves

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
                raise ApiError(422, str(exc)) from None
            if seat not in state.to_act and not (action.type == "undo" and state.can_undo(seat)):
                raise ApiError(403, "it is not your turn")
            after = state.copy()
            try:
                after.apply(seat, action)
            except IllegalAction as exc:
                raise ApiError(422, str(exc)) from None
            except Exception:  # noqa: BLE001 - odd input the engine did not expect
                log.exception("engine error on %r in game %s", raw, room.id)
                raise ApiError(422, "this is not an action of this game") from None
            if not _offered(state, seat, action):
                # the engine took it only because e.g. true == 1 in Python; JSON says otherwise
                raise ApiError(
                    422, "this action is not written as the game writes it (check the field types)"
                )
            new_version = room.version + 1
            stamp = time.time()
            statements: list[Statement] = [
                (
                    "INSERT INTO actions (game_id, version, seat, action, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (room.id, new_version, seat, json.dumps(action.to_json()), stamp),
                ),
                (
                    "UPDATE games SET version = ?, over = ?, updated_at = ? WHERE id = ?",
                    (new_version, int(after.is_over), stamp, room.id),
                ),
            ]
            if after.is_over or new_version % self.settings.snapshot_every == 0:
                statements.append(
                    (
                        "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                        (room.id, new_version, json.dumps(after.to_json())),
                    )
                )
            await self._write_or_503(statements)
            room.state = after
            room.version = new_version
        self.broadcast(room)
        self.schedule_bots(room)

    async def _write_or_503(self, statements: list[Statement]) -> None:
        try:
            await self._write(statements)
        except StorageError as exc:
            log.error("write failed: %s", exc)
            raise ApiError(
                503, "the game could not be saved, so nothing changed; try again"
            ) from None

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

    # ------------------------------------------------------------------ bots
    def schedule_bots(self, room: Room) -> None:
        if self._closing or room.over:
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        if any(
            room.seats[s].kind == "bot" and room.state.legal_action_ids(s)
            for s in room.state.to_act
        ):
            room.bot_task = asyncio.get_running_loop().create_task(self._play_bots(room))

    def _bot_pool(self) -> Executor:
        if self._pool is None:
            self._pool = make_pool(self.settings.bot_workers)
        return self._pool

    async def _play_bots(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        refused = 0
        while not self._closing and not room.over:
            # (a seat in to_act with no move may only undo, which bots never do)
            bots = [
                s
                for s in room.state.to_act
                if room.seats[s].kind == "bot" and room.state.legal_action_ids(s)
            ]
            if not bots:
                return
            seat = bots[0]
            # a bot whose moves keep being refused plays random moves instead of looping
            spec = (room.seats[seat].bot or "random") if refused < 3 else "random"
            base_version = room.version
            snapshot = room.state.to_json()
            args = (snapshot, spec, seat, self.settings.bot_seconds, secrets.randbelow(2**63))
            try:
                if spec.split(":", 1)[0] in FAST_BOTS:
                    # microseconds of work: a thread, so it never queues behind a thinking bot
                    actions = await loop.run_in_executor(None, choose_actions, *args)
                else:
                    actions = await asyncio.wait_for(
                        loop.run_in_executor(self._bot_pool(), choose_actions, *args),
                        timeout=10 + 10 * self.settings.bot_seconds,
                    )
            except BrokenProcessPool:
                log.error("the bot workers died; new ones start with the next move")
                self._pool = None
                actions = choose_actions(snapshot, "random", seat, 0.0, secrets.randbelow(2**63))
            except Exception:  # noqa: BLE001 - a failing or stuck bot falls back to a random move
                log.exception("bot %s failed in game %s; playing a random move", spec, room.id)
                actions = choose_actions(snapshot, "random", seat, 0.0, secrets.randbelow(2**63))
            if self._closing:
                return
            for action in actions:
                if room.version != base_version and seat not in room.state.to_act:
                    break
                try:
                    await self.act(room, seat, action, None)
                except ApiError as exc:
                    log.warning("bot %s move refused in game %s: %s", spec, room.id, exc.message)
                    refused += 1
                    break
                base_version = room.version

    async def close(self) -> None:
        self._closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
