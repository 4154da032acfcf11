"""End of round (Onibi's attacks, Sacred Tree, refill, return, pass) and the victory check."""

import pytest
from lf_helpers import check_invariants, fresh, plant_direct, poke, start_actions, state_of

from glade.living_forest.data import VARAN
from glade.living_forest.game import DRAW, OVER

END = {"type": "end_actions"}


def end_phase(g) -> None:  # type: ignore[no-untyped-def]
    for _ in range(g.num_players):
        g.apply(g.current_spirit, END)
    check_invariants(g)


def test_onibi_attacks_spirits_with_strictly_lower_water() -> None:
    g = fresh(3)
    start_actions(g)
    state_of(g).centre_fires[:] = [3, 4]  # power 7, two tiles
    state_of(g).fire_supply[:] = [20, 19, 19]
    state_of(g).help_elements[0][1] = 7  # equal: safe
    state_of(g).help_elements[1][1] = 6  # lower: attacked
    state_of(g).help_elements[2][1] = 0
    end_phase(g)
    assert state_of(g).discards[0].count(VARAN) == 0
    assert state_of(g).discards[1].count(VARAN) == 2 and state_of(g).discards[2].count(VARAN) == 2
    assert state_of(g).varan_supply == 19


def test_varans_dealt_one_at_a_time_in_turn_order_when_short() -> None:
    g = fresh(3)
    poke(g, sacred_tree=1)  # the Sacred Tree holder is dealt first
    start_actions(g)
    state_of(g).centre_fires[:] = [2, 2]
    state_of(g).fire_supply[:] = [18, 20, 20]
    poke(g, varan_supply=4)
    state_of(g).discards[0] += [VARAN] * 19
    end_phase(g)
    got = [state_of(g).discards[s].count(VARAN) for s in range(3)]
    assert got == [19 + 1, 2, 1]  # deal order 1, 2, 0, 1
    assert state_of(g).varan_supply == 0


def test_sacred_tree_adds_fires_level_one_first_up_to_seven() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).help_elements[0][1] = state_of(g).help_elements[1][1] = 20  # nobody attacked
    state_of(g).centre_fires[:] = [2, 2, 2]
    state_of(g).fire_supply[:] = [17, 20, 20]
    state_of(g).taken_this_round[:] = [3, 2, 2]
    end_phase(g)
    assert state_of(g).centre_fires == [2, 2, 2, 2, 2, 2, 3]
    assert state_of(g).fire_supply == [14, 19, 20]


def test_empty_centre_gets_one_value_two_fire() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).centre_fires[:] = []
    state_of(g).fire_supply[:] = [20, 20, 20]
    end_phase(g)
    assert state_of(g).centre_fires == [2]
    assert all(VARAN not in d for d in state_of(g).discards)  # no fire left: Onibi did not attack


def test_refill_return_and_pass() -> None:
    g = fresh()
    start_actions(g, {0: ["Bear", "Weasel"], 1: ["Hare"]})
    state_of(g).draw_stacks[0].append(state_of(g).display[0])  # as if attracted
    state_of(g).draw_stacks[1].append(state_of(g).display[5])
    state_of(g).display[0] = state_of(g).display[5] = -1
    state_of(g).draw_stacks[1].extend(
        state_of(g).animal_stacks[1]
    )  # level 2 exhausted (constructed)
    state_of(g).animal_stacks[1] = []
    end_phase(g)
    assert (
        state_of(g).display[0] >= 0 and state_of(g).display[5] == -1
    )  # level 2 exhausted: the slot stays empty
    assert state_of(g).help_lines == [[], []] and state_of(g).help_elements == [[0] * 5, [0] * 5]
    assert (
        len(state_of(g).discards[0]) >= 2
        and state_of(g).sacred_tree == 1
        and g.phase == DRAW
        and g.round == 2
    )
    assert g.to_act == (0, 1)
    start_actions(g)
    assert g.current_spirit == 1  # the new Sacred Tree holder acts first


def give_fires(g, seat: int, tiles: int) -> None:  # type: ignore[no-untyped-def]
    state_of(g).fires_kept[seat][0] += tiles
    state_of(g).fire_supply[0] -= tiles


