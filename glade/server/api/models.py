"""Request and answer bodies of the web API (they make ``/openapi.json``)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..features.social import CHAT_MAX
from ..names import USER_NAME_MAX, USER_NAME_MIN, NameRefused, prepared
from ..refusals import SERVER


def printable(name: str) -> str:
    """A player's name: no control characters (NUL, newlines, …), no lone surrogates."""
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(SERVER.refuse("server.name.control"))
    if not name.strip():
        raise ValueError(SERVER.refuse("server.name.blank"))
    return name


Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(printable)]
BotSpec = Annotated[
    str, Field(min_length=1, max_length=40, examples=["random", "greedy", "mcts:normal"])
]
Version = Annotated[int, Field(ge=0, le=1_000_000, strict=True)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HumanSeat(Strict):
    """A person's seat; without a name it stays open and is listed in the lobby."""

    kind: Literal["human"]
    name: Name | None = None


class BotSeat(Strict):
    """A seat the server plays with a bot from the registry."""

    kind: Literal["bot"]
    bot: BotSpec
    name: Name | None = None


class RealTimeClock(Strict):
    """A clock for the game plus an increment after each turn (e.g. 5 min + 20 s)."""

    kind: Literal["realtime"]
    base: Annotated[int, Field(strict=True, ge=1, le=10_800)] = Field(
        examples=[300], description="seconds for the whole game (at least 60 on most servers)"
    )
    increment: Annotated[int, Field(strict=True, ge=0, le=600)] = Field(
        default=0, examples=[20], description="seconds added after each turn"
    )


class CorrespondenceClock(Strict):
    """A deadline for each turn: 1, 2 or 3 days."""

    kind: Literal["correspondence"]
    days: Literal[1, 2, 3]


class NoClock(Strict):
    kind: Literal["none"]


Clock = Annotated[RealTimeClock | CorrespondenceClock | NoClock, Field(discriminator="kind")]


class CreateGame(Strict):
    game: Literal["harmonies", "living-forest"] = Field(examples=["harmonies"])
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=16,
        description='Game options, e.g. {"side": "B", "spirits": true}; "players" defaults to '
        "the number of seats (one seat is a solo game).",
    )
    seats: list[Annotated[HumanSeat | BotSeat, Field(discriminator="kind")]] = Field(
        min_length=1, max_length=4
    )
    clock: Clock | None = Field(
        default=None,
        description="none (the default), real-time (base + increment seconds) or "
        "correspondence (days per turn); a seat whose clock runs out is played by a bot",
    )
    rated: bool = Field(
        default=False,
        description="A rated table: its end moves the players' OpenSkill ratings. Every human "
        "seat must belong to an account; bots play as their level's rated identity.",
    )


class SeatTicket(BaseModel):
    seat: int
    token: str | None = Field(description="secret of a human seat; null for bot seats")
    url: str | None = Field(description="invite link of a human seat; null for bot seats")


class Created(BaseModel):
    id: str
    seats: list[SeatTicket]
    spectate_url: str


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    name: str | None
    bot: str | None
    open: bool = Field(description="a human seat nobody has claimed yet")
    user_id: str | None = Field(
        default=None, description="the public id of the account holding the seat (None: a guest)"
    )
    status: Literal["timed out", "left"] | None = Field(
        default=None, description="a bot took the seat over: its clock ran out, or it left"
    )


class GameState(BaseModel):
    """One seat's picture of a game (a spectator's when no token is given)."""

    id: str
    game: str
    options: dict[str, Any]
    version: int
    seat: int | None
    to_act: list[int]
    over: bool
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    seats: list[SeatInfo]
    result: dict[str, Any] | None = None


class HintMove(BaseModel):
    actions: list[dict[str, Any]] = Field(description="the move, as actions to play in order")
    score: float | None = Field(description="expected final score after it (None: not searched)")
    win: float | None = Field(description="estimated probability of winning (None in solo)")
    teach: list[dict[str, Any]] = Field(
        default=[],
        description="what the move gains, part by part ({code, params}: glade.bots.teach)",
    )
    lesson: str | None = Field(
        default=None, description="the same in words, in the asked language (None: no gain)"
    )


class Hints(BaseModel):
    """The search bot's best moves for the asking seat, best first."""

    version: int
    actions: list[dict[str, Any]] = Field(description="the best move (the first of ``hints``)")
    hints: list[HintMove]


class PastView(BaseModel):
    """A finished game's public view after its first ``move`` logged moves."""

    move: int
    to_act: list[int]
    view: dict[str, Any]


class PostAction(Strict):
    action: dict[str, Any] = Field(max_length=8, examples=[{"type": "take_tokens", "space": 2}])
    version: Version = Field(description="the version of the state this action was chosen on")


