"""The learning routes: the rules pages' content and the guided first games (no account: the
page keeps a guided game's progress and sends it back with each move)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from glade.core import BadInput, IllegalAction

from ..errors import ApiError
from ..features import learn

router = APIRouter()


class LearnMove(BaseModel):
    """A move of the guided game: the save the page keeps, and the action (None: just resume)."""

    model_config = ConfigDict(extra="forbid")
    state: dict[str, Any]
    action: dict[str, Any] | None = None
    lang: str = "en"


def refused(exc: BadInput | IllegalAction) -> ApiError:
    return ApiError(422, str(exc), exc.code, exc.params)


@router.get("/api/rules", summary="The learning pages' words in every language (ui-text.json)")
def get_words() -> Any:
    return JSONResponse({"texts": learn.ui_texts()})


@router.get("/api/rules/{game}", summary="The rules of a game in a language, section by section")
def get_rules(game: str, lang: str = Query(default="en")) -> Any:
    try:
        return JSONResponse(learn.rules_page(game, lang))
    except BadInput as exc:
        raise refused(exc) from exc


@router.get("/api/learn/{game}", summary="A guided first game at its first step")
def get_learn(game: str, lang: str = Query(default="en")) -> Any:
    try:
        return JSONResponse(learn.start(game, lang))
    except BadInput as exc:
        raise refused(exc) from exc


@router.post(
    "/api/learn/{game}/check",
    summary="Check a move of a guided game: played with the replies, or refused with the step's "
    "explanation",
)
def post_check(game: str, body: LearnMove) -> Any:
    try:
        return JSONResponse(learn.check(game, body.state, body.action, body.lang))
    except (BadInput, IllegalAction) as exc:
        raise refused(exc) from exc
