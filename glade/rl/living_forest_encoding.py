"""Living Forest as fixed-shape numpy observations, read from the engine's snapshots.

One float32 vector per seat: one block per spirit (the observer's own first, then the following
seats in seat order), then the shared table. Seats named inside the shared table (Sacred Tree
holder, acting spirit, spirits to steal from) are counted from the observer (0 = itself).
``docs/rl.md`` lists every segment. Never read: the order or contents of a draw stack (only its
size) or of the face-down animal stacks (only their sizes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from glade.core import Game
from glade.living_forest.data import (
    CARDS,
    CENTRE_CAP,
    ELEMENTS,
    START_TREE,
    TREES,
)
from glade.living_forest.game import (
    A_CHOOSE,
    A_FIRE,
    A_MOVE,
    A_PICK,
    A_STEAL,
    A_USE,
    ACTIONS,
    DRAW,
    KIND_NAMES,
    OVER,
    PHASE_NAMES,
    PLANT_CELLS,
    STEP_NAMES,
    LivingForestGame,
)
from glade.living_forest.snapshot import SpiritSnapshot

from .kernels import compiled_module, use_compiled
from .spec import ActionRange, Encoder, Layout

N_CARDS = len(CARDS.names)
N_TREES = len(TREES.ids)
CELLS = 15
CELL_KINDS = N_TREES + 2  # empty, the starting tree, the 12 protective trees
MAX_SEATS = 4
SLOT_FEATURES = 10  # present, level, cost, solitary, gregarious, 5 elements

# card type -> its display-slot features
CARD_FEATURES = np.zeros((N_CARDS, SLOT_FEATURES), dtype=np.float32)
for _c in range(N_CARDS):
    CARD_FEATURES[_c, 0] = 1.0
    CARD_FEATURES[_c, 1] = CARDS.level[_c]
    CARD_FEATURES[_c, 2] = CARDS.cost[_c]
    CARD_FEATURES[_c, 3] = CARDS.coin[_c] > 0
    CARD_FEATURES[_c, 4] = CARDS.coin[_c] < 0
    CARD_FEATURES[_c, 5:] = CARDS.elements[_c]


def _counts_into(out: np.ndarray, cards: tuple[int, ...]) -> None:
    """Write how many of each card type ``cards`` holds into ``out``."""
    if len(cards) > 8:
        out[:] = np.bincount(cards, minlength=N_CARDS)
        return
    out[:] = 0.0
    for card in cards:
        out[card] += 1.0


def _spirit_layout() -> Layout:
    lay = Layout()
    lay.add(
        "forest",
        CELLS * CELL_KINDS,
        1,
        "per cell (row-major 3x5): empty, starting tree, T3a..T11 one-hot",
    )
    lay.add("forest_elements", 5, 80, "elements of the forest (trees and completed lines)")
    lay.add("rock", 12, 1, "position on the circle of spirits, one-hot")
    lay.add("fires", 3, 60, "fire tiles kept, per value 2, 3, 4")
    lay.add("victory_tiles", 3, 12, "victory tiles held: fire, flower, tree")
    lay.add("help_line", N_CARDS, 30, "cards on the help line per card type (see card ids)")
    lay.add("discard", N_CARDS, 30, "cards in the discard per card type (public)")
    # the segments from here to the end are written together (see _encode_help)
    lay.add("help_elements", 5, 80, "elements on the help line: " + ", ".join(ELEMENTS), low=-40)
    lay.add("symbols", 2, 30, "solitary surplus, gregarious surplus on the help line (one is 0)")
    lay.add("drawing", 2, 1, "still drawing this round, the last card was just drawn")
    lay.add("pile_sizes", 2, 100, "cards in the draw stack, cards in the discard")
    lay.add("fragments", 1, 20, "fire fragments held")
    lay.add(
        "progress", 3, 40, "progress toward 12: different trees, fires, sacred flowers", low=-20
    )
    return lay


def _table_layout(start: int) -> Layout:
    lay = Layout(start=start)
    lay.add(
        "display",
        12 * SLOT_FEATURES,
        20,
        "per slot (level 1-3 x 4): present, level, cost, solitary, gregarious, 5 elements",
        low=-5,
    )
    lay.add("stacks", 3, 30, "face-down animal cards left per level")
    lay.add(
        "centre_fires", 4, 28, "fires in the centre of the circle per value 2, 3, 4; their total"
    )
    lay.add("fire_supply", 3, 20, "fire tiles left in the supply per value 2, 3, 4")
    lay.add("tree_supply", N_TREES, 6, "protective trees left per type T3a..T11")
    lay.add("supplies", 2, 23, "fire fragments left, fire varans left")
    lay.add("taken", 3, 12, "animals attracted this round per level")
    lay.add("phase", 3, 1, "phase one-hot: " + ", ".join(PHASE_NAMES))
    lay.add("round", 1, 1_000_000, "round number")
    lay.add(
        "sacred_tree", MAX_SEATS, 1, "holder of the Sacred Tree, counted from the observer, one-hot"
    )
    lay.add("current", MAX_SEATS, 1, "spirit acting in the action phase, counted from the observer")
    lay.add("actions_left", 1, 3, "actions the acting spirit may still choose")
    lay.add("actions_used", 5, 1, "action kinds used this turn: " + ", ".join(KIND_NAMES))
    lay.add("step", len(STEP_NAMES), 1, "step in progress one-hot: " + ", ".join(STEP_NAMES))
    lay.add(
        "step_state", 3, 60, "the step is a bonus, sun or water left to spend, cards or fires taken"
    )
    lay.add("pending", 4, 4, "bonuses still to resolve: fragments, attract, extinguish, plant")
    lay.add(
        "victims", MAX_SEATS, 1, "spirits still to steal a victory tile from, from the observer"
    )
    return lay


class LivingForestEncoder(Encoder):
    """Observation encoder for one Living Forest configuration (2-4 players).

    ``compiled`` picks the compiled kernel (True), the pure-Python code (False) or the kernel
    whenever it is built (None); both give byte-identical observations.
    """

    game_name = "living-forest"

    def __init__(self, players: int = 2, compiled: bool | None = None) -> None:
        probe = LivingForestGame.new(0, {"players": players})  # validates the player count
        self.arguments = {"players": players, "compiled": compiled}
        self.options = dict(probe.options)
        self.players = probe.num_players
        self.n_actions = len(probe.action_table())
        spirit = _spirit_layout()
        table = self.lay_out(spirit, "spirit", _table_layout)
        self._s = {seg.name: seg.start for seg in spirit.segments}
        self._t = {seg.name: seg.start - self.boards_size for seg in table.segments}
        self._flat = np.zeros(self.size, dtype=np.float32)
        self._blocks = self._flat[: self.boards_size].reshape(self.players, self.block)
        self._table = self._flat[self.boards_size :]
        self._cell_base = np.arange(CELLS) * CELL_KINDS
        self._state: LivingForestGame | None = None
        self._stale: set[int] = set()
        self._table_stale = True
        self._round = -1
        self._phase = -1
        # what each cached segment was encoded from; None: not encoded for the bound game yet
        self._forest_keys: list[tuple[int, ...] | None] = [None] * self.players
        self._help_keys: list[tuple[int, ...] | None] = [None] * self.players
        self._discard_keys: list[tuple[int, ...] | None] = [None] * self.players
        self._display_key: tuple[int, ...] | None = None
        # (Sacred Tree holder, action phase, acting spirit, spirits to rob) as last encoded
        self._named: tuple[int, bool, int, tuple[int, ...]] = (0, False, 0, ())
        self.kernel: Any = (
            compiled_module().LivingForestKernel(
                self, CARD_FEATURES, N_CARDS, N_TREES, len(STEP_NAMES)
            )
            if use_compiled(compiled)
            else None
        )

    def action_ranges(self) -> list[ActionRange]:
        moves = 12 - self.players
        plant = A_MOVE + moves
        return [
            ActionRange("draw", 0, 1, "draw the next card onto the help line (draw phase)"),
            ActionRange("stop", 1, 1, "stop drawing (draw phase)"),
            ActionRange("use_fragment", 2, 1, "send the card just drawn back (draw phase)"),
            ActionRange("done", 3, 1, "finish the step in progress"),
            ActionRange("end_actions", 4, 1, "end the action phase turn"),
            ActionRange("choose_action", A_CHOOSE, 5, "choose_action: " + ", ".join(KIND_NAMES)),
            ActionRange("pick_card", A_PICK, 12, "pick_card: (level - 1) * 4 + slot"),
            ActionRange("pick_fire", A_FIRE, CENTRE_CAP, "pick_fire: centre fire index"),
            ActionRange("steal", A_STEAL, 3, "steal victory tile: fire, flower, tree"),
            ActionRange("move", A_MOVE, moves, f"move: steps - 1 (1 to {moves} steps)"),
            ActionRange(
                "plant",
                plant,
                N_TREES * len(PLANT_CELLS),
                f"plant: tree * {len(PLANT_CELLS)} + cell slot (trees T3a..T11; "
                "slots = cells 0-14 row-major without the centre cell 7)",
            ),
        ]

    # ------------------------------------------------------------------ tracking the state
    def reset(self, state: Game) -> None:
        if not isinstance(state, LivingForestGame):
            raise TypeError("the Living Forest encoder needs a Living Forest game")
        if state.options != self.options:
            raise ValueError(f"this encoder is for {self.options}, not {state.options}")
        self._state = state
        if self.kernel is not None:
            self.kernel.bind(state)
            return
        self._stale = set(range(self.players))
        self._table_stale = True
        self._round = state.round
        self._phase = state.phase
        self._forest_keys = [None] * self.players
        self._help_keys = [None] * self.players
        self._discard_keys = [None] * self.players
        self._display_key = None

    def after(self, seat: int, code: int) -> None:
        if self.kernel is not None:
            self.kernel.after(seat, code)
            return
        state = self._state
        assert state is not None
        table_was_stale = self._table_stale
        self._table_stale = True
        if state.round != self._round or state.phase == OVER or A_STEAL <= code < A_MOVE:
            # an end of round (Onibi, help lines to the discards) or a theft touches every spirit
            self._stale.update(range(self.players))
            self._round = state.round
        elif self._phase == DRAW:  # a draw, a stop or a fragment: only this spirit's help line
            if seat not in self._stale:
                self._encode_help(seat)
            if code != A_USE and state.phase == DRAW and not table_was_stale:
                self._table_stale = False  # (a fragment goes back to the supply: A_USE)
        else:
            self._stale.add(seat)
        self._phase = state.phase

    # ------------------------------------------------------------------ encoding
    def _encode_help(self, s: int, spirit: SpiritSnapshot | None = None) -> None:
        """Re-encode what the draw phase changes: help line, discard, symbols, piles, progress."""
        state = self._state
        assert state is not None
        sp = state.spirit_snapshot(s) if spirit is None else spirit
        blk = self._blocks[s]
        o = self._s
        helps = sp.help_line
        if helps != self._help_keys[s]:
            self._help_keys[s] = helps
            _counts_into(blk[o["help_line"] : o["help_line"] + N_CARDS], helps)
        discards = sp.discard
        if discards != self._discard_keys[s]:
            self._discard_keys[s] = discards
            _counts_into(blk[o["discard"] : o["discard"] + N_CARDS], discards)
        net = sp.solitary
        # sizes only: the order and contents of the draw stack stay hidden
        blk[o["help_elements"] :] = [
            *sp.help_elements,
            max(net, 0),
            max(-net, 0),
            sp.drawing,
            sp.just_drawn,
            len(sp.draw_stack),
            len(discards),
            sp.fragments,
            *sp.progress,
        ]

    def _encode_spirit(self, s: int) -> None:
        state = self._state
        assert state is not None
        sp = state.spirit_snapshot(s)
        blk = self._blocks[s]
        o = self._s
        forest = sp.forest
        if forest != self._forest_keys[s]:  # forests change only when a tree is planted
            self._forest_keys[s] = forest
            cells = blk[o["forest"] : o["forest"] + CELLS * CELL_KINDS]
            cells[:] = 0.0
            kinds = [1 if t == START_TREE else (0 if t < 0 else t + 2) for t in forest]
            cells[self._cell_base + kinds] = 1.0
        self._encode_help(s, sp)
        rock = [0.0] * 12
        rock[sp.rock] = 1.0
        blk[o["forest_elements"] : o["help_line"]] = [
            *sp.forest_elements,
            *rock,
            *sp.fires_kept,
            *sp.victory_tiles,
        ]

    def _encode_table(self) -> None:
        state = self._state
        assert state is not None
        table = state.table_snapshot()
        t = self._table
        o = self._t
        display = table.display
        if display != self._display_key:
            self._display_key = display
            slots = t[o["display"] : o["display"] + 12 * SLOT_FEATURES].reshape(12, SLOT_FEATURES)
            for i, card in enumerate(display):
                slots[i] = CARD_FEATURES[card] if card >= 0 else 0.0
        centre = [0.0, 0.0, 0.0, float(sum(table.centre_fires))]
        for value in table.centre_fires:
            centre[value - 2] += 1.0
        phase = [0.0, 0.0, 0.0]
        phase[table.phase] = 1.0
        seats = [0.0] * MAX_SEATS
        acting = table.phase == ACTIONS
        used = table.actions_used if acting else 0
        step = [0.0] * len(STEP_NAMES)
        pending = [0.0] * 4
        if acting:
            step[table.step] = 1.0
            for kind, _extra in table.bonuses_pending:
                pending[kind] += 1.0
        # every segment from "stacks" to "victims", in layout order (seat-relative ones are 0 here)
        t[o["stacks"] : o["victims"] + MAX_SEATS] = [
            *(len(st) for st in table.animal_stacks),
            *centre,
            *table.fire_supply,
            *table.tree_supply,
            table.fragment_supply,
            table.varan_supply,
            *table.taken_this_round,
            *phase,
            table.round,
            *seats,
            *seats,
            table.actions_left if acting else 0,
            *(used >> k & 1 for k in range(5)),
            *step,
            table.bonus_step if acting else 0,
            table.spend_left if acting else 0,
            table.taken_in_step if acting else 0,
            *pending,
            *seats,
        ]
        # the seats the table names, counted from each observer in observe()
        self._named = (table.sacred_tree, acting, table.current_spirit, table.steal_from)
        self._table_stale = False

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        state = self._state
        if state is None:
            raise RuntimeError("the encoder is not bound to a game; call reset(state) first")
        if self.kernel is not None:
            result: np.ndarray = self.kernel.observe(seat, out)
            return result
        if self._stale:
            for s in self._stale:
                self._encode_spirit(s)
            self._stale.clear()
        if self._table_stale:
            self._encode_table()
        flat = self._flat
        if out is None:
            out = flat.copy()
        else:
            out[:] = flat
        if seat:  # the observer's own block first
            cut = seat * self.block
            total = self.boards_size
            out[: total - cut] = flat[cut:total]
            out[total - cut : total] = flat[:cut]
        # seats named by the table, counted from the observer
        base = self.boards_size
        n = self.players
        o = self._t
        sacred, acting, current, victims = self._named
        out[base + o["sacred_tree"] + (sacred - seat) % n] = 1.0
        if acting:
            out[base + o["current"] + (current - seat) % n] = 1.0
            for victim in victims:
                out[base + o["victims"] + (victim - seat) % n] = 1.0
        return out

    def render(self, state: Game, seat: int | None) -> str:
        if not isinstance(state, LivingForestGame):
            raise TypeError("the Living Forest renderer needs a Living Forest game")
        from glade.living_forest.render import render

        return render(state, seat)


__all__ = ["LivingForestEncoder"]
