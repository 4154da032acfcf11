"""Errors shared by every game, and the refusal catalogues that make them translatable.

A refusal has three parts: a stable ``code`` (``"stack.not_allowed"``), language-neutral ``params``
(colour names, cell coordinates, counts) and the English sentence built from the code's template.
Clients translate from ``code`` and ``params``; the English sentence is what ``str()`` gives.

Each rules package owns one :class:`Catalogue` of its codes (``glade.harmonies.refusals``,
``glade.living_forest.refusals``); ``glade.core.refusals`` holds the codes every game shares.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from typing import Any


class _English(string.Formatter):
    """``str.format`` plus one spec for English plurals: ``{n:token|tokens}`` picks by ``n == 1``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, other = format_spec.split("|", 1)
            return one if value == 1 else other
        return str(format(value, format_spec))


FORMATTER = _English()
"""The formatter of refusal templates (and of the terminal's strings): ``str.format`` plus plurals."""


class Refusal(str):
    """The reason a move is refused: the English sentence (this string), its code and params.

    ``why_illegal`` returns one (or None); :class:`IllegalAction` built from one carries its code.
    """

    __slots__ = ("code", "params")
    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, params: Mapping[str, Any] | None = None) -> Refusal:
        self = super().__new__(cls, text)
        self.code = code
        self.params = dict(params or {})
        return self

    def __reduce__(self) -> Any:
        return (Refusal, (self.code, str(self), self.params))


class Catalogue(Mapping[str, str]):
    """A game's refusal codes and their English templates, in one place.

    ``catalogue.refuse("stack.not_allowed", color="gray", on="green", cell="0,0")`` builds the
    :class:`Refusal`; an unknown code or a missing parameter is a programming error (KeyError).
    """

    def __init__(self, name: str, templates: Mapping[str, str]) -> None:
        self.name = name
        self._templates = dict(templates)
        # the codes whose template has no plural spec: str.format_map builds the same sentence
        # as FORMATTER, in C (views probe refusals at every version)
        self._plain: set[str] = set()
        # the others, parsed once: FORMATTER's sentence joined from the parts (plain field names
        # and specs without nested fields; anything else goes through FORMATTER itself)
        self._parsed: dict[str, list[tuple[str, str | None, str, str | None]]] = {}
        for code, template in self._templates.items():
            if not code or code != code.strip() or " " in code:
                raise ValueError(f"bad refusal code {code!r}")
            parts = list(FORMATTER.parse(template))  # malformed templates fail at import
            if not any(spec and "|" in spec for _, _, spec, _ in parts):
                self._plain.add(code)
            elif all(
                field is None or (field.isidentifier() and "{" not in (spec or ""))
                for _, field, spec, _ in parts
            ):
                self._parsed[code] = [
                    (text, field, spec or "", conv) for text, field, spec, conv in parts
                ]

    def __getitem__(self, code: str) -> str:
        return self._templates[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._templates)

    def __len__(self) -> int:
        return len(self._templates)

    def fields(self, code: str) -> set[str]:
        """The parameter names the template of ``code`` uses."""
        return {f for _, f, _, _ in FORMATTER.parse(self._templates[code]) if f}

    def text(self, code: str, params: Mapping[str, Any]) -> str:
        if code in self._plain:
            return self._templates[code].format_map(params)
        parts = self._parsed.get(code)
        if parts is None:
            return FORMATTER.vformat(self._templates[code], (), dict(params))
        out = []
        for text, field, spec, conversion in parts:
            out.append(text)
            if field is not None:
                value = params[field]
                if conversion is not None:
                    value = FORMATTER.convert_field(value, conversion)
                out.append(FORMATTER.format_field(value, spec))
        return "".join(out)

    def refuse(self, code: str, **params: Any) -> Refusal:
        return Refusal(code, self.text(code, params), params)

    def illegal(self, code: str, **params: Any) -> IllegalAction:
        return IllegalAction(self.refuse(code, **params))

    def bad_input(self, code: str, **params: Any) -> BadInput:
        return BadInput(self.refuse(code, **params))


class _CodedError(ValueError):
    """A ValueError with the code and params of the refusal it was built from."""

    code: str
    params: dict[str, Any]

    def __init__(
        self, reason: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(str(reason))
        if isinstance(reason, Refusal):
            self.code = code or reason.code
            self.params = dict(params if params is not None else reason.params)
        else:
            self.code = code or "uncoded"
            self.params = dict(params or {})

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def to_json(self) -> dict[str, Any]:
        """``{"error": English sentence, "code", "params"}``, as the server answers it."""
        return {"error": self.message, "code": self.code, "params": self.params}


class IllegalAction(_CodedError):
    """An action the rules do not allow now; the message says why in a player's words.

    Raising it never changes the game state. Built from a :class:`Refusal`, it carries its code.
    """


class BadInput(_CodedError):
    """Input that does not describe anything in the game (unknown option, malformed board)."""
