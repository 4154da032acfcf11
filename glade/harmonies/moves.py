"""One check per rule: for each action kind, the one function that says whether a move is allowed
now and, if not, which refusal (code and params) applies.

``check`` decodes a move id of the action space and asks the check of its kind, after the checks
every move shares (``check_turn``): that is ``HarmoniesGame.why_illegal``. The legal moves are the
moves the checks allow: ``plain_legal_ids`` asks them about every id of the action space, in
order. ``legal_ids`` is the fused fast path the engine plays with: each kind's generator, beside
its check, builds the allowed ids at once from the same board primitives (``Board.placeable``,
``Board.anchors``, ``may_take_card``, ...); the conformance test compares it with
``plain_legal_ids`` on every position of hundreds of random games
(``tests/harmonies/test_one_check.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from glade.core import Refusal
from glade.core.refusals import CORE

from .data import B2, BB, BG, BR, CARDS, COLORS, M3, MAX_HELD, NEXT, TOP
from .refusals import refuse

if TYPE_CHECKING:
    from .game import Board, HarmoniesGame


# ====================================================================== shared by every move
def check_turn(g: HarmoniesGame, seat: int, code: object) -> Refusal | None:
    """The checks before any move's own: the game goes on, it is ``seat``'s turn, ``code`` is a
    move of the action space, and a seat holding a spirit offer chooses its spirit first."""
    if g.over:
        return CORE.refuse("game.over")
    if seat != g.current:
        return refuse("turn.not_yours", seat=g.current)
    sp = g.space
    if not isinstance(code, int) or not 0 <= code < sp.size:
        return CORE.refuse("move.unknown", game="Harmonies")
    if g.boards[seat].offer and not sp.SPIRIT <= code < sp.DISCARD:
        return refuse("spirit.choose_first")
    return None


# ====================================================================== take_tokens
def check_take_tokens(g: HarmoniesGame, space: int) -> Refusal | None:
    """Take the three tokens of a central space: once a turn, from a space that holds some."""
    if g.took:
        return refuse("tokens.already_taken")
    if space >= len(g.central):
        return refuse("tokens.no_space", spaces=len(g.central))
    if not g.central[space]:
        return refuse("tokens.space_empty", space=space)
    return None


def legal_take_tokens(g: HarmoniesGame, out: list[int]) -> None:
    if not g.took:
        central = g.central
        for space in range(len(central)):
            if central[space]:
                out.append(g.space.TAKE + space)


# ====================================================================== place_token
def check_place_token(g: HarmoniesGame, b: Board, color: int, cell: int) -> Refusal | None:
    """Place a token of the hand: on a cell without a cube whose stack that colour may top
    (``Board.placeable``)."""
    if not g.took:
        return refuse("token.take_first")
    if color not in g.hand:
        return refuse("token.not_in_hand", color=COLORS[color])
    layout = g.space.layout
    if b.placeable(color) >> layout.bits[cell] & 1:
        return None
    name = layout.names[cell]
    if b.cubes >> layout.bits[cell] & 1:
        return refuse("token.on_cube", cell=name)
    return why_no_stack(color, b.cells[cell], name)


def legal_place_token(g: HarmoniesGame, b: Board, out: list[int]) -> None:
    sp = g.space
    bit_cell = sp.layout.bit_cell
    hand = g.hand
    for color in range(6):
        if color not in hand:
            continue
        m = b.placeable(color)
        base = sp.PLACE + color * sp.n
        while m:
            low = m & -m
            out.append(base + bit_cell[low.bit_length() - 1])
            m ^= low


def why_no_stack(color: int, state: int, cell: str) -> Refusal:
    """Why ``color`` cannot go on the stack ``state`` at ``cell``, in a player's words."""
    if NEXT[state * 6 + color] >= 0:
        raise ValueError(f"{COLORS[color]} may go on the stack at {cell}")
    if state in (BG, BB, BR):
        return refuse("stack.building", cell=cell)
    if state == M3 and color == 1:
        return refuse("stack.mountain_full", cell=cell)
    if state == B2 and color == 2:
        return refuse("stack.trunk_full", cell=cell)
    # one code per colour, each with the rule that colour follows
    return refuse(f"stack.{COLORS[color]}", color=COLORS[color], on=COLORS[TOP[state]], cell=cell)


