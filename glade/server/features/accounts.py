"""Accounts: sign up, log in and out, sessions, and the limits that keep guessing slow.

Accounts are optional: a guest plays with the seat credentials kept in the browser. A password is
hashed with Argon2id (argon2-cffi) in a worker thread and never logged or stored in clear. A
session is a random secret in a cookie; the database keeps only its SHA-256 with the session's
CSRF token.

**Limits are slots taken before the work.** A log-in takes a slot of its address (20 refused
log-ins in 15 minutes) and of the name (5) in the database *before* the password is hashed; a
wrong password keeps them (it counts), a right one gives its own back (the others' stay). So of 40 wrong passwords sent
at once for one name, 5 are checked and 35 refused with 429 unhashed, and the right password
after them is refused too. A sign-up takes a slot of its address (10 an hour) before hashing and
keeps it once the account is made. The slots live in the database, so every server process
shares them (``storage.limits``).

**Names** follow ``glade.server.names``: PRECIS, at least one letter or digit, and no look-alike
of another account's name (one write stores the account with its skeletons, each unique).

Where each account was seen (its addresses and devices, hashed) is kept for the ratings, which do
not rate accounts against each other that shared either recently.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..domain import Table, Tables, hash_token
from ..errors import ApiError
from ..names import name_key, skeletons
from ..refusals import refuse
from ..storage import Storage, StorageConflict, StorageError

SESSION_SECONDS = 30 * 24 * 3600  # a session unseen this long has ended
TOUCH_SECONDS = 3600  # last_seen is written at most this often per session
FAILURE_WINDOW = 15 * 60  # refused log-ins are counted over this many seconds
FAILURES_PER_NAME = 5
FAILURES_PER_ADDRESS = 20
SIGNUP_WINDOW = 3600
SIGNUPS_PER_ADDRESS = 10
MY_GAMES = 60  # tables listed per account

# Argon2id with argon2-cffi's recommended cost (RFC 9106's low-memory profile: 64 MiB, t=3, p=4)
HASHER = PasswordHasher()
DUMMY: dict[str, str] = {}


def dummy_hash() -> str:
    """A hash verified against when the name is unknown, so that answer takes as long as a
    wrong password (made once per hasher, on first use)."""
    params = repr((HASHER.time_cost, HASHER.memory_cost, HASHER.parallelism))
    found = DUMMY.get(params)
    if found is None:
        found = DUMMY[params] = HASHER.hash(secrets.token_urlsafe(16))
    return found


def fingerprint(value: str) -> str:
    """How an address or a device is kept: its SHA-256."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Session:
    id: str  # the SHA-256 of the cookie's secret
    user_id: str
    name: str
    csrf: str

    def state(self) -> dict[str, Any]:
        """The answer of GET /api/account for a logged-in browser."""
        return {"user": {"id": self.user_id, "name": self.name}, "csrf": self.csrf}


def minutes_left(since: float | None, window: float) -> int:
    if since is None:
        return math.ceil(window / 60)
    return max(1, math.ceil((since + window - time.time()) / 60))


async def hashed(password: str) -> str:
    return await asyncio.to_thread(HASHER.hash, password)


async def verified(password_hash: str, password: str) -> bool:
    def verify() -> bool:
        try:
            return HASHER.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)


