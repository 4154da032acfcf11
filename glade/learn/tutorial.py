"""The guided first game: a script that the server and the terminal both drive.

A script (``data/tutorial-<game>.json``, written by ``benchmarks/tutorial_search.py``) fixes the
seed and options and lists its entries in order: the opponent's moves (``{"opponent": [...]}``)
and the player's steps (``{"id", "say", "why", "params", "moves", "highlight", "claims"}``): what
to do, why, the exact moves it teaches, what to light up, and what the step claims about the game
once its moves are made (checked by the tests on every replay). The step's sentences are in
``data/tutorial-text-<game>.json`` in English, Korean and Chinese.

A ``Tutorial`` is the game plus its place in the script (``entry`` and ``done``: the moves of the
current step already made); ``to_json`` keeps both. ``check`` is the one question every driver
asks: is this action the step's move, and if not, why not. After the last entry the game goes on
in free play: every legal move is allowed and the driver plays the opponent with the bot the
script names.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from glade.core import Action, BadInput, Game, IllegalAction, Refusal
from glade.core.registry import load_game, new_game

from .rulebook import LANGS, check_lang, term
from .values import fill

FORMAT = "glade-tutorial/1"
TEXT_FORMAT = "glade-tutorial-text/1"
SAVE_FORMAT = "glade-tutorial-state/1"
REFUSAL = "tutorial.step"  # the code of a move the current step does not teach


@cache
def script(game: str) -> dict[str, Any]:
    """The packaged script of ``game`` (``harmonies`` or ``living-forest``)."""
    if game not in ("harmonies", "living-forest"):
        raise BadInput(f"there is no guided game of {game!r}: choose harmonies or living-forest")
    folder = resources.files("glade.learn").joinpath("data")
    data: dict[str, Any] = json.loads(folder.joinpath(f"tutorial-{game}.json").read_text("utf-8"))
    if data.get("format") != FORMAT or data.get("game") != game:
        raise ValueError(f"glade.learn: tutorial-{game}.json is not a {FORMAT} file of {game}")
    return data


@cache
def texts(game: str) -> dict[str, dict[str, str]]:
    """The sentences of ``game``'s guided game: key -> {"en", "ko", "zh"}."""
    folder = resources.files("glade.learn").joinpath("data")
    raw = json.loads(folder.joinpath(f"tutorial-text-{game}.json").read_text("utf-8"))
    if raw.get("format") != TEXT_FORMAT:
        raise ValueError(f"glade.learn: tutorial-text-{game}.json is not a {TEXT_FORMAT} file")
    found: dict[str, dict[str, str]] = raw["texts"]
    return found


def matches(expected: dict[str, Any], action: Action) -> bool:
    """True if ``action`` is the move ``expected`` describes: every field it names is equal (a
    list of values allows any of them); fields it does not name may be anything."""
    got = action.to_json()
    for key, want in expected.items():
        have = got.get(key)
        if isinstance(want, list) and key != "type":
            if have not in want:
                return False
        elif have != want:
            return False
    return True


# names the sentences show translated: param -> glossary key pattern
_WORDS = {
    "harmonies": {"colour": "harmonies.colour.{}", "card": "card.{}"},
    "living-forest": {
        "card": "lfcard.{}",
        "action": "living-forest.{}",
        "element": "living-forest.{}",
        "tile": "living-forest.{}",
    },
}
# a victory tile by its kind: the glossary's word for what it counts
_LF_TILE_TERMS = {"fire": "fire", "flower": "flower", "tree": "protective_tree"}
_LF_ACTION_TERMS = {
    "fragment": "take_fragment",
    "attract": "attract",
    "extinguish": "extinguish",
    "move": "move",
    "plant": "plant_tree",
}


