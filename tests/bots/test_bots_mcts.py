"""ISMCTS: legal moves, no peeking at hidden order, determinism, tree reuse, hints, levels."""

from __future__ import annotations

import random

import pytest

import glade
from glade.bots import Budget, bot_names, make_bot, mcts
from glade.bots.adapter import Outcome
from glade.bots.harmonies_greedy import HarmoniesGreedy
from glade.bots.harmonies_search import (
    CELLS_PER_TURN,
    GOOD_PACE,
    HarmoniesAdapter,
    projected_score,
    seat_values,
)
from glade.bots.hint import hint
from glade.bots.mcts import (
    GenericAdapter,
    MCTSBot,
    outcome_values,
    win_share,
)
from glade.core import BadInput, Game
from glade.harmonies.game import HarmoniesGame

FEW = Budget(iterations=4)


def _midgame(seed: int, turns: int, **options: object) -> HarmoniesGame:
    game = glade.new_game("harmonies", seed=seed, **options)
    assert isinstance(game, HarmoniesGame)
    greedy = HarmoniesGreedy(seed=seed)
    for _ in range(turns):
        seat = game.to_act[0]
        for action in greedy.choose(game, seat):
            game.apply(seat, action)
    return game


def _reorder_hidden(game: HarmoniesGame, seed: int) -> HarmoniesGame:
    """The same game with a different hidden order (pouch, draw pile, others' spirit offers)."""
    other = game.copy()
    rng = random.Random(seed)
    rng.shuffle(other.pouch)
    rng.shuffle(other.deck)
    for s, b in enumerate(other.boards):
        if s != other.current and b.offer:
            b2 = b.copy()
            b2.offer = tuple(reversed(b.offer))
            other.boards[s] = b2
    assert other.pouch != game.pouch and other.deck != game.deck
    return other


@pytest.mark.parametrize("spec", ["greedy", "mcts"])
def test_bots_never_read_the_hidden_order(spec: str) -> None:
    game = _midgame(3, 5, players=2)
    other = _reorder_hidden(game, 4)
    bot_a = make_bot(spec, "harmonies", seed=8)
    bot_b = make_bot(spec, "harmonies", seed=8)
    budget = Budget(iterations=12)
    assert bot_a.choose(game, game.current, budget) == bot_b.choose(other, other.current, budget)


def test_mcts_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    game = _midgame(4, 3, players=2)
    first = MCTSBot(seed=1).choose(game, game.current, Budget(iterations=10))
    again = MCTSBot(seed=1).choose(game, game.current, Budget(iterations=10))
    assert first == again


def test_mcts_plays_legal_games_in_every_mode() -> None:
    for seed, options in enumerate(
        [{"players": 2, "side": "A"}, {"players": 1, "side": "B", "spirits": True}]
    ):
        game = glade.new_game("harmonies", seed=seed, **options)
        players = game.num_players
        bots = [MCTSBot(seed=s) for s in range(players)]
        moves = 0
        while not game.is_over:
            seat = game.to_act[0]
            for action in bots[seat].choose(game, seat, Budget(iterations=2)):
                game.apply(seat, action)  # raises IllegalAction on an illegal move
                moves += 1
        assert moves > 40


class _SlowAdapter(HarmoniesAdapter):
    """Harmonies whose every play-out takes ``step`` seconds on a fake clock."""

    def __init__(self, clock: list[float], step: float) -> None:
        super().__init__()
        self.clock = clock
        self.step = step

    def rollout(self, state: Game, seat: int, rng: random.Random) -> Outcome:
        self.clock[0] += self.step
        return super().rollout(state, seat, rng)


