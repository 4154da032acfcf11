"""The API's dependencies: the services a route uses, the caller's seat credential, session and
address. Routes take them as FastAPI dependencies; the app puts the :class:`Services` it wires
at start-up in its state, and nothing else is read from there."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request, WebSocket

from ..config import Settings
from ..domain import Tables
from ..features.accounts import Accounts, Session
from ..features.analysis import Analysis
from ..features.bots import Bots
from ..features.clocks import Clocks
from ..features.ratings import Ratings
from ..features.reviews import Reviews
from ..features.social import Social
from ..refusals import refuse
from ..storage import Storage

COOKIE = "glade_session"
DEVICE_COOKIE = "glade_device"  # a browser's lasting random id, kept (hashed) with its accounts
CSRF_HEADER = "X-CSRF-Token"


@dataclass
class Services:
    """Everything the routes use, wired by the app when it starts."""

    settings: Settings
    storage: Storage
    tables: Tables
    bots: Bots
    analysis: Analysis
    clocks: Clocks
    social: Social
    ratings: Ratings
    reviews: Reviews
    accounts: Accounts
    draining: bool = False  # the server is stopping: the health check says so


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


def socket_services(websocket: WebSocket) -> Services:
    found: Services = websocket.app.state.services
    return found


def tables(request: Request) -> Tables:
    return services(request).tables


def client_of(request: Request) -> str:
    """The caller's address (a trusted proxy's X-Forwarded-For applied by uvicorn)."""
    return request.client.host if request.client else "unknown"


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None: no header)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise refuse(403, "server.seat.bearer")
    return token.strip()


Auth = Annotated[
    str | None,
    Header(description="Bearer <seat token>; leave out to watch as a spectator"),
]
SeatToken = Annotated[
    str | None,
    Header(description="Bearer <invite token or seat credential>; leave out to take an open seat"),
]


def check_csrf(request: Request, session: Session) -> None:
    """A state-changing request that the cookie authenticates must carry the CSRF token."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode()):
        raise refuse(403, "server.account.csrf")


async def session_of(request: Request) -> Session | None:
    """The live session this request's cookie names (None: a guest, or a session that ended)."""
    return await services(request).accounts.session(request.cookies.get(COOKIE))


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


ServicesDep = Annotated[Services, Depends(services)]
TablesDep = Annotated[Tables, Depends(tables)]
ClientDep = Annotated[str, Depends(client_of)]
MaybeAccount = Annotated[Session | None, Depends(optional_account)]
AccountDep = Annotated[Session, Depends(account)]


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def seat_url(request: Request, table_id: str, token: str) -> str:
    """The link that opens a seat (its credential in the fragment, never sent to a server)."""
    return f"{base_url(request)}/?game={table_id}#token={token}"
