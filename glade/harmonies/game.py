"""The Harmonies rules engine: every rule, card and mode (sides A/B, solo, Nature's Spirit).

State is kept in small ints and lists: a cell stores its stack as a state code (see ``data``), each
board also keeps one bit mask per stack state, so legal placements are a few ORs and a habitat is
matched on every cell at once with shifts and ANDs. Randomness: the pouch, the animal deck and the
spirit deal are shuffled at set-up from the game's seed; later draws pop from those hidden orders.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Final

from glade.core import Action, Game, IllegalAction, Refusal
from glade.core.chance import shuffled

from .data import (
    BB,
    BG,
    BR,
    CARD_INDEX,
    CARDS,
    COLOR_INDEX,
    COLORS,
    EMPTY,
    LAYOUTS,
    M1,
    M2,
    M3,
    MAX_HELD,
    NEXT,
    NSTATES,
    SPIRITS,
    STACKS,
    T1,
    T2,
    T3,
    TOKEN_COUNTS,
    UNDER,
    F,
    Layout,
    W,
)
from .moves import check, legal_ids
from .refusals import bad_input, refuse
from .scoring import board_breakdown, board_total, score_parts, solo_sun_parts, solo_suns
from .snapshot import HarmoniesSnapshot, snapshot


# ====================================================================== action space
class ActionSpace:
    """The fixed integer action space of one board side (``docs/rules.md`` lists the ranges)."""

    def __init__(self, layout: Layout) -> None:
        n = len(layout.cells)
        self.layout = layout
        self.n = n
        self.TAKE = 0  # take_tokens space 0..4
        self.PLACE = 5  # place_token color*n + cell
        self.CARD = self.PLACE + 6 * n  # take_card slot 0..4
        self.CUBE = self.CARD + 5  # place_cube card index (0..41)*n + cell
        self.SPIRIT = self.CUBE + 42 * n  # choose_spirit 0..9 (spirit index - 32)
        self.DISCARD = self.SPIRIT + 10  # discard_card slot 0..4
        self.END = self.DISCARD + 5  # end_turn
        self.size = self.END + 1
        names = layout.names
        table: list[Action] = [Action("take_tokens", space=s) for s in range(5)]
        table += [
            Action("place_token", color=COLORS[c], cell=names[i])
            for c in range(6)
            for i in range(n)
        ]
        table += [Action("take_card", slot=s) for s in range(5)]
        table += [
            Action("place_cube", card=CARDS[k].id, cell=names[i])
            for k in range(42)
            for i in range(n)
        ]
        table += [Action("choose_spirit", card=CARDS[k].id) for k in SPIRITS]
        table += [Action("discard_card", slot=s) for s in range(5)]
        table += [Action("end_turn")]
        assert len(table) == self.size
        self.table = table
        self.ids = {a: i for i, a in enumerate(table)}
        # per card: its rotations as (bit delta, class index) pairs, for this layout's stride
        self.rotations: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
            tuple(tuple((layout.delta(dq, dr), k) for dq, dr, k in rot) for rot in card.rotations)
            for card in CARDS
        )


SPACES: Final = {side: ActionSpace(layout) for side, layout in LAYOUTS.items()}


# ====================================================================== one player's board
class Board:
    """A personal board: stacks, cubes, held and completed cards, Nature's Spirit."""

    __slots__ = (
        "layout",
        "cells",
        "masks",
        "cubes",
        "cards",
        "done",
        "spirit",
        "spirit_placed",
        "offer",
        "placed",
        "_json",
    )

    layout: Layout
    cells: list[int]  # stack state per cell index
    masks: list[int]  # per stack state: mask of layout bits holding that stack
    cubes: int  # mask of layout bits holding a cube
    cards: list[tuple[int, int]]  # held, unfinished: (card index, cubes placed)
    done: list[tuple[int, int]]  # completed cards
    spirit: int  # chosen spirit card index, -1 if none
    spirit_placed: bool
    offer: tuple[int, ...]  # the two spirits dealt face down, until one is chosen
    placed: int  # animal cubes on the board (tie-break; the spirit cube is not counted)
    # (what board_json shows, keyed) its last answer, or None
    _json: tuple[tuple[Any, ...], dict[str, Any]] | None

    @classmethod
    def empty(cls, layout: Layout) -> Board:
        b = cls()
        b.layout = layout
        b.cells = [EMPTY] * len(layout.cells)
        b.masks = [0] * NSTATES
        b.masks[EMPTY] = layout.full
        b.cubes = 0
        b.cards = []
        b.done = []
        b.spirit = -1
        b.spirit_placed = False
        b.offer = ()
        b.placed = 0
        b._json = None
        return b

    def copy(self) -> Board:
        b = Board()
        b.layout = self.layout
        b.cells = self.cells[:]
        b.masks = self.masks[:]
        b.cubes = self.cubes
        b.cards = self.cards[:]
        b.done = self.done[:]
        b.spirit = self.spirit
        b.spirit_placed = self.spirit_placed
        b.offer = self.offer
        b.placed = self.placed
        b._json = self._json  # keyed by what it shows: right for the copy until it changes
        return b

    def held(self) -> int:
        """Cards counted against the limit of 4: unfinished animals, and the spirit until placed."""
        return len(self.cards) + (1 if self.spirit >= 0 and not self.spirit_placed else 0)

    def empty_cells(self) -> int:
        return self.masks[EMPTY].bit_count()

    # ------------------------------------------------------------------ placing tokens
    def placeable(self, color: int) -> int:
        """Mask of the layout bits where a ``color`` token may go: a stack it may top, no cube."""
        masks = self.masks
        m = 0
        for s in UNDER[color]:
            m |= masks[s]
        return m & ~self.cubes

    def placements(self, colors: Iterable[int]) -> list[tuple[int, int]]:
        """Every (colour, cell index) a token of ``colors`` may go to, colours ascending, then cells."""
        bit_cell = self.layout.bit_cell
        out = []
        for color in sorted(set(colors)):
            m = self.placeable(color)
            while m:
                low = m & -m
                out.append((color, bit_cell[low.bit_length() - 1]))
                m ^= low
        return out

    def place(self, color: int, cell: int) -> None:
        """Put a ``color`` token on cell ``cell`` (the caller checked it is ``placeable``)."""
        old = self.cells[cell]
        new = NEXT[old * 6 + color]
        if new < 0:
            raise ValueError(f"{COLORS[color]} cannot go on cell {self.layout.names[cell]}")
        self.cells[cell] = new
        bit = 1 << self.layout.bits[cell]
        self.masks[old] ^= bit
        self.masks[new] |= bit

    # ------------------------------------------------------------------ scores
    def breakdown(self, explain: bool = False) -> dict[str, Any]:
        """The board's score by category and its total (``scoring.board_breakdown``); with
        ``explain``, the parts that make up each category too."""
        return board_breakdown(
            self.layout,
            self.masks,
            self.card_list(),
            self.spirit,
            self.spirit_placed,
            self.cubes,
            explain,
        )

    def score_parts(self) -> tuple[int, ...]:
        """The board's points by category (``scoring.CATEGORIES`` order; ``scoring.score_parts``):
        what the RL encoders write."""
        return score_parts(
            self.layout, self.masks, self.card_list(), self.spirit, self.spirit_placed
        )

    def total(self) -> int:
        """The board's total score."""
        return board_total(
            self.layout, self.masks, self.card_list(), self.spirit, self.spirit_placed
        )

    def class_masks(self) -> tuple[int, ...]:
        m = self.masks
        return (m[W], m[F], m[M1], m[M2], m[M3], m[T1], m[T2], m[T3], m[BG] | m[BB] | m[BR])

    def anchors(
        self, card: int, rotations: tuple[tuple[tuple[int, int], ...], ...], cls: tuple[int, ...]
    ) -> int:
        """Mask of cells where ``card``'s cube may go: habitat present, cube cell free of cubes."""
        start = cls[CARDS[card].cube_class] & ~self.cubes
        if not start:
            return 0
        below = self.layout.below
        found = 0
        for rot in rotations:
            a = start
            for delta, k in rot:
                m = cls[k]
                a &= (m >> delta) if delta >= 0 else (m & below[-delta]) << -delta
                if not a:
                    break
            found |= a
        return found

    def card_list(self) -> list[tuple[int, int]]:
        """(card index, cubes placed) of every animal card taken: completed, then held."""
        return self.done + self.cards


