# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled per-step work of the RL encoders, the legal masks and the batched runner.

Built by ``pip install -e .`` (setup.py ``ext_modules``). Every function and kernel here has a
pure-Python twin, used when this module is not built, that produces byte-identical arrays:
the encoders' own Python code (``harmonies_encoding.py``, ``living_forest_encoding.py``) and
``glade/rl/kernels.py``. ``tests/rl/test_rl_kernels.py`` compares the two on thousands of
random steps of both games.

A kernel holds the canonical encoding of one game (board blocks by absolute seat, then the shared
table), re-encodes only what the moves since the last observation may have changed (Harmonies from
the game's public fields, Living Forest from its snapshots of the parts concerned), and writes a seat's observation (its own block first) straight into a float32
buffer. It reads nothing a seat may not see: draw stacks, the pouch and the animal deck only by
their sizes (the pouch by its public colour counts).
"""

from libc.string cimport memcpy, memset
from cpython.dict cimport PyDict_CheckExact, PyDict_Copy, PyDict_GetItem, PyDict_Next
from cpython.dict cimport PyDict_GetItemWithError, PyDict_SetItem, PyDict_Size
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject

import numpy as np
cimport numpy as cnp

cnp.import_array()

from glade.harmonies.data import EMPTY as H_EMPTY
from glade.living_forest.data import START_TREE
from glade.living_forest.game import ACTIONS as LF_ACTIONS, A_FIRE, A_MOVE, A_PICK, A_STEAL, A_USE
from glade.living_forest.game import DRAW as LF_DRAW, OVER as LF_OVER

cdef enum:
    MAX_CELLS = 32
    MAX_SEATS = 4

# the engines' constants as C ints (a comparison with the Python object makes an int object)
cdef int C_EMPTY = H_EMPTY


cdef class Kernel:
    """The canonical encoding of one bound game and the copy of a seat's view out of it."""

    cdef object state
    cdef float[::1] flat
    cdef readonly int size
    cdef int players, block, boards_size

    cdef void refresh(self) except *:
        pass

    cdef void fixup(self, int seat, float* out) except *:
        pass

    cpdef void bind(self, object state) except *:
        raise NotImplementedError

    cpdef void after(self, int seat, int code) except *:
        raise NotImplementedError

    cdef int next_seat(self) except -2:
        """The bound game's ``to_act[0]``, or -1 once it is over (subclasses read it directly)."""
        state = self.state
        if state.is_over:
            return -1
        return state.to_act[0]

    cdef int acting_seats(self, unsigned long long* may, unsigned long long* together) except -1:
        """The seats that may act now (the engine's ``to_act``: every other seat has no legal
        move) in ``may``, and in ``together`` those whose moves a parallel step plays together:
        the engine's ``acting_together`` where the game names them, else ``to_act[0]`` alone
        (bit sets by seat; subclasses read them directly)."""
        state = self.state
        cdef int seat
        may[0] = together[0] = 0
        seats = state.to_act
        for seat in seats:
            may[0] |= 1ULL << seat
        if hasattr(state, "acting_together"):
            for seat in state.acting_together:
                together[0] |= 1ULL << seat
        elif seats:
            together[0] = 1ULL << <int>seats[0]
        return 0

    cdef void write(self, int seat, float* out) except *:
        """The observation of ``seat``: its own block first, then the following seats, then the
        shared table, then the entries that depend on who looks."""
        self.refresh()
        cdef float* flat = &self.flat[0]
        cdef int cut = seat * self.block
        cdef int total = self.boards_size
        memcpy(out, flat + cut, (total - cut) * sizeof(float))
        memcpy(out + total - cut, flat, cut * sizeof(float))
        memcpy(out + total, flat + total, (self.size - total) * sizeof(float))
        self.fixup(seat, out)

    cdef object fresh(self, int seat):
        """The observation of ``seat`` in a new float32 array (made through NumPy's C API)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {self.players - 1}")
        cdef cnp.npy_intp size = self.size
        out = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
        self.write(seat, <float*>cnp.PyArray_DATA(out))
        return out

    def observe(self, int seat, out=None):
        """The observation of ``seat``, into ``out`` (a float32 vector) when given, else new."""
        if out is None:
            return self.fresh(seat)
        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {self.players - 1}")
        cdef float[::1] view
        try:
            view = out
        except (ValueError, TypeError):  # not a contiguous float32 buffer: write through a copy
            tmp = np.empty(self.size, dtype=np.float32)
            view = tmp
            self.write(seat, &view[0])
            out[:] = tmp
            return out
        if view.shape[0] != self.size:
            raise ValueError(f"the observation buffer holds {view.shape[0]} values, not {self.size}")
        self.write(seat, &view[0])
        return out


# ====================================================================== Harmonies
cdef bint _any_offer(object boards) except -1:
    """Whether a Harmonies board still holds a face-down spirit offer."""
    for board in boards:
        if board.offer:
            return True
    return False


cdef class HarmoniesKernel(Kernel):
    cdef int n, cells_len, o_held, o_cubes, o_done, o_spirit, o_spirit_placed, o_offer
    cdef int o_score, o_counts, c_hand, c_pouch, c_row, c_deck, c_flags, c_counters
    cdef int PLACE, CARD, CUBE, SPIRIT, DISCARD, END
    cdef bint live_scores
    cdef unsigned int cells_stale, cards_stale, score_stale
    cdef bint common_stale
    # a token placed changes one cell and the hand only: a board whose only change since its last
    # encoding is one cell rewrites that cell (dirty_cell; -1: every cell), and the table then
    # rewrites only the hand (hand_stale, when nothing else of it is stale)
    cdef int dirty_cell[MAX_SEATS]
    cdef int cell_state[MAX_SEATS][MAX_CELLS]
    cdef bint hand_stale
    # some seat still holds a face-down spirit offer (only the spirits variant deals them, at
    # setup; choosing a spirit ends a seat's offer): the view's fixup has nothing to add otherwise
    cdef bint offers
    cdef Py_ssize_t pouch_len
    cdef float pouch_counts[6]
    cdef float[:, ::1] planes
    cdef int bits[MAX_CELLS]

    def __init__(self, encoder):
        cdef int i, j
        self.flat = encoder._flat
        self.size = encoder.size
        self.players = encoder.players
        self.block = encoder.block
        self.boards_size = encoder.boards_size
        self.n = encoder.n
        if self.n > MAX_CELLS:
            raise ValueError(f"a board of {self.n} cells is larger than the kernel's {MAX_CELLS}")
        self.cells_len = encoder._cells_len
        self.o_held = encoder._held
        self.o_cubes = encoder._cubes
        self.o_done = encoder._done
        self.o_spirit = encoder._spirit
        self.o_spirit_placed = encoder._spirit_placed
        self.o_offer = encoder._offer
        self.o_score = encoder._score
        self.o_counts = encoder._counts
        c = encoder._c
        self.c_hand = c["hand"]
        self.c_pouch = c["pouch"]
        self.c_row = c["row"]
        self.c_deck = c["deck"]
        self.c_flags = c["flags"]
        self.c_counters = c["counters"]
        sp = encoder.space
        self.PLACE, self.CARD, self.CUBE = sp.PLACE, sp.CARD, sp.CUBE
        self.SPIRIT, self.DISCARD, self.END = sp.SPIRIT, sp.DISCARD, sp.END
        self.live_scores = encoder.live_scores
        self.planes = np.ascontiguousarray(encoder_cell_planes(), dtype=np.float32)
        for i in range(self.n):
            self.bits[i] = encoder.layout.bits[i]
        self.state = None

    cpdef void bind(self, object state) except *:
        self.state = state
        self.offers = _any_offer(state.boards)
        self.cells_stale = self.cards_stale = self.score_stale = (1u << self.players) - 1
        self.common_stale = True
        self.hand_stale = False
        cdef int s
        for s in range(MAX_SEATS):
            self.dirty_cell[s] = -1
        self.pouch_len = -1

    cdef int next_seat(self) except -2:
        state = self.state  # HarmoniesGame.to_act: () once over, else (current,)
        if state.over:
            return -1
        return state.current

    cdef int acting_seats(self, unsigned long long* may, unsigned long long* together) except -1:
        cdef int seat = self.next_seat()  # to_act: the current seat alone (no acting_together)
        may[0] = together[0] = 0 if seat < 0 else 1ULL << seat
        return 0

    cpdef void after(self, int seat, int code) except *:
        """Mark what move ``code`` of ``seat`` changed (see HarmoniesEncoder.after)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {self.players - 1}")
        cdef unsigned int bit = 1u << seat
        cdef int cell
        if self.PLACE <= code < self.CARD:  # place_token: one cell, the hand
            cell = (code - self.PLACE) % self.n
            if not self.cells_stale & bit:
                self.cells_stale |= bit
                self.dirty_cell[seat] = cell
            elif self.dirty_cell[seat] != cell:
                self.dirty_cell[seat] = -1
            self.hand_stale = True
            if self.live_scores:
                self.score_stale |= bit
            return
        self.common_stale = True
        if code < self.PLACE:
            return
        if code < self.CUBE:  # take_card
            self.cards_stale |= bit
        elif code < self.SPIRIT:  # place_cube
            self.cells_stale |= bit
            self.dirty_cell[seat] = -1
            self.cards_stale |= bit
            if self.live_scores:
                self.score_stale |= bit
        elif code < self.DISCARD:  # choose_spirit
            self.cards_stale |= bit
            self.offers = _any_offer(self.state.boards)
        elif code >= self.END:  # end_turn: the turn's score is settled
            self.score_stale |= bit

    cdef void refresh(self) except *:
        cdef int s
        if self.state is None:
            raise RuntimeError("the encoder is not bound to a game; call reset(state) first")
        if not (
            self.cells_stale | self.cards_stale | self.score_stale
            or self.common_stale
            or self.hand_stale
        ):
            return  # up to date (the parallel env's other views of the same step)
        boards = self.state.boards
        for s in range(self.players):
            if self.cells_stale >> s & 1:
                if self.dirty_cell[s] >= 0:
                    self.encode_cell(s, boards[s], self.dirty_cell[s])
                else:
                    self.encode_cells(s, boards[s])
            if self.cards_stale >> s & 1:
                self.encode_cards(s, boards[s])
            if self.score_stale >> s & 1:
                self.encode_score(s, boards[s])
        self.cells_stale = self.cards_stale = self.score_stale = 0
        if self.common_stale:
            self.encode_common()
        elif self.hand_stale:
            self.encode_hand()

    cdef void encode_hand(self) except *:
        cdef float* c = &self.flat[self.boards_size + self.c_hand]
        cdef int color
        memset(c, 0, 6 * sizeof(float))
        for color in self.state.hand:
            c[color] += 1.0
        self.hand_stale = False

    cdef void encode_cell(self, int s, object board, int i) except *:
        """Cell ``i`` only (its cube stays as it was: placing a token never adds one)."""
        cdef float* row = &self.flat[s * self.block]
        cdef int state = board.cells[i], k, empty = 0
        memcpy(row + i * 19, &self.planes[state, 0], 18 * sizeof(float))
        self.cell_state[s][i] = state
        for k in range(self.n):
            if self.cell_state[s][k] == C_EMPTY:
                empty += 1
        row[self.o_counts] = empty

    cdef void encode_cells(self, int s, object board) except *:
        cdef float* row = &self.flat[s * self.block]
        cubes = board.cubes
        # the cube mask has up to 94 bits: test them as two 64-bit halves
        cdef unsigned long long low = cubes & 0xFFFFFFFFFFFFFFFF, high = cubes >> 64
        cdef int i, bit, state, empty = 0
        cells = board.cells
        for i in range(self.n):
            state = cells[i]
            memcpy(row + i * 19, &self.planes[state, 0], 18 * sizeof(float))
            bit = self.bits[i]
            row[i * 19 + 18] = (low >> bit) & 1 if bit < 64 else (high >> (bit - 64)) & 1
            if state == C_EMPTY:
                empty += 1
            self.cell_state[s][i] = state
        row[self.o_counts] = empty

    cdef void encode_cards(self, int s, object board) except *:
        cdef float* row = &self.flat[s * self.block]
        cdef int card, placed, spirit
        memset(row + self.o_held, 0, (self.o_score - self.o_held) * sizeof(float))
        for card, placed in board.cards:
            row[self.o_held + card] = 1.0
            row[self.o_cubes + card] = placed
        for card, placed in board.done:
            row[self.o_done + card] = 1.0
            row[self.o_cubes + card] = placed
        spirit = board.spirit
        cdef bint spirit_placed = board.spirit_placed
        if spirit >= 0:
            row[self.o_spirit + spirit - 32] = 1.0
            row[self.o_spirit_placed] = <int>spirit_placed
        row[self.o_counts + 1] = <int>board.placed
        row[self.o_counts + 2] = len(board.cards) + (1 if spirit >= 0 and not spirit_placed else 0)

    cdef void encode_score(self, int s, object board) except *:
        """The board's score breakdown, from the engine's one scorer (``Board.score_parts``,
        compiled with the engine)."""
        cdef float* out = &self.flat[s * self.block + self.o_score]
        cdef int k, value, total = 0
        parts = board.score_parts()
        for k in range(7):
            value = parts[k]
            out[k] = value
            total += value
        out[7] = total

    cdef void encode_common(self) except *:
        state = self.state
        cdef float* c = &self.flat[self.boards_size]
        cdef int space, color, slot, card, turn, k
        memset(c, 0, (self.size - self.boards_size) * sizeof(float))
        space = 0
        for tokens in state.central:
            for color in tokens:
                c[space * 6 + color] += 1.0
            space += 1
        for color in state.hand:
            c[self.c_hand + color] += 1.0
        pouch = state.pouch
        if len(pouch) != self.pouch_len:  # the pouch only shrinks: its size keys the counts
            self.pouch_len = len(pouch)
            for k in range(6):
                self.pouch_counts[k] = 0.0
            for color in pouch:  # colour counts only: the order stays hidden
                self.pouch_counts[color] += 1.0
        for k in range(6):
            c[self.c_pouch + k] = self.pouch_counts[k]
        slot = 0
        for card in state.row:
            if card >= 0:
                c[self.c_row + slot * 32 + card] = 1.0
            slot += 1
        c[self.c_deck] = len(state.deck)  # the size of the draw pile is public
        k = self.c_flags
        c[k] = <int>state.took
        c[k + 1] = <int>state.took_card
        c[k + 2] = <int>state.discarded
        c[k + 3] = <int>state.end_triggered
        k = self.c_counters
        turn = state.turn
        c[k] = turn
        c[k + 1] = turn // self.players + (0 if state.over else 1)
        c[k + 2] = <int>state.out
        c[k + 3] = len(state.discards)
        self.common_stale = self.hand_stale = False

    cdef void fixup(self, int seat, float* out) except *:
        cdef int card
        if not self.offers:
            return
        offer = self.state.boards[seat].offer
        if offer:  # the seat's own face-down spirits; nobody else's
            for card in offer:
                out[self.o_offer + card - 32] = 1.0
            out[self.boards_size + self.c_flags + 4] = 1.0


cdef inline int popcount(int x):
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def encoder_cell_planes():
    from glade.rl.harmonies_encoding import CELL_PLANES

    return CELL_PLANES


# ====================================================================== Living Forest
cdef class LivingForestKernel(Kernel):
    """The Living Forest encoding, read from the engine's snapshots: after a move, only the
    parts it may have changed are read again (``after`` marks them), each from a snapshot of
    that part alone (``spirit_snapshot(seat)``, ``table_snapshot()``)."""

    cdef int n_cards, n_trees, n_sub, cell_kinds
    cdef int o_forest, o_forest_elements, o_help_line, o_discard, o_help_elements
    cdef int t_display, t_stacks, t_centre, t_supplies, t_taken, t_phase
    cdef int t_sacred, t_current, t_victims
    cdef unsigned int stale, help_stale, piles_stale
    # the table in two parts: the market (display, stacks, centre fires, fire and tree supplies,
    # animals taken), which only attracting, extinguishing, planting, moving, stealing and the
    # end of a round change; and the rest (fragments, varans, phase, round, the turn's state)
    cdef bint table_stale, market_stale
    cdef int round, phase
    # each spirit's forest as one kind per cell (the flat vector leaves its forest segment
    # unused): an observation writes the 15 one-hot entries of a forest instead of copying its
    # 210 floats, which halves the memory a 4-player observation reads
    cdef unsigned char kinds[MAX_SEATS][15]
    # what fixup() reads, as the last table encoding found it (every move that changes these
    # leaves the table stale): the Sacred Tree's holder, the phase, the acting spirit, victims
    cdef int first, acting_phase, cur, n_victims
    cdef int victims[MAX_SEATS]
    cdef float[:, ::1] features

    def __init__(self, encoder, features, int n_cards, int n_trees, int n_sub):
        self.flat = encoder._flat
        self.size = encoder.size
        self.players = encoder.players
        self.block = encoder.block
        self.boards_size = encoder.boards_size
        self.features = features
        self.n_cards = n_cards
        self.n_trees = n_trees
        self.n_sub = n_sub
        self.cell_kinds = n_trees + 2
        s = encoder._s
        self.o_forest = s["forest"]
        if self.o_forest != 0 or s["forest_elements"] != 15 * self.cell_kinds:
            raise ValueError("the kernel expects each spirit block to open with its forest")
        self.o_forest_elements = s["forest_elements"]
        self.o_help_line = s["help_line"]
        self.o_discard = s["discard"]
        self.o_help_elements = s["help_elements"]
        t = encoder._t
        self.t_display = t["display"]
        self.t_stacks = t["stacks"]
        self.t_centre = t["centre_fires"]
        self.t_supplies = t["supplies"]
        self.t_taken = t["taken"]
        self.t_phase = t["phase"]
        if not (
            self.t_stacks == self.t_display + 120
            and self.t_centre == self.t_stacks + 3
            and t["fire_supply"] == self.t_centre + 4
            and t["tree_supply"] == self.t_centre + 7
            and self.t_supplies == self.t_centre + 7 + n_trees
            and self.t_taken == self.t_supplies + 2
            and self.t_phase == self.t_taken + 3
        ):
            raise ValueError("the kernel expects the table's segments in their documented order")
        self.t_sacred = t["sacred_tree"]
        self.t_current = t["current"]
        self.t_victims = t["victims"]
        self.state = None

    cpdef void bind(self, object state) except *:
        self.state = state
        self.stale = (1u << self.players) - 1
        self.help_stale = self.piles_stale = 0
        self.table_stale = self.market_stale = True
        self.round = state.round
        self.phase = state.phase

    cdef int next_seat(self) except -2:
        acting = self.state.to_act  # its first seat always has a move
        if not acting:
            return -1
        return acting[0]

    cdef int acting_seats(self, unsigned long long* may, unsigned long long* together) except -1:
        """The engine's ``acting_together``, which it documents as the only seats with a legal
        move now (a spirit that stopped drawing and may still undo it is in ``to_act`` with no
        legal move)."""
        cdef int seat
        together[0] = 0
        for seat in self.state.acting_together:
            together[0] |= 1ULL << seat
        may[0] = together[0]
        return 0

    cpdef void after(self, int seat, int code) except *:
        """Mark what move ``code`` of ``seat`` changed (as LivingForestEncoder.after does)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {self.players - 1}")
        state = self.state
        if state is None:
            raise RuntimeError("the encoder is not bound to a game; call reset(state) first")
        cdef bint table_was_stale = self.table_stale
        cdef int rnd = state.round, phase = state.phase
        self.table_stale = True
        if phase == LF_OVER or A_STEAL <= code < A_MOVE:  # a theft touches several spirits
            self.stale = (1u << self.players) - 1
            self.market_stale = True
            self.round = rnd
        elif rnd != self.round:
            # an end of round: Onibi's varans and the help lines go to the discards; forests,
            # fires and tiles stay as they are, except what the move that ended the round changed
            self.help_stale = (1u << self.players) - 1
            if A_FIRE <= code < A_STEAL or code >= A_MOVE:
                self.stale |= 1u << seat
            self.market_stale = True
            self.round = rnd
        elif self.phase == LF_DRAW:  # a draw, a stop or a fragment: only this spirit's help line
            self.help_stale |= 1u << seat
            if code != A_USE and phase == LF_DRAW and not table_was_stale:
                self.table_stale = False  # (a fragment goes back to the supply: A_USE)
        elif A_FIRE <= code < A_STEAL or code >= A_MOVE:  # a fire kept, a move, a tree planted
            self.stale |= 1u << seat
            self.market_stale = True
        elif A_PICK <= code < A_FIRE:  # an animal attracted: the display and the cards taken
            self.piles_stale |= 1u << seat
            self.market_stale = True
        else:  # choosing, attracting, finishing a step or the turn: the help line and the
            # discard stay as they are (they change only while drawing and at the end of a
            # round); the draw stack's size (attracted cards) and the fragments may change
            self.piles_stale |= 1u << seat
        self.phase = phase

    cdef void refresh(self) except *:
        cdef int s
        if self.state is None:
            raise RuntimeError("the encoder is not bound to a game; call reset(state) first")
        if self.stale or self.help_stale or self.piles_stale:
            for s in range(self.players):
                if self.stale >> s & 1:
                    self.encode_spirit(s)
                elif self.help_stale >> s & 1:
                    self.encode_help(s, self.state.spirit_snapshot(s))
                elif self.piles_stale >> s & 1:
                    self.encode_piles(s)
            self.stale = self.help_stale = self.piles_stale = 0
        if self.table_stale:
            self.encode_table()

    cdef void encode_spirit(self, int s) except *:
        sp = self.state.spirit_snapshot(s)
        cdef float* blk = &self.flat[s * self.block]
        cdef float* p
        cdef int i, t
        i = 0
        for t in <tuple>sp.forest:
            self.kinds[s][i] = 1 if t == START_TREE else (0 if t < 0 else t + 2)
            i += 1
        p = blk + self.o_forest_elements
        fel = <tuple>sp.forest_elements
        for i in range(5):
            p[i] = <int>fel[i]
        p += 5
        memset(p, 0, 12 * sizeof(float))
        p[<int>sp.rock] = 1.0
        p += 12
        fires = <tuple>sp.fires_kept
        for i in range(3):
            p[i] = <int>fires[i]
        p += 3
        vts = <tuple>sp.victory_tiles
        for i in range(3):
            p[i] = <int>vts[i]
        self.encode_help(s, sp)

    cdef void encode_piles(self, int s) except *:
        """What an action-phase move that keeps the forest part may change: the draw stack's
        size and the fire fragments held."""
        sp = self.state.spirit_snapshot(s)
        cdef float* p = &self.flat[s * self.block + self.o_help_elements]
        p[9] = len(<tuple>sp.draw_stack)
        p[11] = <int>sp.fragments

    cdef void encode_help(self, int s, object sp) except *:
        """What a draw-phase move changes: help line, discard, symbols, piles, progress."""
        cdef float* blk = &self.flat[s * self.block]
        cdef float* p
        cdef int i, card, net
        p = blk + self.o_help_line
        memset(p, 0, self.n_cards * sizeof(float))
        for card in <tuple>sp.help_line:
            p[card] += 1.0
        discard = <tuple>sp.discard
        p = blk + self.o_discard
        memset(p, 0, self.n_cards * sizeof(float))
        for card in discard:
            p[card] += 1.0
        p = blk + self.o_help_elements
        hel = <tuple>sp.help_elements
        for i in range(5):
            p[i] = <int>hel[i]
        net = sp.solitary
        p[5] = net if net > 0 else 0
        p[6] = -net if net < 0 else 0
        p[7] = <int>sp.drawing
        p[8] = <int>sp.just_drawn
        p[9] = len(<tuple>sp.draw_stack)  # sizes only: the draw stack's order stays hidden
        p[10] = len(discard)
        p[11] = <int>sp.fragments
        # progress toward 12: different trees, fires, sacred flowers (the engine's counts)
        progress = <tuple>sp.progress
        p[12] = <int>progress[0]
        p[13] = <int>progress[1]
        p[14] = <int>progress[2]

    cdef void encode_table(self) except *:
        table = self.state.table_snapshot()
        cdef float* t = &self.flat[self.boards_size]
        cdef float* p
        cdef int i, used, phase, kind, victim
        if self.market_stale:
            self.encode_market(table)
        p = t + self.t_supplies
        p[0] = <int>table.fragment_supply
        p[1] = <int>table.varan_supply
        p = t + self.t_phase
        memset(p, 0, (self.size - self.boards_size - self.t_phase) * sizeof(float))
        phase = table.phase
        p[phase] = 1.0
        p += 3
        self.first = table.sacred_tree
        self.acting_phase = phase == LF_ACTIONS
        self.n_victims = 0
        if self.acting_phase:
            self.cur = table.current_spirit
            for victim in <tuple>table.steal_from:
                self.victims[self.n_victims] = victim
                self.n_victims += 1
        p[0] = <int>table.round
        p += 1 + 2 * MAX_SEATS  # sacred_tree and current: written per observer (fixup)
        if phase == LF_ACTIONS:
            p[0] = <int>table.actions_left
            used = table.actions_used
            for i in range(5):
                p[1 + i] = used >> i & 1
            p += 6
            p[<int>table.step] = 1.0
            p += self.n_sub
            p[0] = <int>table.bonus_step
            p[1] = <int>table.spend_left
            p[2] = <int>table.taken_in_step
            p += 3
            for kind, _extra in <tuple>table.bonuses_pending:
                p[kind] += 1.0
        self.table_stale = False

    cdef void encode_market(self, object table) except *:
        """The display, the stacks, the centre fires, the fire and tree supplies, the animals
        taken this round."""
        cdef float* t = &self.flat[self.boards_size]
        cdef float* p
        cdef int i, card, value, total
        p = t + self.t_display
        i = 0
        for card in <tuple>table.display:
            if card >= 0:
                memcpy(p + i * 10, &self.features[card, 0], 10 * sizeof(float))
            else:
                memset(p + i * 10, 0, 10 * sizeof(float))
            i += 1
        p = t + self.t_stacks
        for st in <tuple>table.animal_stacks:
            p[0] = len(<tuple>st)
            p += 1
        p = t + self.t_centre
        memset(p, 0, 4 * sizeof(float))
        total = 0
        for value in <tuple>table.centre_fires:
            p[value - 2] += 1.0
            total += value
        p[3] = total
        p += 4
        for value in <tuple>table.fire_supply:
            p[0] = value
            p += 1
        for value in <tuple>table.tree_supply:
            p[0] = value
            p += 1
        p = t + self.t_taken
        for value in <tuple>table.taken_this_round:
            p[0] = value
            p += 1
        self.market_stale = False

    cdef void write(self, int seat, float* out) except *:
        """As Kernel.write, with each forest written from its kinds (see ``kinds``)."""
        self.refresh()
        cdef float* flat = &self.flat[0]
        cdef float* dst
        cdef int k, s, c, forest = 15 * self.cell_kinds, rest = self.block - forest
        for k in range(self.players):
            s = (seat + k) % self.players
            dst = out + k * self.block
            memset(dst, 0, forest * sizeof(float))
            for c in range(15):
                dst[c * self.cell_kinds + self.kinds[s][c]] = 1.0
            memcpy(dst + forest, flat + s * self.block + forest, rest * sizeof(float))
        memcpy(
            out + self.boards_size,
            flat + self.boards_size,
            (self.size - self.boards_size) * sizeof(float),
        )
        self.fixup(seat, out)

    cdef void fixup(self, int seat, float* out) except *:
        cdef int n = self.players, base = self.boards_size, i
        out[base + self.t_sacred + (self.first - seat + n) % n] = 1.0
        if self.acting_phase:
            out[base + self.t_current + (self.cur - seat + n) % n] = 1.0
            for i in range(self.n_victims):
                out[base + self.t_victims + (self.victims[i] - seat + n) % n] = 1.0


# ====================================================================== masks and the runner
cdef object _mask_of(object ids, Py_ssize_t n_actions):
    cdef cnp.npy_intp size = n_actions
    mask = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)  # a new int8 array of our own
    cdef signed char* m = <signed char*>cnp.PyArray_DATA(mask)
    cdef Py_ssize_t code
    for code in ids:
        if not 0 <= code < n_actions:
            raise IndexError(f"action {code} is outside 0..{n_actions - 1}")
        m[code] = 1
    return mask


def legal_mask(ids, Py_ssize_t n_actions):
    """A fresh int8 mask of ``n_actions`` entries, 1 at each index in ``ids``."""
    return _mask_of(ids, n_actions)


cdef inline void _normalise_into(
    const float* obs, const float* low, const float* scale, float* o, Py_ssize_t n
) noexcept:
    cdef Py_ssize_t i
    cdef float v
    for i in range(n):
        v = (obs[i] - low[i]) * scale[i]
        if not (v > 0 or v != v):  # NumPy's clip: max(v, 0) then min(v, 1), NaN kept
            v = 0
        if not (v < 1 or v != v):
            v = 1
        o[i] = v


def normalise(const float[::1] obs, const float[::1] low, const float[::1] scale):
    """A new float32 array ``(obs - low) * scale`` clipped to [0, 1], entry by entry: the same
    float32 arithmetic and the same clip as NumPy's (``Normaliser``), so the same bytes."""
    cdef Py_ssize_t n = obs.shape[0]
    if low.shape[0] != n or scale.shape[0] != n:
        raise ValueError(f"an observation of {n} values needs bounds of {n} values")
    cdef cnp.npy_intp size = n
    out = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
    _normalise_into(&obs[0], &low[0], &scale[0], <float*>cnp.PyArray_DATA(out), n)
    return out


cdef object _fresh_view(Kernel kernel, int seat, object low, object scale):
    """``seat``'s observation in a new float32 array, normalised with ``low``/``scale`` (the
    Normaliser's float32 bounds, contiguous, of the observation's size) unless they are None:
    the same bytes as ``normalise(kernel.fresh(seat), low, scale)``."""
    if low is None:
        return kernel.fresh(seat)
    raw = kernel.fresh(seat)
    cdef cnp.npy_intp size = kernel.size
    out = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
    _normalise_into(
        <float*>cnp.PyArray_DATA(raw),
        <float*>cnp.PyArray_DATA(low),
        <float*>cnp.PyArray_DATA(scale),
        <float*>cnp.PyArray_DATA(out),
        kernel.size,
    )
    return out


def seat_view(Kernel kernel, object game, int seat, Py_ssize_t n_actions):
    """``seat``'s legal move indices and its view ``{"observation", "action_mask"}`` (two new
    arrays), in one call: the AEC environment's ``observe``."""
    obs = kernel.fresh(seat)  # (refuses a seat that is not in the game)
    legal = game.legal_action_ids(seat)
    return legal, {"observation": obs, "action_mask": _mask_of(legal, n_actions)}


def play(Kernel kernel, object game, int seat, Py_ssize_t code, list legal):
    """Play ``code`` for ``seat`` if it is in ``legal`` (the seat's legal move indices) and note
    it in ``kernel``. Returns the next seat to act, -1 if the game is now over, or -2 (nothing
    changed) if ``code`` is not in ``legal``: the AEC environment's ``step``."""
    cdef Py_ssize_t value
    for value in legal:
        if value == code:
            game.apply_action_id(seat, code, True)
            kernel.after(seat, code)
            return kernel.next_seat()
    return -2


_np_int64 = np.int64
_LLONG_MAX = 2**63 - 1


cdef class AgentIterator:
    """PettingZoo's ``AECIterator`` over an AECCore, compiled (the same rule: stop once the
    environment has no agents left or ``left`` reaches 0)."""

    cdef AECCore env
    cdef long long left

    def __init__(self, AECCore env, long long left):
        self.env = env
        self.left = left

    def __iter__(self):
        return self

    def __next__(self):
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        return env.agent_selection


cdef class AgentIterable:
    """What ``AECCore.agent_iter`` returns: each ``iter()`` of it starts a new iterator, as
    PettingZoo's ``AECIterable`` does."""

    cdef AECCore env
    cdef long long max_iter

    def __init__(self, AECCore env, long long max_iter):
        self.env = env
        self.max_iter = max_iter

    def __iter__(self):
        return AgentIterator(self.env, self.max_iter)



cdef class AECCore:
    """The per-move half of the PettingZoo AEC environment, compiled: ``last()`` and ``step()``
    for a game in progress and an action that is a plain index. ``glade.rl.aec.GladeAECEnv``
    derives from this class and does the rest (spaces, reset, observe, the end of the game, dead
    steps and every refusal) in Python; the methods below hand anything unusual to its
    ``_full_last`` / ``_full_step`` before changing anything, so both paths behave the same.

    The attributes the two methods read live here as C fields (still plain attributes to
    Python: PettingZoo's own methods and wrappers read and rebind them as usual)."""

    cdef public object game, agent_selection, agents, possible_agents
    cdef public object terminations, truncations, rewards, infos, _cumulative_rewards
    cdef public object _seat, _legal, _kernel, _seat_view, _play, _sampler, _normaliser
    cdef public int _legal_seat
    cdef public Py_ssize_t _n_actions
    cdef public bint _slow  # shaped rewards or a move limit: all in Python

    def agent_iter(self, max_iter=2**63):
        """PettingZoo's ``agent_iter``, compiled: the agent to act, until every agent has left or
        ``max_iter`` agents were given (PettingZoo's own iterator when ``max_iter`` is no int)."""
        if type(max_iter) is not int:
            return self._full_agent_iter(max_iter)
        return AgentIterable(self, max(0, min(max_iter, _LLONG_MAX)))

    def sample_legal(self, mask=None):
        """A uniformly random legal move of the agent to act (see GladeAECEnv._full_sample_legal);
        compiled for the usual case, the legal moves ``last()`` listed."""
        if mask is not None or self.game is None:
            return self._full_sample_legal(mask)
        cdef int seat = self._seat[self.agent_selection]
        cdef Py_ssize_t n
        cdef double r
        if seat == self._legal_seat:
            ids = self._legal
            n = len(ids)
            if n:
                r = self._sampler.random()
                return ids[<Py_ssize_t>(r * n)]
        return self._full_sample_legal(mask)

    def last(self, bint observe=True):
        """The acting agent's view, cumulative reward, termination, truncation and info."""
        game = self.game
        if not observe or game is None or self._slow:
            return self._full_last(observe)
        agent = self.agent_selection
        cdef int seat = self._seat[agent]
        legal, view = self._seat_view(self._kernel, game, seat, self._n_actions)
        self._legal = legal  # kept for step() until the next move
        self._legal_seat = seat
        if self._normaliser is not None:
            view["observation"] = self._normaliser(view["observation"])
        return (
            view,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action):
        """The acting agent plays ``action`` (see GladeAECEnv.step)."""
        game = self.game
        kind = type(action)
        if (
            game is None
            or self._slow
            or not self.agents
            or (kind is not int and kind is not _np_int64)
        ):
            return self._full_step(action)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._full_step(action)
        cdef Py_ssize_t code
        try:
            code = action
        except OverflowError:
            return self._full_step(action)
        if not 0 <= code < self._n_actions:
            return self._full_step(action)
        cdef int seat = self._seat[agent]
        if seat != self._legal_seat:
            self._legal = game.legal_action_ids(seat)
            self._legal_seat = seat
        cdef int following = self._play(self._kernel, game, seat, code, self._legal)
        if following >= 0:  # the game goes on (rewards come only at its end)
            self._legal_seat = -1
            self.agent_selection = self.possible_agents[following]
        elif following == -1:
            self._legal_seat = -1
            self._finish(agent)
        else:  # not played: nothing changed
            self._refuse(agent, seat, code)


cdef class SoloCore:
    """The per-move half of the Gymnasium solo environment, compiled: ``step()`` for a game in
    progress and a legal action that is a plain index, and ``sample_legal()``.
    ``glade.rl.solo.HarmoniesSoloEnv`` derives from this class; anything else (no game, a
    finished one, a non-integer, an index out of range or not legal now, the pure-Python path)
    goes to its ``_full_step`` / ``_full_sample_legal`` before anything changes, so both paths
    behave the same."""

    cdef public object game, _kernel, _legal, _mask, _normaliser, refusal, _sampler
    cdef public object _norm_low, _norm_scale  # the Normaliser's bounds (None: raw)
    cdef public double _score
    cdef public Py_ssize_t _total, _n_actions
    cdef public bint _fast  # the compiled kernel runs (else every step is _full_step)
    cdef cnp.ndarray _raw  # the raw observation before normalising (never handed out)

    def sample_legal(self):
        """A uniformly random legal move, from the environment's own generator (``reset(seed)``
        seeds it)."""
        ids = self._legal
        if self.game is None or ids is None:
            return self._full_sample_legal()
        cdef Py_ssize_t n = len(ids)
        if not n:
            return self._full_sample_legal()
        cdef double r = self._sampler.random()
        return ids[<Py_ssize_t>(r * n)]

    def step(self, action):
        """One move (see HarmoniesSoloEnv._full_step): observation, reward, terminated,
        truncated, info."""
        game = self.game
        kind = type(action)
        if not self._fast or game is None or (kind is not int and kind is not _np_int64):
            return self._full_step(action)
        cdef Py_ssize_t code
        try:
            code = action
        except OverflowError:
            return self._full_step(action)
        if not 0 <= code < self._n_actions:
            return self._full_step(action)
        mask = self._mask
        # the mask is the one made from the legal moves listed after the last move (finished
        # game: all zero), so it says whether ``code`` is legal now
        if not (<signed char*>cnp.PyArray_DATA(mask))[code]:
            return self._full_step(action)
        cdef Kernel kernel = <Kernel?>self._kernel
        game.apply_action_id(0, code, True)
        kernel.after(0, code)
        cdef bint over = kernel.next_seat() < 0
        self.refusal = None
        cdef double before = self._score
        cdef cnp.ndarray raw
        cdef cnp.npy_intp size = kernel.size
        if self._norm_low is None:
            obs = kernel.fresh(0)
            self._score = (<float*>cnp.PyArray_DATA(obs))[self._total]
        else:  # the raw view in a buffer of the env's own, normalised into a new array
            if self._raw is None or self._raw.shape[0] != size:
                self._raw = np.empty(size, dtype=np.float32)
            raw = self._raw
            kernel.write(0, <float*>cnp.PyArray_DATA(raw))
            self._score = (<float*>cnp.PyArray_DATA(raw))[self._total]
            obs = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
            _normalise_into(
                <float*>cnp.PyArray_DATA(raw),
                <float*>cnp.PyArray_DATA(self._norm_low),
                <float*>cnp.PyArray_DATA(self._norm_scale),
                <float*>cnp.PyArray_DATA(obs),
                kernel.size,
            )
        legal = game.legal_action_ids(0)
        mask = _mask_of(legal, self._n_actions)
        self._legal = legal
        self._mask = mask
        info = {
            "action_mask": cnp.PyArray_NewCopy(mask, cnp.NPY_CORDER),
            "score": int(self._score),
            "suns": int(game.result()["suns"]) if over else 0,
            "illegal_action": False,
        }
        return obs, self._score - before, over, False, info


cdef extern from "Python.h":
    Py_ssize_t _refs "Py_REFCNT"(PyObject* o)

cdef object _OBSERVATION = "observation"
cdef object _ACTION_MASK = "action_mask"


cdef inline bint _spare_array(PyObject* p, int typenum, cnp.npy_intp size):
    """True if ``p`` is one of our own arrays that nothing but its view dict refers to: a plain
    ndarray owning its data (no other array sees it), writeable, contiguous, of ``typenum`` and
    ``size``. Nobody else can then see a write into it."""
    if p == NULL or _refs(p) != 1 or not cnp.PyArray_CheckExact(<object>p):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>p
    return (
        cnp.PyArray_NDIM(a) == 1
        and cnp.PyArray_DIM(a, 0) == size
        and cnp.PyArray_TYPE(a) == typenum
        and cnp.PyArray_CHKFLAGS(a, cnp.NPY_ARRAY_OWNDATA | cnp.NPY_ARRAY_WRITEABLE | cnp.NPY_ARRAY_C_CONTIGUOUS)
        and cnp.PyArray_BASE(a) == NULL
    )


cdef object _ACTIVE_AGENT = "active_agent"


cdef inline object _copy(object mapping):
    """``dict(mapping)``, by the C call for a plain dict."""
    return PyDict_Copy(mapping) if PyDict_CheckExact(mapping) else dict(mapping)


cdef inline bint _all_in_order(list live, list names, Py_ssize_t players):
    """``live`` (the agents still in the game) is every agent, in seat order: ``names`` itself
    (the same string objects)."""
    cdef Py_ssize_t i
    if len(live) != players:
        return False
    for i in range(players):
        if PyList_GET_ITEM(live, i) != PyList_GET_ITEM(names, i):
            return False
    return True


cdef inline bint _keys_are(object mapping, list names, Py_ssize_t count):
    """``mapping`` is a plain dict whose keys are exactly ``names[:count]``, in that order (the
    same string objects)."""
    cdef Py_ssize_t pos = 0, i = 0
    cdef PyObject* key
    cdef PyObject* value
    if not PyDict_CheckExact(mapping) or PyDict_Size(mapping) != count:
        return False
    while PyDict_Next(mapping, &pos, &key, &value):
        if key != PyList_GET_ITEM(names, i):
            return False
        i += 1
    return True


cdef class ParallelCore:
    """The per-move half of the PettingZoo parallel environment, compiled: ``step()``,
    ``sample_legal()``, ``sample_actions()`` and the making of every agent's view.
    ``glade.rl.parallel.GladeParallelEnv`` derives from this class (and from PettingZoo's
    turn-based conversion); its AEC environment (an ``AECCore``) plays each move and does every
    refusal, so both paths behave the same.

    Per seat it keeps, as C-level lists, the view handed out by the last ``reset()``/``step()``
    (``_given``) and the legal moves listed with it (``_legals``); the agents acting in the next
    step are a bit set. ``_views``, ``_legal_of`` and ``_acting`` show them to the Python methods
    as the mapping, the dict and the list those use.

    Recycling. Every step hands out fresh views: a mapping, view or array that anyone holds is
    never written again. But what nobody can reach any more is used again instead of being
    freed and made anew: the core keeps the observations mappings of the last two steps, and the
    one from two steps ago, if nothing but the core refers to it (reference counts) and it still
    holds every agent's entry, is handed out again; inside it, each view dict that only the
    mapping refers to, whose two arrays only the view dict refers to (and own their data), gets
    the new observation and mask written into it, and any other entry is replaced by a new view.
    Whoever kept the mapping, a view, an array or a NumPy view of an array holds a reference, so
    it is left alone. The documented loop drops a step's observations when it rebinds the name to
    the next step's, so they come back two steps later. (The rewards, terminations, truncations,
    infos and actions mappings and the info dicts are small: they are made anew, which costs
    fewer instructions than refilling them, measured.)"""

    cdef public object aec_env
    cdef public object agents  # PettingZoo's live agents (a C field: read at every call)
    cdef object _mapping, _mapping_before  # observations handed out last, and a step before
    cdef list _names  # the possible agents, by seat
    cdef list _given, _legals  # per seat (None: no view made for it)
    cdef unsigned long long _acting_bits  # the seats that act in the next step
    cdef int _players
    cdef cnp.ndarray _raw  # the raw observation before normalising, for a recycled view
    cdef bint _direct  # a compiled kernel and no per-move rewards: moves played here (_move)
    cdef object _sampler, _random  # the AEC env's generator and its bound ``random``

    @property
    def _views(self):
        """The observations handed out by the last ``reset()``/``step()`` (the mapping itself)."""
        return self._mapping

    @_views.setter
    def _views(self, views):
        self._ensure_seats()
        self._mapping_before = None
        self._mapping = views
        self._given = [views.get(a) if views is not None else None for a in self._names]

    @property
    def _legal_of(self):
        """``{agent: its legal moves listed with its last view}``, for the agents that got one."""
        self._ensure_seats()
        return {
            a: legal for a, legal in zip(self._names, self._legals) if legal is not None
        }

    @_legal_of.setter
    def _legal_of(self, legal_of):
        self._ensure_seats()
        self._legals = [legal_of.get(a) for a in self._names]

    @property
    def _acting(self):
        """The agents that act in the next step, in seat order."""
        self._ensure_seats()
        return [a for s, a in enumerate(self._names) if self._acting_bits >> s & 1ULL]

    @_acting.setter
    def _acting(self, acting):
        self._ensure_seats()
        cdef unsigned long long bits = 0
        for agent in acting:
            bits |= 1ULL << <int>self._names.index(agent)
        self._acting_bits = bits

    cdef void _ensure_seats(self) except *:
        """The per-seat lists, for the environment's agents (made once)."""
        if self._names is not None:
            return
        cdef AECCore env = <AECCore?>self.aec_env
        names = list(env.possible_agents)
        if len(names) > MAX_SEATS:
            raise ValueError(f"a game of {len(names)} seats is larger than {MAX_SEATS}")
        self._players = len(names)
        self._names = names
        self._given = [None] * self._players
        self._legals = [None] * self._players

    def _observe_all(self):
        """Every live agent's view (fresh arrays); the acting agent's legal moves are left in
        the AEC environment for its next step, as its own ``last()`` leaves them."""
        self._ensure_seats()
        cdef AECCore env = <AECCore?>self.aec_env
        self._mapping = self._mapping_before = None  # a new game: nothing to recycle
        self._given = [None] * self._players
        self._direct = isinstance(env._kernel, Kernel) and not env._slow
        return self._views_now(env)

    cdef int _seat_of(self, AECCore env, object agent) except -1:
        """``agent``'s seat (the possible agents' own string objects are recognised at once)."""
        cdef int s
        for s in range(self._players):
            if <PyObject*>agent == PyList_GET_ITEM(self._names, s):
                return s
        return env._seat[agent]

    cdef int _move(self, AECCore env, int seat, object action) except -1:
        """AECCore.step's usual case, played here without the Python call: the agent of
        ``seat`` (live, to act now) plays ``action`` if it is a plain int among its legal moves
        (those listed with its view). Returns 1 if it was played and the game goes on, 2 if it
        was played and ended the game, 0 (nothing done) otherwise, and for shaped rewards or a
        move limit, which the AEC environment's own step handles."""
        if not self._direct or type(action) is not int:
            return 0
        cdef Py_ssize_t code
        try:
            code = action
        except OverflowError:
            return 0
        cdef Py_ssize_t value
        cdef bint legal = False
        for value in <list>self._legals[seat]:
            if value == code:
                legal = True
                break
        if not legal:
            return 0
        cdef Kernel kernel = <Kernel>env._kernel
        env.game.apply_action_id(seat, code, True)
        kernel.after(seat, code)
        cdef int following = kernel.next_seat()
        env._legal_seat = -1
        agent = self._names[seat]
        if following >= 0:
            env.agent_selection = env.possible_agents[following]
            return 1
        env.agent_selection = agent
        env._finish(agent)
        return 2

    cdef object _views_now(self, AECCore env):
        """Every live agent's view, in a mapping of its own (recycling what nobody can see any
        more, see the class), with the legal moves and the agents acting in the next step."""
        game = env.game
        cdef Py_ssize_t n = env._n_actions, code, i, count
        cdef int seat
        cdef unsigned long long may_act = 0, together = 0, acting = 0
        cdef dict views
        cdef list names = self._names
        cdef list given = self._given
        cdef list legals = self._legals
        cdef Kernel kernel
        cdef cnp.npy_intp size = n, obs_size
        cdef PyObject* old = <PyObject*>self._mapping_before
        cdef PyObject* spare
        cdef PyObject* spare_obs
        cdef PyObject* spare_mask
        cdef signed char* m
        cdef cnp.ndarray raw
        cdef bint in_order, reuse
        live = env.agents
        if type(live) is not list:
            live = list(live)
        count = len(live)
        in_order = _all_in_order(live, names, self._players)
        # the mapping handed out two steps ago, if nobody else holds it and it still has every
        # agent's entry (its views are then looked at one by one)
        reuse = in_order and _refs(old) == 1 and _keys_are(<object>old, names, count)
        views = <dict>old if reuse else {}
        if not in_order:  # some agents have left: no view for them
            for i in range(self._players):
                given[i] = None
                legals[i] = None
        kernel_obj = env._kernel
        normaliser = env._normaliser
        if isinstance(kernel_obj, Kernel):
            kernel = <Kernel>kernel_obj
            obs_size = kernel.size
            low = None if normaliser is None else normaliser.low
            scale = None if normaliser is None else normaliser.scale
            # only the seats that may act have legal moves (Game.to_act: "seats that may act
            # now"; every other seat's legal_action_ids is []), and where the rules package
            # names the seats acting together (acting_together), only those: no engine call for
            # the rest. The agents acting in the next step: those, or the one to act.
            kernel.acting_seats(&may_act, &together)
            for i in range(count):
                agent = <object>PyList_GET_ITEM(live, i)
                seat = i if in_order else env._seat[agent]
                if may_act >> seat & 1ULL:
                    legal = game.legal_action_ids(seat)
                    if together >> seat & 1ULL and legal:
                        acting |= 1ULL << seat
                else:
                    legal = []
                spare = PyDict_GetItemWithError(views, agent) if reuse else NULL
                if spare != NULL and not (
                    _refs(spare) == 1
                    and PyDict_CheckExact(<object>spare)
                    and PyDict_Size(<object>spare) == 2
                ):
                    spare = NULL
                if spare != NULL:
                    spare_obs = PyDict_GetItemWithError(<object>spare, _OBSERVATION)
                    spare_mask = PyDict_GetItemWithError(<object>spare, _ACTION_MASK)
                    if not (
                        _spare_array(spare_obs, cnp.NPY_FLOAT32, obs_size)
                        and _spare_array(spare_mask, cnp.NPY_INT8, size)
                    ):
                        spare = NULL
                if spare != NULL:  # nobody can see these: write the new view into them
                    view = <object>spare
                    if low is None:
                        kernel.write(seat, <float*>cnp.PyArray_DATA(<cnp.ndarray>spare_obs))
                    else:
                        if self._raw is None or self._raw.shape[0] != obs_size:
                            self._raw = np.empty(obs_size, dtype=np.float32)
                        raw = self._raw
                        kernel.write(seat, <float*>cnp.PyArray_DATA(raw))
                        _normalise_into(
                            <float*>cnp.PyArray_DATA(raw),
                            <float*>cnp.PyArray_DATA(low),
                            <float*>cnp.PyArray_DATA(scale),
                            <float*>cnp.PyArray_DATA(<cnp.ndarray>spare_obs),
                            obs_size,
                        )
                    m = <signed char*>cnp.PyArray_DATA(<cnp.ndarray>spare_mask)
                    memset(m, 0, n)
                    for code in <list>legal:
                        if not 0 <= code < n:
                            raise IndexError(f"action {code} is outside 0..{n - 1}")
                        m[code] = 1
                else:
                    if legal:
                        view = {
                            _OBSERVATION: _fresh_view(kernel, seat, low, scale),
                            _ACTION_MASK: _mask_of(legal, n),
                        }
                    else:
                        view = {
                            _OBSERVATION: _fresh_view(kernel, seat, low, scale),
                            _ACTION_MASK: cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0),
                        }
                    PyDict_SetItem(views, agent, view)  # (in a recycled mapping: replaced)
                given[seat] = view
                legals[seat] = legal
        else:  # the encoder's Python path (compiled=False)
            seat_view = env._seat_view
            legal_of = {}
            views = {}
            for i in range(count):
                agent = <object>PyList_GET_ITEM(live, i)
                seat = env._seat[agent]
                legal, view = seat_view(kernel_obj, game, seat, n)
                if normaliser is not None:
                    view["observation"] = normaliser(view["observation"])
                views[agent] = view
                given[seat] = view
                legals[seat] = legal
                legal_of[agent] = legal
            for agent in self._acting_now(legal_of):
                acting |= 1ULL << <int>env._seat[agent]
        active = env.agent_selection
        seat = self._seat_of(env, active)
        legal = legals[seat]
        if legal is not None:
            env._legal = legal
            env._legal_seat = seat
        self._mapping_before = self._mapping  # (comes back in two steps)
        self._mapping = views
        self._acting_bits = acting
        return views

    cdef dict _infos_now(self, AECCore env, object active):
        """Every agent's info: a copy of the AEC env's (which stay as they are) with
        ``active_agent`` added. (These small dicts are made anew: refilling them costs more than
        copying, measured; see docs/rl.md.)"""
        cdef dict infos = {}
        cdef PyObject* key
        cdef PyObject* value
        cdef Py_ssize_t pos = 0
        source = env.infos
        if not PyDict_CheckExact(source):
            source = dict(source)
        while PyDict_Next(source, &pos, &key, &value):
            info = _copy(<object>value)
            PyDict_SetItem(info, _ACTIVE_AGENT, active)
            PyDict_SetItem(infos, <object>key, info)
        return infos

    cdef object _play_together(self, AECCore env, object actions):
        """Every acting agent's action checked (the first that is missing, not an index or not
        legal raises IllegalAction, nothing applied), then each applied in seat order; a move
        that ends or truncates the game leaves the rest unplayed. Returns the rewards summed
        over the moves when the AEC environment gives rewards per move (shaped, or a move
        limit: its Python path), else None (they change only when the game ends)."""
        cdef list names = self._names, legals = self._legals
        cdef unsigned long long acting = self._acting_bits
        cdef list codes = [None] * self._players
        cdef PyObject* found
        cdef int seat, played
        for seat in range(self._players):
            if not acting >> seat & 1ULL:
                continue
            agent = names[seat]
            found = PyDict_GetItemWithError(actions, agent) if PyDict_CheckExact(actions) else NULL
            if found != NULL:
                action = <object>found
            else:
                try:
                    action = actions[agent]
                except KeyError:
                    action = None
            if type(action) is int and action in <list>legals[seat]:
                codes[seat] = action
            else:
                codes[seat] = self._checked_action(agent, actions)  # raises unless legal
        cdef bint slow = env._slow
        cdef dict total = None
        if slow:
            total = {a: 0.0 for a in env.agents}
        for seat in range(self._players):
            if not acting >> seat & 1ULL:
                continue
            agent = names[seat]
            env.agent_selection = agent
            played = self._move(env, seat, codes[seat])
            if played == 1:
                continue
            if played == 2:
                break
            env._legal = legals[seat]
            env._legal_seat = seat
            env.step(codes[seat])
            if slow:
                for a, value in env.rewards.items():
                    total[a] += value
            if env.terminations[agent] or env.truncations[agent]:
                break
        return total

    def step(self, actions):
        """The parallel step: the one agent to act, or every agent acting together, plays (see
        GladeParallelEnv._full_step)."""
        cdef AECCore env = <AECCore?>self.aec_env
        if not self.agents:
            return {}, {}, {}, {}, {}
        cdef unsigned long long acting = self._acting_bits
        cdef int played = 0, seat
        cdef PyObject* found
        rewards = None
        if acting & (acting - 1):  # several agents act together
            rewards = self._play_together(env, actions)
        else:
            active = env.agent_selection
            found = PyDict_GetItemWithError(actions, active) if PyDict_CheckExact(actions) else NULL
            if found != NULL:
                action = <object>found
            else:
                try:
                    action = actions[active]
                except KeyError:
                    action = self._checked_action(active, actions)  # (raises: no action for it)
            seat = self._seat_of(env, active)
            played = self._move(env, seat, action)
            if not played:
                env.step(action)  # (anything unusual: the AEC env plays or refuses it)
        live = env.agents
        active = env.agent_selection
        if played == 1 or (
            played == 0
            and live
            and not (env.terminations[active] or env.truncations[active])
        ):
            # the game goes on (no dead steps to come): the agent to act is known now
            if rewards is None:
                rewards = _copy(env.rewards)
            terminations = _copy(env.terminations)
            truncations = _copy(env.truncations)
            infos = self._infos_now(env, active)
            observations = self._views_now(env)
            self.agents = live
            return observations, rewards, terminations, truncations, infos
        if rewards is None:
            rewards = dict(env.rewards)
        terminations = dict(env.terminations)
        truncations = dict(env.truncations)
        infos = {}
        for agent, info in env.infos.items():
            infos[agent] = dict(info)
        observations = self._views_now(env)
        while env.agents:  # the game is over: every agent leaves by PettingZoo's dead steps
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                break
        active = env.agent_selection
        for agent in env.agents:
            infos[agent]["active_agent"] = active
        self.agents = env.agents
        return observations, rewards, terminations, truncations, infos

    cdef inline object _draw(self, AECCore env, list legal):
        """A uniformly random entry of ``legal`` (not empty), from the AEC env's generator."""
        sampler = env._sampler
        if sampler is not self._sampler:  # a new generator (reset): its bound method, once
            self._sampler = sampler
            self._random = sampler.random
        cdef double r = self._random()
        return legal[<Py_ssize_t>(r * len(legal))]

    def sample_legal(self, agent, observation):
        """A uniformly random legal action for ``agent`` (see GladeParallelEnv)."""
        cdef AECCore env = <AECCore?>self.aec_env
        cdef int seat
        if self._names is not None and agent in self.agents:
            seat = self._seat_of(env, agent)
            legal = self._legals[seat]
            if legal is not None and observation is self._given[seat]:
                if not legal or not self._acting_bits >> seat & 1ULL:
                    return 0
                return self._draw(env, <list>legal)
        return self._full_sample_legal(agent, observation)

    def sample_actions(self, observations):
        """``{agent: sample_legal(agent, observations[agent])}`` for every live agent, in one
        call (see GladeParallelEnv)."""
        cdef AECCore env = <AECCore?>self.aec_env
        cdef dict actions
        cdef list names = self._names, given = self._given, legals = self._legals
        cdef unsigned long long acting = self._acting_bits
        cdef Py_ssize_t i, count
        cdef int seat
        cdef PyObject* found
        cdef bint exact = PyDict_CheckExact(observations), in_order
        live = self.agents
        if type(live) is not list:
            live = list(live)
        count = len(live)
        in_order = _all_in_order(live, names, self._players)
        actions = {}
        for i in range(count):
            agent = <object>PyList_GET_ITEM(live, i)
            seat = i if in_order else self._seat_of(env, agent)
            found = PyDict_GetItemWithError(observations, agent) if exact else NULL
            if found != NULL:
                observation = <object>found
            else:
                observation = observations[agent]  # (raises KeyError for a missing agent)
            legal = legals[seat]
            if legal is None or <PyObject*>observation != PyList_GET_ITEM(given, seat):
                PyDict_SetItem(actions, agent, self._full_sample_legal(agent, observation))
            elif not acting >> seat & 1ULL or not legal:
                PyDict_SetItem(actions, agent, 0)
            else:
                PyDict_SetItem(actions, agent, self._draw(env, <list>legal))
        return actions


