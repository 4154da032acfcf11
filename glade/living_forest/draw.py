"""The Guardian Animals phase: ``draw``, ``stop`` and ``use_fragment``, played by every spirit at
once. Each move changes only that spirit's own cards, stream and flags."""

from __future__ import annotations

from typing import Final

from glade.core.chance import shuffled

from .data import CARDS, VARAN
from .space import A_DRAW, A_STOP, A_USE, Why
from .state import ForestState

C_ELEMS: Final = CARDS.elements
C_COIN: Final = CARDS.coin
CANDIDATES: Final = (A_DRAW, A_STOP, A_USE)


def why(s: ForestState, seat: int, code: int) -> Why | None:
    """The rule of each draw-phase move (``code`` one of ``CANDIDATES``) of a spirit still
    drawing: None if allowed, else the refusal."""
    if code == A_DRAW:
        if s.solitary[seat] >= 3:
            if s.fragments[seat]:
                return ("draw.three_solitary_fragment", {})
            return ("draw.three_solitary", {})
        if not s.draw_stacks[seat] and not s.discards[seat]:
            return ("draw.no_cards", {})
        return None
    if code == A_STOP:
        if not s.help_lines[seat]:
            return ("draw.stop_empty", {})
        return None
    # A_USE
    if not s.fragments[seat]:
        return ("draw.no_fragment", {})
    if not s.just_drawn[seat]:
        return ("draw.not_just_drawn", {})
    return None


def legal_plain(s: ForestState, seat: int) -> list[int]:
    """The moves ``why`` allows a spirit still drawing: the definition of ``legal``."""
    return [c for c in CANDIDATES if why(s, seat, c) is None]


def legal(s: ForestState, seat: int) -> list[int]:
    """``legal_plain`` fused into one pass: random play asks for it at most moves, and the
    three calls of ``why`` cost more than the moves themselves. ``test_lf_one_check`` compares
    the two at every position of random games of every player count."""
    out = []
    if s.solitary[seat] < 3 and (s.draw_stacks[seat] or s.discards[seat]):
        out.append(A_DRAW)
    if s.help_lines[seat]:
        out.append(A_STOP)
    if s.just_drawn[seat] and s.fragments[seat]:
        out.append(A_USE)
    return out


def draw(s: ForestState, seat: int) -> tuple[int, int]:
    """Draw the top card onto the help line (the discard reshuffled first if the stack is
    empty); returns the chance it met: (card, reshuffled 0/1)."""
    deck = s.draw_stacks[seat]
    reshuffled = 0
    if not deck:
        k = s.shuffles_dealt[seat]
        deck = shuffled(s.seed, f"spirit{seat}/shuffle{k}", sorted(s.discards[seat]))
        s.draw_stacks[seat] = deck
        s.discards[seat] = []
        s.shuffles_dealt[seat] = k + 1
        reshuffled = 1
    card = deck.pop()
    s.help_lines[seat].append(card)
    h = s.help_elements[seat]
    el = C_ELEMS[card]
    h[0] += el[0]
    h[1] += el[1]
    h[2] += el[2]
    h[3] += el[3]
    h[4] += el[4]
    net = s.solitary[seat] + C_COIN[card]
    s.solitary[seat] = net
    s.just_drawn[seat] = True
    if net >= 3 and not s.fragments[seat]:
        s.drawing[seat] = False  # the third uncancelled solitary symbol: must stop
        s.just_drawn[seat] = False
    return card, reshuffled


def stop(s: ForestState, seat: int) -> None:
    s.drawing[seat] = False
    s.just_drawn[seat] = False


def use_fragment(s: ForestState, seat: int) -> None:
    """Send the card just drawn away: a Fire Varan back to the supply, any other card to the
    discard."""
    card = s.help_lines[seat].pop()
    h = s.help_elements[seat]
    for e, v in enumerate(C_ELEMS[card]):
        h[e] -= v
    s.solitary[seat] -= C_COIN[card]
    s.fragments[seat] -= 1
    s.fragment_supply += 1
    s.just_drawn[seat] = False
    if card == VARAN:
        s.varan_supply += 1
    else:
        s.discards[seat].append(card)