# ====================================================================== the game
class HarmoniesGame(Game):
    """A game of Harmonies for 1-4 players."""

    game_name = "harmonies"
    __slots__ = (
        "players",
        "side",
        "spirits",
        "solo",
        "space",
        "pouch",
        "central",
        "deck",
        "row",
        "boards",
        "current",
        "hand",
        "took",
        "took_card",
        "discarded",
        "emptied",
        "turn",
        "turn_start",
        "end_triggered",
        "trigger",
        "over",
        "out",
        "discards",
        "resampled",
    )

    players: int
    side: str
    spirits: bool
    solo: bool
    space: ActionSpace
    pouch: list[int]  # hidden order; the next token drawn is the last
    central: list[tuple[int, ...]]  # the central board's spaces
    deck: list[int]  # animal draw pile, hidden order; next card is the last
    row: list[int]  # face-up animal cards by slot, -1 = empty slot
    boards: list[Board]
    current: int
    hand: list[int]  # tokens taken this turn and not yet placed
    took: bool
    took_card: bool
    discarded: bool
    emptied: int  # central space emptied this turn, -1 if none
    turn: int  # turns completed
    turn_start: int  # log index where the current turn began
    end_triggered: bool
    # who triggered the end and why ("board": two or fewer empty cells, "pouch": a refill found
    # the pouch short), None before; set once, at the end of the triggering turn
    trigger: tuple[int, tuple[str, ...]] | None
    over: bool
    out: int  # tokens that left the game (solo)
    discards: list[int]  # animal cards discarded in solo
    # a copy whose hidden parts were re-dealt (resample_hidden): its log is history only, which
    # does not replay from its seed, so it is never undone and its save is not judged by its log
    resampled: bool

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def parse_options(options: dict[str, Any]) -> dict[str, Any]:
        known = {"players", "side", "spirits"}
        extra = set(options) - known
        if extra:
            raise bad_input("options.unknown", option=sorted(extra)[0])
        players = options.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise bad_input("options.players")
        side = options.get("side", "A")
        if side not in ("A", "B"):
            raise bad_input("options.side")
        spirits = options.get("spirits", False)
        if not isinstance(spirits, bool):
            raise bad_input("options.spirits")
        return {"players": players, "side": side, "spirits": spirits}

    @classmethod
    def new(cls, seed: int, options: dict[str, Any]) -> HarmoniesGame:
        opts = cls.parse_options(options)
        g = cls()
        g.seed = seed
        g.options = opts
        g.log = []
        g.players = opts["players"]
        g.side = opts["side"]
        g.spirits = opts["spirits"]
        g.solo = g.players == 1
        g.space = SPACES[g.side]
        layout = g.space.layout
        tokens = [c for c in range(6) for _ in range(TOKEN_COUNTS[c])]
        g.pouch = shuffled(seed, "pouch", tokens)
        spaces = 3 if g.solo else 5
        g.central = [g._draw_tokens(3) for _ in range(spaces)]
        g.deck = shuffled(seed, "animals", list(range(32)))
        g.row = [g.deck.pop() for _ in range(3 if g.solo else 5)]
        g.boards = [Board.empty(layout) for _ in range(g.players)]
        if g.spirits:
            for b, pair in zip(g.boards, _dealt_spirits(seed, g.players), strict=True):
                b.offer = pair
        g.current = 0
        g.hand = []
        g.took = g.took_card = g.discarded = False
        g.emptied = -1
        g.turn = 0
        g.turn_start = 0
        g.end_triggered = False
        g.trigger = None
        g.over = False
        g.out = 0
        g.discards = []
        g.resampled = False
        return g

    def _draw_tokens(self, k: int) -> tuple[int, ...]:
        pouch = self.pouch
        drawn = tuple(pouch[-k:])[::-1]
        del pouch[-k:]
        return drawn

    # ------------------------------------------------------------------ protocol basics
    @property
    def num_players(self) -> int:
        return self.players

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.current,)

    @property
    def is_over(self) -> bool:
        return self.over

    def action_table(self) -> list[Action]:
        return self.space.table

    def action_id(self, action: Action) -> int:
        code = self.space.ids.get(action)
        if code is not None:
            return code
        raise IllegalAction(_describe_bad_action(action, self.space.layout))

    def copy(self) -> HarmoniesGame:
        g = HarmoniesGame()
        g.seed = self.seed
        g.options = self.options
        g.log = self.log[:]
        g.players = self.players
        g.side = self.side
        g.spirits = self.spirits
        g.solo = self.solo
        g.space = self.space
        g.pouch = self.pouch[:]
        g.central = self.central[:]
        g.deck = self.deck[:]
        g.row = self.row[:]
        g.boards = [b.copy() for b in self.boards]
        g.current = self.current
        g.hand = self.hand[:]
        g.took = self.took
        g.took_card = self.took_card
        g.discarded = self.discarded
        g.emptied = self.emptied
        g.turn = self.turn
        g.turn_start = self.turn_start
        g.end_triggered = self.end_triggered
        g.trigger = self.trigger
        g.over = self.over
        g.out = self.out
        g.discards = self.discards[:]
        g.resampled = self.resampled
        return g

    def become(self, other: Game) -> None:
        assert isinstance(other, HarmoniesGame)
        self.seed = other.seed
        self.options = other.options
        self.log = other.log
        self.players = other.players
        self.side = other.side
        self.spirits = other.spirits
        self.solo = other.solo
        self.space = other.space
        self.pouch = other.pouch
        self.central = other.central
        self.deck = other.deck
        self.row = other.row
        self.boards = other.boards
        self.current = other.current
        self.hand = other.hand
        self.took = other.took
        self.took_card = other.took_card
        self.discarded = other.discarded
        self.emptied = other.emptied
        self.turn = other.turn
        self.turn_start = other.turn_start
        self.end_triggered = other.end_triggered
        self.trigger = other.trigger
        self.over = other.over
        self.out = other.out
        self.discards = other.discards
        self.resampled = other.resampled

    # ------------------------------------------------------------------ hidden information
    def resample_hidden(self, seat: int | None, rng: random.Random) -> HarmoniesGame:
        """A copy in which everything ``seat`` cannot know is re-dealt from ``rng``.

        Hidden from a seat: the order of the pouch (its colour counts are public), the order of
        the animal draw pile (its cards are the animals seen nowhere else) and the face-down
        spirit offers of the other seats (``seat=None``, a spectator: of every seat). Each hidden
        part is put in a canonical order before it is shuffled, so the copy depends only on what
        ``seat`` may know and on ``rng``. The copy gets a seed of its own: ``undo`` replays from
        the seed, which would otherwise still hold the true order.
        """
        if seat is not None:
            self.check_seat(seat)
        g = self.copy()
        g.seed = rng.getrandbits(63)
        g.resampled = True
        pouch = sorted(g.pouch)
        rng.shuffle(pouch)
        g.pouch = pouch
        deck = sorted(g.deck)
        rng.shuffle(deck)
        g.deck = deck
        hidden = [s for s in range(g.players) if s != seat and g.boards[s].offer]
        if hidden:
            known = {b.spirit for b in g.boards if b.spirit >= 0}
            if seat is not None:
                own = self.boards[seat]
                known.update(own.offer)
                if own.spirit >= 0:  # the one it turned down went face down: nobody else has it
                    pair = _dealt_spirits(self.seed, self.players)[seat]
                    if own.spirit in pair:  # (a state whose seed made its deal)
                        known.update(pair)
            pool = [c for c in SPIRITS if c not in known]
            rng.shuffle(pool)
            for s in hidden:
                g.boards[s].offer = (pool.pop(), pool.pop())
        return g

    # ------------------------------------------------------------------ legal moves
    def legal_action_ids(self, seat: int) -> list[int]:
        return legal_ids(self, seat)

    def why_illegal(self, seat: int, code: Any) -> Refusal | None:
        """None if move ``code`` is legal for ``seat`` now, else the refusal of the check of its
        kind (``moves.check``: one check per rule)."""
        return check(self, seat, code)

    # ------------------------------------------------------------------ applying moves
    def apply_action_id(self, seat: int, code: int, checked: bool = False) -> None:
        if not checked:
            reason = self.why_illegal(seat, code)
            if reason is not None:
                raise IllegalAction(reason)
        sp = self.space
        b = self.boards[seat]
        chance: Any = None
        if code < sp.PLACE:
            self.hand = list(self.central[code])
            chance = self.central[code]  # the tokens taken, public: the log names their colours
            self.central[code] = ()
            self.took = True
            self.emptied = code
        elif code < sp.CARD:
            color, cell = divmod(code - sp.PLACE, sp.n)
            self.hand.remove(color)
            b.place(color, cell)
        elif code < sp.CUBE:
            slot = code - sp.CARD
            chance = (self.row[slot],)  # the card taken, public: the log names it
            b.cards.append((self.row[slot], 0))
            self.row[slot] = -1
            self.took_card = True
        elif code < sp.SPIRIT:
            card, cell = divmod(code - sp.CUBE, sp.n)
            b.cubes |= 1 << sp.layout.bits[cell]
            if CARDS[card].spirit:
                b.spirit_placed = True
            else:
                b.placed += 1
                for i, (c, p) in enumerate(b.cards):
                    if c == card:
                        if p + 1 == CARDS[c].cubes:
                            del b.cards[i]
                            b.done.append((c, p + 1))
                        else:
                            b.cards[i] = (c, p + 1)
                        break
        elif code < sp.DISCARD:
            b.spirit = code - sp.SPIRIT + 32
            b.offer = ()
        elif code < sp.END:
            slot = code - sp.DISCARD
            self.discards.append(self.row[slot])
            self.row[slot] = self.deck.pop()
            self.discarded = True
            chance = (self.row[slot],)
        else:
            chance = self._end_turn(b)
        self.log.append((seat, code, chance))

    def _end_turn(self, b: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
        drawn: tuple[int, ...] = ()
        reasons: list[str] = []
        if self.solo:
            for tokens in self.central:
                self.out += len(tokens)
            if len(self.pouch) >= 9:
                self.central = [self._draw_tokens(3) for _ in range(3)]
                drawn = sum(self.central, ())
            else:
                self.central = [(), (), ()]
                reasons.append("pouch")
        elif len(self.pouch) >= 3:
            self.central[self.emptied] = drawn = self._draw_tokens(3)
        else:
            reasons.append("pouch")
        new_cards = []
        for slot, card in enumerate(self.row):
            if card < 0 and self.deck:
                self.row[slot] = self.deck.pop()
                new_cards.append(self.row[slot])
        if b.empty_cells() <= 2:
            reasons.append("board")
        if reasons:
            if not self.end_triggered:
                self.trigger = (self.current, tuple(reasons))
            self.end_triggered = True
        self.turn += 1
        self.current = (self.current + 1) % self.players
        if self.end_triggered and self.current == 0:
            self.over = True
        self.hand = []
        self.took = self.took_card = self.discarded = False
        self.emptied = -1
        self.turn_start = len(self.log) + 1
        return drawn, tuple(new_cards)

    # ------------------------------------------------------------------ undo
    def can_undo(self, seat: int) -> bool:
        if self.over or seat != self.current or len(self.log) <= self.turn_start or self.resampled:
            return False
        last = self.log[-1][1]
        return not self.space.DISCARD <= last < self.space.END

    # ------------------------------------------------------------------ scores and result
    def breakdown(self, seat: int, explain: bool = False) -> dict[str, Any]:
        """A seat's score by category, its total (and suns in solo); with ``explain``, its parts
        (``scoring.board_breakdown``)."""
        b = self.boards[seat]
        out = b.breakdown(explain)
        if self.solo:
            out["suns"] = solo_suns(out["total"], self.side, b.spirit)
        return out

    def result(self) -> dict[str, Any]:
        breakdown = [self.breakdown(s) for s in range(self.players)]
        scores = [d["total"] for d in breakdown]
        best = max(scores)
        tied = [s for s in range(self.players) if scores[s] == best]
        most = max(self.boards[s].placed for s in tied)
        winners = [s for s in tied if self.boards[s].placed == most]
        out: dict[str, Any] = {"scores": scores, "winners": winners, "breakdown": breakdown}
        out["tiebreak"] = [self.boards[s].placed for s in range(self.players)]
        if self.solo:
            out["suns"] = breakdown[0]["suns"]
        return out

    def snapshot(self) -> HarmoniesSnapshot:
        """A typed, read-only snapshot of what everyone may see (``snapshot.py``)."""
        return snapshot(self)

    # ------------------------------------------------------------------ views
    def board_json(self, seat: int, score: bool = True) -> dict[str, Any]:
        """A board as the views show it. Built once per content: the board (and its copies,
        whatever game copy holds them) keeps it with the key of everything it shows, so a board
        that did not change since the last view gives the same (read-only) dict again."""
        b = self.boards[seat]
        key = (
            self.side,
            self.solo,
            score,
            tuple(b.cells),
            b.cubes,
            tuple(b.cards),
            tuple(b.done),
            b.spirit,
            b.spirit_placed,
            b.placed,
        )
        kept = b._json
        if kept is not None and kept[0] == key:
            return kept[1]
        out = self._board_json(b, seat, score)
        b._json = (key, out)
        return out

    def _board_json(self, b: Board, seat: int, score: bool) -> dict[str, Any]:
        layout = self.space.layout
        stacks = {
            layout.names[i]: [COLORS[c] for c in STACKS[s]] for i, s in enumerate(b.cells) if s
        }
        cubes = [layout.names[i] for i, bit in enumerate(layout.bits) if b.cubes >> bit & 1]
        cards = [
            {"card": CARDS[c].id, "placed": p, "cubes_left": CARDS[c].cubes - p, "complete": done}
            for group, done in ((b.done, True), (b.cards, False))
            for c, p in group
        ]
        out: dict[str, Any] = {"side": self.side, "stacks": stacks, "cubes": cubes, "cards": cards}
        if b.spirit >= 0:
            out["spirit"] = {"card": CARDS[b.spirit].id, "placed": b.spirit_placed}
        out["empty_cells"] = b.empty_cells()
        out["animal_cubes"] = b.placed
        out["held"] = b.held()
        if score:
            out["score"] = self.breakdown(seat, explain=True)
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self.check_seat(seat)
        pouch_counts = [0] * 6
        for c in self.pouch:
            pouch_counts[c] += 1
        out = self.view_header(seat)
        out.update(
            {
                "current": None if self.over else self.current,
                "turn": self.turn,
                "round": self.turn // self.players + (0 if self.over else 1),
                "central": [[COLORS[c] for c in tokens] for tokens in self.central],
                "pouch": {
                    "count": len(self.pouch),
                    "colors": dict(zip(COLORS, pouch_counts, strict=True)),
                },
                "deck": len(self.deck),
                "row": [CARDS[c].id if c >= 0 else None for c in self.row],
                "boards": [self.board_json(s) for s in range(self.players)],
                "hand": [COLORS[c] for c in self.hand],
                "took_tokens": self.took,
                "took_card": self.took_card,
                "discarded": self.discarded,
                "end_triggered": self.end_triggered,
                "end_trigger": self._trigger_json(),
                "refusals": self._refusals_json(),
                "out_of_game": self.out,
                "discards": [CARDS[c].id for c in self.discards],
                "choosing_spirit": [s for s in range(self.players) if self.boards[s].offer],
            }
        )
        if seat is not None and self.boards[seat].offer:
            out["spirit_offer"] = [CARDS[c].id for c in self.boards[seat].offer]
        if self.solo:
            b = self.boards[0]
            parts = solo_sun_parts(b.total(), self.side, b.spirit)
            # with spirits, the spirit modifier is unknown until the spirit is chosen
            parts["spirit_known"] = not self.spirits or b.spirit >= 0
            out["solo_suns"] = parts
        return out

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """As :meth:`view` for each seat, equal to it key for key and in the same key order;
        the public part (all but ``seat``, ``can_undo`` and the seat's spirit offer) is built
        once, as the spectator's view."""
        wanted = list(dict.fromkeys(seats))
        if len(wanted) < 2:
            return super().views(wanted)
        public = self.view(None)
        out: dict[int | None, dict[str, Any]] = {}
        seat: int | None
        for seat in wanted:
            if seat is None:
                out[seat] = public
                continue
            self.check_seat(seat)
            mine = dict(public)
            mine["seat"] = seat
            mine["can_undo"] = not self.over and self.can_undo(seat)
            offer = self.boards[seat].offer
            if offer:  # after the shared fields, before the solo suns (as view writes them)
                suns = mine.pop("solo_suns", None)
                mine["spirit_offer"] = [CARDS[c].id for c in offer]
                if suns is not None:
                    mine["solo_suns"] = suns
            out[seat] = mine
        return out

    def _trigger_json(self) -> dict[str, Any] | None:
        """Who triggered the end of the game and why, for the "last round" line and end screen."""
        if self.trigger is None:
            return None
        seat, reasons = self.trigger
        return {
            "seat": seat,
            "reason": reasons[0],
            "reasons": list(reasons),
            "empty_cells": self.boards[seat].empty_cells(),
        }

    def _refusals_json(self) -> dict[str, dict[str, Any]]:
        """Why the current player cannot now take tokens, take or discard a card, or end the
        turn (only the kinds refused; their refusal code and params), so a page can show those
        controls unavailable with the reason instead of hiding them."""
        if self.over:
            return {}
        sp = self.space
        seat = self.current
        probes = {
            "take_tokens": next((i for i, t in enumerate(self.central) if t), 0),
            "take_card": sp.CARD + next((i for i, c in enumerate(self.row) if c >= 0), 0),
            "end_turn": sp.END,
        }
        if self.solo:
            probes["discard_card"] = sp.DISCARD + next(
                (i for i, c in enumerate(self.row) if c >= 0), 0
            )
        out: dict[str, dict[str, Any]] = {}
        for kind, code in probes.items():
            why = self.why_illegal(seat, code)
            if why is not None:
                out[kind] = {"code": why.code, "params": why.params}
        return out

    def describe_chance(self, entry: tuple[int, int, Any], seat: int | None) -> Any:
        chance = entry[2]
        if chance is None:
            return None
        code = entry[1]
        sp = self.space
        if code < sp.PLACE:  # take_tokens: the colours taken from the central space
            return {"taken": [COLORS[c] for c in chance]}
        if code < sp.CUBE:  # take_card: the card taken from the row
            return {"card": CARDS[chance[0]].id}
        if len(chance) == 1:  # a solo discard replaced from the draw pile
            return {"cards": [CARDS[chance[0]].id]}
        tokens, cards = chance
        return {"tokens": [COLORS[c] for c in tokens], "cards": [CARDS[c].id for c in cards]}

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game_name,
            "format": 1,
            "seed": self.seed,
            "options": dict(self.options),
            "pouch": self.pouch[:],
            "central": [list(t) for t in self.central],
            "deck": self.deck[:],
            "row": self.row[:],
            "boards": [
                {
                    "cells": b.cells[:],
                    "cubes": self.space.layout.to_save_mask(b.cubes),
                    "cards": [list(c) for c in b.cards],
                    "done": [list(c) for c in b.done],
                    "spirit": b.spirit,
                    "spirit_placed": b.spirit_placed,
                    "offer": list(b.offer),
                    "placed": b.placed,
                }
                for b in self.boards
            ],
            "current": self.current,
            "hand": self.hand[:],
            "took": self.took,
            "took_card": self.took_card,
            "discarded": self.discarded,
            "emptied": self.emptied,
            "turn": self.turn,
            "turn_start": self.turn_start,
            "end_triggered": self.end_triggered,
            "end_trigger": None
            if self.trigger is None
            else [self.trigger[0], list(self.trigger[1])],
            "over": self.over,
            "out": self.out,
            "discards": self.discards[:],
            "log": [[s, c, _chance_json(x)] for s, c, x in self.log],
        }
        if self.resampled:
            out["resampled"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HarmoniesGame:
        try:
            g = cls.new(int(data["seed"]), dict(data["options"]))
            layout = g.space.layout
            g.pouch = [int(c) for c in data["pouch"]]
            g.central = [tuple(int(c) for c in t) for t in data["central"]]
            g.deck = [int(c) for c in data["deck"]]
            g.row = [int(c) for c in data["row"]]
            boards = []
            for raw in data["boards"]:
                b = Board.empty(layout)
                b.cells = [int(s) for s in raw["cells"]]
                b.masks = layout.masks_of(b.cells)
                b.cubes = layout.from_save_mask(int(raw["cubes"]))
                b.cards = [(int(c), int(p)) for c, p in raw["cards"]]
                b.done = [(int(c), int(p)) for c, p in raw["done"]]
                b.spirit = int(raw["spirit"])
                b.spirit_placed = bool(raw["spirit_placed"])
                b.offer = tuple(int(c) for c in raw["offer"])
                b.placed = int(raw["placed"])
                boards.append(b)
            g.boards = boards
            g.current = int(data["current"])
            g.hand = [int(c) for c in data["hand"]]
            g.took = bool(data["took"])
            g.took_card = bool(data["took_card"])
            g.discarded = bool(data["discarded"])
            g.emptied = int(data["emptied"])
            g.turn = int(data["turn"])
            g.turn_start = int(data["turn_start"])
            g.end_triggered = bool(data["end_triggered"])
            g.over = bool(data["over"])
            trigger = data.get("end_trigger")
            if trigger is not None:
                g.trigger = (int(trigger[0]), tuple(str(r) for r in trigger[1]))
            g.out = int(data["out"])
            g.discards = [int(c) for c in data["discards"]]
            g.log = [(int(s), int(c), _chance_tuple(x)) for s, c, x in data["log"]]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise bad_input("save.damaged", detail=str(exc)) from None
        if data.get("resampled") is True:  # a search's copy: its log is history only
            g.resampled = True
        else:
            # a save from before the trigger and the taken tokens were kept: rebuilt from its log
            g.judge_log(rebuild=(g.end_triggered and trigger is None) or _old_log(g))
        return g

    def judge_log(self, rebuild: bool = False) -> None:
        """Check that the log replays, from the seed, to this state (a save is judged when it is
        loaded, so that nothing it let in fails later). ``rebuild``: the log comes from a save
        that did not record the chance outcomes of taking tokens and cards, nor the end's
        trigger; they are taken from the replay.

        :raises BadInput: ``save.log_entry`` naming the first entry that is no legal move where
            it stands or that met another chance outcome than the one it records;
            ``save.log_state`` if every entry replays but the replay is not this state.
        """
        replay = HarmoniesGame.new(self.seed, self.options)
        entries = len(self.log)
        for i, (seat, code, chance) in enumerate(self.log):
            if replay.why_illegal(seat, code) is not None:
                raise bad_input("save.log_entry", entry=i + 1, entries=entries)
            replay.apply_action_id(seat, code, checked=True)
            if replay.log[-1][2] != chance and not (rebuild and chance is None):
                raise bad_input("save.log_entry", entry=i + 1, entries=entries)
        if rebuild:
            self.trigger = replay.trigger
            self.log = replay.log
        if replay.fingerprint() != self.fingerprint():
            raise bad_input("save.log_state", entries=entries)


# ====================================================================== helpers
def _dealt_spirits(seed: int, players: int) -> list[tuple[int, int]]:
    """The two Nature's Spirits each seat is dealt face down at set-up."""
    pile = shuffled(seed, "spirits", list(SPIRITS))
    return [(pile.pop(), pile.pop()) for _ in range(players)]


def _old_log(g: HarmoniesGame) -> bool:
    """True if a loaded log lacks the taken tokens or card that moves now record."""
    sp = g.space
    return any(x is None and (c < sp.PLACE or sp.CARD <= c < sp.CUBE) for _, c, x in g.log)


def _chance_json(chance: Any) -> Any:
    if chance is None:
        return None
    return [list(part) if isinstance(part, tuple) else part for part in chance]


def _chance_tuple(chance: Any) -> Any:
    if chance is None:
        return None
    return tuple(tuple(part) if isinstance(part, list) else part for part in chance)


_FIELDS = {
    "take_tokens": ("space",),
    "place_token": ("color", "cell"),
    "take_card": ("slot",),
    "place_cube": ("card", "cell"),
    "choose_spirit": ("card",),
    "discard_card": ("slot",),
    "end_turn": (),
}


def _describe_bad_action(action: Action, layout: Layout) -> Refusal:
    """The refusal of an action that names nothing real in Harmonies."""
    kind = action.type
    if kind not in _FIELDS:
        return refuse("action.unknown", type=kind)
    given = {k for k, _ in action.args}
    missing = [f for f in _FIELDS[kind] if f not in given]
    if missing:
        return refuse("action.missing_field", type=kind, field=missing[0])
    extra = sorted(given - set(_FIELDS[kind]))
    if extra:
        return refuse("action.extra_field", type=kind, field=extra[0])
    for key in ("space", "slot"):
        if key in given:
            value = action[key]
            if isinstance(value, bool) or not isinstance(value, int):
                return refuse("action.not_number", field=key, limit=4)
            return refuse("action.out_of_range", field=key, value=value, limit=4)
    if "color" in given and action["color"] not in COLOR_INDEX:
        return refuse("color.unknown", color=action["color"])
    if "card" in given:
        card = action["card"]
        if not isinstance(card, str) or card not in CARD_INDEX:
            return refuse("card.unknown", card=card)
        if kind == "choose_spirit":
            info = CARDS[CARD_INDEX[card]]
            return refuse("spirit.is_animal", card=info.id, name=info.name)
    if "cell" in given:
        cell = action["cell"]
        if not isinstance(cell, str):
            return refuse("cell.not_text")
        return refuse("cell.off_board", cell=cell, side=layout.side)
    return refuse("action.no_such", type=kind)


__all__ = ["MAX_HELD", "ActionSpace", "Board", "HarmoniesGame", "SPACES"]
