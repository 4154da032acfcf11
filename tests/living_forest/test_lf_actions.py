"""The action phase: the five actions, tree elements, line and corner bonuses, T11, the circle."""

import pytest
from lf_helpers import card, check_invariants, fresh, plant_direct, start_actions, state_of

from glade.core.errors import IllegalAction
from glade.living_forest.game import S_ATTRACT, S_CHOOSE, S_EXTINGUISH, S_PLANT, S_STEAL


def give(g, seat: int, sun=0, water=0, plant=0, spiral=0, flower=0) -> None:  # type: ignore[no-untyped-def]
    state_of(g).help_elements[seat] = [sun, water, plant, spiral, flower]


def put_on_display(g, slot: int, name: str) -> None:  # type: ignore[no-untyped-def]
    c = card(name)
    old = state_of(g).display[slot]
    for st in state_of(g).animal_stacks:
        if c in st:
            st[st.index(c)] = old
            break
    else:
        state_of(g).display[state_of(g).display.index(c)] = old
    state_of(g).display[slot] = c


def act(g, seat: int, *actions: dict) -> None:  # type: ignore[no-untyped-def]
    for a in actions:
        g.apply(seat, a)
    check_invariants(g)


def choose(kind: str) -> dict:
    return {"type": "choose_action", "action": kind}


def test_take_fragment_and_two_different_actions() -> None:
    g = fresh()
    start_actions(g)
    act(g, 0, choose("fragment"))
    assert (
        state_of(g).fragments[0] == 1
        and state_of(g).fragment_supply == 19
        and state_of(g).actions_left == 1
    )
    with pytest.raises(IllegalAction, match="already chosen fragment"):
        g.apply(0, choose("fragment"))
    act(g, 0, {"type": "end_actions"})
    assert g.current_spirit == 1


def test_attract_puts_cards_on_top_of_the_draw_stack() -> None:
    g = fresh()
    start_actions(g)
    put_on_display(g, 0, "Spider")  # level 1, cost 1
    put_on_display(g, 1, "Beaver")  # level 1, cost 2
    put_on_display(g, 4, "Eagle")  # level 2, cost 6
    give(g, 0, sun=3)
    act(g, 0, choose("attract"))
    assert g.step == S_ATTRACT and state_of(g).spend_left == 3
    with pytest.raises(IllegalAction, match="the Eagle costs 6 sun but you have 3 left"):
        g.apply(0, {"type": "pick_card", "level": 2, "slot": 0})
    act(g, 0, {"type": "pick_card", "level": 1, "slot": 0})
    assert (
        state_of(g).draw_stacks[0][-1] == card("Spider")
        and state_of(g).spend_left == 2
        and state_of(g).display[0] == -1
    )
    act(g, 0, {"type": "pick_card", "level": 1, "slot": 1})
    assert state_of(g).draw_stacks[0][-2:] == [card("Spider"), card("Beaver")]
    assert state_of(g).taken_this_round == [2, 0, 0]
    assert g.step == S_CHOOSE  # nothing left to afford: the attract ends by itself


def test_tapir_message_and_state_unchanged() -> None:
    g = fresh()
    start_actions(g)
    put_on_display(g, 8, "Tapir")
    give(g, 0, sun=9)
    act(g, 0, choose("attract"))
    before = g.fingerprint()
    with pytest.raises(IllegalAction, match="the Tapir costs 12 sun but you have 9"):
        g.apply(0, {"type": "pick_card", "level": 3, "slot": 0})
    assert g.fingerprint() == before


def test_extinguish_keeps_the_fires() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).centre_fires[:] = [2, 3, 4]
    state_of(g).fire_supply[:] = [19, 19, 19]
    give(g, 0, water=5)
    act(g, 0, choose("extinguish"))
    with pytest.raises(IllegalAction, match="no fire number 5"):
        g.apply(0, {"type": "pick_fire", "index": 5})
    act(g, 0, {"type": "pick_fire", "index": 1})
    assert state_of(g).centre_fires == [2, 4] and state_of(g).spend_left == 2
    act(g, 0, {"type": "pick_fire", "index": 0})
    assert (
        state_of(g).centre_fires == [4]
        and state_of(g).fires_kept[0] == [1, 1, 0]
        and g.step == S_CHOOSE
    )
    assert g.counts(0)[1] == 3  # 2 tiles + the fire victory tile


