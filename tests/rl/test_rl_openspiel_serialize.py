"""OpenSpiel states and games of both glade games serialize, pickle and copy, and continue exactly."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from glade.rl import openspiel as gs  # noqa: E402

COPIERS: dict[str, Callable[[Any], Any]] = {
    "serialize": lambda s: s.get_game().deserialize_state(s.serialize()),
    "pickle": lambda s: pickle.loads(pickle.dumps(s)),
    "deepcopy": copy.deepcopy,
    "clone": lambda s: s.clone(),
}


def trace(state: Any, rng: random.Random, steps: int) -> list[Any]:
    """``steps`` random moves (or until the end) and everything OpenSpiel reads at each."""
    out: list[Any] = []
    for _ in range(steps):
        if state.is_terminal():
            out.append(("end", state.returns()))
            break
        player = state.current_player()
        legal = state.legal_actions()
        out.append(
            (
                player,
                legal,
                state.observation_string(player),
                state.observation_tensor(player),
                state.information_state_string(player),
                state.information_state_tensor(player),
                state.history(),
            )
        )
        state.apply_action(rng.choice(legal))
    out.append(state.glade_game.fingerprint())
    return out


@pytest.mark.parametrize(
    "name,players,length",
    [(gs.HARMONIES, 2, 120), (gs.HARMONIES, 3, 40), (gs.LIVING_FOREST, 2, 150)],
)
@pytest.mark.parametrize("how", list(COPIERS))
def test_a_state_round_trips_and_continues_exactly(
    name: str, players: int, length: int, how: str
) -> None:
    game = pyspiel.load_game(name, {"players": players, "rng_seed": 3})
    state = game.new_initial_state()
    rng = random.Random(8)
    for played in (0, 3, 25):
        trace(state, rng, played)
        twin = COPIERS[how](state)
        assert type(twin) is type(state) and twin.history() == state.history()
        assert twin.glade_game is not state.glade_game
        assert twin.glade_game.fingerprint() == state.glade_game.fingerprint()
        saved = rng.getstate()
        ahead = trace(state, rng, length)
        rng.setstate(saved)
        assert trace(twin, rng, length) == ahead


@pytest.mark.parametrize("name", [gs.HARMONIES, gs.LIVING_FOREST])
def test_a_game_pickles_with_its_generator(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "rng_seed": 4})
    game.new_initial_state()
    twin = pickle.loads(pickle.dumps(game))
    assert str(twin) == str(game)
    for _ in range(2):
        ours, theirs = game.new_initial_state(), twin.new_initial_state()
        assert ours.glade_game.fingerprint() == theirs.glade_game.fingerprint()


def test_openspiels_game_and_state_serialization_needs_a_generator_state_we_cannot_give() -> None:
    """What docs/rl.md states: OpenSpiel's ``serialize_game_and_state`` (and so
    ``random_sim_test(serialize=True)``) asks a sampled-stochastic game for its C++ generator
    state, which OpenSpiel's bridge for Python games does not let a Python game provide."""
    game = pyspiel.load_game(gs.HARMONIES, {"players": 2, "rng_seed": 4})
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, game.new_initial_state())
