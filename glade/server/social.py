"""Leaving a game, rematches and table chat: the routes and what each process keeps for them.

- **Leave** (``POST …/leave``): the seat is handed to the takeover bot for the rest of the game
  and records ``status: "left"`` (see :mod:`glade.server.clocks`).
- **Rematch** (``POST …/rematch``): once a game is over, a player's first call offers the same table
  again (same game, options and clock) with every seat moved one place on (seat ``s`` sits at
  ``(s + 1) % players``); it answers that player's new seat credential only. Every connection of
  the old table hears ``{"type": "rematch", …}`` (who offered, who accepted, who is awaited; never
  a credential). The other players accept with the same call and get their own credential; a second
  offer is an acceptance, so there is one rematch table per game (the database decides), and a
  seat that accepts twice gets a 409. The new table's clocks start once every human seat accepted.
- **Chat** (``POST …/chat``, ``GET …/chat``): a seated player's short message (1–200 characters,
  no control characters, a few per client and ten seconds), stored with the game and pushed to
  every connection of the table as ``{"type": "chat", …}``; spectators read only.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

import glade

from . import clocks
from .refusals import refuse
from .storage import NewGame, StorageConflict, StoredSeat

if TYPE_CHECKING:
    from .tables import Room, Tables

router = APIRouter()

CHAT_MAX = 200  # characters in one message
CHAT_BURST = 5  # messages a client may send at once ...
CHAT_RATE = 0.5  # ... then this many a second
CHAT_KEPT = 200  # newest messages answered by GET …/chat


def _chat_text(text: str) -> str:
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            raise ValueError("a chat message may not hold control characters or line breaks")
    if not text.strip():
        raise ValueError("a chat message needs a visible character")
    return text.strip()


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX), AfterValidator(_chat_text)]


class ChatLimiter:
    """A token bucket per client: ``CHAT_BURST`` messages, then ``CHAT_RATE`` a second."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        now = self.clock()
        tokens, last = self.buckets.get(client, (float(CHAT_BURST), now))
        tokens = min(float(CHAT_BURST), tokens + (now - last) * CHAT_RATE)
        if len(self.buckets) > 10_000:  # forget full buckets (they change nothing)
            full = now - CHAT_BURST / CHAT_RATE
            self.buckets = {k: v for k, v in self.buckets.items() if v[1] > full}
        if tokens < 1.0:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1.0, now)
        return True


def rotated(seat: int, players: int) -> int:
    """Where a seat of a game sits at its rematch."""
    return (seat + 1) % players


