"""Accounts: sign up, log in and out, sessions, CSRF, claimed invites and "my games".

Accounts are optional: a guest plays with the seat credentials kept in the browser, as before.
A password is hashed with Argon2id (argon2-cffi) in a worker thread and never logged or stored
in clear. A session is a random secret in an HttpOnly, SameSite=Lax cookie (Secure over https);
the database keeps only its SHA-256 with the session's CSRF token, which every state-changing
request authenticated by the cookie must send back in the ``X-CSRF-Token`` header. Refused
log-ins are counted in the database per name and per address, so every server process shares the
limit. Seats a logged-in player claims belong to the account; another device of the account gets
its own device key per seat (``POST /api/account/games/{id}/keys``), which dies with the session.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, Depends, Header, Request, Response
from fastapi.responses import JSONResponse

from .errors import ApiError
from .models import (
    AccountState,
    Claim,
    Credentials,
    GuestGames,
    Joined,
    LoginCredentials,
    MyGames,
    PasswordChange,
    SeatKeys,
    name_key,
)
from .refusals import refuse
from .storage import StorageConflict, StorageError
from .tables import Room, Tables, hash_token

router = APIRouter()

COOKIE = "glade_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_SECONDS = 30 * 24 * 3600  # a session unseen this long has ended
TOUCH_SECONDS = 3600  # last_seen is written at most this often per session
FAILURE_WINDOW = 15 * 60  # refused log-ins are counted over this many seconds
FAILURES_PER_NAME = 5
FAILURES_PER_ADDRESS = 20
SIGNUP_WINDOW = 3600
SIGNUPS_PER_ADDRESS = 10
MY_GAMES = 60  # games listed per account

# Argon2id with argon2-cffi's recommended cost (RFC 9106's low-memory profile: 64 MiB, t=3, p=4)
HASHER = PasswordHasher()
_dummy: dict[str, str] = {}


def _dummy_hash() -> str:
    """A hash verified against when the name is unknown, so that answer takes as long as a
    wrong password (made once per hasher, on first use)."""
    params = repr((HASHER.time_cost, HASHER.memory_cost, HASHER.parallelism))
    found = _dummy.get(params)
    if found is None:
        found = _dummy[params] = HASHER.hash(secrets.token_urlsafe(16))
    return found


SeatToken = Annotated[
    str | None,
    Header(description="Bearer <invite token or seat credential>; leave out to take an open seat"),
]


@dataclass
class Session:
    id: str  # the SHA-256 of the cookie's secret
    user_id: str
    name: str
    csrf: str


def _tables(request: Request) -> Tables:
    found: Tables = request.app.state.tables
    return found


async def _wait(future: Any) -> Any:
    return await asyncio.wrap_future(future)


async def _write(future: Any) -> None:
    try:
        await asyncio.wrap_future(future)
    except StorageConflict:
        raise
    except StorageError:
        raise refuse(503, "server.account.unsaved") from None


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


# ---------------------------------------------------------------------- sessions and CSRF
async def session_of(request: Request) -> Session | None:
    """The live session this request's cookie names (None: a guest, or a session that ended)."""
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 128:
        return None
    sid = hash_token(raw)
    storage = _tables(request).storage
    found = await _wait(storage.session(sid))
    if found is None:
        return None
    user_id, name, csrf, last_seen = found
    now = time.time()
    if now - last_seen > SESSION_SECONDS:
        return None
    if now - last_seen > TOUCH_SECONDS:
        await _write(storage.touch_session(sid, now))
    return Session(sid, user_id, name, csrf)


def _state(session: Session) -> dict[str, Any]:
    """The answer of GET /api/account for a logged-in browser."""
    return {"user": {"id": session.user_id, "name": session.name}, "csrf": session.csrf}


