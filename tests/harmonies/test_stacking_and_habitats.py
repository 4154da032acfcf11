"""Stacking table (facts §3) and habitat matching of all 42 cards in all 6 rotations (facts §4-5)."""

from __future__ import annotations

import pytest

import glade
from glade.harmonies.data import CARDS, COLOR_INDEX, COLORS, LAYOUTS, NEXT, STACKS
from glade.harmonies.game import HarmoniesGame

from .helpers import set_cell

ALLOWED = {  # colour -> stacks it may be placed on (bottom to top), from the rulebook figure
    "blue": [()],
    "yellow": [()],
    "gray": [(), ("gray",), ("gray", "gray")],
    "brown": [(), ("brown",)],
    "green": [(), ("brown",), ("brown", "brown")],
    "red": [(), ("gray",), ("brown",), ("red",)],
}


def test_stacking_table_is_exactly_the_rulebook_figure() -> None:
    for state, stack in enumerate(STACKS):
        names = tuple(COLORS[c] for c in stack)
        for color in COLORS:
            allowed = names in ALLOWED[color]
            assert (NEXT[state * 6 + COLOR_INDEX[color]] >= 0) == allowed, (names, color)
    # red never at height 3, brown at most 2, nothing on green/blue/yellow
    assert max(len(s) for s in STACKS if s and s[-1] == COLOR_INDEX["red"]) == 2


def fresh(players: int = 2, side: str = "A", spirits: bool = False, seed: int = 3) -> HarmoniesGame:
    g = glade.new_game("harmonies", seed=seed, players=players, side=side, spirits=spirits)
    assert isinstance(g, HarmoniesGame)
    return g


def give_tokens(g: HarmoniesGame, *colors: str) -> None:
    """Pretend the current player took these tokens from the central board."""
    g.central[0] = ()
    g.hand = [COLOR_INDEX[c] for c in colors]
    g.took = True
    g.emptied = 0


def test_refusals_explain_and_change_nothing() -> None:
    g = fresh()
    give_tokens(g, "green", "gray", "blue")
    set_cell(g, 0, "1,2", "yellow")
    before = g.fingerprint()
    with pytest.raises(glade.IllegalAction, match="a tree cannot grow on yellow"):
        g.apply(0, {"type": "place_token", "color": "green", "cell": "1,2"})
    with pytest.raises(glade.IllegalAction, match="you have no red token"):
        g.apply(0, {"type": "place_token", "color": "red", "cell": "0,0"})
    with pytest.raises(glade.IllegalAction, match="not on side A"):
        g.apply(0, {"type": "place_token", "color": "gray", "cell": "9,9"})
    with pytest.raises(glade.IllegalAction, match="not your turn"):
        g.apply(1, {"type": "place_token", "color": "gray", "cell": "0,0"})
    with pytest.raises(glade.IllegalAction, match="already took tokens"):
        g.apply(0, {"type": "take_tokens", "space": 1})
    with pytest.raises(glade.IllegalAction, match="2 tokens to place|3 tokens to place"):
        g.apply(0, {"type": "end_turn"})
    assert g.fingerprint() == before
    # a cube on a cell forbids any token there
    g.boards[0].cubes |= 1 << g.space.layout.bits[g.space.layout.names.index("1,2")]
    with pytest.raises(glade.IllegalAction, match="the cell 1,2 holds a cube"):
        g.apply(0, {"type": "place_token", "color": "gray", "cell": "1,2"})


def _fits(
    layout_cells: set[tuple[int, int]], anchor: tuple[int, int], cells: list[tuple[int, int]]
) -> bool:
    return all((anchor[0] + dq, anchor[1] + dr) in layout_cells for dq, dr in cells)


def _rotate(q: int, r: int, times: int) -> tuple[int, int]:
    for _ in range(times):
        q, r = -r, q + r
    return q, r


OFF_BY_ONE = {  # a stack with the height off by one (or another landscape) for each cell kind
    ("brown", "green"): [["green"], ["brown", "brown", "green"]],
    ("green",): [["brown", "green"]],
    ("brown", "brown", "green"): [["brown", "green"]],
    ("gray",): [["gray", "gray"]],
    ("gray", "gray"): [["gray"], ["gray", "gray", "gray"]],
    ("gray", "gray", "gray"): [["gray", "gray"]],
    ("blue",): [["yellow"]],
    ("yellow",): [["blue"]],
    ("*", "red"): [["red"]],
}


