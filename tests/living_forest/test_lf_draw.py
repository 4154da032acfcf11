"""The simultaneous Guardian Animals phase: stopping, fragments, reshuffles, order independence."""

import random

import pytest
from lf_helpers import card, check_invariants, fresh, poke, start_actions, state_of

from glade.core.errors import IllegalAction
from glade.living_forest.data import VARAN

SOLITARY = ["Bear", "Beetle", "Lynx", "Fox", "Owl"]


def rig_deck(g, seat: int, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Put these cards on top of ``seat``'s deck, first name drawn first."""
    ids = [card(x) for x in names]
    rest = [c for c in state_of(g).draw_stacks[seat] if c not in ids]
    state_of(g).draw_stacks[seat] = rest + ids[::-1]


def test_must_stop_at_three_solitary_without_fragment() -> None:
    g = fresh()
    rig_deck(g, 0, ["Bear", "Weasel", "Beetle", "Lynx", "Fox"])
    for _ in range(3):
        g.apply(0, {"type": "draw"})
    assert state_of(g).drawing[0] and state_of(g).solitary[0] == 2
    g.apply(0, {"type": "draw"})  # Lynx: the third solitary symbol
    assert state_of(g).solitary[0] == 3 and not state_of(g).drawing[0]
    assert [state_of(g).help_lines[0][-1]] == [card("Lynx")]  # the card stays on the help line
    assert g.to_act == (1,)
    with pytest.raises(IllegalAction, match="stopped drawing"):
        g.apply(0, {"type": "draw"})


def test_three_solitary_with_fragment_lets_the_spirit_choose() -> None:
    g = fresh()
    state_of(g).fragments[0] = 1
    poke(g, fragment_supply=19)
    rig_deck(g, 0, ["Bear", "Beetle", "Lynx", "Fox"])
    for _ in range(3):
        g.apply(0, {"type": "draw"})
    assert state_of(g).solitary[0] == 3 and state_of(g).drawing[0]
    assert [a.type for a in g.legal_actions(0)] == ["stop", "use_fragment"]
    with pytest.raises(IllegalAction, match="use a fragment on that card or stop"):
        g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "use_fragment"})
    assert (
        state_of(g).solitary[0] == 2
        and state_of(g).fragments[0] == 0
        and state_of(g).fragment_supply == 20
    )
    assert state_of(g).discards[0] == [card("Lynx")]  # a guardian animal goes to the discard
    assert state_of(g).help_elements[0] == [3, 1, 3, 0, 0]
    g.apply(0, {"type": "draw"})  # may go on drawing
    assert (
        state_of(g).solitary[0] == 3 and not state_of(g).drawing[0]
    )  # no fragment left: must stop
    check_invariants(g)


def test_net_count_gregarious_cancels_solitary() -> None:
    g = fresh()
    with g.edit() as st:
        chimp = card("Chimpanzee")
        st.draw_stacks[0].append(chimp)  # gregarious, as if attracted
        if chimp in st.animal_stacks[0]:
            st.animal_stacks[0].remove(chimp)
        if chimp in st.display:
            st.display[st.display.index(chimp)] = -1
    rig_deck(g, 0, ["Chimpanzee", "Bear", "Beetle", "Lynx"])
    for _ in range(4):
        g.apply(0, {"type": "draw"})
    assert state_of(g).solitary[0] == 2 and state_of(g).drawing[0]  # 3 solitary - 1 gregarious
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "stop"})
    g.apply(1, {"type": "draw"})
    g.apply(1, {"type": "stop"})
    check_invariants(g)


def test_fragment_sends_a_varan_back_to_the_supply() -> None:
    g = fresh()
    state_of(g).fragments[0] = 1
    poke(g, fragment_supply=19)
    poke(g, varan_supply=state_of(g).varan_supply - 1)
    state_of(g).draw_stacks[0].append(VARAN)
    g.apply(0, {"type": "draw"})
    assert state_of(g).help_lines[0] == [VARAN] and state_of(g).solitary[0] == 1
    g.apply(0, {"type": "use_fragment"})
    assert (
        state_of(g).help_lines[0] == []
        and state_of(g).varan_supply == 23
        and state_of(g).solitary[0] == 0
    )
    assert VARAN not in state_of(g).discards[0]
    with pytest.raises(IllegalAction, match="no fragment"):
        g.apply(0, {"type": "use_fragment"})
    check_invariants(g)