def check_csrf(request: Request, session: Session) -> None:
    """A state-changing request that the cookie authenticates must carry the CSRF token."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode()):
        raise refuse(403, "server.account.csrf")


async def optional_account(request: Request) -> Session | None:
    """Dependency: the logged-in account, if any (CSRF-checked for state-changing requests)."""
    session = await session_of(request)
    if session is not None:
        check_csrf(request, session)
    return session


async def account(request: Request) -> Session:
    """Dependency: the logged-in account; 401 for a guest or an ended session."""
    session = await session_of(request)
    if session is None:
        raise refuse(401, "server.account.logged_out")
    check_csrf(request, session)
    return session


def _set_cookie(request: Request, response: Response, secret: str) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        max_age=SESSION_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


async def _start_session(request: Request, user_id: str, name: str) -> JSONResponse:
    storage = _tables(request).storage
    old = await session_of(request)  # a log-in replaces this browser's previous session
    if old is not None:
        await _end_sessions(request, [old.id])
    secret = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    now = time.time()
    await _write(storage.expire_sessions(now - SESSION_SECONDS))  # forget long-ended ones
    await _write(storage.add_session(hash_token(secret), user_id, csrf, now, _address(request)))
    response = JSONResponse({"user": {"id": user_id, "name": name}, "csrf": csrf})
    _set_cookie(request, response, secret)
    return response


async def _end_sessions(request: Request, session_ids: list[str]) -> None:
    tables = _tables(request)
    games = await _wait(tables.storage.games_keyed_by(session_ids))
    await _write(tables.storage.delete_sessions(session_ids, games))
    tables.drop_sessions(set(session_ids))


# ---------------------------------------------------------------------- passwords and limits
async def _hash(password: str) -> str:
    return await asyncio.to_thread(HASHER.hash, password)


async def _verify(password_hash: str, password: str) -> bool:
    def verify() -> bool:
        try:
            return HASHER.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)


def _minutes(oldest: float | None, window: float) -> int:
    if oldest is None:
        return math.ceil(window / 60)
    return max(1, math.ceil((oldest + window - time.time()) / 60))


async def _check_limits(request: Request, key: str) -> None:
    """429 while the name or the address has too many refused log-ins in the window."""
    storage = _tables(request).storage
    since = time.time() - FAILURE_WINDOW
    count, oldest = await _wait(storage.failures_since(f"address:{_address(request)}", since))
    if count >= FAILURES_PER_ADDRESS:
        raise refuse(429, "server.account.address_locked", minutes=_minutes(oldest, FAILURE_WINDOW))
    count, oldest = await _wait(storage.failures_since(f"name:{key}", since))
    if count >= FAILURES_PER_NAME:
        raise refuse(429, "server.account.name_locked", minutes=_minutes(oldest, FAILURE_WINDOW))


async def _refused(request: Request, key: str) -> ApiError:
    now = time.time()
    await _write(
        _tables(request).storage.record_failure(
            [f"name:{key}", f"address:{_address(request)}"], now
        )
    )
    return refuse(401, "server.account.wrong")


# ---------------------------------------------------------------------- the routes
@router.get(
    "/api/account",
    response_model=AccountState,
    summary="Who this browser is logged in as, and the session's CSRF token",
)
async def me(request: Request) -> Any:
    session = await session_of(request)
    if session is None:
        response = JSONResponse({"user": None, "csrf": None})
        if COOKIE in request.cookies:
            _clear_cookie(request, response)  # an ended session: forget its cookie
        return response
    return _state(session)


@router.post(
    "/api/account/signup",
    status_code=201,
    response_model=AccountState,
    summary="Create an account and log in (sets the session cookie)",
)
async def signup(body: Credentials, request: Request) -> Any:
    storage = _tables(request).storage
    now = time.time()
    address = f"signup:{_address(request)}"
    count, oldest = await _wait(storage.failures_since(address, now - SIGNUP_WINDOW))
    if count >= SIGNUPS_PER_ADDRESS:
        raise refuse(429, "server.account.signups", minutes=_minutes(oldest, SIGNUP_WINDOW))
    key = name_key(body.name)
    taken = refuse(409, "server.account.taken", user=body.name)
    if await _wait(storage.user_by_key(key)) is not None:
        raise taken
    user_id = secrets.token_urlsafe(12)
    password_hash = await _hash(body.password)
    try:
        await _write(storage.add_user(user_id, body.name, key, password_hash, now))
    except StorageConflict:
        raise taken from None
    await _write(storage.record_failure([address], now))  # counts sign-ups per address
    response = await _start_session(request, user_id, body.name)
    response.status_code = 201
    return response


@router.post(
    "/api/account/login",
    response_model=AccountState,
    summary="Log in (sets the session cookie); refused log-ins are limited per name and address",
)
async def login(body: LoginCredentials, request: Request) -> Any:
    storage = _tables(request).storage
    key = name_key(body.name)
    await _check_limits(request, key)
    found = await _wait(storage.user_by_key(key))
    if found is None:
        await _verify(await asyncio.to_thread(_dummy_hash), body.password)
        raise await _refused(request, key)
    user_id, name, password_hash = found
    if not await _verify(password_hash, body.password):
        raise await _refused(request, key)
    await _write(storage.forget_failures(f"name:{key}", time.time() - FAILURE_WINDOW))
    if HASHER.check_needs_rehash(password_hash):
        await _write(storage.set_password(user_id, await _hash(body.password)))
    return await _start_session(request, user_id, name)


async def _log_out(request: Request, session_ids: list[str]) -> JSONResponse:
    """End these sessions; the answer forgets this browser's cookie."""
    await _end_sessions(request, session_ids)
    response = JSONResponse({"user": None, "csrf": None})
    _clear_cookie(request, response)
    return response


