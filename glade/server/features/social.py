"""Leaving a table, rematches and table chat.

- **Leave**: the seat is handed to the takeover bot for the rest of the game and records
  ``status: "left"`` (``Tables.take_over``); it keeps its player's name and account.
- **Rematch**: once a game is over, a player's first call offers the same table again (same game,
  options and clock) with every seat moved one place on (seat ``s`` sits at
  ``(s + 1) % players``), each human seat held by the same account as before (so the rematch is
  in every player's "my games" on any device); it answers that player's new seat credential only.
  Every connection of the old table hears ``{"type": "rematch", …}`` (who offered, who accepted,
  who is awaited; never a credential). The other players accept with the same call and get their
  own credential; a second offer is an acceptance, so there is one rematch table per game (the
  database decides), and a seat that accepts twice gets a 409 (the database decides that too).
  The new table's clocks start once every human seat accepted. **Declining**: another player's
  decline is stored once (a second one answers the same status), after which that seat cannot
  accept, nor an accepted seat decline (the database decides); the offerer's own decline
  withdraws the offer, allowed while no other player has accepted it (the database decides
  between a withdrawal and an acceptance too), after which nobody can accept. Every connection
  hears the new status (``declined``, ``withdrawn``). The new table is left as it is: the server
  has no way to end a table without a result.
- **Chat**: a seated player's short message, stored with the table and pushed to every
  connection of it as ``{"type": "chat", …}``; spectators read only.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

import glade

from ..config import Settings
from ..domain import (
    LEFT,
    TAKEOVER_BOT,
    Clock,
    EventBus,
    Heard,
    Table,
    Tables,
    hash_token,
    new_token,
)
from ..errors import ApiError
from ..refusals import refuse
from ..storage import (
    ACCEPTED,
    DECLINED,
    NewGame,
    Storage,
    StorageConflict,
    StoredRematch,
    StoredSeat,
)

CHAT_MAX = 200  # characters in one message
CHAT_BURST = 5  # messages a client may send at once ...
CHAT_RATE = 0.5  # ... then this many a second
CHAT_KEPT = 200  # newest messages answered by GET …/chat


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
    """Where a seat of a table sits at its rematch."""
    return (seat + 1) % players


def rematch_seat(table: Table, seat: int | None) -> int:
    """``seat`` if it may offer, accept or decline ``table``'s rematch, else the refusal: a
    spectator, a game not over, a seat a bot played to the end."""
    if seat is None:
        raise refuse(403, "server.rematch.spectator")
    if not table.over:
        raise refuse(409, "server.rematch.not_over")
    if table.seats[seat].kind != "human":
        raise refuse(403, "server.rematch.bot_seat")
    return seat


class Social:
    """This process's part of chat, rematches and leaving."""

    def __init__(
        self, settings: Settings, storage: Storage, tables: Tables, events: EventBus
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.tables = tables
        self.limiter = ChatLimiter()
        self.last: dict[str, int] = {}  # per table: the newest chat message pushed here
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        events.subscribe(Heard, self.heard)

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def lock(self, key: str) -> asyncio.Lock:
        if len(self.locks) > 10_000:
            self.locks = {k: v for k, v in self.locks.items() if v.locked()}
        return self.locks.setdefault(key, asyncio.Lock())

    # ------------------------------------------------------------------ chat
    async def chat(self, table: Table) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await asyncio.wrap_future(
            self.storage.chat.messages(table.id, 0, CHAT_KEPT)
        )
        return found

    async def post_chat(
        self, table: Table, seat: int | None, text: str, client: str
    ) -> dict[str, Any]:
        if seat is None:
            raise refuse(403, "server.chat.spectator")
        if not self.limiter.allow(client):
            raise refuse(429, "server.chat.too_fast")
        chat = self.storage.chat
        async with self.lock(table.id):
            for _ in range(5):
                n = self.last.get(table.id)
                if n is None:
                    n = await asyncio.wrap_future(chat.last(table.id))
                at = time.time()
                name = table.seats[seat].name
                message = {"n": n + 1, "seat": seat, "name": name, "text": text, "at": at}
                try:
                    await self.tables.write(chat.add(table.id, n + 1, seat, name, text, at))
                except StorageConflict:  # another process took that number: count again
                    self.last[table.id] = await asyncio.wrap_future(chat.last(table.id))
                    continue
                self.last[table.id] = max(self.last.get(table.id, 0), n + 1)
                self.tables.say(table, json.dumps({"type": "chat", **message}))
                return message
        raise refuse(503, "server.chat.unsaved")

    def heard(self, event: Heard) -> None:
        if event.kind == "chat":
            _, _, number = event.what.partition(" ")
            self.spawn(self.catch_chat(event.table, int(number) if number.isdigit() else 1))
        elif event.kind == "rematch":
            self.spawn(self.push_rematch(event.table))

    async def catch_chat(self, table: Table, heard: int) -> None:
        """Push the messages other processes stored (``heard``: the number announced)."""
        async with self.lock(table.id):
            after = self.last.get(table.id)
            if after is None:  # nothing pushed here yet: from the announced message on
                after = heard - 1
            found = await asyncio.wrap_future(
                self.storage.chat.messages(table.id, after, CHAT_KEPT)
            )
            for message in found:
                self.tables.say(table, json.dumps({"type": "chat", **message}))
                after = max(after, message["n"])
            self.last[table.id] = after

    # ------------------------------------------------------------------ rematch
    async def rematch_status(self, table: Table) -> dict[str, Any] | None:
        """``{"id", "by", "accepted", "waiting", "declined", "withdrawn"}`` of a table's rematch
        (old seat numbers; nobody is awaited once the offer is withdrawn)."""
        found = await asyncio.wrap_future(self.storage.rematches.of(table.id))
        if found is None:
            return None
        new = await self.tables.get(found.new_id)
        players = len(table.seats)
        accepted: list[int] = []
        waiting: list[int] = []
        declined: list[int] = []
        for old in range(players):
            seat = new.seats[rotated(old, players)]
            if seat.kind != "human":
                continue
            if seat.token_hash:
                accepted.append(old)
            elif found.replies.get(old) == DECLINED:
                declined.append(old)
            elif not found.withdrawn:
                waiting.append(old)
        return {
            "id": found.new_id,
            "by": found.by,
            "accepted": accepted,
            "waiting": waiting,
            "declined": declined,
            "withdrawn": found.withdrawn,
        }

    async def push_rematch(self, table: Table) -> None:
        status = await self.rematch_status(table)
        if status is not None:
            self.tables.say(table, json.dumps({"type": "rematch", **status}))

    async def rematch(self, table: Table, seat: int | None, client: str) -> dict[str, Any]:
        """Offer the rematch, or accept it: the caller's new seat and its credential."""
        seat = rematch_seat(table, seat)
        rematches = self.storage.rematches
        async with self.lock("rematch " + table.id):
            found = await asyncio.wrap_future(rematches.of(table.id))
            if found is None:
                offered = await self.offer(table, seat, client)
                if offered is not None:
                    await self.push_rematch(table)
                    return offered
                found = await asyncio.wrap_future(rematches.of(table.id))
                assert found is not None  # the offer lost the race to another one
            answer = await self.accept(table, found, seat)
        await self.push_rematch(table)
        return answer

    @staticmethod
    def refuse_reply(found: StoredRematch, seat: int) -> None:
        """The refusal of an acceptance the rematch's replies already rule out, if any."""
        if found.withdrawn:
            raise refuse(409, "server.rematch.withdrawn")
        if found.replies.get(seat) == DECLINED:
            raise refuse(409, "server.rematch.declined")

    async def offer(self, table: Table, seat: int, client: str) -> dict[str, Any] | None:
        tables = self.tables
        running = await asyncio.wrap_future(self.storage.tables.unfinished_of(client))
        if running >= self.settings.max_games_per_client:
            raise refuse(429, "server.table.too_many", n=self.settings.max_games_per_client)
        players = len(table.seats)
        seed = secrets.randbelow(2**63)
        state = glade.game_class(table.game).new(seed, dict(table.options))
        token = new_token()
        seats = [StoredSeat(i, "bot", None, None, None) for i in range(players)]
        for old in table.seats:
            new = rotated(old.seat, players)
            if old.kind == "human":
                digest = hash_token(token) if old.seat == seat else None
                seats[new] = StoredSeat(new, "human", old.name, None, digest, old.user_id)
            else:
                bot = old.bot or TAKEOVER_BOT
                name = old.name if old.status is None else bot
                seats[new] = StoredSeat(new, "bot", name, bot, None)
        clock = None if table.clock is None else Clock.fresh(table.clock.spec, players)
        new_id = secrets.token_urlsafe(9)
        game = NewGame(
            id=new_id,
            game=table.game,
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
            await tables.write(self.storage.rematches.add(table.id, game, seat, time.time()))
        except StorageConflict:
            return None  # another player offered first: this call accepts theirs
        tables.ready(await tables.get(new_id))  # its bots may move at once
        return {"id": new_id, "seat": rotated(seat, players), "token": token, "offered": True}

    async def accept(self, table: Table, found: StoredRematch, seat: int) -> dict[str, Any]:
        self.refuse_reply(found, seat)
        new_table = await self.tables.get(found.new_id)
        target = rotated(seat, len(table.seats))
        try:
            token = await self.tables.accept_seat(
                new_table,
                target,
                table.seats[seat].user_id,
                self.storage.rematches.accepting(table.id, seat, time.time()),
            )
        except ApiError:  # refused by the database: another process's reply came first
            now = await asyncio.wrap_future(self.storage.rematches.of(table.id))
            assert now is not None
            self.refuse_reply(now, seat)
            raise
        return {"id": found.new_id, "seat": target, "token": token, "offered": False}

    async def decline(self, table: Table, seat: int | None) -> dict[str, Any]:
        """Decline the rematch offered (the offerer: withdraw it); the rematch's status."""
        seat = rematch_seat(table, seat)
        rematches = self.storage.rematches
        async with self.lock("rematch " + table.id):
            found = await asyncio.wrap_future(rematches.of(table.id))
            if found is None:
                raise refuse(409, "server.rematch.none")
            if seat == found.by:
                await self.withdraw(table, found)
            elif found.replies.get(seat) != DECLINED:
                await self.refuse_decline(table, found, seat)
                try:
                    await self.tables.write(rematches.decline(table.id, seat, time.time()))
                except StorageConflict:  # another process stored this seat's reply first
                    now = await asyncio.wrap_future(rematches.of(table.id))
                    assert now is not None
                    await self.refuse_decline(table, now, seat)
        status = await self.rematch_status(table)
        assert status is not None
        self.tables.say(table, json.dumps({"type": "rematch", **status}))
        return status

    async def withdraw(self, table: Table, found: StoredRematch) -> None:
        if found.withdrawn:
            return
        try:
            await self.tables.write(self.storage.rematches.withdraw(table.id))
        except StorageConflict:  # another seat accepted first (or another process withdrew)
            now = await asyncio.wrap_future(self.storage.rematches.of(table.id))
            if now is None or not now.withdrawn:
                raise refuse(409, "server.rematch.taken_up") from None

    async def refuse_decline(self, table: Table, found: StoredRematch, seat: int) -> None:
        """Refuse the decline of a seat that accepted the rematch."""
        new = await self.tables.get(found.new_id)
        accepted = new.seats[rotated(seat, len(table.seats))].token_hash is not None
        if accepted or found.replies.get(seat) == ACCEPTED:
            raise refuse(409, "server.rematch.accepted", table=found.new_id)

    # ------------------------------------------------------------------ leaving
    async def leave(self, table: Table, seat: int | None) -> None:
        if seat is None:
            raise refuse(403, "server.leave.spectator")
        if table.over:
            raise refuse(409, "server.leave.over")
        if table.seats[seat].kind != "human":
            raise refuse(409, "server.leave.bot")
        if not await self.tables.take_over(table, seat, LEFT):
            raise refuse(409, "server.leave.too_late")

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
