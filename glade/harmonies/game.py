"""The Harmonies rules engine: every rule, card and mode (sides A/B, solo, Nature's Spirit).

State is kept in small ints and lists: a cell stores its stack as a state code (see ``data``), each
board also keeps one bit mask per stack state, so legal placements are a few ORs and a habitat is
matched on every cell at once with shifts and ANDs. Randomness: the pouch, the animal deck and the
spirit deal are shuffled at set-up from the game's seed; later draws pop from those hidden orders.
"""

from __future__ import annotations

from typing import Any

from glade.core import Action, BadInput, Game, IllegalAction
from glade.core.chance import shuffled

from .data import (
    B2,
    BB,
    BG,
    BR,
    CARD_INDEX,
    CARDS,
    CLASS_STATES,
    COLOR_INDEX,
    COLORS,
    EMPTY,
    LAYOUTS,
    M1,
    M2,
    M3,
    NEXT,
    NSTATES,
    SPIRITS,
    STACKS,
    T1,
    T2,
    T3,
    TOKEN_COUNTS,
    TOP,
    UNDER,
    F,
    Layout,
    W,
)
from .scoring import board_breakdown, solo_suns

MAX_HELD = 4
CLASS_ORDER = tuple(CLASS_STATES)  # class index -> name (W F M1 M2 M3 T1 T2 T3 BLD)


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


SPACES = {side: ActionSpace(layout) for side, layout in LAYOUTS.items()}


