"""Turn structure, end of game, solo, Nature's Spirit, views and undo (facts §5-§7)."""

from __future__ import annotations

import json

import pytest

import glade
from glade.harmonies.data import CARDS, COLOR_INDEX
from glade.harmonies.game import HarmoniesGame

from .helpers import check_invariants, set_cell
from .test_stacking_and_habitats import fresh


def play(g: HarmoniesGame, seat: int, **action: object) -> None:
    g.apply(seat, dict(action))


def place_anywhere(g: HarmoniesGame, seat: int) -> None:
    """Place every token in hand on the first legal cell."""
    while g.hand:
        acts = [a for a in g.legal_actions(seat) if a.type == "place_token"]
        g.apply(seat, acts[0])


def test_setup_multiplayer_and_solo() -> None:
    g = fresh(players=3)
    assert [len(t) for t in g.central] == [3] * 5 and len(g.row) == 5 and len(g.pouch) == 105
    assert len(g.deck) == 27
    s = fresh(players=1)
    assert [len(t) for t in s.central] == [3] * 3 and len(s.row) == 3 and len(s.pouch) == 111
    counts = [0] * 6
    for c in g.pouch + [c for t in g.central for c in t]:
        counts[c] += 1
    assert counts == [23, 23, 21, 19, 19, 15]
    with pytest.raises(glade.BadInput, match="1 to 4 players"):
        glade.new_game("harmonies", players=5)
    with pytest.raises(glade.BadInput, match="unknown Harmonies option"):
        glade.new_game("harmonies", players=2, colour="red")


def test_a_turn_takes_once_places_three_then_refills() -> None:
    g = fresh()
    space_tokens = g.central[2]
    next_three = tuple(g.pouch[-3:])[::-1]
    legal = {a.type for a in g.legal_actions(0)}
    assert legal == {"take_tokens", "take_card"}  # no end_turn before taking tokens
    play(g, 0, type="take_tokens", space=2)
    assert sorted(g.hand) == sorted(space_tokens) and g.central[2] == ()
    assert "take_tokens" not in {a.type for a in g.legal_actions(0)}
    place_anywhere(g, 0)
    play(g, 0, type="take_card", slot=1)
    with pytest.raises(glade.IllegalAction, match="already took an animal card"):
        play(g, 0, type="take_card", slot=2)
    taken = g.boards[0].cards[0][0]
    next_card = g.deck[-1]
    play(g, 0, type="end_turn")
    assert g.central[2] == next_three  # refilled from the pouch
    assert g.row[1] == next_card and taken not in g.row
    assert g.current == 1 and g.hand == [] and not g.took
    check_invariants(g)


def test_cubes_may_be_placed_before_taking_tokens_and_between_placements() -> None:
    g = fresh()
    frog = CARDS.index(next(c for c in CARDS if c.id == "frog"))
    g.boards[0].cards.append((frog, 0))
    set_cell(g, 0, "1,1", "blue")
    set_cell(g, 0, "2,1", "green")
    assert "place_cube" in {a.type for a in g.legal_actions(0)}
    play(g, 0, type="place_cube", card="frog", cell="1,1")
    assert g.boards[0].placed == 1 and not g.took


def test_at_most_four_unfinished_cards_spirit_included() -> None:
    g = fresh(spirits=True)
    b = g.boards[0]
    spirit = b.offer[0]
    play(g, 0, type="choose_spirit", card=CARDS[spirit].id)
    b.cards += [(0, 0), (1, 0), (2, 0)]
    assert b.held() == 4
    with pytest.raises(glade.IllegalAction, match="already hold 4 unfinished cards"):
        play(g, 0, type="take_card", slot=0)


def test_spirit_choice_first_other_leaves_and_scores_only_when_placed() -> None:
    g = fresh(players=2, spirits=True)
    offers = [g.boards[s].offer for s in range(2)]
    assert all(len(o) == 2 for o in offers) and len(set(offers[0] + offers[1])) == 4
    with pytest.raises(glade.IllegalAction, match="choose which of your two"):
        play(g, 0, type="take_tokens", space=0)
    other = [c for c in range(32, 42) if c not in offers[0]][0]
    with pytest.raises(glade.IllegalAction, match="not one of the two you were dealt"):
        play(g, 0, type="choose_spirit", card=CARDS[other].id)
    play(g, 0, type="choose_spirit", card=CARDS[offers[0][1]].id)
    assert g.boards[0].spirit == offers[0][1] and g.boards[0].offer == ()
    assert g.breakdown(0)["spirit"] == 0


def test_view_hides_pouch_order_deck_and_other_offers() -> None:
    g = fresh(players=2, spirits=True)
    for seat in (0, 1, None):
        text = json.dumps(g.view(seat))
        for card in g.deck:
            assert f'"{CARDS[card].id}"' not in text
        for other in (0, 1):
            if other != seat:
                for card in g.boards[other].offer:
                    assert f'"{CARDS[card].id}"' not in text
        assert "pouch" in g.view(seat) and g.view(seat)["pouch"]["count"] == 105
        assert set(g.view(seat)["pouch"]) == {"count", "colors"}
    assert g.view(0)["spirit_offer"] == [CARDS[c].id for c in g.boards[0].offer]
    assert g.view(0)["boards"][0]["score"]["total"] == 0


