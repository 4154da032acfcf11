"""Harmonies as fixed-shape numpy observations, read straight from the engine's public fields.

The observation of a seat is one float32 vector: one block per personal board, the seat's own
board first and the others in turn order after it, then the shared table. ``docs/rl.md`` lists
every segment; ``HarmoniesEncoder.segments`` is the same list in code. Never read: the pouch
order, the animal draw pile, another seat's face-down spirit offer.

Speed: the encoder keeps one encoded block per board and is told each applied move, so a token
placement rewrites one cell and marks that board's score stale; scores are recomputed only when
observed. When the compiled kernels are built (see ``glade.rl.kernels``) that per-step work runs in
``_kernels.HarmoniesKernel`` instead of the Python methods below, with byte-identical results.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from glade.core import Game
from glade.harmonies.data import CARDS, COLORS, LAYOUTS, STACKS
from glade.harmonies.game import SPACES, HarmoniesGame
from glade.harmonies.scoring import CATEGORIES

from .kernels import compiled_module, use_compiled
from .spec import ActionRange, Encoder, Layout

ANIMALS = 32
N_SPIRITS = 10
LEVELS = 3
CELL_WIDTH = LEVELS * 6 + 1  # colour one-hot per height level, then the cube flag
SCORE_KEYS = (*CATEGORIES, "total")

# stack state -> its 18 height-by-colour planes (level 0 = the bottom token)
CELL_PLANES = np.zeros((len(STACKS), LEVELS * 6), dtype=np.float32)
for _state, _stack in enumerate(STACKS):
    for _level, _color in enumerate(_stack):
        CELL_PLANES[_state, _level * 6 + _color] = 1.0


_TOKEN_COUNTS: dict[tuple[int, ...], np.ndarray] = {}


def token_counts(tokens: tuple[int, ...]) -> np.ndarray:
    """Tokens per colour of a central space, as a (6,) float32 array (cached per tuple)."""
    found = _TOKEN_COUNTS.get(tokens)
    if found is None:
        found = np.zeros(6, dtype=np.float32)
        for color in tokens:
            found[color] += 1.0
        _TOKEN_COUNTS[tokens] = found
    return found


def _board_layout(n: int) -> Layout:
    lay = Layout()
    lay.add(
        "cells",
        n * CELL_WIDTH,
        1,
        "per cell (board order), 3 height levels x 6 colours one-hot, then 1 if a cube",
    )
    lay.add("animals.held", ANIMALS, 1, "1 per animal card held and not yet complete")
    lay.add("animals.cubes", ANIMALS, 5, "cubes moved from each animal card to the board")
    lay.add("animals.done", ANIMALS, 1, "1 per completed animal card")
    lay.add("spirit", N_SPIRITS, 1, "the chosen Nature's Spirit, one-hot")
    lay.add("spirit_placed", 1, 1, "1 once the spirit's cube is on the board")
    lay.add(
        "spirit_offer",
        N_SPIRITS,
        1,
        "the two spirits dealt face down (own board only, while choosing)",
    )
    lay.add(
        "score",
        len(SCORE_KEYS),
        500,
        "score at its owner's last end of turn (live in the solo env): " + ", ".join(SCORE_KEYS),
    )
    lay.add(
        "counts",
        3,
        100,
        "empty cells, animal cubes on the board, cards held against the limit of 4",
    )
    return lay


def _common_layout(start: int) -> Layout:
    lay = Layout(start=start)
    lay.add(
        "central", 5 * 6, 3, "tokens per colour on each central space (solo: spaces 3, 4 stay 0)"
    )
    lay.add("hand", 6, 3, "tokens per colour taken this turn and not yet placed")
    lay.add("pouch", 6, 23, "tokens per colour left in the pouch (public counts)")
    lay.add(
        "row", 5 * ANIMALS, 1, "face-up animal card per slot, one-hot (solo: slots 3, 4 stay 0)"
    )
    lay.add("deck", 1, ANIMALS, "cards left in the animal draw pile")
    lay.add(
        "flags",
        5,
        1,
        "took tokens, took a card, discarded (solo), end triggered, choosing a spirit",
    )
    lay.add(
        "counters",
        4,
        1000,
        "turns completed, round, tokens out of the game (solo), cards discarded (solo)",
    )
    return lay


class HarmoniesEncoder(Encoder):
    """Observation encoder for one Harmonies configuration (players, side, spirits).

    ``live_scores=False`` (the default, fast) refreshes a board's score segment when its owner's
    turn ends; ``True`` refreshes it after every placement. ``compiled`` picks the compiled
    kernel (True), the pure-Python code (False) or the kernel whenever it is built (None).
    """

    game_name = "harmonies"

    def __init__(
        self,
        players: int = 2,
        side: str = "A",
        spirits: bool = False,
        live_scores: bool = False,
        compiled: bool | None = None,
    ) -> None:
        opts = HarmoniesGame.parse_options({"players": players, "side": side, "spirits": spirits})
        self.arguments = {
            "players": players,
            "side": side,
            "spirits": spirits,
            "live_scores": live_scores,
            "compiled": compiled,
        }
        self.options = opts
        self.live_scores = bool(live_scores)
        self.players = opts["players"]
        self.space = SPACES[opts["side"]]
        self.layout = LAYOUTS[opts["side"]]
        self.n = len(self.layout.cells)
        self.n_actions = self.space.size
        board = _board_layout(self.n)
        common = self.lay_out(board, "board", _common_layout)
        off = {seg.name: seg.start for seg in board.segments}
        self._cells_len = self.n * CELL_WIDTH
        self._held = off["animals.held"]
        self._cubes = off["animals.cubes"]
        self._done = off["animals.done"]
        self._spirit = off["spirit"]
        self._spirit_placed = off["spirit_placed"]
        self._offer = off["spirit_offer"]
        self._score = off["score"]
        self._counts = off["counts"]
        c = {seg.name: seg.start - self.boards_size for seg in common.segments}
        self._c = c
        self._hand = c["hand"]
        self._row = c["row"]
        self._choosing = self.boards_size + c["flags"] + 4
        self.common_size = self.size - self.boards_size
        self._bits = self.layout.bits
        # canonical encoding: board blocks by absolute seat, then the shared table; a seat's
        # observation is this vector with the board blocks rotated so that its own comes first
        self._flat = np.zeros(self.size, dtype=np.float32)
        self._boards = self._flat[: self.boards_size].reshape(self.players, self.block)
        self._common = self._flat[self.boards_size :]
        self._cellviews = [
            self._boards[s, : self._cells_len].reshape(self.n, CELL_WIDTH)
            for s in range(self.players)
        ]
        self._state: HarmoniesGame | None = None
        self._cells_stale: set[int] = set()
        self._cards_stale: set[int] = set()
        self._score_stale: set[int] = set()
        self._common_stale = True
        self._pouch_len = -1
        self._pouch_counts = np.zeros(6, dtype=np.int64)
        self._taken = 0  # the central space taken this turn
        self._emptied_slots: list[int] = []  # card slots emptied this turn
        self.kernel: Any = (
            compiled_module().HarmoniesKernel(self) if use_compiled(compiled) else None
        )

    # ------------------------------------------------------------------ describing
    def action_ranges(self) -> list[ActionRange]:
        sp = self.space
        n = self.n
        return [
            ActionRange("take_tokens", sp.TAKE, 5, "take_tokens space = index"),
            ActionRange(
                "place_token",
                sp.PLACE,
                6 * n,
                f"place_token: colour * {n} + cell (colours {', '.join(COLORS)})",
            ),
            ActionRange("take_card", sp.CARD, 5, "take_card slot = index - start"),
            ActionRange(
                "place_cube",
                sp.CUBE,
                42 * n,
                f"place_cube: card * {n} + cell (cards 0-31 animals, 32-41 spirits)",
            ),
            ActionRange("choose_spirit", sp.SPIRIT, 10, "choose_spirit card = 32 + index - start"),
            ActionRange(
                "discard_card", sp.DISCARD, 5, "discard_card slot = index - start (solo only)"
            ),
            ActionRange("end_turn", sp.END, 1, "end_turn"),
        ]

    # ------------------------------------------------------------------ tracking the state
    def reset(self, state: Game) -> None:
        if not isinstance(state, HarmoniesGame):
            raise TypeError("the Harmonies encoder needs a Harmonies game")
        if state.options != self.options:
            raise ValueError(f"this encoder is for {self.options}, not {state.options}")
        self._state = state
        if self.kernel is not None:
            self.kernel.bind(state)
            return
        everyone = set(range(self.players))
        self._cells_stale = set(everyone)
        self._cards_stale = set(everyone)
        self._score_stale = set(everyone)
        self._common_stale = True
        self._pouch_len = -1
        self._taken = 0
        self._emptied_slots = []

    def after(self, seat: int, code: int) -> None:
        """Update the encoding for move ``code`` just played by ``seat``: only what it changed."""
        if self.kernel is not None:
            self.kernel.after(seat, code)
            return
        state = self._state
        assert state is not None
        sp = self.space
        c = self._common
        if code < sp.PLACE:  # take_tokens: a central space moves into the hand
            self._taken = code
            base = code * 6
            c[base : base + 6] = 0.0
            for color in state.hand:
                c[self._hand + color] += 1.0
            c[self._c["flags"]] = 1.0
        elif code < sp.CARD:  # place_token: one cell, one token out of the hand
            color, cell = divmod(code - sp.PLACE, self.n)
            self._cellviews[seat][cell, :18] = CELL_PLANES[state.boards[seat].cells[cell]]
            c[self._hand + color] -= 1.0
            self._boards[seat, self._counts] = state.boards[seat].empty_cells()
            if self.live_scores:
                self._score_stale.add(seat)
        elif code < sp.CUBE:  # take_card: a slot empties, the card joins the board's cards
            self._emptied_slots.append(code - sp.CARD)
            base = self._row + (code - sp.CARD) * ANIMALS
            c[base : base + ANIMALS] = 0.0
            c[self._c["flags"] + 1] = 1.0
            self._cards_stale.add(seat)
        elif code < sp.SPIRIT:  # place_cube
            self._cellviews[seat][(code - sp.CUBE) % self.n, 18] = 1.0
            self._cards_stale.add(seat)
            if self.live_scores:
                self._score_stale.add(seat)
        elif code < sp.DISCARD:  # choose_spirit
            self._cards_stale.add(seat)
        elif code < sp.END:  # discard_card (solo): the slot gets the next card of the pile
            slot = code - sp.DISCARD
            base = self._row + slot * ANIMALS
            c[base : base + ANIMALS] = 0.0
            c[base + state.row[slot]] = 1.0
            c[self._c["deck"]] = len(state.deck)
            c[self._c["flags"] + 2] = 1.0
            c[self._c["counters"] + 3] = len(state.discards)
        else:  # end_turn: refills, counters; the turn's scores are settled
            if not self._common_stale:
                self._end_turn_common(state)
            else:  # the next observation encodes the whole table afresh
                self._emptied_slots.clear()
            self._score_stale.add(seat)

    def _end_turn_common(self, state: HarmoniesGame) -> None:
        """The shared table after an end of turn: refilled central spaces and slots, counters."""
        c = self._common
        off = self._c
        refilled = range(len(state.central)) if state.solo else (self._taken,)
        for space in refilled:
            c[space * 6 : space * 6 + 6] = token_counts(state.central[space])
        if len(state.pouch) != self._pouch_len:  # the refills came out of the pouch
            counts = self._pouch_counts
            for space in refilled:
                counts -= token_counts(state.central[space]).astype(np.int64)
            if int(counts.sum()) != len(state.pouch):  # not a plain refill: count afresh
                counts = np.bincount(state.pouch, minlength=6)
            self._pouch_counts = counts
            self._pouch_len = len(state.pouch)
            c[off["pouch"] : off["pouch"] + 6] = counts
        c[self._hand : self._hand + 6] = 0.0
        for slot in self._emptied_slots:
            card = state.row[slot]
            if card >= 0:
                c[self._row + slot * ANIMALS + card] = 1.0
        self._emptied_slots.clear()
        # a new turn: nothing taken, placed or discarded yet
        self._encode_counters(state, (0.0, 0.0, 0.0, state.end_triggered))

    def _encode_counters(self, state: HarmoniesGame, flags: tuple[float, ...]) -> None:
        """The draw pile's size (public), the turn's ``flags`` and the turn counters."""
        c = self._common
        off = self._c
        c[off["deck"]] = len(state.deck)
        f = off["flags"]
        c[f : f + 4] = flags
        k = off["counters"]
        turn = state.turn
        c[k : k + 4] = (
            turn,
            turn // self.players + (0 if state.over else 1),
            state.out,
            len(state.discards),
        )

    # ------------------------------------------------------------------ encoding
    def _encode_cells(self, s: int) -> None:
        state = self._state
        assert state is not None
        b = state.boards[s]
        view = self._cellviews[s]
        view[:, :18] = CELL_PLANES[b.cells]
        cubes = b.cubes
        view[:, 18] = [(cubes >> bit) & 1 for bit in self._bits]
        self._boards[s, self._counts] = b.empty_cells()

    def _encode_cards(self, s: int) -> None:
        state = self._state
        assert state is not None
        b = state.boards[s]
        row = self._boards[s]
        row[self._held : self._score] = 0.0
        held, cubes, done = self._held, self._cubes, self._done
        for card, placed in b.cards:
            row[held + card] = 1.0
            row[cubes + card] = placed
        for card, placed in b.done:
            row[done + card] = 1.0
            row[cubes + card] = placed
        if b.spirit >= 0:
            row[self._spirit + b.spirit - 32] = 1.0
            row[self._spirit_placed] = float(b.spirit_placed)
        # the offer is written into the observation of its owner only (see observe)
        row[self._counts + 1] = b.placed
        row[self._counts + 2] = b.held()

    def _encode_score(self, s: int) -> None:
        state = self._state
        assert state is not None
        b = state.boards[s]
        parts = b.score_parts()
        k = self._score
        self._boards[s, k : k + len(SCORE_KEYS)] = [*parts, sum(parts)]

    def _encode_common(self) -> None:
        state = self._state
        assert state is not None
        c = self._common
        off = self._c
        c[:] = 0.0
        for space, tokens in enumerate(state.central):
            for color in tokens:
                c[space * 6 + color] += 1.0
        base = self._hand
        for color in state.hand:
            c[base + color] += 1.0
        if (
            len(state.pouch) != self._pouch_len
        ):  # the pouch only shrinks, so its size keys the counts
            self._pouch_len = len(state.pouch)
            self._pouch_counts = np.bincount(
                state.pouch, minlength=6
            )  # counts only: order stays hidden
        base = off["pouch"]
        c[base : base + 6] = self._pouch_counts
        base = self._row
        for slot, card in enumerate(state.row):
            if card >= 0:
                c[base + slot * ANIMALS + card] = 1.0
        self._encode_counters(
            state, (state.took, state.took_card, state.discarded, state.end_triggered)
        )
        # (slots emptied this turn stay listed: the end of the turn refills them)
        self._common_stale = False

    def _refresh(self) -> None:
        for s in self._cells_stale:
            self._encode_cells(s)
        for s in self._cards_stale:
            self._encode_cards(s)
        for s in self._score_stale:
            self._encode_score(s)
        self._cells_stale.clear()
        self._cards_stale.clear()
        self._score_stale.clear()
        if self._common_stale:
            self._encode_common()

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        state = self._state
        if state is None:
            raise RuntimeError("the encoder is not bound to a game; call reset(state) first")
        if self.kernel is not None:
            result: np.ndarray = self.kernel.observe(seat, out)
            return result
        if self._common_stale or self._score_stale or self._cards_stale or self._cells_stale:
            self._refresh()
        flat = self._flat
        if out is None:
            out = flat.copy()
        else:
            out[:] = flat
        if seat:  # rotate the board blocks: the seat's own board first, then the following seats
            cut = seat * self.block
            total = self.boards_size
            out[: total - cut] = flat[cut:total]
            out[total - cut : total] = flat[:cut]
        offer = state.boards[seat].offer
        if offer:  # the seat's own face-down spirits; nobody else's
            for card in offer:
                out[self._offer + card - 32] = 1.0
            out[self._choosing] = 1.0
        return out

    # ------------------------------------------------------------------ text
    def render(self, state: Game, seat: int | None) -> str:
        if not isinstance(state, HarmoniesGame):
            raise TypeError("the Harmonies renderer needs a Harmonies game")
        return render_harmonies(state, seat)


# ====================================================================== ansi rendering
LETTER = {
    0: "W",
    1: "M",
    2: "T",
    3: "G",
    4: "Y",
    5: "R",
}  # water, mountain, trunk, green, yellow, red


def _cell_text(stack: tuple[int, ...], cube: bool) -> str:
    text = "".join(LETTER[c] for c in stack) or "."
    return (text + ("*" if cube else "")).center(5)


def render_board(state: HarmoniesGame, seat: int) -> list[str]:
    """The board of ``seat`` as text: one column per q, each cell its stack above its name."""
    layout = state.space.layout
    b = state.boards[seat]
    rows = {}
    for i, (q, r) in enumerate(layout.cells):
        rows[(2 * r + q, q)] = (
            "[" + _cell_text(STACKS[b.cells[i]], bool(b.cubes >> layout.bits[i] & 1)) + "]"
        )
        rows[(2 * r + q + 1, q)] = layout.names[i].center(7)
    ys = [y for y, _ in rows]
    qs = [q for _, q in rows]
    lines = []
    for y in range(min(ys), max(ys) + 1):
        line = ""
        for q in range(min(qs), max(qs) + 1):
            line += rows.get((y, q), " " * 7)
        lines.append(line.rstrip())
    return lines


def render_harmonies(state: HarmoniesGame, seat: int | None) -> str:
    """The table as ``seat`` sees it: central board, cards, every personal board and score."""
    out: list[str] = []
    status = "game over" if state.over else f"seat {state.current} to play"
    out.append(f"Harmonies  side {state.side}  turn {state.turn}  {status}")
    central = "  ".join(
        f"{i}:" + ("".join(LETTER[c] for c in t) or "-") for i, t in enumerate(state.central)
    )
    counts = np.bincount(state.pouch, minlength=6) if state.pouch else np.zeros(6, dtype=int)
    pouch = " ".join(f"{LETTER[c]}{int(counts[c])}" for c in range(6))
    out.append(f"central  {central}    pouch {pouch}")
    row = "  ".join(f"{i}:{CARDS[c].id if c >= 0 else '-'}" for i, c in enumerate(state.row))
    out.append(f"cards    {row}    draw pile {len(state.deck)}")
    if state.hand:
        out.append("in hand  " + "".join(LETTER[c] for c in state.hand))
    for s in range(state.players):
        b = state.boards[s]
        score = state.breakdown(s)["total"]
        mark = " (you)" if s == seat else ""
        out.append("")
        out.append(f"seat {s}{mark}: {score} points")
        cards = [f"{CARDS[c].id} {p}/{CARDS[c].cubes}" for c, p in b.cards]
        cards += [f"{CARDS[c].id} done" for c, _ in b.done]
        if b.spirit >= 0:
            cards.append(f"{CARDS[b.spirit].id}{' placed' if b.spirit_placed else ''}")
        if s == seat and b.offer:
            cards.append("choose: " + " or ".join(CARDS[c].id for c in b.offer))
        out.append("cards: " + (", ".join(cards) if cards else "none"))
        out.extend(render_board(state, s))
    out.append("")
    out.append("W water  M mountain  T trunk  G tree top  Y field  R building  * cube")
    return "\n".join(out)