# ====================================================================== one player's board
class Board:
    """A personal board: stacks, cubes, held and completed cards, Nature's Spirit."""

    __slots__ = (
        "cells",
        "masks",
        "cubes",
        "cards",
        "done",
        "spirit",
        "spirit_placed",
        "offer",
        "placed",
    )

    cells: list[int]  # stack state per cell index
    masks: list[int]  # per stack state: mask of layout bits holding that stack
    cubes: int  # mask of layout bits holding a cube
    cards: list[tuple[int, int]]  # held, unfinished: (card index, cubes placed)
    done: list[tuple[int, int]]  # completed cards
    spirit: int  # chosen spirit card index, -1 if none
    spirit_placed: bool
    offer: tuple[int, ...]  # the two spirits dealt face down, until one is chosen
    placed: int  # animal cubes on the board (tie-break; the spirit cube is not counted)

    @classmethod
    def empty(cls, layout: Layout) -> Board:
        b = cls()
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
        return b

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.cells = self.cells[:]
        b.masks = self.masks[:]
        b.cubes = self.cubes
        b.cards = self.cards[:]
        b.done = self.done[:]
        b.spirit = self.spirit
        b.spirit_placed = self.spirit_placed
        b.offer = self.offer
        b.placed = self.placed
        return b

    def held(self) -> int:
        """Cards counted against the limit of 4: unfinished animals, and the spirit until placed."""
        return len(self.cards) + (1 if self.spirit >= 0 and not self.spirit_placed else 0)

    def empty_cells(self) -> int:
        return self.masks[EMPTY].bit_count()

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
        found = 0
        for rot in rotations:
            a = start
            for delta, k in rot:
                m = cls[k]
                a &= (m >> delta) if delta >= 0 else (m << -delta)
                if not a:
                    break
            found |= a
        return found

    def card_list(self) -> list[tuple[int, int]]:
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
        "over",
        "out",
        "discards",
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
    over: bool
    out: int  # tokens that left the game (solo)
    discards: list[int]  # animal cards discarded in solo

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def parse_options(options: dict[str, Any]) -> dict[str, Any]:
        known = {"players", "side", "spirits"}
        extra = set(options) - known
        if extra:
            raise BadInput(
                f"unknown Harmonies option {sorted(extra)[0]!r}; options are players, side, spirits"
            )
        players = options.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise BadInput("Harmonies is played by 1 to 4 players")
        side = options.get("side", "A")
        if side not in ("A", "B"):
            raise BadInput('the board side must be "A" or "B"')
        spirits = options.get("spirits", False)
        if not isinstance(spirits, bool):
            raise BadInput("spirits must be true or false")
        return {"players": players, "side": side, "spirits": spirits}

    @classmethod
    def new(cls, seed: int, options: dict[str, Any]) -> HarmoniesGame:
        opts = cls.parse_options(options)
        g = cls.__new__(cls)
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
            spirits = shuffled(seed, "spirits", list(SPIRITS))
            for b in g.boards:
                b.offer = (spirits.pop(), spirits.pop())
        g.current = 0
        g.hand = []
        g.took = g.took_card = g.discarded = False
        g.emptied = -1
        g.turn = 0
        g.turn_start = 0
        g.end_triggered = False
        g.over = False
        g.out = 0
        g.discards = []
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
        g = HarmoniesGame.__new__(HarmoniesGame)
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
        g.over = self.over
        g.out = self.out
        g.discards = self.discards[:]
        return g

    # ------------------------------------------------------------------ legal moves
    def legal_action_ids(self, seat: int) -> list[int]:
        if self.over or seat != self.current:
            return []
        sp = self.space
        b = self.boards[seat]
        if b.offer:
            return [sp.SPIRIT + k - 32 for k in b.offer]
        out: list[int]
        if not self.took:
            out = [s for s, tokens in enumerate(self.central) if tokens]
        elif self.hand:
            out = []
            masks = b.masks
            bit_cell = sp.layout.bit_cell
            free = ~b.cubes
            for color in sorted(set(self.hand)):
                m = 0
                for s in UNDER[color]:
                    m |= masks[s]
                m &= free
                base = sp.PLACE + color * sp.n
                while m:
                    low = m & -m
                    out.append(base + bit_cell[low.bit_length() - 1])
                    m ^= low
        else:
            out = []
        if not self.took_card and not self.discarded and b.held() < MAX_HELD:
            card_base = sp.CARD
            out.extend(card_base + s for s, c in enumerate(self.row) if c >= 0)
        if b.cards or (b.spirit >= 0 and not b.spirit_placed):
            cls = b.class_masks()
            bit_cell = sp.layout.bit_cell
            n = sp.n
            cube_base = sp.CUBE
            rotations = sp.rotations
            todo = [c for c, _ in b.cards]
            if b.spirit >= 0 and not b.spirit_placed:
                todo.append(b.spirit)
            for card in todo:
                m = b.anchors(card, rotations[card], cls)
                base = cube_base + card * n
                while m:
                    low = m & -m
                    out.append(base + bit_cell[low.bit_length() - 1])
                    m ^= low
        if self.took and not self.hand:
            if self.solo and not self.took_card and not self.discarded and self.deck:
                out.extend(sp.DISCARD + s for s, c in enumerate(self.row) if c >= 0)
            out.append(sp.END)
        return out

    def why_illegal(self, seat: int, code: int) -> str | None:
        if self.over:
            return "the game is over"
        if seat != self.current:
            return f"it is not your turn: seat {self.current} is playing"
        sp = self.space
        if not isinstance(code, int) or not 0 <= code < sp.size:
            return "that is not a Harmonies move"
        b = self.boards[seat]
        names = sp.layout.names
        if b.offer and not sp.SPIRIT <= code < sp.DISCARD:
            return "first choose which of your two Nature's Spirits to keep"
        if code < sp.PLACE:
            if self.took:
                return "you already took tokens from the central board this turn"
            if code >= len(self.central):
                return f"the solo central board has only {len(self.central)} spaces"
            if not self.central[code]:
                return f"central space {code} is empty"
            return None
        if code < sp.CARD:
            color, cell = divmod(code - sp.PLACE, sp.n)
            if not self.took:
                return "take the tokens of one central space first"
            if color not in self.hand:
                return f"you have no {COLORS[color]} token to place"
            if b.cubes >> sp.layout.bits[cell] & 1:
                return f"the cell {names[cell]} holds a cube, so nothing can be placed on it"
            state = b.cells[cell]
            if NEXT[state * 6 + color] < 0:
                return _why_no_stack(color, state, names[cell])
            return None
        if code < sp.CUBE:
            slot = code - sp.CARD
            if self.took_card:
                return "you already took an animal card this turn"
            if self.discarded:
                return "you discarded a card this turn, so you cannot take one"
            if b.held() >= MAX_HELD:
                return f"you already hold {MAX_HELD} unfinished cards; complete one first"
            if slot >= len(self.row):
                return f"there are only {len(self.row)} face-up animal cards"
            if self.row[slot] < 0:
                return f"card slot {slot} is empty"
            return None
        if code < sp.SPIRIT:
            card, cell = divmod(code - sp.CUBE, sp.n)
            name = CARDS[card].name
            if CARDS[card].spirit:
                if b.spirit != card:
                    return f"you do not have the {name} Spirit"
                if b.spirit_placed:
                    return f"the cube of the {name} Spirit is already on your board"
            elif not any(c == card for c, _ in b.cards):
                if any(c == card for c, _ in b.done):
                    return f"all cubes of the {name} card are already placed"
                return f"you do not hold the {name} card"
            bit = sp.layout.bits[cell]
            if b.cubes >> bit & 1:
                return f"the cell {names[cell]} already holds a cube"
            if not b.anchors(card, sp.rotations[card], b.class_masks()) >> bit & 1:
                return (
                    f"the {name} habitat is not on your board with its cube cell at {names[cell]}"
                )
            return None
        if code < sp.DISCARD:
            card = code - sp.SPIRIT + 32
            if not b.offer:
                return "you have no Nature's Spirit to choose now"
            if card not in b.offer:
                return f"the {CARDS[card].name} Spirit is not one of the two you were dealt"
            return None
        if code < sp.END:
            slot = code - sp.DISCARD
            if not self.solo:
                return "discarding a face-up card is only allowed in solo games"
            if self.took_card:
                return "you took an animal card this turn, so you cannot discard one"
            if self.discarded:
                return "you already discarded a card this turn"
            if not self.took or self.hand:
                return "place your three tokens before discarding a card"
            if not self.deck:
                return "the animal draw pile is empty, so a discarded card could not be replaced"
            if slot >= len(self.row) or self.row[slot] < 0:
                return f"card slot {slot} is empty"
            return None
        if not self.took:
            return "you must take the tokens of one central space before ending your turn"
        if self.hand:
            left = len(self.hand)
            return f"you still have {left} token{'s' if left > 1 else ''} to place"
        return None

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
            self.central[code] = ()
            self.took = True
            self.emptied = code
        elif code < sp.CARD:
            color, cell = divmod(code - sp.PLACE, sp.n)
            self.hand.remove(color)
            old = b.cells[cell]
            new = NEXT[old * 6 + color]
            b.cells[cell] = new
            bit = 1 << sp.layout.bits[cell]
            b.masks[old] ^= bit
            b.masks[new] |= bit
        elif code < sp.CUBE:
            slot = code - sp.CARD
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
        if self.solo:
            for tokens in self.central:
                self.out += len(tokens)
            if len(self.pouch) >= 9:
                self.central = [self._draw_tokens(3) for _ in range(3)]
                drawn = sum(self.central, ())
            else:
                self.central = [(), (), ()]
                self.end_triggered = True
        elif len(self.pouch) >= 3:
            self.central[self.emptied] = drawn = self._draw_tokens(3)
        else:
            self.end_triggered = True
        new_cards = []
        for slot, card in enumerate(self.row):
            if card < 0 and self.deck:
                self.row[slot] = self.deck.pop()
                new_cards.append(self.row[slot])
        if b.empty_cells() <= 2:
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
        if self.over or seat != self.current or len(self.log) <= self.turn_start:
            return False
        last = self.log[-1][1]
        return not self.space.DISCARD <= last < self.space.END

    # ------------------------------------------------------------------ scores and result
    def breakdown(self, seat: int) -> dict[str, int]:
        b = self.boards[seat]
        out = board_breakdown(self.space.layout, b.cells, b.card_list(), b.spirit, b.spirit_placed)
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

    # ------------------------------------------------------------------ views
    def board_json(self, seat: int, score: bool = True) -> dict[str, Any]:
        b = self.boards[seat]
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
            out["score"] = self.breakdown(seat)
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        pouch_counts = [0] * 6
        for c in self.pouch:
            pouch_counts[c] += 1
        out: dict[str, Any] = {
            "game": self.game_name,
            "options": dict(self.options),
            "seat": seat,
            "players": self.players,
            "current": None if self.over else self.current,
            "to_act": list(self.to_act),
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
            "over": self.over,
            "out_of_game": self.out,
            "discards": [CARDS[c].id for c in self.discards],
            "choosing_spirit": [s for s in range(self.players) if self.boards[s].offer],
        }
        if seat is not None and self.boards[seat].offer:
            out["spirit_offer"] = [CARDS[c].id for c in self.boards[seat].offer]
        if seat is not None:
            out["can_undo"] = self.can_undo(seat)
        if self.over:
            out["result"] = self.result()
        return out

    def describe_chance(self, entry: tuple[int, int, Any], seat: int | None) -> Any:
        chance = entry[2]
        if chance is None:
            return None
        if len(chance) == 1:  # a solo discard replaced from the draw pile
            return {"cards": [CARDS[chance[0]].id]}
        tokens, cards = chance
        return {"tokens": [COLORS[c] for c in tokens], "cards": [CARDS[c].id for c in cards]}

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        return {
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
                    "cubes": b.cubes,
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
            "over": self.over,
            "out": self.out,
            "discards": self.discards[:],
            "log": [[s, c, _chance_json(x)] for s, c, x in self.log],
        }

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
                b.masks = [0] * NSTATES
                for i, s in enumerate(b.cells):
                    b.masks[s] |= 1 << layout.bits[i]
                b.cubes = int(raw["cubes"])
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
            g.out = int(data["out"])
            g.discards = [int(c) for c in data["discards"]]
            g.log = [(int(s), int(c), _chance_tuple(x)) for s, c, x in data["log"]]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BadInput(f"this saved Harmonies game is damaged ({exc})") from None
        return g