def test_fire_victory_is_checked_after_the_whole_action_phase() -> None:
    g = fresh()
    start_actions(g)
    give_fires(g, 0, 11)
    g.apply(0, END)
    assert not g.is_over and g.current_spirit == 1
    g.apply(1, END)
    assert g.phase == OVER and g.is_over and g.to_act == ()
    res = g.result()
    assert res["winners"] == [0]
    fires = [p for p in res["breakdown"][0].pop("parts") if p["category"] == "fires"]
    assert fires == [
        {"category": "fires", "points": 11, "cells": [], "what": "fires",
         "params": {"value": 2, "count": 11}},
        {"category": "fires", "points": 1, "cells": [], "what": "victory_tile",
         "params": {"tile": "fire", "count": 1}},
    ]  # fmt: skip
    assert res["breakdown"][0] == {
        "trees": 2,
        "fires": 12,
        "flowers": 1,
        "total": 15,
        "reached": True,
    }
    assert res["scores"][0] == 15 and not res["breakdown"][1]["reached"]
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []


def test_tree_victory_counts_different_types_start_and_tile() -> None:
    g = fresh(4)
    start_actions(g)
    cells = [(1, 1), (1, 0), (0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (1, 4), (0, 4)]
    for (r, c), tree in zip(
        cells, ["T3a", "T3b", "T4a", "T4b", "T5a", "T5b", "T6", "T7", "T7"], strict=True
    ):
        plant_direct(g, 0, tree, r, c)
    assert g.counts(0)[0] == 10  # 8 types + start + tile (the second T7 does not count)
    plant_direct(g, 0, "T8", 2, 0)
    assert g.counts(0)[0] == 11
    plant_direct(g, 0, "T9", 2, 1)
    assert g.counts(0)[0] == 12
    end_phase(g)
    assert g.result()["winners"] == [0]


def test_flower_victory_counts_help_trees_row_bonus_negatives_and_tile() -> None:
    g = fresh(4)
    start_actions(g, {1: ["Tanuki", "Fawn", "Fox"]})  # -1 + 1 + 1
    for c in (0, 1, 3, 4):
        plant_direct(g, 1, "T4b", 1, c)  # 4 flowers and the middle row: +2
    plant_direct(g, 1, "T9", 0, 2)  # +2
    assert g.counts(1)[2] == 1 + 4 + 2 + 2 + 1
    state_of(g).help_elements[1][4] += 1
    assert g.counts(1)[2] == 11
    state_of(g).help_elements[1][4] += 1
    end_phase(g)
    assert g.result()["winners"] == [1]


def test_several_reach_highest_total_wins() -> None:
    g = fresh(3)
    start_actions(g, {s: ["Weasel"] for s in range(3)})  # (no flower on the help lines)
    give_fires(g, 0, 11)
    give_fires(g, 1, 11)
    state_of(g).victory_tiles[1][2] += 1
    state_of(g).victory_tiles[2][2] -= 1  # spirit 1 holds one more tree tile
    end_phase(g)
    res = g.result()
    assert res["winners"] == [1]
    assert res["scores"] == [15, 16, 3]


def test_full_tie_is_a_shared_win() -> None:
    g = fresh(3)
    start_actions(g)
    give_fires(g, 0, 11)
    give_fires(g, 2, 11)
    state_of(g).victory_tiles[1][0] = 5  # a spirit far from 12 ranks below however large its total
    state_of(g).victory_tiles[2][0] -= 1
    state_of(g).fires_kept[2][1] += 1
    state_of(g).fire_supply[1] -= 1
    state_of(g).victory_tiles[0][0] -= 1
    state_of(g).fires_kept[0][1] += 1
    state_of(g).fire_supply[1] -= 1
    state_of(g).victory_tiles[1][0] -= 2
    state_of(g).victory_tiles[1][2] += 0
    check_invariants(g)
    end_phase(g)
    res = g.result()
    assert res["winners"] == [0, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_not_reached_ranks_below_even_with_larger_total(players: int) -> None:
    g = fresh(players)
    start_actions(g)
    give_fires(g, 0, 11)
    state_of(g).victory_tiles[0] = [1, 0, 0]
    state_of(g).victory_tiles[1] = [0, 2, 2 + (players - 2) * 3]
    for s in range(2, players):
        state_of(g).victory_tiles[s] = [0, 0, 0]
    state_of(g).victory_tiles[1][1] += 1
    state_of(g).help_elements[1][4] = 8  # 8 + 3 flowers = 11: not reached
    check_invariants(g)
    end_phase(g)
    res = g.result()
    assert res["winners"] == [0]
    assert res["scores"][1] > res["scores"][0]
