"""What every game's RL encoder provides, so one AEC wrapper and one runner serve both games.

An encoder belongs to one game configuration (game name + options). It is bound to a live game
state with ``reset(state)``, told after every applied move with ``after(seat, code)`` so it can
re-encode only what changed, and turns the state into a fixed-shape float32 vector for one seat
with ``observe(seat, out)``. It reads only what that seat may see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from glade.core import Game


@dataclass(frozen=True)
class Segment:
    """A named slice of the observation vector: where it starts, its length, its upper bound."""

    name: str
    start: int
    length: int
    high: float
    doc: str
    low: float = 0.0

    @property
    def stop(self) -> int:
        return self.start + self.length


@dataclass(frozen=True)
class ActionRange:
    """A named range of the action space: indices ``start .. start+length-1``."""

    name: str
    start: int
    length: int
    doc: str


class Layout:
    """Builds a list of segments with running offsets."""

    def __init__(self, prefix: str = "", start: int = 0) -> None:
        self.prefix = prefix
        self.size = start
        self.segments: list[Segment] = []

    def add(self, name: str, length: int, high: float, doc: str, low: float = 0.0) -> int:
        seg = Segment(self.prefix + name, self.size, length, float(high), doc, float(low))
        self.segments.append(seg)
        self.size += length
        return seg.start


class Encoder(ABC):
    """The observation encoder and action-space description of one game configuration."""

    game_name: str
    players: int
    options: dict[str, Any]
    size: int  # observation length
    block: int  # length of one seat's block
    boards_size: int  # the seats' blocks together, where the shared part starts
    n_actions: int
    segments: list[Segment]
    high: np.ndarray  # upper bound of every observation entry
    low: np.ndarray  # lower bound of every observation entry
    arguments: dict[str, Any]  # what the constructor was given (a pickle rebuilds from them)

    def __reduce__(self) -> tuple[Any, ...]:
        """An encoder pickles and copies as its configuration, bound to no game (the compiled
        kernel it may hold cannot be pickled; an environment binds the new encoder again)."""
        return (rebuild_encoder, (type(self), dict(self.arguments)))

    def lay_out(self, seat: Layout, label: str, shared: Callable[[int], Layout]) -> Layout:
        """Segments of one ``seat`` block per seat (the observer's own first, named
        ``label[me]``, then ``label[next1]`` ...), then the shared part ``shared(offset)``; sets
        ``block``, ``boards_size``, ``segments``, ``size`` and the bounds. Returns the shared
        layout."""
        self.block = seat.size
        self.segments = []
        for k in range(self.players):
            who = "me" if k == 0 else f"next{k}"
            for seg in seat.segments:
                self.segments.append(
                    Segment(
                        f"{label}[{who}].{seg.name}",
                        k * self.block + seg.start,
                        seg.length,
                        seg.high,
                        seg.doc,
                        seg.low,
                    )
                )
        self.boards_size = self.players * self.block
        table = shared(self.boards_size)
        self.segments.extend(table.segments)
        self.size = table.size
        self.bounds()
        return table

    def bounds(self) -> None:
        """Fill ``high`` and ``low`` from ``segments``."""
        self.high = np.zeros(self.size, dtype=np.float32)
        self.low = np.zeros(self.size, dtype=np.float32)
        for seg in self.segments:
            self.high[seg.start : seg.stop] = seg.high
            self.low[seg.start : seg.stop] = seg.low

    @abstractmethod
    def action_ranges(self) -> list[ActionRange]:
        """The action space as named index ranges, in order, covering every index once."""

    @abstractmethod
    def reset(self, state: Game) -> None:
        """Bind to a fresh state; everything is re-encoded on the next ``observe``."""

    @abstractmethod
    def after(self, seat: int, code: int) -> None:
        """Note that ``seat`` just played move ``code`` on the bound state."""

    @abstractmethod
    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` (written into ``out`` when given, else a new array)."""

    @abstractmethod
    def render(self, state: Game, seat: int | None) -> str:
        """A readable text picture of the table as ``seat`` may see it (None: a spectator)."""

    def segment(self, name: str) -> Segment:
        for seg in self.segments:
            if seg.name == name:
                return seg
        raise KeyError(name)


def rebuild_encoder(cls: type[Encoder], arguments: dict[str, Any]) -> Encoder:
    """A new encoder of the same configuration (an unpickled or copied one)."""
    return cls(**arguments)


def action_table_markdown(ranges: list[ActionRange]) -> str:
    """The action ranges as a markdown table (used to write and check docs/rl.md)."""
    lines = ["| indices | action | meaning |", "|---|---|---|"]
    for r in ranges:
        span = f"{r.start}" if r.length == 1 else f"{r.start}–{r.start + r.length - 1}"
        lines.append(f"| {span} | `{r.name}` | {r.doc} |")
    return "\n".join(lines)


def segment_table_markdown(segments: list[Segment], base: int = 0) -> str:
    """Segments as a markdown table with offsets relative to ``base``."""
    lines = ["| offset | length | segment | range | contents |", "|---|---|---|---|---|"]
    for s in segments:
        lines.append(
            f"| {s.start - base} | {s.length} | `{s.name}` | {s.low:g}..{s.high:g} | {s.doc} |"
        )
    return "\n".join(lines)