# ====================================================================== helpers
def _chance_json(chance: Any) -> Any:
    if chance is None:
        return None
    return [list(part) if isinstance(part, tuple) else part for part in chance]


def _chance_tuple(chance: Any) -> Any:
    if chance is None:
        return None
    return tuple(tuple(part) if isinstance(part, list) else part for part in chance)


_WHAT = {
    0: "a water token cannot go",
    1: "a mountain cannot rise",
    2: "a trunk cannot go",
    3: "a tree cannot grow",
    4: "a field token cannot go",
    5: "a building cannot be made",
}
_RULE = {
    0: "blue goes only on an empty cell",
    1: "gray goes on an empty cell or on one or two gray",
    2: "brown goes on an empty cell or on one brown",
    3: "green goes on an empty cell or on one or two brown",
    4: "yellow goes only on an empty cell",
    5: "red goes on an empty cell or on one red, brown or gray token",
}


def _why_no_stack(color: int, state: int, cell: str) -> str:
    """Why ``color`` cannot go on the stack ``state`` at ``cell``, in a player's words."""
    if state in (BG, BB, BR):
        return f"the building at {cell} is complete: nothing can be placed on a building"
    if state == M3 and color == 1:
        return f"the mountain at {cell} is already at its full height of 3"
    if state == B2 and color == 2:
        return f"the trunk at {cell} is already 2 brown tokens high; only green can go on it"
    top = COLORS[TOP[state]]
    return f"{_WHAT[color]} on {top} (cell {cell}): {_RULE[color]}"


