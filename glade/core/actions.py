"""The game-agnostic action value: a type plus a few named arguments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .refusals import CORE


class Action:
    """An immutable player intent such as ``{"type": "place_token", "color": "red", "cell": "1,2"}``.

    Actions compare and hash by their JSON form, so an action rebuilt from JSON equals the one
    the engine offered.
    """

    __slots__ = ("type", "args", "_key")

    type: str
    args: tuple[tuple[str, Any], ...]
    _key: tuple[str, tuple[tuple[str, str, Any], ...]]

    def __init__(self, type: str, **args: Any) -> None:
        object.__setattr__(self, "type", type)
        items = tuple(sorted(args.items()))
        object.__setattr__(self, "args", items)
        # the key carries each value's type: true is not 1 and 1.0 is not 1 in an action
        typed = tuple((k, v.__class__.__name__, v) for k, v in items)
        object.__setattr__(self, "_key", (type, typed))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Action is immutable")

    def __getitem__(self, key: str) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        return default

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for k, v in self.args:
            out[k] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Build an action from its JSON dict, refusing anything that is not one."""
        if isinstance(data, Action):
            return data
        if not isinstance(data, Mapping):
            raise CORE.illegal("action.not_object")
        kind = data.get("type")
        if not isinstance(kind, str) or not kind:
            raise CORE.illegal("action.no_type")
        args = {}
        for k, v in data.items():
            if k == "type":
                continue
            if not isinstance(k, str):
                raise CORE.illegal("action.field_names")
            args[k] = tuple(v) if isinstance(v, list) else v
        action = cls(kind, **args)
        try:
            hash(action)
        except TypeError:  # a nested object or list of lists: no action has such fields
            raise CORE.illegal("action.plain_values") from None
        return action

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.args)
        return f"Action({self.type!r}{', ' if inner else ''}{inner})"