class Accounts:
    """Accounts, sessions and their limits."""

    def __init__(self, storage: Storage, tables: Tables) -> None:
        self.storage = storage
        self.tables = tables

    async def write(self, future: Future[None]) -> None:
        """A write of accounts: StorageConflict passes; any other failure is a 503."""
        try:
            await asyncio.wrap_future(future)
        except StorageConflict:
            raise
        except StorageError:
            raise refuse(503, "server.account.unsaved") from None

    # ------------------------------------------------------------------ sessions
    async def session(self, secret: str | None) -> Session | None:
        """The live session a cookie's secret names (None: a guest, or a session that ended)."""
        if not secret or len(secret) > 128:
            return None
        sid = hash_token(secret)
        found = await asyncio.wrap_future(self.storage.sessions.get(sid))
        if found is None:
            return None
        user_id, name, csrf, last_seen = found
        now = time.time()
        if now - last_seen > SESSION_SECONDS:
            return None
        if now - last_seen > TOUCH_SECONDS:
            await self.write(self.storage.sessions.touch(sid, now))
        return Session(sid, user_id, name, csrf)

    async def start_session(
        self, user_id: str, name: str, address: str, replaces: Session | None
    ) -> tuple[Session, str]:
        """A new session (replacing this browser's previous one); and its cookie's secret."""
        sessions = self.storage.sessions
        if replaces is not None:
            await self.end_sessions([replaces.id])
        secret = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        now = time.time()
        await self.write(sessions.expire(now - SESSION_SECONDS))  # forget long-ended ones
        session = Session(hash_token(secret), user_id, name, csrf)
        await self.write(sessions.add(session.id, user_id, csrf, now, address))
        return session, secret

    async def end_sessions(self, session_ids: list[str]) -> None:
        tables = await asyncio.wrap_future(self.storage.tables.keyed_by(session_ids))
        await self.write(self.storage.sessions.end(session_ids, tables))
        self.tables.drop_sessions(set(session_ids))

    async def sessions_of(self, user_id: str) -> list[str]:
        found: list[str] = await asyncio.wrap_future(self.storage.sessions.of_user(user_id))
        return found

    async def seen(self, user_id: str, address: str, device: str | None) -> None:
        """Note where an account was seen (for the ratings' check of related accounts)."""
        marks = [("address", fingerprint(address))]
        if device:
            marks.append(("device", fingerprint(device)))
        await self.write(self.storage.users.seen(user_id, marks, time.time()))

    # ------------------------------------------------------------------ limits
    async def take_slot(self, key: str, limit: int, window: float, code: str) -> None:
        """One of ``key``'s slots, taken in the database before the work; 429 (``code``) when
        none is left in its window."""
        limits = self.storage.limits
        try:
            await self.write(limits.take(key, limit, window, time.time()))
        except StorageConflict:
            since = await asyncio.wrap_future(limits.window_start(key))
            raise refuse(429, code, minutes=minutes_left(since, window)) from None

    async def give_back(self, key: str) -> None:
        await self.write(self.storage.limits.give_back(key))

    async def guarded_check(
        self, key: str, address: str, password_hash: str | None, password: str
    ) -> bool:
        """A password checked under the log-in limits: the address's and the name's slots are
        taken first (429 without hashing when either is spent), kept when the password is wrong
        and given back when it is right."""
        by_address, by_name = f"address:{address}", f"name:{key}"
        # the name's slot first: of many guesses at one name at once, those past its limit are
        # refused before they hold one of the address's slots
        await self.take_slot(
            by_name, FAILURES_PER_NAME, FAILURE_WINDOW, "server.account.name_locked"
        )
        try:
            await self.take_slot(
                by_address, FAILURES_PER_ADDRESS, FAILURE_WINDOW, "server.account.address_locked"
            )
        except ApiError:
            await self.give_back(by_name)
            raise
        against = (
            password_hash if password_hash is not None else await asyncio.to_thread(dummy_hash)
        )
        right = await verified(against, password)
        if right and password_hash is not None:  # only this request's slots come back
            await self.give_back(by_name)
            await self.give_back(by_address)
            await self.write(self.storage.limits.prune(time.time() - SIGNUP_WINDOW))
            return True
        return False

    # ------------------------------------------------------------------ signing up, logging in
    async def sign_up(self, name: str, password: str, address: str) -> str:
        """A new account named ``name`` (already prepared by the name rules); its id. 429 past
        the address's sign-ups, 409 for a taken or look-alike name."""
        slot = f"signup:{address}"
        await self.take_slot(slot, SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW, "server.account.signups")
        try:
            return await self.new_user(name, password)
        except BaseException:
            await self.give_back(slot)
            raise

    async def new_user(self, name: str, password: str) -> str:
        users = self.storage.users
        key, marks = name_key(name), skeletons(name)
        await self.check_free(name, key, marks)
        user_id = secrets.token_urlsafe(12)
        password_hash = await hashed(password)
        try:
            await self.write(users.add(user_id, name, key, marks, password_hash, time.time()))
        except StorageConflict:  # another sign-up took it (or a look-alike) meanwhile
            await self.check_free(name, key, marks)
            raise refuse(409, "server.account.taken", user=name) from None
        return user_id

    async def check_free(self, name: str, key: str, marks: set[str]) -> None:
        users = self.storage.users
        if await asyncio.wrap_future(users.by_key(key)) is not None:
            raise refuse(409, "server.account.taken", user=name)
        other = await asyncio.wrap_future(users.look_alike(marks))
        if other is not None:
            raise refuse(409, "server.account.lookalike", user=name, other=other)

    async def log_in(self, name: str, password: str, address: str) -> tuple[str, str]:
        """(user id, name) of the account, or 401 (wrong name or password) or 429 (limits)."""
        key = name_key(name)
        found = await asyncio.wrap_future(self.storage.users.by_key(key))
        password_hash = None if found is None else found[2]
        if not await self.guarded_check(key, address, password_hash, password) or found is None:
            raise refuse(401, "server.account.wrong")
        user_id, shown, _ = found
        if HASHER.check_needs_rehash(password_hash or ""):
            await self.write(self.storage.users.set_password(user_id, await hashed(password)))
        return user_id, shown

    async def change_password(self, session: Session, old: str, new: str, address: str) -> None:
        """Set a new password (the old one checked under the log-in limits); every other
        session of the account ends."""
        users = self.storage.users
        current = await asyncio.wrap_future(users.password_hash_of(session.user_id))
        if not await self.guarded_check(name_key(session.name), address, current, old):
            raise refuse(403, "server.account.password_wrong")
        await self.write(users.set_password(session.user_id, await hashed(new)))
        others = [s for s in await self.sessions_of(session.user_id) if s != session.id]
        if others:
            await self.end_sessions(others)

    # ------------------------------------------------------------------ my games
    async def games(self, user_id: str) -> list[tuple[Table, list[int]]]:
        """The tables this account holds seats at, with its seats."""
        held: list[tuple[Table, list[int]]] = []
        found = await asyncio.wrap_future(self.storage.tables.of_user(user_id, MY_GAMES))
        for table_id, _over in found:
            try:
                table = await self.tables.get(table_id)
            except ApiError:
                continue
            mine = [s.seat for s in table.seats if s.user_id == user_id]
            if mine:
                held.append((table, mine))
        return held

    async def summaries(self, held: list[tuple[Table, list[int]]]) -> list[dict[str, Any]]:
        """The "My games" entries of these tables; a rematch that will never start (declined or
        withdrawn) is left out, as the table pages say it will not take place."""
        off = await asyncio.wrap_future(
            self.storage.rematches.called_off([table.id for table, _ in held])
        )
        held = [(table, mine) for table, mine in held if table.id not in off]
        last = await asyncio.wrap_future(
            self.storage.tables.last_moves([table.id for table, _ in held])
        )
        out = [await self.tables.summary(table, mine, last.get(table.id)) for table, mine in held]
        # unfinished first (your turn before the others'), each part newest move first
        out.sort(key=lambda g: (g["over"], not g["your_turn"], -(g["last_move_at"] or 0.0)))
        return out