class Social:
    """This process's part of chat and rematches (one per :class:`Tables`)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.limiter = ChatLimiter()
        self.last: dict[str, int] = {}  # per game: the newest chat message pushed here
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        tables.heard_hooks["chat"] = self._heard
        tables.heard_hooks["rematch"] = self._heard

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _lock(self, game_id: str) -> asyncio.Lock:
        if len(self.locks) > 10_000:
            self.locks = {k: v for k, v in self.locks.items() if v.locked()}
        return self.locks.setdefault(game_id, asyncio.Lock())

    # ------------------------------------------------------------------ chat
    async def chat(self, room: Room) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await asyncio.wrap_future(
            self.tables.storage.chat(room.id, 0, CHAT_KEPT)
        )
        return found

    async def post_chat(
        self, room: Room, seat: int | None, text: str, client: str
    ) -> dict[str, Any]:
        if seat is None:
            raise refuse(403, "server.chat.spectator")
        if not self.limiter.allow(client):
            raise refuse(429, "server.chat.too_fast")
        storage = self.tables.storage
        async with self._lock(room.id):
            for _ in range(5):
                n = self.last.get(room.id)
                if n is None:
                    n = await asyncio.wrap_future(storage.last_chat(room.id))
                at = time.time()
                message = {
                    "n": n + 1,
                    "seat": seat,
                    "name": room.seats[seat].name,
                    "text": text,
                    "at": at,
                }
                try:
                    await self.tables._write_or_503(
                        storage.add_chat(room.id, n + 1, seat, room.seats[seat].name, text, at)
                    )
                except StorageConflict:  # another process took that number: count again
                    self.last[room.id] = await asyncio.wrap_future(storage.last_chat(room.id))
                    continue
                self.last[room.id] = max(self.last.get(room.id, 0), n + 1)
                self.tables.say(room, json.dumps({"type": "chat", **message}))
                return message
        raise refuse(503, "server.chat.unsaved")

    def _heard(self, room: Room, what: str) -> None:
        kind, _, number = what.partition(" ")
        if kind == "chat":
            self._spawn(self._catch_chat(room, int(number) if number.isdigit() else 1))
        else:
            self._spawn(self._push_rematch(room))

    async def _catch_chat(self, room: Room, heard: int) -> None:
        """Push the messages other processes stored (``heard``: the number announced)."""
        async with self._lock(room.id):
            after = self.last.get(room.id)
            if after is None:  # nothing pushed here yet: from the announced message on
                after = heard - 1
            found = await asyncio.wrap_future(self.tables.storage.chat(room.id, after, CHAT_KEPT))
            for message in found:
                self.tables.say(room, json.dumps({"type": "chat", **message}))
                after = max(after, message["n"])
            self.last[room.id] = after

    # ------------------------------------------------------------------ rematch
    async def rematch_status(self, room: Room) -> dict[str, Any] | None:
        """``{"id", "by", "accepted", "waiting"}`` of a game's rematch (old seat numbers)."""
        found = await asyncio.wrap_future(self.tables.storage.rematch_of(room.id))
        if found is None:
            return None
        new_id, by = found
        new = await self.tables.get(new_id)
        players = len(room.seats)
        accepted: list[int] = []
        waiting: list[int] = []
        for old in range(players):
            seat = new.seats[rotated(old, players)]
            if seat.kind != "human":
                continue
            (accepted if seat.token_hash else waiting).append(old)
        return {"id": new_id, "by": by, "accepted": accepted, "waiting": waiting}

    async def _push_rematch(self, room: Room) -> None:
        status = await self.rematch_status(room)
        if status is not None:
            self.tables.say(room, json.dumps({"type": "rematch", **status}))

    async def rematch(self, room: Room, seat: int | None, client: str) -> dict[str, Any]:
        """Offer the rematch, or accept it: the caller's new seat and its credential."""
        if seat is None:
            raise refuse(403, "server.rematch.spectator")
        if not room.over:
            raise refuse(409, "server.rematch.not_over")
        if room.seats[seat].kind != "human":
            raise refuse(403, "server.rematch.bot_seat")
        storage = self.tables.storage
        async with self._lock("rematch " + room.id):
            found = await asyncio.wrap_future(storage.rematch_of(room.id))
            if found is None:
                offered = await self._offer(room, seat, client)
                if offered is not None:
                    await self._push_rematch(room)
                    return offered
                found = await asyncio.wrap_future(storage.rematch_of(room.id))
                assert found is not None  # the offer lost the race to another one
            answer = await self._accept(room, found[0], seat)
        await self._push_rematch(room)
        return answer

    async def _offer(self, room: Room, seat: int, client: str) -> dict[str, Any] | None:
        tables = self.tables
        running = await asyncio.wrap_future(tables.storage.unfinished_games_of(client))
        if running >= tables.settings.max_games_per_client:
            raise refuse(429, "server.table.too_many", n=tables.settings.max_games_per_client)
        players = len(room.seats)
        seed = secrets.randbelow(2**63)
        state = glade.game_class(room.game).new(seed, dict(room.options))
        token = _new_token()
        seats = [StoredSeat(i, "bot", None, None, None) for i in range(players)]
        for old in room.seats:
            new = rotated(old.seat, players)
            if old.kind == "human":
                digest = _hash(token) if old.seat == seat else None
                seats[new] = StoredSeat(new, "human", old.name, None, digest)
            else:
                bot = old.bot or clocks.TAKEOVER_BOT
                name = old.name if old.status is None else bot
                seats[new] = StoredSeat(new, "bot", name, bot, None)
        clock = None if room.clock is None else clocks.Clock.fresh(room.clock.spec, players)
        new_id = secrets.token_urlsafe(9)
        game = NewGame(
            id=new_id,
            game=room.game,
            options=dict(state.options),
            seed=seed,
            over=state.is_over,
            client=client,
            at=time.time(),
            seats=seats,
            clock=None if clock is None else clock.spec.to_json(),
            clocks=None if clock is None else clock.seats,
        )
        try:
            await tables._write_or_503(tables.storage.add_rematch(room.id, game, seat, time.time()))
        except StorageConflict:
            return None  # another player offered first: this call accepts theirs
        new_room = await tables.get(new_id)
        tables.schedule_bots(new_room)
        return {"id": new_id, "seat": rotated(seat, players), "token": token, "offered": True}

    async def _accept(self, room: Room, new_id: str, seat: int) -> dict[str, Any]:
        tables = self.tables
        new_room = await tables.get(new_id)
        target = new_room.seats[rotated(seat, len(room.seats))]
        token = _new_token()
        digest = _hash(token)
        async with new_room.lock:
            if target.kind != "human" or target.token_hash is not None:
                raise refuse(409, "server.rematch.accepted", table=new_id)
            started: dict[int, tuple[float, float | None]] = {}
            if new_room.clock is not None:  # the last to accept starts the clocks
                target.token_hash = digest
                started = clocks.advance(
                    new_room.clock, new_room.seats, new_room.state, time.time()
                )
                target.token_hash = None
            try:
                await tables._write_or_503(
                    tables.storage.accept_rematch(room.id, new_id, target.seat, digest, started)
                )
            except StorageConflict:
                await tables._catch_up(new_room)
                raise refuse(409, "server.rematch.accepted", table=new_id) from None
            target.token_hash = digest
            if new_room.clock is not None:
                clocks.apply(new_room.clock, started)
            new_room.forget_texts()
        tables.broadcast(new_room)
        return {"id": new_id, "seat": target.seat, "token": token, "offered": False}

    # ------------------------------------------------------------------ leaving
    async def leave(self, room: Room, seat: int | None) -> None:
        if seat is None:
            raise refuse(403, "server.leave.spectator")
        if room.over:
            raise refuse(409, "server.leave.over")
        if room.seats[seat].kind != "human":
            raise refuse(409, "server.leave.bot")
        if not await clocks.take_over(self.tables, room, seat, "left"):
            raise refuse(409, "server.leave.too_late")

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()


