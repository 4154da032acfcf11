"""The engine's hidden information (resample_hidden), to_act with stops that may be undone, and
the rules corrections of issue 12 (no stop with an empty help line, bonuses carried out)."""

from __future__ import annotations

import random

import pytest
from lf_helpers import card, check_invariants, fresh, start_actions, state_of

from glade.core import Action
from glade.core.errors import IllegalAction
from glade.living_forest.game import A_DONE, A_STOP, S_CHOOSE, LivingForestGame


def _midgame(players: int, seed: int, steps: int) -> LivingForestGame:
    g = fresh(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        seat = g.to_act[0]
        g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
    return g


def _public(g: LivingForestGame) -> tuple[object, ...]:
    return (
        [sorted(p) for p in state_of(g).draw_stacks],
        [sorted(s) for s in state_of(g).animal_stacks],
        [
            p[len(p) - min(k, len(p)) :]
            for p, k in zip(state_of(g).draw_stacks, g.known_on_top(), strict=True)
        ],
    )


@pytest.mark.parametrize("seat", [0, 1, None])
def test_resample_hidden_keeps_everything_public(seat: int | None) -> None:
    for seed in range(6):
        g = _midgame(3, seed, 150 + 40 * seed)
        before = g.fingerprint()
        sample = g.resample_hidden(seat, random.Random(seed))
        assert g.fingerprint() == before  # the original is untouched
        assert sample.seed != g.seed  # future reshuffles are re-dealt too
        for viewer in (0, 1, 2, None):
            assert sample.view(viewer) == g.view(viewer)
        assert _public(sample) == _public(g)
        assert sample.log == g.log
        check_invariants(sample)
        # it plays on as a game of its own
        mover = sample.to_act[0] if sample.to_act else None
        if mover is not None:
            sample.apply_action_id(mover, sample.legal_action_ids(mover)[0])


def test_resample_hidden_depends_only_on_public_information_and_the_rng() -> None:
    for seed in range(6):
        g = _midgame(2, seed, 200)
        twin = g.copy()  # the same game with other hidden orders and another seed
        twin.seed += 1
        shuffle = random.Random(seed).shuffle
        for pile, top in zip(state_of(twin).draw_stacks, g.known_on_top(), strict=True):
            cut = len(pile) - min(top, len(pile))
            hidden = pile[:cut]
            shuffle(hidden)
            pile[:cut] = hidden
        for stack in state_of(twin).animal_stacks:
            shuffle(stack)
        assert twin.fingerprint() != g.fingerprint()
        a = g.resample_hidden(0, random.Random(9))
        b = twin.resample_hidden(0, random.Random(9))
        assert a.fingerprint() == b.fingerprint()
        c = g.resample_hidden(0, random.Random(10))
        assert c.fingerprint() != a.fingerprint()


def test_attracted_animals_stay_on_top_in_the_sample() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).help_elements[0][0] = 40  # sun enough for any animal
    g.apply(0, {"type": "choose_action", "action": "attract"})
    g.apply(0, {"type": "pick_card", "level": 1, "slot": 0})
    g.apply(0, {"type": "pick_card", "level": 2, "slot": 1})
    top = state_of(g).draw_stacks[0][-2:]
    assert g.known_on_top() == [2, 0]
    for k in range(5):
        assert state_of(g.resample_hidden(1, random.Random(k))).draw_stacks[0][-2:] == top


def test_resample_hidden_refuses_an_unknown_seat() -> None:
    with pytest.raises(IllegalAction) as err:
        fresh().resample_hidden(5, random.Random(1))
    assert err.value.code == "seat.unknown"