@router.post("/api/account/logout", response_model=AccountState, summary="End this session")
async def logout(request: Request, session: Annotated[Session, Depends(account)]) -> Any:
    return await _log_out(request, [session.id])


@router.post(
    "/api/account/logout-everywhere",
    response_model=AccountState,
    summary="End every session of this account (every device)",
)
async def logout_everywhere(request: Request, session: Annotated[Session, Depends(account)]) -> Any:
    ids = await _wait(_tables(request).storage.sessions_of(session.user_id))
    return await _log_out(request, sorted(set(ids) | {session.id}))


@router.post(
    "/api/account/password",
    response_model=AccountState,
    summary="Change the password; every other session of the account ends",
)
async def change_password(
    body: PasswordChange, request: Request, session: Annotated[Session, Depends(account)]
) -> Any:
    storage = _tables(request).storage
    key = name_key(session.name)
    await _check_limits(request, key)
    current = await _wait(storage.password_hash_of(session.user_id))
    if current is None or not await _verify(current, body.old):
        await _refused(request, key)
        raise refuse(403, "server.account.password_wrong")
    await _write(storage.set_password(session.user_id, await _hash(body.new)))
    others = [s for s in await _wait(storage.sessions_of(session.user_id)) if s != session.id]
    if others:
        await _end_sessions(request, others)
    return _state(session)


# ---------------------------------------------------------------------- seats and my games
def _url(request: Request, game_id: str, token: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/?game={game_id}#token={token}"


@router.post(
    "/api/games/{game_id}/claim",
    response_model=Joined,
    summary="Claim a seat for this browser (and account): an invite is spent for a fresh "
    "credential; without a token, take an open seat",
)
async def claim(
    game_id: str,
    body: Claim,
    request: Request,
    session: Annotated[Session | None, Depends(optional_account)],
    authorization: SeatToken = None,
) -> Any:
    from .app import _bearer  # app.py includes this module's routes

    tables = _tables(request)
    room = await tables.get(game_id)
    name = body.name
    if name is None and session is not None:
        name = session.name
    seat, token = await tables.claim(
        room,
        _bearer(authorization),
        name,
        body.seat,
        None if session is None else session.user_id,
    )
    return {"id": room.id, "seat": seat, "token": token, "url": _url(request, room.id, token)}


async def _summaries(tables: Tables, held: list[tuple[Room, list[int]]]) -> list[dict[str, Any]]:
    last = await _wait(tables.storage.last_moves([room.id for room, _ in held]))
    out = [await tables.summary(room, mine, last.get(room.id)) for room, mine in held]
    # unfinished first (your turn before the others'), each part newest move first
    out.sort(key=lambda g: (g["over"], not g["your_turn"], -(g["last_move_at"] or 0.0)))
    return out


@router.get(
    "/api/account/games",
    response_model=MyGames,
    summary="The games this account holds seats in: whose turn, last move, result",
)
async def account_games(request: Request, session: Annotated[Session, Depends(account)]) -> Any:
    tables = _tables(request)
    held: list[tuple[Room, list[int]]] = []
    for game_id, _over in await _wait(tables.storage.games_of_user(session.user_id, MY_GAMES)):
        try:
            room = await tables.get(game_id)
        except ApiError:
            continue
        mine = [s.seat for s in room.seats if s.user_id == session.user_id]
        if mine:
            held.append((room, mine))
    return {"games": await _summaries(tables, held), "gone": []}


@router.post(
    "/api/my-games",
    response_model=MyGames,
    summary="A guest's games from the seat credentials kept in the browser",
)
async def guest_games(body: GuestGames, request: Request) -> Any:
    tables = _tables(request)
    seats: dict[str, tuple[Room, set[int]]] = {}
    gone: list[str] = []
    for item in body.games:
        try:
            room = await tables.get(item.id)
            seat = room.seat_of(item.token)
        except ApiError:
            gone.append(item.id)
            continue
        assert seat is not None
        seats.setdefault(room.id, (room, set()))[1].add(seat)
    held = [(room, sorted(mine)) for room, mine in seats.values()]
    return {"games": await _summaries(tables, held), "gone": sorted(set(gone) - set(seats))}


@router.post(
    "/api/account/games/{game_id}/keys",
    response_model=SeatKeys,
    summary="A key for this device to each seat the account holds in a game",
)
async def seat_keys(
    game_id: str, request: Request, session: Annotated[Session, Depends(account)]
) -> Any:
    tables = _tables(request)
    room = await tables.get(game_id)
    keys = await tables.add_key(room, session.user_id, session.id)
    return {"id": room.id, "tokens": {str(seat): key for seat, key in keys.items()}}


__all__ = ["COOKIE", "CSRF_HEADER", "account", "optional_account", "router", "session_of"]