def fill_masks(signed char[:, ::1] masks, list legal):
    """Row ``i`` of ``masks`` becomes the mask of the indices in ``legal[i]``."""
    cdef Py_ssize_t i, code
    memset(&masks[0, 0], 0, masks.shape[0] * masks.shape[1])
    for i in range(masks.shape[0]):
        for code in legal[i]:
            masks[i, code] = 1


def step_games(
    list games,
    list kernels,
    list codes,
    list seats,
    float[:, ::1] obs,
    long long[::1] seat_out,
    list legal,
):
    """Apply ``codes[i]`` for ``seats[i]`` in every game; for each game still going, write the
    acting seat, its observation and its legal moves. Returns the indices of finished games."""
    cdef Py_ssize_t i, num = len(games)
    cdef int seat
    cdef Kernel k
    done = []
    for i in range(num):
        game = games[i]
        seat = seats[i]
        code = codes[i]
        game.apply_action_id(seat, code, True)
        k = <Kernel?>kernels[i]
        k.after(seat, code)
        seat = k.next_seat()
        if seat < 0:
            done.append(i)
            continue
        seat_out[i] = seat
        k.write(seat, &obs[i, 0])
        legal[i] = game.legal_action_ids(seat)
    return done



def first_illegal(list codes, signed char[:, ::1] masks):
    """Check one action per mask row: -2 if an entry is not a plain int, -3 if one is out of
    range, else the first row whose action its mask forbids, or -1 when every action is legal."""
    cdef Py_ssize_t i, num = masks.shape[0], n_actions = masks.shape[1]
    cdef long long code
    if len(codes) != num:
        return -2
    for i in range(num):
        value = codes[i]
        if type(value) is not int:
            return -2
        code = value
        if code < 0 or code >= n_actions:
            return -3
    for i in range(num):
        if not masks[i, <Py_ssize_t>codes[i]]:
            return i
    return -1