# ====================================================================== take_card
def may_take_card(g: HarmoniesGame, b: Board) -> bool:
    """A card may be taken this turn: none taken or discarded yet, and fewer than the limit held."""
    return not g.took_card and not g.discarded and b.held() < MAX_HELD


def check_take_card(g: HarmoniesGame, b: Board, slot: int) -> Refusal | None:
    """Take a face-up animal card: once a turn, not after a discard, below the limit held."""
    if not may_take_card(g, b):
        if g.took_card:
            return refuse("card.already_taken")
        if g.discarded:
            return refuse("card.after_discard")
        return refuse("card.hand_full", limit=MAX_HELD)
    if slot >= len(g.row):
        return refuse("card.no_slot", slots=len(g.row))
    if g.row[slot] < 0:
        return refuse("card.slot_empty", slot=slot)
    return None


def legal_take_card(g: HarmoniesGame, b: Board, out: list[int]) -> None:
    if may_take_card(g, b):
        base = g.space.CARD
        row = g.row
        for slot in range(len(row)):
            if row[slot] >= 0:
                out.append(base + slot)


# ====================================================================== place_cube
def check_place_cube(g: HarmoniesGame, b: Board, card: int, cell: int) -> Refusal | None:
    """Move a cube from a held card (or the chosen spirit) to the cell at its habitat's cube
    position: a cell without a cube, the whole habitat on the board (``Board.anchors``)."""
    info = CARDS[card]
    named = {"card": info.id, "name": info.name}
    if info.spirit:
        if b.spirit != card:
            return refuse("cube.no_spirit", **named)
        if b.spirit_placed:
            return refuse("cube.spirit_placed", **named)
    elif not any(c == card for c, _ in b.cards):
        if any(c == card for c, _ in b.done):
            return refuse("cube.card_done", **named)
        return refuse("cube.not_held", **named)
    sp = g.space
    bit = sp.layout.bits[cell]
    if b.anchors(card, sp.rotations[card], b.class_masks()) >> bit & 1:
        return None
    if b.cubes >> bit & 1:
        return refuse("cube.occupied", cell=sp.layout.names[cell])
    return refuse("cube.no_habitat", cell=sp.layout.names[cell], **named)


def legal_place_cube(g: HarmoniesGame, b: Board, out: list[int]) -> None:
    spirit = b.spirit >= 0 and not b.spirit_placed
    if not b.cards and not spirit:
        return
    sp = g.space
    cls = b.class_masks()
    bit_cell = sp.layout.bit_cell
    n = sp.n
    rotations = sp.rotations
    todo = [c for c, _ in b.cards]
    if spirit:
        todo.append(b.spirit)
    for card in todo:
        m = b.anchors(card, rotations[card], cls)
        base = sp.CUBE + card * n
        while m:
            low = m & -m
            out.append(base + bit_cell[low.bit_length() - 1])
            m ^= low


# ====================================================================== choose_spirit
def check_choose_spirit(b: Board, card: int) -> Refusal | None:
    """Keep one of the two Nature's Spirits dealt face down."""
    if not b.offer:
        return refuse("spirit.nothing_to_choose")
    if card not in b.offer:
        info = CARDS[card]
        return refuse("spirit.not_dealt", card=info.id, name=info.name)
    return None


def legal_choose_spirit(g: HarmoniesGame, b: Board, out: list[int]) -> None:
    for card in b.offer:
        out.append(g.space.SPIRIT + card - 32)


