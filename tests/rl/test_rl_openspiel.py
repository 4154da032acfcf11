"""Both games as OpenSpiel games: OpenSpiel's random simulation test, its bots, an example."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import glade  # noqa: E402
from glade.core import BadInput  # noqa: E402
from glade.rl import openspiel as gs  # noqa: E402
from glade.rl.encoders import make_encoder  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_a2c.py"


@pytest.mark.parametrize(
    ("name", "players", "sims"),
    [
        (gs.HARMONIES, 2, 2),
        (gs.HARMONIES, 3, 1),
        (gs.HARMONIES, 4, 1),
        (gs.LIVING_FOREST, 2, 1),
    ],
)
def test_openspiel_random_simulation_test_passes(name: str, players: int, sims: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "rng_seed": 5})
    assert game.num_players() == players
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_the_tensors_are_the_rl_observation_and_actions_the_integer_table() -> None:
    game = pyspiel.load_game(gs.HARMONIES, {"players": 2, "rng_seed": 1})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    g = state.glade_game
    seat = state.current_player()
    assert state.legal_actions() == sorted(g.legal_action_ids(seat))
    enc = make_encoder("harmonies", players=2)
    enc.reset(g)
    assert np.array_equal(
        np.array(state.observation_tensor(seat), dtype=np.float32), enc.observe(seat)
    )
    info = np.array(state.information_state_tensor(1 - seat), dtype=np.float32)
    assert np.array_equal(info[: enc.size], enc.observe(1 - seat))  # then the history (below)
    assert game.num_distinct_actions() == enc.n_actions
    # replaying the log on a fresh engine game gives the same state: the actions are the table's
    replay = glade.new_game("harmonies", seed=g.seed, players=2)
    for s, code, _ in g.log:
        replay.apply_action_id(s, code)
    assert replay.fingerprint() == g.fingerprint()
    assert "moves 30 history" in state.information_state_string(seat)
    normal = pyspiel.load_game(gs.HARMONIES, {"players": 2, "normalize": True})
    tensor = np.array(normal.new_initial_state().observation_tensor(0))
    assert tensor.min() >= 0.0 and tensor.max() <= 1.0


def test_resampling_keeps_what_the_player_sees_and_redeals_the_rest() -> None:
    game = pyspiel.load_game(gs.HARMONIES, {"players": 2, "spirits": True, "rng_seed": 2})
    state = game.new_initial_state()
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.glade_game.pouch != state.glade_game.pouch  # the hidden order is re-dealt
    assert sorted(other.glade_game.pouch) == sorted(state.glade_game.pouch)
    clone = state.clone()
    assert clone.glade_game is not state.glade_game
    assert clone.glade_game.fingerprint() == state.glade_game.fingerprint()


@pytest.mark.parametrize("name", [gs.HARMONIES, gs.LIVING_FOREST])
def test_openspiel_search_bots_play_a_full_game(name: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, {"players": 2, "rng_seed": 3})
    evaluator = gs.ScoreEvaluator()
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(0)),
        mcts.MCTSBot(game, 2.0, 2, evaluator, random_state=np.random.RandomState(1)),
    ]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    assert moves > 20 and state.glade_game.is_over, moves
    returns = state.returns()
    winners = state.glade_game.result()["winners"]
    assert [r for i, r in enumerate(returns) if i not in winners] == [-1.0] * (2 - len(winners))


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_a2c", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_openspiel_a2c_example_trains(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    code = example.main(["--episodes", "4", "--eval-games", "2", "--batch-size", "2"])
    assert code == 0
    out = capsys.readouterr().out
    assert "trained 4 episodes" in out and "win rate against random" in out


def test_the_rewards_parameter_gives_score_utilities() -> None:
    results = {}
    for rewards in ("win_loss", "score_diff", "score"):
        game = pyspiel.load_game(gs.LIVING_FOREST, {"rewards": rewards, "rng_seed": 3})
        state = game.new_initial_state()
        rng = np.random.default_rng(1)
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        results[rewards] = (state.returns(), state.glade_game.result())
        assert game.min_utility() <= min(state.returns()) <= max(state.returns())
        assert max(state.returns()) <= game.max_utility()
    _, result = results["score"]
    scores = [float(s) for s in result["scores"]]
    assert results["score"][0] == scores
    assert results["score_diff"][0] == [scores[0] - scores[1], scores[1] - scores[0]]
    assert sorted(results["win_loss"][0]) in ([-1.0, 1.0], [0.0, 0.0])
    pyspiel.random_sim_test(
        pyspiel.load_game(gs.HARMONIES, {"rewards": "score_diff", "rng_seed": 2}),
        num_sims=1,
        serialize=False,
        verbose=False,
    )
    with pytest.raises(BadInput, match="unknown rewards"):
        pyspiel.load_game(gs.HARMONIES, {"rewards": "shaped"})


@pytest.mark.parametrize(
    "name,players", [(gs.HARMONIES, 2), (gs.HARMONIES, 3), (gs.LIVING_FOREST, 2)]
)
def test_the_information_state_tensor_has_perfect_recall(name: str, players: int) -> None:
    """The information-state tensor is the observation, then one row per move so far (seat,
    action), then the 128 bits of the information-state digest: the same for states the seat
    cannot tell apart (a resampled state), different once anything it saw differs."""
    game = pyspiel.load_game(
        name,
        {"players": players, "rng_seed": 6, "spirits": players == 3}
        if name == gs.HARMONIES
        else {"players": players, "rng_seed": 6},
    )
    size = game.observation_tensor_size()
    rows = game.max_game_length()
    assert game.information_state_tensor_shape() == [size + 2 * rows + gs.DIGEST_BITS]
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen: dict[bytes, str] = {}
    for step in range(40):
        seat = state.current_player()
        info = np.array(state.information_state_tensor(seat), dtype=np.float32)
        assert np.array_equal(info[:size], np.array(state.observation_tensor(seat)))
        history = info[size : size + 2 * rows].reshape(rows, 2)
        log = state.glade_game.log
        assert len(log) == step and not history[step:].any()
        for t, (who, code, _) in enumerate(log):
            assert history[t, 0] == np.float32((who + 1) / players)
            assert history[t, 1] == np.float32((code + 1) / game.num_distinct_actions())
        digest = state.information_state_string(seat).split(" history ")[-1] or "00" * 16
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(digest), dtype=np.uint8))
        assert np.array_equal(info[-gs.DIGEST_BITS :], bits.astype(np.float32))
        key = info.tobytes()
        assert seen.setdefault(key, state.information_state_string(seat)) == (
            state.information_state_string(seat)
        ), "one tensor, one information state"
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        state.apply_action(int(rng.choice(state.legal_actions())))