def test_mcts_respects_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget is a cap: a simulation starts only if it should end in time (measured on a
    fake clock that only play-outs advance, so the test does not depend on the machine)."""
    clock = [0.0]
    monkeypatch.setattr(mcts.time, "perf_counter", lambda: clock[0])
    game = _midgame(5, 2, players=2)
    counts = []
    for seconds in (0.2, 0.5):
        bot = MCTSBot(seed=0, adapter=_SlowAdapter(clock, 0.03))
        bot.choose(game, game.current, Budget(seconds=seconds))
        assert bot.last_stats["iterations"] >= 1
        assert bot.last_stats["seconds"] <= seconds
        assert (
            bot.last_stats["seconds"] + 0.03 > seconds
        )  # it stopped only when one more would not fit
        counts.append(bot.last_stats["iterations"])
    assert counts == [6, 16]


def test_mcts_reuses_its_tree_when_the_game_moved_along_it() -> None:
    game = glade.new_game("harmonies", seed=6, players=2)
    adapter = GenericAdapter()
    adapter.max_rollout = 30
    bot = MCTSBot(seed=0, adapter=adapter)
    first = bot.choose(game, 0, Budget(iterations=60))
    game.apply(0, first[0])
    root = bot._reuse(game)
    assert root is not None and root.visits > 0  # the subtree of the move just played


def test_mcts_levels_and_bad_levels() -> None:
    assert isinstance(make_bot("mcts:easy", "harmonies", seed=1), MCTSBot)
    assert "mcts:hard" in bot_names()
    with pytest.raises(BadInput, match="level"):
        make_bot("mcts:extreme", "harmonies")
    with pytest.raises(BadInput, match="no levels"):
        make_bot("greedy:hard", "harmonies")


def test_hint_ranks_whole_turns_with_expected_outcomes() -> None:
    game = _midgame(7, 4, players=2)
    seat = game.current
    ranked = hint(game, seat, Budget(iterations=16), top=3)
    assert 1 <= len(ranked) <= 3
    for item in ranked:
        kinds = [a["type"] for a in item["actions"]]
        assert kinds[-1] == "end_turn"
        # hints use the shared evaluation: a win chance only once it means something
        assert item["win"] is None or 0.0 <= item["win"] <= 1.0
        assert item["score"] > 0
        trial = game.copy()
        for action in item["actions"]:
            trial.apply(seat, action)
    with pytest.raises(BadInput, match="turn"):
        hint(game, 1 - seat)


def test_harmonies_values_favour_own_points_over_the_opponents() -> None:
    """The search's value: own points count fully, the best opponent's by a smaller weight."""
    base = seat_values([80.0, 80.0])
    assert base[0] == pytest.approx(base[1])
    own_up = seat_values([90.0, 80.0])[0]
    rival_down = seat_values([80.0, 70.0])[0]
    assert base[0] < rival_down < own_up
    assert seat_values([120.0])[0] == pytest.approx(0.8)
    assert seat_values([200.0])[0] == 1.0
    assert all(0.0 < v < 1.0 for v in seat_values([60.0, 140.0, 90.0, 75.0]))


def test_a_finished_harmonies_game_is_valued_like_the_search_leaves() -> None:
    game = glade.new_game("harmonies", seed=5, players=2)
    greedy = HarmoniesGreedy(seed=5)
    while not game.is_over:
        seat = game.to_act[0]
        for action in greedy.choose(game, seat):
            game.apply(seat, action)
    scores = [float(x) for x in game.result()["scores"]]
    values, final = HarmoniesAdapter().final_values(game)
    assert final == scores
    assert values == seat_values(scores)
    # a game without its own valuation falls back to win/loss with a margin
    assert GenericAdapter().final_values(game) == outcome_values(game)
    assert values != outcome_values(game)[0]


def test_win_share_and_the_searched_win_chances() -> None:
    assert win_share([90.0, 80.0], 0) == 1.0
    assert win_share([90.0, 80.0], 1) == 0.0
    assert win_share([85.0, 85.0, 70.0], 1) == 0.5
    assert win_share([70.0, 85.0, 85.0], 0) == 0.0
    game = _midgame(9, 6, players=2)
    seat = game.current
    bot = MCTSBot(seed=3)
    ranked = bot.search(game, seat, Budget(iterations=24))
    assert {r[0] for r in ranked} == set(bot.last_wins)
    for move, _value, _score, visits in ranked:
        # a share of the move's simulations, each worth 0, 1/2 or 1
        halves = bot.last_wins[move] * visits * 2
        assert abs(halves - round(halves)) < 1e-9


def test_the_final_score_estimate_starts_from_a_good_pace_and_settles_on_the_own_one() -> None:
    game = _midgame(4, 2, players=1)
    board = game.boards[0]
    cells = board.empty_cells()
    # one turn played, 5 points: the board's remaining turns at a good player's pace
    early = projected_score(game, board, 5.0, 5.0, 1)
    assert early == pytest.approx(5.0 + (cells - 2) / CELLS_PER_TURN * GOOD_PACE)
    # a fast start keeps its own pace
    assert projected_score(game, board, 30.0, 5.0, 1) > early
    # from the fifth turn on: the pace kept so far over the evaluation's turns left
    assert projected_score(game, board, 50.0, 4.0, 5) == pytest.approx(50.0 + 4.0 * 50.0 / 5)