def test_tree_elements_count_for_the_second_action() -> None:
    g = fresh()
    start_actions(g)
    put_on_display(g, 0, "Spider")
    give(g, 0, plant=3)
    with pytest.raises(IllegalAction, match="costs 1 sun but you have 0"):
        g.apply(0, choose("attract"))
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T3a", "row": 1, "column": 1})
    assert g.element(0, 0) == 1
    act(g, 0, choose("attract"), {"type": "pick_card", "level": 1, "slot": 0})
    assert state_of(g).draw_stacks[0][-1] == card("Spider")


def test_plant_rules_and_messages() -> None:
    g = fresh()
    start_actions(g)
    give(g, 0, plant=4)
    act(g, 0, choose("plant"))
    for bad, msg in [
        ({"tree": "T5a", "row": 1, "column": 1}, "costs 5 plant but you have 4"),
        ({"tree": "T3a", "row": 0, "column": 0}, "does not touch a tree"),
        ({"tree": "T3a", "row": 1, "column": 2}, "names nothing"),
    ]:
        before = g.fingerprint()
        with pytest.raises(IllegalAction, match=msg):
            g.apply(0, {"type": "plant", **bad})
        assert g.fingerprint() == before
    with pytest.raises(IllegalAction, match="plant a tree"):
        g.apply(0, {"type": "done"})  # the main plant action cannot be declined half-way
    act(g, 0, {"type": "plant", "tree": "T4b", "row": 0, "column": 2})
    assert state_of(g).tree_supply[3] == 1 and state_of(g).forests[0][2] == 3
    assert g.counts(0) == (3, 1, 2)  # T4b + start + tile; flower 1 + tile


@pytest.mark.parametrize(
    ("first", "last", "element", "amount"),
    [
        ([(0, 1), (1, 1)], (2, 1), 1, 1),  # column 1: +1 water
        ([(0, 2)], (2, 2), 0, 1),  # centre column: +1 sun
        ([(0, 3), (1, 3)], (2, 3), 3, 1),  # column 3: +1 spiral
        ([(1, 1), (1, 0), (1, 3)], (1, 4), 4, 2),  # middle row: +2 flowers
    ],
)
def test_line_bonuses(first: list, last: tuple, element: int, amount: int) -> None:
    g = fresh(4)
    start_actions(g)
    filler = "T3a" if element == 4 else "T4b"  # a tree that gives another element
    for r, c in first:
        plant_direct(g, 0, filler, r, c)
    before = state_of(g).forest_elements[0][element]
    give(g, 0, plant=11)
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T11", "row": last[0], "column": last[1]})
    assert state_of(g).forest_elements[0][element] == before + amount


def test_no_bonus_for_outer_lines() -> None:
    g = fresh(4)
    start_actions(g)
    for c in (2, 1, 0, 3, 4):
        plant_direct(g, 0, "T3b", 0, c)
    plant_direct(g, 0, "T3b", 1, 0)
    plant_direct(g, 0, "T3b", 2, 0)
    assert state_of(g).forest_elements[0] == [
        0,
        7,
        0,
        0,
        0,
    ]  # the 7 trees' water only: no line bonus


def test_corner_top_left_attracts_with_three_more_sun() -> None:
    g = fresh()
    start_actions(g)
    plant_direct(g, 0, "T11", 1, 1)
    plant_direct(g, 0, "T11", 1, 0)
    put_on_display(g, 0, "Caterpillar")  # cost 3
    give(g, 0, plant=3)
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T3b", "row": 0, "column": 0})
    assert g.step == S_ATTRACT and state_of(g).bonus_step and state_of(g).spend_left == 3
    act(g, 0, {"type": "pick_card", "level": 1, "slot": 0})
    # the bonus did not use up an action: attract may still be chosen
    assert state_of(g).actions_left == 1 and "choose_action" in [a.type for a in g.legal_actions(0)]


@pytest.mark.parametrize("cell", [(0, 4), (2, 0)])
def test_fragment_corners(cell: tuple) -> None:
    g = fresh()
    start_actions(g)
    r, c = cell
    step = 1 if c == 0 else 3
    plant_direct(g, 0, "T11", 1, step)
    plant_direct(g, 0, "T11", 1, c)
    give(g, 0, plant=3)
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T3a", "row": r, "column": c})
    assert (
        state_of(g).fragments[0] == 2 and state_of(g).fragment_supply == 18 and g.step == S_CHOOSE
    )