def _stack_for(spec: list[str], variant: int) -> list[str]:
    if spec == ["*", "red"]:
        return [["gray", "red"], ["brown", "red"], ["red", "red"]][variant % 3]
    return spec


@pytest.mark.parametrize("card", range(42), ids=[c.id for c in CARDS])
def test_every_card_matches_in_all_six_rotations_and_not_off_by_one(card: int) -> None:
    layout = LAYOUTS["B"]
    cells_on_board = set(layout.cells)
    raw = CARDS[card].data["cells"]
    for rotation in range(6):
        placed = [(_rotate(c["q"], c["r"], rotation), c["stack"]) for c in raw]
        anchor = next(a for a in layout.cells if _fits(cells_on_board, a, [p for p, _ in placed]))
        g = fresh(side="B")
        b = g.boards[0]
        if CARDS[card].spirit:
            b.spirit = card
        else:
            b.cards.append((card, 0))
        names = {}
        for k, ((dq, dr), spec) in enumerate(placed):
            name = f"{anchor[0] + dq},{anchor[1] + dr}"
            names[name] = spec
            set_cell(g, 0, name, *_stack_for(spec, rotation + k))
        anchor_name = f"{anchor[0]},{anchor[1]}"
        code = g.action_id(glade.Action("place_cube", card=CARDS[card].id, cell=anchor_name))
        assert g.why_illegal(0, code) is None, (CARDS[card].id, rotation)
        assert code in g.legal_action_ids(0)
        # every cell with its height off by one (or the wrong landscape) breaks the habitat
        for name, spec in names.items():
            for wrong in OFF_BY_ONE[tuple(spec)]:
                h = g.copy()
                set_cell(h, 0, name, *wrong)
                assert h.why_illegal(0, code) is not None, (CARDS[card].id, rotation, name, wrong)


def test_cube_cell_must_be_free_but_other_cells_may_hold_cubes() -> None:
    g = fresh()
    b = g.boards[0]
    b.cards.append((CARDS.index(next(c for c in CARDS if c.id == "frog")), 0))
    set_cell(g, 0, "1,1", "blue")
    set_cell(g, 0, "2,1", "green")
    layout = g.space.layout
    bit = {name: 1 << layout.bits[layout.names.index(name)] for name in layout.names}
    b.cubes |= bit["2,1"]  # the green tree already carries a cube from another card
    g.apply(0, {"type": "place_cube", "card": "frog", "cell": "1,1"})
    assert b.cubes & bit["1,1"]
    with pytest.raises(glade.IllegalAction, match="already holds a cube"):
        g.apply(0, {"type": "place_cube", "card": "frog", "cell": "1,1"})


def test_bottom_cube_first_final_placement_and_completion_frees_the_slot() -> None:
    g = fresh()
    b = g.boards[0]
    ray = next(c.index for c in CARDS if c.id == "ray")  # W* with two M1
    b.cards += [(ray, 0), (0, 0), (1 if ray != 1 else 2, 0), (3, 0)]
    assert b.held() == 4
    # two ray habitats sharing the same mountains: W at 1,1 and 1,2 ... M1 at 2,1 and 2,0
    set_cell(g, 0, "1,1", "blue")
    set_cell(g, 0, "2,0", "gray")
    set_cell(g, 0, "2,1", "gray")
    set_cell(g, 0, "1,2", "blue")
    set_cell(g, 0, "2,2", "gray")
    g.apply(0, {"type": "place_cube", "card": "ray", "cell": "1,1"})
    assert g.breakdown(0)["animals"] == CARDS[ray].points[0]  # the bottom slot is uncovered
    # placement is final: turning a mountain into a building keeps the cube and its points
    give_tokens(g, "red", "green", "green")
    g.apply(0, {"type": "place_token", "color": "red", "cell": "2,0"})
    assert g.breakdown(0)["animals"] == CARDS[ray].points[0]
    g.apply(0, {"type": "place_cube", "card": "ray", "cell": "1,2"})
    assert g.breakdown(0)["animals"] == CARDS[ray].points[1]
    # the card is not complete yet: 4 unfinished cards, so no new card
    assert "take_card" not in {a.type for a in g.legal_actions(0)}
    # finish the ray (3 cubes): third water next to the 2,1 / 2,2 mountains
    set_cell(g, 0, "3,1", "blue")
    g.apply(0, {"type": "place_cube", "card": "ray", "cell": "3,1"})
    assert (ray, 3) in b.done and b.held() == 3
    assert g.breakdown(0)["animals"] == CARDS[ray].points[2]
    assert "take_card" in {a.type for a in g.legal_actions(0)}
