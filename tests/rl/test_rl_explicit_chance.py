"""Harmonies in OpenSpiel's explicit chance mode: every draw a chance node with exact odds."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip("pyspiel")

from glade.core import BadInput  # noqa: E402
from glade.harmonies.data import COLORS, SPIRITS, TOKEN_COUNTS  # noqa: E402
from glade.rl import openspiel as gs  # noqa: E402
from glade.rl.explicit_chance import CARD_BASE, OUTCOMES, SPIRIT_BASE  # noqa: E402

EXPLICIT = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def load(players: int = 2, spirits: bool = False) -> object:
    params = {"players": players, "spirits": spirits, "chance_mode": "explicit"}
    return pyspiel.load_game(gs.HARMONIES, params)


@pytest.mark.parametrize("players,spirits", [(2, False), (3, True), (4, False)])
def test_random_sim_test_with_serialization_passes(players: int, spirits: bool) -> None:
    game = load(players, spirits)
    assert game.get_type().chance_mode == EXPLICIT
    assert game.max_chance_outcomes() == OUTCOMES
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_chance_node_is_a_distribution_over_what_is_left() -> None:
    """Along random games: the probabilities add up to 1, token odds are the pouch's counts,
    cards and spirits are uniform over those not yet seen, and the engine gets the outcomes."""
    game = load(2, True)
    rng = random.Random(3)
    for _ in range(2):
        state = game.new_initial_state()
        nodes = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
                assert sorted(state.legal_actions()) == sorted(o for o, _ in outcomes)
                kinds = {(o >= CARD_BASE) + (o >= SPIRIT_BASE) for o, _ in outcomes}
                assert len(kinds) == 1, outcomes  # one token, card or spirit at a time
                if outcomes[0][0] >= CARD_BASE:  # uniform over the cards or spirits left
                    assert len({p for _, p in outcomes}) == 1
                nodes += 1
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        assert nodes >= 20 + 4


def test_the_setup_and_a_refill_are_what_chance_decided() -> None:
    game = load(2, True)
    state = game.new_initial_state()
    first = state.chance_outcomes()
    total = sum(TOKEN_COUNTS)
    assert first == [(c, n / total) for c, n in enumerate(TOKEN_COUNTS) if n]
    chosen = [5, 5, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
    for c in chosen:
        state.apply_action(c)
    cards = [CARD_BASE + a for a in (31, 0, 7, 8, 9)]
    for o in cards:
        state.apply_action(o)
    spirits = [SPIRIT_BASE + k for k in (0, 1, 2, 3)]
    for o in spirits:
        state.apply_action(o)
    g = state.glade_game
    assert not state.is_chance_node() and state.current_player() == 0
    assert g.central == [tuple(chosen[3 * i : 3 * i + 3]) for i in range(5)]
    assert g.row == [31, 0, 7, 8, 9]
    assert [b.offer for b in g.boards] == [(SPIRITS[0], SPIRITS[1]), (SPIRITS[2], SPIRITS[3])]
    left = list(TOKEN_COUNTS)
    for c in chosen:
        left[c] -= 1
    assert sorted(g.pouch) == [c for c, n in enumerate(left) for _ in range(n)]
    assert sorted(g.deck) == sorted(set(range(32)) - {31, 0, 7, 8, 9})
    # a turn: take the first space offered (or choose a spirit), place, end the turn
    rng = random.Random(0)
    while state.current_player() == 0:
        legal = state.legal_actions()
        end = [a for a in legal if "end_turn" in state.action_to_string(0, a)]
        take = [a for a in legal if "take_tokens" in state.action_to_string(0, a)]
        action = end[0] if end else take[0] if take else rng.choice(legal)
        state.apply_action(action)
    assert state.is_chance_node()  # the refill of the space taken: three tokens
    yellow, size = g.pouch.count(4), len(g.pouch)
    for drawn in range(3):  # three yellows in a row: each time one fewer is left
        odds = dict(state.chance_outcomes())
        assert odds[4] == pytest.approx((yellow - drawn) / (size - drawn), abs=1e-12)
        state.apply_action(4)
    emptied = [slot for slot, card in enumerate(g.row) if card < 0]
    assert emptied, "the turn took a card: its slot is refilled from the pile"
    for slot in emptied:
        odds = state.chance_outcomes()
        assert odds == [(CARD_BASE + a, 1 / len(g.deck)) for a in sorted(g.deck)]
        state.apply_action(CARD_BASE + 12 + slot)
    assert g.central[0] == (4, 4, 4) and state.current_player() == 1
    assert [g.row[slot] for slot in emptied] == [12 + slot for slot in emptied]


def test_an_exact_computation_by_enumeration() -> None:
    """The chance tree of the first central space, enumerated: the probability that its three
    tokens have one colour is the hypergeometric sum over colours of C(n_c, 3) / C(N, 3), and
    the expected number of blue tokens is 3 n_blue / N."""
    game = load(2)
    root = game.new_initial_state()
    same_colour = 0.0
    blue = 0.0
    total_probability = 0.0

    def walk(state: object, depth: int, p: float, colours: tuple[int, ...]) -> None:
        nonlocal same_colour, blue, total_probability
        if depth == 3:
            total_probability += p
            same_colour += p if len(set(colours)) == 1 else 0.0
            blue += p * colours.count(0)
            return
        for outcome, q in state.chance_outcomes():  # type: ignore[attr-defined]
            walk(state.child(outcome), depth + 1, p * q, (*colours, outcome))  # type: ignore[attr-defined]

    walk(root, 0, 1.0, ())
    n = sum(TOKEN_COUNTS)
    exact = sum(Fraction(math.comb(k, 3), math.comb(n, 3)) for k in TOKEN_COUNTS)
    assert total_probability == pytest.approx(1.0, abs=1e-12)
    assert same_colour == pytest.approx(float(exact), abs=1e-12)
    assert blue == pytest.approx(3 * TOKEN_COUNTS[0] / n, abs=1e-12)
    assert COLORS[0] == "blue"


def test_explicit_states_serialize_exactly_at_chance_and_player_nodes() -> None:
    game = load(3, True)
    state = game.new_initial_state()
    rng = random.Random(5)
    for step in range(160):
        if step % 7 == 0:
            twin = game.deserialize_state(state.serialize())
            assert twin.history() == state.history()
            assert twin.glade_game.fingerprint() == state.glade_game.fingerprint()
            assert twin.chance_outcomes() == state.chance_outcomes()
            assert twin.legal_actions() == state.legal_actions()
            clone = state.clone()
            assert clone.glade_game.fingerprint() == state.glade_game.fingerprint()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)


def test_the_chance_mode_parameter() -> None:
    with pytest.raises(BadInput, match="chance_mode"):
        pyspiel.load_game(gs.HARMONIES, {"players": 2, "chance_mode": "exact"})
    sampled = pyspiel.load_game(gs.HARMONIES, {"players": 2})
    assert sampled.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert not sampled.new_initial_state().is_chance_node()
    impossible = load(2).new_initial_state()
    with pytest.raises(ValueError, match="cannot be drawn"):
        for _ in range(TOKEN_COUNTS[0] + 1):  # more blue tokens than the pouch holds
            impossible.apply_action(0)