def _new_token() -> str:
    from .tables import new_token

    return new_token()


def _hash(token: str) -> str:
    from .tables import hash_token

    return hash_token(token)


# ---------------------------------------------------------------------- routes
Auth = Annotated[
    str | None,
    Header(description="Bearer <seat token>; leave out to watch as a spectator"),
]


def _social(request: Request) -> Social:
    found: Social = request.app.state.tables.social
    return found


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _room_and_seat(request: Request, game_id: str, authorization: str | None) -> Any:
    from .app import _bearer

    room = await request.app.state.tables.get(game_id)
    return room, room.seat_of(_bearer(authorization))


@router.get("/api/games/{game_id}/social", summary="A table's clock, chat and rematch now")
async def social_now(game_id: str, request: Request) -> Any:
    room, _ = await _room_and_seat(request, game_id, None)
    social = _social(request)
    now = time.time()
    return JSONResponse(
        {
            "now": now,
            "clock": None if room.clock is None else room.clock.to_json(now),
            "chat": await social.chat(room),
            "rematch": await social.rematch_status(room) if room.over else None,
        }
    )


@router.get("/api/games/{game_id}/chat", summary="The table chat, oldest first (the newest 200)")
async def get_chat(game_id: str, request: Request) -> Any:
    room, _ = await _room_and_seat(request, game_id, None)
    return JSONResponse({"messages": await _social(request).chat(room)})


@router.post(
    "/api/games/{game_id}/chat",
    summary="Say something at the table (players only; 1–200 characters, no control characters)",
)
async def post_chat(
    game_id: str, body: ChatPost, request: Request, authorization: Auth = None
) -> Any:
    room, seat = await _room_and_seat(request, game_id, authorization)
    message = await _social(request).post_chat(room, seat, body.text, _client(request))
    return JSONResponse(message)


@router.post(
    "/api/games/{game_id}/leave",
    summary="Leave the game: a bot plays your seat for the rest of it",
)
async def leave(game_id: str, request: Request, authorization: Auth = None) -> Any:
    room, seat = await _room_and_seat(request, game_id, authorization)
    await _social(request).leave(room, seat)
    return Response(room.text(seat), media_type="application/json")


@router.post(
    "/api/games/{game_id}/rematch",
    summary="Offer the finished game's rematch (seats moved one on), or accept the offer",
)
async def rematch(game_id: str, request: Request, authorization: Auth = None) -> Any:
    room, seat = await _room_and_seat(request, game_id, authorization)
    answer = await _social(request).rematch(room, seat, _client(request))
    base = str(request.base_url).rstrip("/")
    answer["url"] = f"{base}/?game={answer['id']}#token={answer['token']}"
    return JSONResponse(answer)