# ---------------------------------------------------------------------- to_act and undo
def test_a_voluntary_stop_stays_in_to_act_with_only_undo() -> None:
    g = fresh(3, seed=2)
    assert A_STOP not in g.legal_action_ids(0)  # nothing on the help line yet
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "stop"})
    assert g.to_act == (1, 2, 0)  # those with a move first
    assert g.legal_action_ids(0) == [] and g.legal_actions(0) == [Action("undo")]
    g.apply(0, {"type": "undo"})
    assert g.to_act == (0, 1, 2) and A_STOP in g.legal_action_ids(0)


def test_a_forced_stop_leaves_to_act() -> None:
    from lf_helpers import set_help

    g = fresh(seed=5)
    set_help(g, 0, ["Bear", "Beetle"])
    state_of(g).draw_stacks[0].remove(card("Lynx"))
    state_of(g).draw_stacks[0].append(card("Lynx"))  # the third solitary symbol comes next
    g.apply(0, {"type": "draw"})
    assert not state_of(g).drawing[0] and not g.can_undo(0)
    assert g.to_act == (1,)
    assert g.legal_actions(0) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_to_act_is_exactly_the_seats_that_may_act(players: int) -> None:
    rng = random.Random(players)
    for seed in range(8):
        g = fresh(players, seed=seed)
        while not g.is_over:
            to_act = g.to_act
            assert to_act and g.legal_action_ids(to_act[0]), "to_act[0] must have a move"
            for seat in range(players):
                legal = g.legal_actions(seat)
                assert (seat in to_act) == bool(legal), (seat, to_act, legal)
                if seat in to_act and not g.legal_action_ids(seat):
                    assert legal == [Action("undo")]
            seat = rng.choice(to_act)
            ids = g.legal_action_ids(seat)
            if not ids:
                g.apply(seat, {"type": "undo"})
                continue
            g.apply_action_id(seat, rng.choice(ids))
        assert all(g.legal_actions(s) == [] for s in range(players))


# ---------------------------------------------------------------------- bonuses
def test_a_corner_attract_must_be_carried_out_but_may_stop_after_one_pick() -> None:
    from lf_helpers import plant_direct

    from glade.living_forest.data import CARDS

    g = fresh()
    start_actions(g)
    plant_direct(g, 0, "T3a", 0, 2)  # +1 sun
    plant_direct(g, 0, "T3b", 0, 1)
    state_of(g).help_elements[0][:] = [0, 0, 3, 0, 0]  # plant 3
    g.apply(0, {"type": "choose_action", "action": "plant"})
    g.apply(0, {"type": "plant", "tree": "T3a", "row": 0, "column": 0})  # the attract corner
    assert (
        state_of(g).bonus_step and state_of(g).spend_left == 2 + 3
    )  # the trees' sun and the corner's +3
    assert A_DONE not in g.legal_action_ids(0)
    with pytest.raises(IllegalAction) as err:
        g.apply(0, {"type": "done"})
    assert err.value.code == "bonus.attract"
    slot = min(
        (i for i, c in enumerate(state_of(g).display) if c >= 0),
        key=lambda i: CARDS.cost[state_of(g).display[i]],
    )
    g.apply_action_id(0, 10 + slot)
    if g.step != S_CHOOSE:  # something else fits: the bonus may stop now
        assert A_DONE in g.legal_action_ids(0)
        g.apply(0, {"type": "done"})
    assert g.step == S_CHOOSE and state_of(g).actions_left == 1


def test_a_bonus_that_can_do_nothing_is_skipped() -> None:
    g = fresh()
    start_actions(g)
    state_of(g).centre_fires[:] = [4]  # too big for the landing rock's extinguish
    state_of(g).fire_supply[0] += 1
    state_of(g).rocks[0] = 2
    state_of(g).help_elements[0][:] = [0, 1, 0, 2, 0]  # 2 spiral, 1 water
    g.apply(0, {"type": "choose_action", "action": "move"})
    g.apply(0, {"type": "move", "steps": 2})  # lands on rock 4, an extinguish rock
    assert state_of(g).rocks[0] == 4 and g.step == S_CHOOSE and state_of(g).actions_left == 1