def test_fragment_only_on_the_card_just_drawn() -> None:
    g = fresh()
    state_of(g).fragments[0] = 2
    poke(g, fragment_supply=18)
    with pytest.raises(IllegalAction, match="just drawn"):
        g.apply(0, {"type": "use_fragment"})
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "use_fragment"})
    with pytest.raises(IllegalAction, match="just drawn"):
        g.apply(0, {"type": "use_fragment"})


def test_reshuffle_only_when_drawing_from_an_empty_stack() -> None:
    g = fresh()
    state_of(g).discards[0] = state_of(g).draw_stacks[0][:-1]
    state_of(g).draw_stacks[0] = state_of(g).draw_stacks[0][-1:]
    g.apply(0, {"type": "draw"})
    assert (
        state_of(g).draw_stacks[0] == [] and len(state_of(g).discards[0]) == 13
    )  # not reshuffled yet
    assert state_of(g).shuffles_dealt[0] == 1
    g.apply(0, {"type": "draw"})
    assert (
        state_of(g).shuffles_dealt[0] == 2
        and state_of(g).discards[0] == []
        and len(state_of(g).draw_stacks[0]) == 12
    )
    assert g.log[-1][2][1] == 1  # the log records the reshuffle
    check_invariants(g)


def test_draw_refused_when_nothing_to_draw() -> None:
    g = fresh()
    state_of(g).discards[0] = []
    state_of(g).help_lines[0] = state_of(g).draw_stacks[0]
    state_of(g).draw_stacks[0] = []
    from glade.living_forest.data import CARDS

    state_of(g).solitary[0] = 0  # pretend the coins cancel, to test the empty-deck refusal alone
    state_of(g).help_elements[0] = [
        sum(CARDS.elements[c][e] for c in state_of(g).help_lines[0]) for e in range(5)
    ]
    with pytest.raises(IllegalAction, match="both empty"):
        g.apply(0, {"type": "draw"})


def test_one_action_with_three_solitary() -> None:
    g = fresh()
    start_actions(g, {0: ["Bear", "Beetle", "Lynx"], 1: ["Bear", "Beetle"]})
    assert g.current_spirit == 0 and state_of(g).actions_left == 1
    g.apply(0, {"type": "choose_action", "action": "fragment"})
    assert g.current_spirit == 1 and state_of(g).actions_left == 2


def _play_draws(seed: int, order: list[int]) -> dict:
    g = fresh(3, seed=seed)
    for s in order:
        if s in g.to_act and g.phase == 0:
            ids = g.legal_action_ids(s)
            g.apply_action_id(s, 0 if 0 in ids else 1)
    return g.to_json()


def test_outcome_does_not_depend_on_arrival_order() -> None:
    for seed in range(5):
        per_seat = [0] * 4 + [1] * 4 + [2] * 3
        a = _play_draws(seed, sorted(per_seat))
        b = _play_draws(seed, sorted(per_seat, reverse=True))
        shuffled = list(per_seat)
        random.Random(seed).shuffle(shuffled)
        c = _play_draws(seed, shuffled)
        assert a == b == c


def test_interleaved_draws_with_reshuffles_and_fragments() -> None:
    def run(order: list[int]) -> dict:
        g = fresh(2, seed=9)
        for s in (0, 1):
            state_of(g).fragments[s] = 1
            poke(g, fragment_supply=state_of(g).fragment_supply - 1)
            state_of(g).discards[s] = state_of(g).draw_stacks[s][:-2]
            state_of(g).draw_stacks[s] = state_of(g).draw_stacks[s][-2:]
        script = {
            0: ["draw", "draw", "draw", "use_fragment", "draw", "stop"],
            1: ["draw", "use_fragment", "draw", "draw", "stop"],
        }
        pos = {0: 0, 1: 0}
        for s in order:
            if pos[s] < len(script[s]) and s in g.to_act:
                name = script[s][pos[s]]
                pos[s] += 1
                g.apply(s, {"type": name})
        return g.to_json()

    first = run([0] * 6 + [1] * 5)
    assert first == run([1] * 5 + [0] * 6) == run([0, 1] * 6)