def _word(game: str, name: str, value: Any, lang: str) -> str:
    """A param's value as the sentence shows it: game words translated, lists joined."""
    if isinstance(value, list):
        sep = "、" if lang == "zh" else ", "
        return sep.join(_word(game, name, v, lang) for v in value)
    if game == "harmonies" and name == "tokens":
        return _word(game, "colour", value, lang)
    pattern = _WORDS[game].get(name)
    if pattern is None or not isinstance(value, str):
        return str(value)
    if game == "living-forest" and name == "action":
        value = _LF_ACTION_TERMS.get(value, value)
    if game == "living-forest" and name == "tile":
        value = _LF_TILE_TERMS.get(value, value)
    return term(pattern.format(value), lang, value)


def say(game: str, key: str, params: dict[str, Any], lang: str) -> str:
    """The sentence ``key`` of ``game``'s guided game in ``lang`` with ``params`` shown in it."""
    shown = {name: _word(game, name, value, lang) for name, value in params.items()}
    return fill(texts(game)[key][lang], game, shown)


class Tutorial:
    """A guided game in progress: the game, and where it is in its script."""

    __slots__ = ("name", "data", "game", "entry", "done")

    name: str
    data: dict[str, Any]
    game: Game
    entry: int  # index of the current entry of the script (len(entries): free play)
    done: int  # moves of the current step already made

    def __init__(self, name: str) -> None:
        self.name = name
        self.data = script(name)
        self.game = new_game(name, seed=self.data["seed"], **self.data["options"])
        self.entry = 0
        self.done = 0
        self._play_opponent()

    # ------------------------------------------------------------------ where it is
    @property
    def seat(self) -> int:
        """The player's seat."""
        seat: int = self.data["seat"]
        return seat

    @property
    def entries(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.data["entries"]
        return found

    @property
    def free_play(self) -> bool:
        """True once the script is over: the game goes on with every legal move."""
        return self.entry >= len(self.entries)

    @property
    def opponent(self) -> dict[str, Any]:
        """The bot that plays the other seats in free play: ``{"bot", "seed"}``."""
        found: dict[str, Any] = self.data["opponent"]
        return found

    def steps(self) -> list[dict[str, Any]]:
        """The player's steps of the script, in order."""
        return [e for e in self.entries if "opponent" not in e]

    def current(self) -> dict[str, Any] | None:
        """The current step's entry (None in free play)."""
        if self.free_play:
            return None
        return self.entries[self.entry]

    def expected(self) -> dict[str, Any] | None:
        """The move the current step waits for next (None in free play)."""
        step = self.current()
        if step is None:
            return None
        move: dict[str, Any] = step["moves"][self.done]
        return move

    def step(self, lang: str = "en") -> dict[str, Any] | None:
        """The current step as a page or a terminal shows it (None in free play):
        ``{"index", "count", "id", "say", "why", "moves", "next", "done", "highlight"}``."""
        check_lang(lang)
        entry = self.current()
        if entry is None:
            return None
        steps = self.steps()
        index = steps.index(entry)
        params = entry.get("params", {})
        return {
            "index": index,
            "count": len(steps),
            "id": entry["id"],
            "say": say(self.name, f"say.{entry['say']}", params, lang),
            "why": say(self.name, f"why.{entry['why']}", params, lang),
            "moves": entry["moves"],
            "next": entry["moves"][self.done],
            "done": self.done,
            "highlight": entry.get("highlight", {}),
        }

    def text(self, key: str, lang: str = "en", **params: Any) -> str:
        """A sentence of the guided game that belongs to no step (``intro``, ``free``, ``over``)."""
        check_lang(lang)
        return say(self.name, key, params, lang)

    # ------------------------------------------------------------------ the one check
    def check(
        self, seat: int, action: Action | dict[str, Any], lang: str = "en"
    ) -> dict[str, Any] | None:
        """None if ``seat`` may play ``action`` now in this guided game; else why not:
        ``{"code", "step", "explanation", "expected", "engine"}`` — the current step's explanation
        in ``lang``, the move it waits for, and the engine's own refusal when the action is not
        even legal (``{"code", "params", "text"}`` or None). In free play only the engine judges
        (None here; ``play`` raises its refusal)."""
        check_lang(lang)
        act = Action.from_json(action)
        if self.free_play:
            return None
        entry = self.entries[self.entry]
        expected = entry["moves"][self.done]
        if seat == self.seat and act.type != "undo" and matches(expected, act):
            return None
        engine: dict[str, Any] | None = None
        try:
            probe = self.game.copy()
            probe.apply(seat, act)
        except (IllegalAction, BadInput) as exc:
            engine = {"code": exc.code, "params": exc.params, "text": str(exc)}
        if seat != self.seat:
            key = "refuse.not_you"
        elif act.type == "undo":
            key = "refuse.undo"
        else:
            key = f"refuse.{entry.get('refuse', entry['say'])}"
        return {
            "code": REFUSAL,
            "step": entry["id"],
            "explanation": say(self.name, key, entry.get("params", {}), lang),
            "expected": [expected],
            "engine": engine,
        }

    def explain(self, lang: str = "en") -> str | None:
        """Why the current step waits for its move (what a refusal of any other says); None in
        free play."""
        entry = self.current()
        if entry is None:
            return None
        key = f"refuse.{entry.get('refuse', entry['say'])}"
        return say(self.name, key, entry.get("params", {}), check_lang(lang))

    def play(self, seat: int, action: Action | dict[str, Any]) -> None:
        """Play ``action`` for ``seat`` if ``check`` allows it, then move the script on (and play
        the opponent's scripted moves that follow).

        :raises IllegalAction: with code ``tutorial.step`` (the step's explanation in English) when
            the step teaches another move, or the engine's refusal; the state is unchanged
        """
        act = Action.from_json(action)
        why = self.check(seat, act)
        if why is not None:
            raise IllegalAction(Refusal(REFUSAL, why["explanation"], {"step": why["step"]}))
        self.game.apply(seat, act)
        if self.free_play:
            return
        self.done += 1
        if self.done == len(self.entries[self.entry]["moves"]):
            self.entry += 1
            self.done = 0
            self._play_opponent()

    def _play_opponent(self) -> None:
        """Apply the scripted opponent moves due now."""
        while not self.free_play and "opponent" in self.entries[self.entry]:
            for seat, move in self.entries[self.entry]["opponent"]:
                self.game.apply(seat, move)
            self.entry += 1

    # ------------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        """Everything to resume: the game's save, the entry and the moves made in it."""
        return {
            "format": SAVE_FORMAT,
            "tutorial": self.name,
            "entry": self.entry,
            "done": self.done,
            "game": self.game.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Tutorial:
        """The inverse of ``to_json``.

        :raises BadInput: not a saved guided game, or one that does not fit its script
        """
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise BadInput("this is not a saved guided game")
        name = data.get("tutorial")
        entry, done = data.get("entry"), data.get("done")
        if not isinstance(name, str) or not isinstance(entry, int) or not isinstance(done, int):
            raise BadInput("a saved guided game names its game, its entry and its moves made")
        t = cls(name)
        if not 0 <= entry <= len(t.entries) or done < 0:
            raise BadInput("the saved guided game is past the end of its script")
        if entry < len(t.entries) and done >= len(t.entries[entry].get("moves", [])):
            raise BadInput("the saved guided game is past the end of its step")
        game = load_game(data["game"])
        if game.game_name != name or game.seed != t.data["seed"]:
            raise BadInput("the saved guided game was not played from this script")
        t.game, t.entry, t.done = game, entry, done
        return t

    @classmethod
    def replay(cls, name: str, upto: int | None = None) -> Tutorial:
        """A guided game with every scripted step played (or the first ``upto`` steps)."""
        t = cls(name)
        played = 0
        while not t.free_play and (upto is None or played < upto):
            entry = t.entries[t.entry]
            for move in entry["moves"]:
                t.play(t.seat, move)
            played += 1
        return t


__all__ = ["LANGS", "REFUSAL", "Tutorial", "matches", "say", "script", "texts"]
