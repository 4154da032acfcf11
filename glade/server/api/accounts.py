"""The account routes: sign up, log in and out, the password, claiming seats, "my games" and
device keys.

A session is a random secret in an HttpOnly, SameSite=Lax cookie (Secure over https); every
state-changing request the cookie authenticates must send the session's CSRF token back in the
``X-CSRF-Token`` header. A browser also keeps a lasting random device id in a cookie of its own
(``glade_device``), noted (hashed) with the accounts that log in on it, for the ratings.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from ..domain import Table
from ..errors import ApiError
from ..features.accounts import SESSION_SECONDS
from .deps import (
    COOKIE,
    DEVICE_COOKIE,
    AccountDep,
    ClientDep,
    MaybeAccount,
    SeatToken,
    ServicesDep,
    bearer,
    seat_url,
    session_of,
)
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
)

router = APIRouter()
DEVICE_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie


def set_cookie(request: Request, response: Response, name: str, value: str, age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=age,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


def device_of(request: Request) -> tuple[str, bool]:
    """This browser's device id, and whether it is new (to be set in the answer)."""
    found = request.cookies.get(DEVICE_COOKIE, "")
    if 16 <= len(found) <= 64 and found.replace("-", "").replace("_", "").isalnum():
        return found, False
    return secrets.token_urlsafe(18), True


async def logged_in(
    request: Request, services: ServicesDep, user_id: str, name: str, address: str
) -> JSONResponse:
    """Start a session for the account (replacing this browser's previous one), note where it
    was seen, and answer with its cookie."""
    accounts = services.accounts
    device, new_device = device_of(request)
    session, secret = await accounts.start_session(
        user_id, name, address, await session_of(request)
    )
    await accounts.seen(user_id, address, device)
    response = JSONResponse(session.state())
    set_cookie(request, response, COOKIE, secret, SESSION_SECONDS)
    if new_device:
        set_cookie(request, response, DEVICE_COOKIE, device, DEVICE_SECONDS)
    return response


async def log_out(request: Request, services: ServicesDep, session_ids: list[str]) -> JSONResponse:
    """End these sessions; the answer forgets this browser's cookie."""
    await services.accounts.end_sessions(session_ids)
    response = JSONResponse({"user": None, "csrf": None})
    clear_cookie(request, response)
    return response


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
            clear_cookie(request, response)  # an ended session: forget its cookie
        return response
    return session.state()


@router.post(
    "/api/account/signup",
    status_code=201,
    response_model=AccountState,
    summary="Create an account and log in (sets the session cookie)",
)
async def signup(
    body: Credentials, request: Request, services: ServicesDep, client: ClientDep
) -> Any:
    user_id = await services.accounts.sign_up(body.name, body.password, client)
    response = await logged_in(request, services, user_id, body.name, client)
    response.status_code = 201
    return response


@router.post(
    "/api/account/login",
    response_model=AccountState,
    summary="Log in (sets the session cookie); refused log-ins are limited per name and address",
)
async def login(
    body: LoginCredentials, request: Request, services: ServicesDep, client: ClientDep
) -> Any:
    user_id, name = await services.accounts.log_in(body.name, body.password, client)
    return await logged_in(request, services, user_id, name, client)


@router.post("/api/account/logout", response_model=AccountState, summary="End this session")
async def logout(request: Request, services: ServicesDep, session: AccountDep) -> Any:
    return await log_out(request, services, [session.id])


@router.post(
    "/api/account/logout-everywhere",
    response_model=AccountState,
    summary="End every session of this account (every device)",
)
async def logout_everywhere(request: Request, services: ServicesDep, session: AccountDep) -> Any:
    ids = await services.accounts.sessions_of(session.user_id)
    return await log_out(request, services, sorted(set(ids) | {session.id}))


@router.post(
    "/api/account/password",
    response_model=AccountState,
    summary="Change the password; every other session of the account ends",
)
async def change_password(
    body: PasswordChange, services: ServicesDep, session: AccountDep, client: ClientDep
) -> Any:
    await services.accounts.change_password(session, body.old, body.new, client)
    return session.state()


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
    services: ServicesDep,
    session: MaybeAccount,
    client: ClientDep,
    authorization: SeatToken = None,
) -> Any:
    tables = services.tables
    table = await tables.get(game_id)
    name = body.name
    if name is None and session is not None:
        name = session.name
    seat, token = await tables.claim(
        table,
        bearer(authorization),
        name,
        body.seat,
        None if session is None else session.user_id,
        account=None if session is None else session.name,
    )
    if session is not None:  # where an account plays from (for the ratings)
        device, _ = device_of(request)
        await services.accounts.seen(
            session.user_id, client, device if DEVICE_COOKIE in request.cookies else None
        )
    return {"id": table.id, "seat": seat, "token": token, "url": seat_url(request, table.id, token)}


@router.get(
    "/api/account/games",
    response_model=MyGames,
    summary="The games this account holds seats in: whose turn, last move, result",
)
async def account_games(services: ServicesDep, session: AccountDep) -> Any:
    accounts = services.accounts
    held = await accounts.games(session.user_id)
    return {"games": await accounts.summaries(held), "gone": []}


@router.post(
    "/api/my-games",
    response_model=MyGames,
    summary="A guest's games from the seat credentials kept in the browser",
)
async def guest_games(body: GuestGames, services: ServicesDep) -> Any:
    tables = services.tables
    seats: dict[str, tuple[Table, set[int]]] = {}
    gone: list[str] = []
    for item in body.games:
        try:
            table = await tables.get(item.id)
            seat = table.seat_of(item.token)
        except ApiError:
            gone.append(item.id)
            continue
        assert seat is not None
        seats.setdefault(table.id, (table, set()))[1].add(seat)
    held = [(table, sorted(mine)) for table, mine in seats.values()]
    games = await services.accounts.summaries(held)
    return {"games": games, "gone": sorted(set(gone) - set(seats))}


@router.post(
    "/api/account/games/{game_id}/keys",
    response_model=SeatKeys,
    summary="A key for this device to each seat the account holds in a game",
)
async def seat_keys(game_id: str, services: ServicesDep, session: AccountDep) -> Any:
    tables = services.tables
    table = await tables.get(game_id)
    keys = await tables.add_key(table, session.user_id, session.id)
    return {"id": table.id, "tokens": {str(seat): key for seat, key in keys.items()}}