# ====================================================================== discard_card (solo)
def check_discard_card(g: HarmoniesGame, slot: int) -> Refusal | None:
    """Solo: discard a face-up card (replaced from the draw pile) once the tokens are placed,
    instead of taking one."""
    if not g.solo:
        return refuse("discard.not_solo")
    if g.took_card:
        return refuse("discard.after_take")
    if g.discarded:
        return refuse("discard.already")
    if not g.took or g.hand:
        return refuse("discard.tokens_first")
    if not g.deck:
        return refuse("discard.pile_empty")
    if slot >= len(g.row) or g.row[slot] < 0:
        return refuse("card.slot_empty", slot=slot)
    return None


def legal_discard_card(g: HarmoniesGame, out: list[int]) -> None:
    if g.solo and not g.took_card and not g.discarded and g.took and not g.hand and g.deck:
        base = g.space.DISCARD
        row = g.row
        for slot in range(len(row)):
            if row[slot] >= 0:
                out.append(base + slot)


# ====================================================================== end_turn
def check_end_turn(g: HarmoniesGame) -> Refusal | None:
    """End the turn once tokens were taken and all of them placed."""
    if not g.took:
        return refuse("end.take_first")
    if g.hand:
        return refuse("end.tokens_left", left=len(g.hand))
    return None


def legal_end_turn(g: HarmoniesGame, out: list[int]) -> None:
    if g.took and not g.hand:
        out.append(g.space.END)


# ====================================================================== every kind
def check(g: HarmoniesGame, seat: int, code: object) -> Refusal | None:
    """None if move ``code`` is allowed for ``seat`` now, else its refusal: the shared checks,
    then the check of the move's kind."""
    why = check_turn(g, seat, code)
    if why is not None or not isinstance(code, int):
        return why
    sp = g.space
    b = g.boards[seat]
    if code < sp.PLACE:
        return check_take_tokens(g, code - sp.TAKE)
    if code < sp.CARD:
        color, cell = divmod(code - sp.PLACE, sp.n)
        return check_place_token(g, b, color, cell)
    if code < sp.CUBE:
        return check_take_card(g, b, code - sp.CARD)
    if code < sp.SPIRIT:
        card, cell = divmod(code - sp.CUBE, sp.n)
        return check_place_cube(g, b, card, cell)
    if code < sp.DISCARD:
        return check_choose_spirit(b, code - sp.SPIRIT + 32)
    if code < sp.END:
        return check_discard_card(g, code - sp.DISCARD)
    return check_end_turn(g)


def plain_legal_ids(g: HarmoniesGame, seat: int) -> list[int]:
    """The legal move ids of ``seat``, in order: every id of the action space that ``check``
    allows (the definition the fast path ``legal_ids`` is tested against)."""
    return [code for code in range(g.space.size) if check(g, seat, code) is None]


def legal_ids(g: HarmoniesGame, seat: int) -> list[int]:
    """The legal move ids of ``seat`` (undo aside), from each kind's generator: the same set as
    ``plain_legal_ids``; spaces, placements, cards, cubes (held cards in the order taken), then
    discards and the end of the turn."""
    if g.over or seat != g.current:
        return []
    b = g.boards[seat]
    out: list[int] = []
    if b.offer:
        legal_choose_spirit(g, b, out)
        return out
    legal_take_tokens(g, out)
    if g.took:
        legal_place_token(g, b, out)
    legal_take_card(g, b, out)
    legal_place_cube(g, b, out)
    legal_discard_card(g, out)
    legal_end_turn(g, out)
    return out


__all__ = [
    "check",
    "check_choose_spirit",
    "check_discard_card",
    "check_end_turn",
    "check_place_cube",
    "check_place_token",
    "check_take_card",
    "check_take_tokens",
    "check_turn",
    "legal_ids",
    "may_take_card",
    "plain_legal_ids",
    "why_no_stack",
]
