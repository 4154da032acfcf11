"""``LivingForestGame``: the Living Forest engine behind the protocol both games share.

A round is the simultaneous Guardian Animals phase (every spirit draws cards one at a time into
its help line), then the Action phase in turn order from the Sacred Tree holder, then the end of
round (Onibi's two attacks, display refill, help lines to the discard, the Sacred Tree passes).
Every multi-part choice is made of one-click steps (choose an action, then pick cards or fires
one at a time, then ``done``), so the fixed integer action space stays small.

This class is a thin shell: the state is a ``ForestState`` (``state.py``), the rules are
``rules.py`` and one module per step, the save codec ``save.py``, the view ``view.py``, the
explained score ``score.py``. Outside the package, read a game through ``snapshot()`` (typed,
read-only), ``view()`` or the contract methods; ``docs/living-forest.md`` lays it all out.

Randomness comes only from named streams of the seed: spirit ``s`` deals its k-th shuffle from
``spirit{s}/shuffle{k}``, the animal stacks from ``animals/level{L}``. A spirit's draws therefore
never depend on the order in which the spirits' draws arrive; the draw-phase part of the log is
kept sorted by seat (stable) so even the log, and with it ``to_json``, is order independent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from glade.core.actions import Action
from glade.core.errors import IllegalAction, Refusal
from glade.core.game import Game, LogEntry
from glade.core.refusals import CORE

from . import hidden, move, rules, save, score, view
from .data import CARD_BY_NAME, CARDS, START_TREE, T11, TREE_BY_ID
from .refusals import REFUSALS
from .rules import legal, play
from .snapshot import ForestSnapshot, SpiritSnapshot, TableSnapshot, acting_together
from .space import (
    A_CHOOSE,
    A_DONE,
    A_DRAW,
    A_END,
    A_FIRE,
    A_MOVE,
    A_PICK,
    A_STEAL,
    A_STOP,
    A_USE,
    ACTIONS,
    B_ATTRACT,
    B_EXTINGUISH,
    B_FRAGMENTS,
    B_PLANT,
    BONUS_NAMES,
    CELL_LINES,
    CELL_SLOT,
    CELLS,
    CORNER_BONUS,
    DRAW,
    FIELDS,
    INDEXES,
    K_ATTRACT,
    K_EXTINGUISH,
    K_FRAGMENT,
    K_MOVE,
    K_PLANT,
    KIND_NAMES,
    LINE_BONUSES,
    NEIGHBOURS,
    OVER,
    PHASE_NAMES,
    PLANT_CELLS,
    ROCK_PENDING,
    S_ATTRACT,
    S_CHOOSE,
    S_EXTINGUISH,
    S_MOVE,
    S_PLANT,
    S_STEAL,
    STEP_NAMES,
    TABLES,
    action_id,
    worded,
)
from .state import ForestState, new_state, settings
from .view import card_json

SAVE_VERSION: Final = save.SAVE_VERSION


class LivingForestGame(Game):
    """State of one Living Forest game; see the module docstring."""

    game_name = "living-forest"
    __slots__ = ("_st", "_to_act")

    _st: ForestState
    _to_act: tuple[int, ...]  # the state's to_act, read at every move of random play

    def __init__(self, state: ForestState) -> None:
        self._st = state
        self._to_act = state.to_act
        self.seed = state.seed
        self.options = {"players": state.players}
        self.log = state.log

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, seed: Any, options: Any) -> LivingForestGame:
        """A new game.

        :raises BadInput: ``seed.not_int`` or ``lf_options.*``.
        """
        checked_seed, players = settings(seed, options)
        return cls(new_state(checked_seed, players))

    def copy(self) -> LivingForestGame:
        return LivingForestGame(self._st.copy(list(self.log)))

    def become(self, other: Game) -> None:
        """Take ``other``'s state and log (what undo does with the replayed game). The base
        class's ``log`` must follow the state's: a compiled ``glade.core`` names it in no
        ``__slots__``, so the default ``become`` would leave the old log behind."""
        if not isinstance(other, LivingForestGame):
            raise TypeError(f"a Living Forest game cannot become a {type(other).__name__}")
        self._st = other._st
        self._to_act = other._to_act
        self.seed = other.seed
        self.options = other.options
        self.log = other.log

    @contextmanager
    def edit(self) -> Iterator[ForestState]:
        """Construct a position by hand (tests, puzzles): yields the game's own state to change
        in place; what follows from the rest is not recomputed (set it too, or call
        ``state.rederive``), and who acts next is, on leaving. A position made this way is no
        longer what its log replays to, so ``load_game`` refuses its save."""
        yield self._st
        self._st.to_act = self._to_act = rules.to_act(self._st)

    # ------------------------------------------------------------------ reading the game
    def snapshot(self) -> ForestSnapshot:
        """A typed, read-only copy of the whole state (``snapshot.py``); costs about what a
        ``copy()`` does, so take one per position, not one per field."""
        return ForestSnapshot(self._st)

    def table_snapshot(self) -> TableSnapshot:
        """The turn and the table without the spirits: ``snapshot()`` less ``spirits``."""
        return TableSnapshot(self._st)

    def spirit_snapshot(self, seat: Any) -> SpiritSnapshot:
        """One spirit's part of ``snapshot()`` (``seat`` is checked, so it takes any value).

        :raises IllegalAction: ``seat.unknown``.
        """
        self.check_seat(seat)
        return SpiritSnapshot(self._st, seat)

    @property
    def num_players(self) -> int:
        return self._st.players

    @property
    def to_act(self) -> tuple[int, ...]:
        """Every spirit that may act now: those with a move first (in seat order), then, in the
        draw phase, those that stopped of their own accord and may still undo that stop. So
        ``to_act[0]`` always has a move while the game goes on."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        return not self._to_act

    @property
    def acting_together(self) -> tuple[int, ...]:
        """The spirits whose moves now may be made together, in seat order: in the simultaneous
        Guardian Animals phase every spirit still drawing (a draw, a stop or a Fragment changes
        only that spirit's own cards, stream and flags, never another's legal moves or what they
        do, so each move may be checked against the state now and all of them applied in any
        order, giving the same state and log); in the Action phase the acting spirit alone.
        Every other spirit has no legal move now (its ``legal_action_ids`` is [])."""
        return acting_together(self._st)

    @property
    def last_round(self) -> dict[str, Any] | None:
        """What the last end of round did, in public words (None before the first one ends):
        Onibi's fires and power against each spirit's water and the Fire Varans it dealt, the
        reshuffles of the round's draws, the fires added to the centre, the display refilled and
        the Sacred Tree passed. Shared with the views: read it, never change it."""
        record = self._st.last_round
        return None if record is None else record.to_json()

    def element(self, seat: int, e: int) -> int:
        """Total visible element ``e`` of a spirit: help line + trees + completed line bonuses."""
        return self._st.element(seat, e)

    def has_t11(self, seat: int) -> bool:
        return T11 in self._st.forests[seat]

    def counts(self, seat: int) -> tuple[int, int, int]:
        """Progress toward 12: (different trees, fires, sacred flowers), the sums of ``parts``."""
        return score.counts(self._st, seat)

    def parts(self, seat: int) -> list[dict[str, Any]]:
        """The explained score of a spirit: the parts its counts are the sums of, each
        ``{"category", "points", "cells", "what", "params"}`` (``score.py``)."""
        return score.parts_json(self._st, seat)

    def known_on_top(self) -> list[int]:
        """Per spirit: how many cards on top of its draw stack everyone knows (the animals it
        attracted, put there in view of all and not drawn since)."""
        return hidden.known_on_top(self._st)

    # ------------------------------------------------------------------ hidden information
    def resample_hidden(self, seat: Any, rng: random.Random) -> LivingForestGame:
        """A copy in which everything ``seat`` cannot know is re-dealt from ``rng``.

        Hidden in Living Forest, from every spirit alike: the order of each draw stack, of the
        three face-down animal stacks, and the future reshuffles of the discards (the seed). Their
        contents follow from public information. Each hidden part is put in a canonical order
        (sorted) before ``rng`` shuffles it, so the copy depends only on what is public and on
        ``rng``, never on the true order. Animals attracted since a spirit last drew lie, known to
        all, on top of its stack in the order they were taken: that part stays as it is.
        ``seat`` None is a spectator (who knows exactly as much here).

        :raises IllegalAction: ``seat.unknown``.
        """
        if seat is not None:
            self.check_seat(seat)
        return LivingForestGame(hidden.resample(self._st, rng))

    # ------------------------------------------------------------------ saves
    def to_json(self) -> dict[str, Any]:
        """The save, version 2 (``save.dump``)."""
        return save.dump(self._st, self.options)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LivingForestGame:
        """Load a save of version 2 (``to_json``) or 1 (the slot dump of earlier releases),
        judged at the door: its log must replay to its state (``save.load``).

        :raises BadInput: ``lf_save.*``, ``seed.not_int`` or ``lf_options.*``.
        """
        state, _options = save.load(data)
        return cls(state)

    # ------------------------------------------------------------------ the action space
    def action_table(self) -> list[Action]:
        return TABLES[self._st.players]

    def action_id(self, action: Action) -> int:
        """:raises IllegalAction: ``lf_action.*`` when ``action`` names nothing."""
        return action_id(self._st.players, action)

    def legal_action_ids(self, seat: int) -> list[int]:
        return legal(self._st, seat)

    def why_illegal(self, seat: Any, code: Any) -> Refusal | None:
        # type(x) is int also refuses True/False
        if type(code) is not int or not 0 <= code < len(TABLES[self._st.players]):
            return REFUSALS.refuse("lf_action.number", number=repr(code))
        if type(seat) is not int or not 0 <= seat < self._st.players:
            return CORE.refuse("seat.unknown", seat=repr(seat))
        why = rules.why(self._st, seat, code)
        return None if why is None else worded(why)

    def apply_action_id(self, seat: Any, code: Any, checked: bool = False) -> None:
        """Apply move ``code`` (checked first unless ``checked``).

        :raises IllegalAction: the refusal of ``why_illegal``; the state is unchanged.
        """
        if not checked:
            reason = self.why_illegal(seat, code)
            if reason is not None:
                raise IllegalAction(reason)
        self._to_act = play(self._st, seat, code)

    # ------------------------------------------------------------------ undo
    def can_undo(self, seat: Any) -> bool:
        st = self._st
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.players:
            return False
        if st.phase == ACTIONS:
            return seat == st.current_spirit and len(st.log) > st.turn_start
        if st.phase == DRAW and not st.drawing[seat]:
            # a voluntary stop may be taken back while the others still draw
            for i in range(len(st.log) - 1, st.draw_start - 1, -1):
                entry = st.log[i]
                if entry[0] == seat:
                    return entry[1] == A_STOP
        return False

    # ------------------------------------------------------------------ results and views
    def result(self) -> dict[str, Any]:
        """``{"scores", "winners", "breakdown"}``; each breakdown entry holds the counts, the
        total, whether that spirit reached 12, and the ``parts`` the counts are the sums of."""
        return score.result(self._st)

    def describe_chance(self, entry: LogEntry, seat: int | None) -> Any:
        chance = entry[2]
        if chance is None:
            return None
        if chance[0] == -1:
            return {"revealed": [CARDS.names[c] for c in chance[1:]]}
        return {"card": CARDS.names[chance[0]], "reshuffled": bool(chance[1])}

    def move_preview(self, seat: int, steps: int) -> dict[str, Any]:
        """Where a move of ``steps`` rocks would take ``seat``'s spirit: the rock it lands on and
        that rock's bonus, the spirits it jumps (occupied rocks are not counted) and those of them
        it would take a victory tile from (the ones that hold one)."""
        return move.preview(self._st, seat, steps)

    def move_previews(self, seat: int) -> list[dict[str, Any]]:
        """``move_preview`` of every move ``seat`` may make now, by steps."""
        return move.previews(self._st, seat)

    def refusals(self, seat: Any) -> list[dict[str, Any]]:
        """Why the moves ``seat`` might try on the table now are refused (``view.refusals``).

        :raises IllegalAction: ``seat.unknown``.
        """
        self.check_seat(seat)
        return view.refusals(self._st, seat)

    def reached(self) -> list[dict[str, Any]]:
        """The spirits that have reached 12 of something now, with what they reached."""
        return view.reached(self._st)

    def in_progress(self) -> dict[str, Any] | None:
        """The step the acting spirit is in (None while it chooses an action)."""
        return view.in_progress(self._st)

    def view(self, seat: Any) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator); ``docs/living-forest.md`` lists it.

        :raises IllegalAction: ``seat.unknown``.
        """
        if seat is not None:
            self.check_seat(seat)
        out = self.view_header(seat)
        out.update(view.body(self._st, seat))
        return out

    # ------------------------------------------------------------------ where the turn stands
    # Four ints that say where the game is, read at every move by the RL kernel and the bots
    # (a snapshot holds them too, with everything else).
    @property
    def phase(self) -> int:
        """DRAW, ACTIONS or OVER (``PHASE_NAMES`` names them)."""
        return self._st.phase

    @property
    def round(self) -> int:
        return self._st.round

    @property
    def current_spirit(self) -> int:
        """The spirit acting in the action phase."""
        return self._st.current_spirit

    @property
    def step(self) -> int:
        """The sub-step in progress in the action phase (S_*; ``STEP_NAMES`` names them)."""
        return self._st.step


# the names this module has always offered (other packages and saved code import them here)
__all__ = [
    "A_CHOOSE",
    "A_DONE",
    "A_DRAW",
    "A_END",
    "A_FIRE",
    "A_MOVE",
    "A_PICK",
    "A_STEAL",
    "A_STOP",
    "A_USE",
    "ACTIONS",
    "B_ATTRACT",
    "B_EXTINGUISH",
    "B_FRAGMENTS",
    "B_PLANT",
    "BONUS_NAMES",
    "CARD_BY_NAME",
    "CARDS",
    "CELL_LINES",
    "CELL_SLOT",
    "CELLS",
    "CORNER_BONUS",
    "DRAW",
    "FIELDS",
    "INDEXES",
    "K_ATTRACT",
    "K_EXTINGUISH",
    "K_FRAGMENT",
    "K_MOVE",
    "K_PLANT",
    "KIND_NAMES",
    "LINE_BONUSES",
    "LivingForestGame",
    "NEIGHBOURS",
    "OVER",
    "PHASE_NAMES",
    "PLANT_CELLS",
    "ROCK_PENDING",
    "S_ATTRACT",
    "S_CHOOSE",
    "S_EXTINGUISH",
    "S_MOVE",
    "S_PLANT",
    "S_STEAL",
    "SAVE_VERSION",
    "START_TREE",
    "STEP_NAMES",
    "TABLES",
    "TREE_BY_ID",
    "card_json",
]