def test_corner_bottom_right_extinguishes_with_two_more_water() -> None:
    g = fresh()
    start_actions(g)
    plant_direct(g, 0, "T11", 1, 3)
    plant_direct(g, 0, "T11", 1, 4)
    state_of(g).centre_fires[:] = [2, 3]
    state_of(g).fire_supply[:] = [19, 19, 20]
    give(g, 0, plant=3, water=1)
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T3a", "row": 2, "column": 4})
    assert g.step == S_EXTINGUISH and state_of(g).spend_left == 3 and state_of(g).bonus_step
    act(g, 0, {"type": "pick_fire", "index": 1})
    assert state_of(g).fires_kept[0] == [0, 1, 0] and g.step == S_CHOOSE
    with pytest.raises(IllegalAction, match="worth 2 but you have 1 water"):
        g.apply(0, choose("extinguish"))  # the +2 water was for the bonus only


def test_corner_bonus_skipped_when_impossible() -> None:
    g = fresh()
    start_actions(g)
    plant_direct(g, 0, "T11", 1, 3)
    plant_direct(g, 0, "T11", 1, 4)
    state_of(g).fire_supply[0] += 1
    state_of(g).centre_fires[:] = []
    give(g, 0, plant=3)
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T3a", "row": 2, "column": 4})
    assert g.step == S_CHOOSE and state_of(g).actions_left == 1


def test_t11_allows_the_same_action_twice() -> None:
    g = fresh()
    start_actions(g)
    give(g, 0)
    act(g, 0, choose("fragment"))
    with pytest.raises(IllegalAction, match="only the cost-11 tree"):
        g.apply(0, choose("fragment"))
    g2 = fresh()
    start_actions(g2)
    plant_direct(g2, 0, "T11", 1, 1)
    act(g2, 0, choose("fragment"), choose("fragment"))
    assert state_of(g2).fragments[0] == 2 and g2.current_spirit == 1


def test_t11_planted_by_the_first_action_works_for_the_second() -> None:
    g = fresh()
    start_actions(g)
    give(g, 0, plant=14)
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T11", "row": 1, "column": 1})
    act(g, 0, choose("plant"), {"type": "plant", "tree": "T10", "row": 1, "column": 0})
    assert g.current_spirit == 1


def test_move_jumps_occupied_rocks_and_steals() -> None:
    g = fresh()  # 2 spirits on rocks 0 and 6
    start_actions(g)
    give(g, 0, spiral=7)
    act(g, 0, choose("move"))
    with pytest.raises(IllegalAction, match="at most 7 rocks"):
        g.apply(0, {"type": "move", "steps": 8})
    act(g, 0, {"type": "move", "steps": 6})
    assert state_of(g).rocks[0] == 7  # rocks 1-5, then 7: the occupied rock 6 was not counted
    assert g.step == S_STEAL and state_of(g).steal_from == [1]
    act(g, 0, {"type": "steal", "tile": "tree"})
    assert state_of(g).victory_tiles == [[1, 1, 2], [1, 1, 0]]
    assert state_of(g).fragments[0] == 1  # rock 7 is a fragment rock
    with pytest.raises(IllegalAction, match="already chosen move"):
        g.apply(0, choose("move"))


def test_no_steal_from_a_spirit_without_tiles() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).victory_tiles[:] = [[2, 2, 2], [0, 0, 0]]
    give(g, 0, spiral=6)
    act(g, 0, choose("move"), {"type": "move", "steps": 6})
    assert (
        state_of(g).rocks[0] == 7
        and g.step == S_CHOOSE
        and state_of(g).victory_tiles[0] == [2, 2, 2]
    )


def test_steal_choice_must_exist() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).victory_tiles[:] = [[1, 2, 2], [1, 0, 0]]
    give(g, 0, spiral=6)
    act(g, 0, choose("move"), {"type": "move", "steps": 6})
    with pytest.raises(IllegalAction, match="no flower victory tile"):
        g.apply(0, {"type": "steal", "tile": "flower"})
    act(g, 0, {"type": "steal", "tile": "fire"})