def _describe_bad_action(action: Action, layout: Layout) -> str:
    """The sentence for an action that names nothing real in Harmonies."""
    kind = action.type
    fields = {
        "take_tokens": ("space",),
        "place_token": ("color", "cell"),
        "take_card": ("slot",),
        "place_cube": ("card", "cell"),
        "choose_spirit": ("card",),
        "discard_card": ("slot",),
        "end_turn": (),
    }
    if kind not in fields:
        return f"{kind!r} is not a Harmonies action; actions are {', '.join(fields)} and undo"
    given = {k for k, _ in action.args}
    missing = [f for f in fields[kind] if f not in given]
    if missing:
        return f"{kind} needs the field {missing[0]!r}"
    extra = sorted(given - set(fields[kind]))
    if extra:
        return f"{kind} has no field {extra[0]!r}"
    for key in ("space", "slot"):
        if key in given:
            value = action[key]
            limit = 4
            if isinstance(value, bool) or not isinstance(value, int):
                return f"the {key} must be a whole number from 0 to {limit}"
            return f"there is no {key} {value}; {key}s are numbered 0 to {limit}"
    if "color" in given and action["color"] not in COLOR_INDEX:
        return f"{action['color']!r} is not a token colour; colours are {', '.join(COLORS)}"
    if "card" in given:
        card = action["card"]
        if not isinstance(card, str) or card not in CARD_INDEX:
            return f"there is no card {card!r}"
        if kind == "choose_spirit":
            return f"the {CARDS[CARD_INDEX[card]].name} is an animal card, not a Nature's Spirit"
    if "cell" in given:
        cell = action["cell"]
        if not isinstance(cell, str):
            return 'a cell is written "q,r", for example "1,2"'
        return f"the cell {cell} is not on side {layout.side} of the board"
    return f"that {kind} action does not exist"


__all__ = ["ActionSpace", "Board", "HarmoniesGame", "SPACES"]