def test_end_triggered_by_two_empty_cells_finishes_the_round() -> None:
    g = fresh(players=3)
    layout = g.space.layout
    for name in layout.names[5:]:  # leave 5 empty cells on seat 0's board
        set_cell(g, 0, name, "gray")
    play(g, 0, type="take_tokens", space=0)
    for color in list(g.hand):
        empty = [layout.names[i] for i, s in enumerate(g.boards[0].cells) if s == 0][0]
        play(g, 0, type="place_token", color=glade_color(color), cell=empty)
    play(g, 0, type="end_turn")
    assert g.end_triggered and not g.is_over and g.to_act == (1,)
    for seat in (1, 2):
        play(g, seat, type="take_tokens", space=[s for s, t in enumerate(g.central) if t][0])
        place_anywhere(g, seat)
        play(g, seat, type="end_turn")
    assert g.is_over and g.to_act == () and g.legal_actions(0) == []


def glade_color(code: int) -> str:
    from glade.harmonies.data import COLORS

    return COLORS[code]


def test_end_triggered_when_the_pouch_cannot_refill() -> None:
    g = fresh(players=2)
    g.out = len(g.pouch)  # keep the count honest for the invariant check
    g.pouch = []
    play(g, 0, type="take_tokens", space=4)
    place_anywhere(g, 0)
    play(g, 0, type="end_turn")
    assert g.end_triggered and g.central[4] == () and g.to_act == (1,)
    play(g, 1, type="take_tokens", space=0)
    place_anywhere(g, 1)
    play(g, 1, type="end_turn")
    assert g.is_over
    check_invariants(g)


def test_tie_break_most_animal_cubes_then_shared() -> None:
    g = fresh(players=3)
    for seat in range(3):
        set_cell(g, seat, "0,0", "brown", "brown", "green")
    g.boards[1].placed = 2  # only the count matters for the tie-break
    g.boards[2].placed = 2
    res = g.result()
    assert res["scores"] == [7, 7, 7] and res["winners"] == [1, 2]
    g.boards[2].placed = 3
    assert g.result()["winners"] == [2]


def test_solo_returns_tokens_discards_and_ends_when_the_pouch_runs_short() -> None:
    g = fresh(players=1)
    play(g, 0, type="take_tokens", space=1)
    with pytest.raises(glade.IllegalAction, match="place your three tokens"):
        play(g, 0, type="discard_card", slot=0)
    place_anywhere(g, 0)
    old = g.row[0]
    replacement = g.deck[-1]
    play(g, 0, type="discard_card", slot=0)
    assert g.row[0] == replacement and g.discards == [old]
    assert not g.can_undo(0)  # the discard revealed a card
    with pytest.raises(glade.IllegalAction, match="discarded a card this turn"):
        play(g, 0, type="take_card", slot=1)
    play(g, 0, type="end_turn")
    assert g.out == 6 and all(len(t) == 3 for t in g.central) and len(g.pouch) == 102
    check_invariants(g)
    g.out += len(g.pouch) - 8
    g.pouch = g.pouch[:8]
    play(g, 0, type="take_tokens", space=0)
    place_anywhere(g, 0)
    play(g, 0, type="end_turn")
    assert g.is_over and "suns" in g.result()
    with pytest.raises(glade.IllegalAction, match="only allowed in solo"):
        fresh(players=2).apply(0, {"type": "discard_card", "slot": 0})


def test_undo_within_the_turn_is_exact_and_never_crosses_end_turn() -> None:
    g = fresh(players=2)
    start = g.fingerprint()
    assert not g.can_undo(0)
    play(g, 0, type="take_tokens", space=3)
    after_take = g.fingerprint()
    color = glade_color(g.hand[0])
    play(g, 0, type="place_token", color=color, cell="2,1")
    assert {"type": "undo"} in [a.to_json() for a in g.legal_actions(0)]
    play(g, 0, type="undo")
    assert g.fingerprint() == after_take
    play(g, 0, type="undo")
    assert g.fingerprint() == start
    with pytest.raises(glade.IllegalAction, match="nothing you can undo"):
        play(g, 0, type="undo")
    play(g, 0, type="take_tokens", space=3)
    place_anywhere(g, 0)
    play(g, 0, type="end_turn")
    assert not g.can_undo(1) and not g.can_undo(0)


def test_illegal_json_is_refused_with_a_sentence() -> None:
    g = fresh()
    before = g.fingerprint()
    for bad, needle in [
        ({"type": "fly"}, "not a Harmonies action"),
        ({"type": "take_tokens"}, "needs the field 'space'"),
        ({"type": "take_tokens", "space": 9}, "no space 9"),
        ({"type": "take_tokens", "space": "two"}, "whole number"),
        ({"type": "take_tokens", "space": True}, "whole number"),
        ({"type": "take_tokens", "space": 1.0}, "whole number"),
        ({"type": "take_tokens", "space": 1, "x": 1}, "no field 'x'"),
        ({"type": "choose_spirit", "card": "frog"}, "not a Nature's Spirit"),
        ({"type": "place_cube", "card": "dodo", "cell": "0,0"}, "no card 'dodo'"),
        ("take", "must be an object"),
    ]:
        with pytest.raises(glade.IllegalAction, match=needle):
            g.apply(0, bad)  # type: ignore[arg-type]
    assert g.fingerprint() == before
    assert COLOR_INDEX["blue"] == 0