class LogEntry(BaseModel):
    version: int = Field(description="the game version this action produced")
    seat: int
    action: dict[str, Any]
    at: float = Field(description="Unix time when it was accepted")


class GameLog(BaseModel):
    """The public record of a game: what everyone saw, in order."""

    id: str
    game: str
    options: dict[str, Any]
    version: int
    over: bool
    initial_view: dict[str, Any] = Field(description="the spectator's view before the first action")
    history: list[LogEntry] = Field(description="every accepted action, undos included")
    moves: list[dict[str, Any]] = Field(
        description="the moves that stand (undone ones removed) with their public chance outcomes"
    )
    seats: list[SeatInfo]
    seed: int | None = Field(description="revealed once the game is over, so anyone can replay it")
    result: dict[str, Any] | None = None


class Join(Strict):
    name: Name
    seat: Annotated[int, Field(strict=True, ge=0, le=3)] | None = Field(
        default=None, description="which open seat; default: the first"
    )


class Joined(BaseModel):
    id: str
    seat: int
    token: str
    url: str


class LobbyGame(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    created_at: float


class Lobby(BaseModel):
    games: list[LobbyGame]


class Error(BaseModel):
    error: str = Field(description="what was wrong, in one sentence")


# ---------------------------------------------------------------------- accounts
PASSWORD_MIN, PASSWORD_MAX = 8, 200


def user_name(name: str) -> str:
    """An account's name by the rules of ``glade.server.names`` (PRECIS, a letter or digit,
    letters, digits and ``_ - .``), as it will be stored."""
    try:
        return prepared(name)
    except NameRefused as exc:
        params: dict[str, int] = {}
        if exc.code == "name_length":
            params = {"min": USER_NAME_MIN, "max": USER_NAME_MAX}
        raise ValueError(SERVER.refuse(f"server.account.{exc.code}", **params)) from None


def password_text(password: str) -> str:
    for ch in password:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(SERVER.refuse("server.account.password_control"))
    return password


def new_password(password: str) -> str:
    """A password being set: its length checked here, so the refusal has a code."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(
            SERVER.refuse("server.account.password_length", min=PASSWORD_MIN, max=PASSWORD_MAX)
        )
    return password_text(password)


def no_control(name: str) -> str:
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(SERVER.refuse("server.account.name_control"))
    return name


UserName = Annotated[str, AfterValidator(user_name)]
Password = Annotated[
    str,
    Field(json_schema_extra={"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX}),
    AfterValidator(new_password),
]


class Credentials(Strict):
    name: UserName
    password: Password


class LoginCredentials(Strict):
    """A log-in: any name is looked up (a wrong one is a wrong name, not a malformed request)."""

    name: Annotated[
        str, Field(min_length=1, max_length=4 * USER_NAME_MAX), AfterValidator(no_control)
    ]
    password: Annotated[
        str, Field(min_length=1, max_length=PASSWORD_MAX), AfterValidator(password_text)
    ]


class PasswordChange(Strict):
    old: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX), AfterValidator(password_text)]
    new: Password


class User(BaseModel):
    id: str
    name: str


class AccountState(BaseModel):
    """Who this browser is logged in as (``user`` null: a guest) and the session's CSRF token,
    to send as ``X-CSRF-Token`` with every state-changing request."""

    user: User | None
    csrf: str | None


class Claim(Strict):
    name: Name | None = Field(default=None, description="needed when the seat has no name yet")
    seat: Annotated[int, Field(strict=True, ge=0, le=3)] | None = Field(
        default=None, description="without an invite token: which open seat (default: the first)"
    )


class HeldSeat(Strict):
    id: Annotated[str, Field(min_length=1, max_length=64)]
    token: Annotated[str, Field(min_length=1, max_length=200)]


class GuestGames(Strict):
    games: list[HeldSeat] = Field(max_length=100)


class MyGame(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    version: int
    seats: list[SeatInfo]
    mine: list[int] = Field(description="the seats this player holds")
    to_act: list[int]
    your_turn: bool
    over: bool
    result: dict[str, Any] | None
    last_move_at: float | None = Field(description="Unix time of the last move (None: none yet)")


class MyGames(BaseModel):
    games: list[MyGame]
    gone: list[str] = Field(default_factory=list, description="ids whose seat no longer opens")


class SeatKeys(BaseModel):
    id: str
    tokens: dict[str, str] = Field(description="seat number -> a key for this device")


def chat_text(text: str) -> str:
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            raise ValueError("a chat message may not hold control characters or line breaks")
    if not text.strip():
        raise ValueError("a chat message needs a visible character")
    return text.strip()


class ChatPost(Strict):
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX), AfterValidator(chat_text)]