@pytest.mark.parametrize(
    ("start", "steps", "rock", "step"),
    [
        (0, 2, 2, S_ATTRACT),
        (0, 4, 4, S_EXTINGUISH),
        (11, 1, 0, S_PLANT),
        (0, 1, 1, S_CHOOSE),
    ],
)
def test_landing_bonuses(start: int, steps: int, rock: int, step: int) -> None:
    g = fresh()
    start_actions(g)
    state_of(g).rocks[0] = start
    put_on_display(g, 0, "Spider")
    give(g, 0, spiral=steps, sun=1, water=2, plant=3)
    act(g, 0, choose("move"), {"type": "move", "steps": steps})
    assert state_of(g).rocks[0] == rock and g.step == step
    if step != S_CHOOSE:
        assert state_of(g).bonus_step
        # a bonus that can do something must be carried out: no decline before the first pick
        assert g.why_illegal(0, 3) is not None and 3 not in g.legal_action_ids(0)
        with pytest.raises(IllegalAction, match="bonus .* must be carried out") as err:
            g.apply(0, {"type": "done"})
        assert err.value.code.startswith("bonus.")
        carry = {
            S_ATTRACT: {"type": "pick_card", "level": 1, "slot": 0},  # the Spider, 1 sun
            S_EXTINGUISH: {"type": "pick_fire", "index": 0},  # the value-2 fire, 2 water
            S_PLANT: {"type": "plant", "tree": "T3a", "row": 0, "column": 2},
        }[step]
        act(g, 0, carry)
    else:
        assert state_of(g).fragments[0] == 1
    assert g.step == S_CHOOSE and state_of(g).actions_left == 1


def test_landing_attract_may_repeat_an_action_already_taken() -> None:
    g = fresh()
    start_actions(g)
    put_on_display(g, 0, "Spider")
    put_on_display(g, 1, "Beaver")
    give(g, 0, spiral=2, sun=3)
    act(g, 0, choose("attract"), {"type": "pick_card", "level": 1, "slot": 0}, {"type": "done"})
    act(g, 0, choose("move"), {"type": "move", "steps": 2})
    assert g.step == S_ATTRACT and state_of(g).spend_left == 3  # full sun again
    act(g, 0, {"type": "pick_card", "level": 1, "slot": 1})
    assert g.current_spirit == 1


def test_landing_plant_in_a_corner_chains_the_corner_bonus() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).rocks[0] = 11
    plant_direct(g, 0, "T11", 1, 3)
    plant_direct(g, 0, "T11", 1, 4)
    give(g, 0, spiral=1, plant=3)
    act(g, 0, choose("move"), {"type": "move", "steps": 1})
    act(g, 0, {"type": "plant", "tree": "T3a", "row": 0, "column": 4})
    assert state_of(g).fragments[0] == 2


def test_main_attract_and_extinguish_need_one_pick_before_done() -> None:
    g = fresh()
    start_actions(g)
    put_on_display(g, 0, "Spider")
    put_on_display(g, 1, "Beaver")
    give(g, 0, sun=5, water=2)
    act(g, 0, choose("attract"))
    with pytest.raises(IllegalAction, match="take at least one animal"):
        g.apply(0, {"type": "done"})
    act(g, 0, {"type": "pick_card", "level": 1, "slot": 0}, {"type": "done"})
    assert g.step == S_CHOOSE and state_of(g).actions_left == 1
    act(g, 0, choose("extinguish"))
    with pytest.raises(IllegalAction, match="take at least one fire"):
        g.apply(0, {"type": "done"})
    act(g, 0, {"type": "pick_fire", "index": 0})
    assert g.current_spirit == 1 and state_of(g).fires_kept[0] == [1, 0, 0]


def test_jumping_several_spirits_steals_from_each_in_order() -> None:
    g = fresh(4)  # rocks 0, 6, 9, 3
    start_actions(g)
    state_of(g).victory_tiles[2] = [0, 0, 0]
    state_of(g).victory_tiles[0] = [2, 2, 2]
    give(g, 0, spiral=8)
    act(g, 0, choose("move"), {"type": "move", "steps": 8})
    # rocks 1, 2, (3 jumped), 4, 5, (6 jumped), 7, 8, (9 jumped), 10, 11: lands on 11
    assert state_of(g).rocks[0] == 11
    assert state_of(g).steal_from == [3, 1]  # spirit 2 has no tile left to take
    act(g, 0, {"type": "steal", "tile": "fire"}, {"type": "steal", "tile": "flower"})
    assert (
        state_of(g).victory_tiles[3] == [0, 1, 1]
        and state_of(g).victory_tiles[1] == [1, 0, 1]
        and state_of(g).victory_tiles[0] == [3, 3, 2]
    )
    assert state_of(g).fragments[0] == 1  # rock 11 gives a fragment


def test_a_move_never_laps_its_own_rock() -> None:
    g = fresh()
    start_actions(g)
    give(g, 0, spiral=15)
    act(g, 0, choose("move"))
    assert max(a["steps"] for a in g.legal_actions(0) if a.type == "move") == 10
    with pytest.raises(IllegalAction, match="from 1 to 10"):
        g.apply(0, {"type": "move", "steps": 11})
    act(g, 0, {"type": "move", "steps": 10})
    assert state_of(g).rocks[0] == 11
