"""The greedy Harmonies bot: exact fast scoring, legal whole turns, strength against random."""

from __future__ import annotations

import random

import pytest

import glade
from glade.bots import make_bot
from glade.bots.harmonies_eval import board_score
from glade.bots.harmonies_greedy import HarmoniesGreedy
from glade.core import BadInput
from glade.harmonies.game import HarmoniesGame

MOVES: dict[str, int] = {}


def _play(seed: int, specs: list[str], options: dict[str, object]) -> HarmoniesGame:
    """A whole game; every action goes through the checked contract layer."""
    game = glade.new_game("harmonies", seed=seed, **options)
    assert isinstance(game, HarmoniesGame)
    bots = [make_bot(spec, "harmonies", seed=seed * 10 + i) for i, spec in enumerate(specs)]
    while not game.is_over:
        seat = game.to_act[0]
        actions = bots[seat].choose(game, seat)
        assert actions
        for action in actions:
            game.apply(seat, action)  # raises IllegalAction on any illegal move
            MOVES[specs[seat]] = MOVES.get(specs[seat], 0) + 1
    return game


def test_fast_score_equals_engine_breakdown() -> None:
    rng = random.Random(3)
    for seed in range(6):
        side = "AB"[seed % 2]
        game = glade.new_game("harmonies", seed=seed, players=2, side=side, spirits=seed > 2)
        assert isinstance(game, HarmoniesGame)
        while not game.is_over:
            seat = game.to_act[0]
            game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
            for s in range(2):
                assert board_score(game, game.boards[s]) == game.breakdown(s)["total"]


def test_greedy_beats_random_in_40_games() -> None:
    MOVES.clear()
    wins = 0
    for seed in range(40):
        seat = seed % 2
        specs = ["greedy", "random"] if seat == 0 else ["random", "greedy"]
        game = _play(seed, specs, {"players": 2, "side": "A"})
        result = game.result()
        if result["winners"] == [seat]:
            wins += 1
    assert wins >= 38, f"greedy won only {wins} of 40 games against random"
    assert MOVES["greedy"] >= 2000  # thousands of greedy actions, every one checked legal


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1, "side": "A"},
        {"players": 3, "side": "B", "spirits": True},
    ],
)
def test_greedy_turns_are_legal_in_every_mode(options: dict[str, object]) -> None:
    players = int(options["players"])  # type: ignore[call-overload]
    game = _play(5, ["greedy"] * players, options)
    assert game.is_over
    assert max(game.result()["scores"]) > 0


def test_greedy_returns_a_whole_turn_ending_the_turn() -> None:
    game = glade.new_game("harmonies", seed=11, players=2)
    assert isinstance(game, HarmoniesGame)
    actions = HarmoniesGreedy(seed=1).choose(game, 0)
    kinds = [a.type for a in actions]
    assert kinds[0] == "take_tokens"
    assert kinds.count("place_token") == 3
    assert kinds[-1] == "end_turn"
    before = game.fingerprint()
    HarmoniesGreedy(seed=1).choose(game, 0)
    assert game.fingerprint() == before  # planning never touches the real state


def test_greedy_finishes_a_turn_already_begun() -> None:
    game = glade.new_game("harmonies", seed=12, players=2)
    game.apply(0, {"type": "take_tokens", "space": 1})
    actions = HarmoniesGreedy(seed=2).choose(game, 0)
    assert [a.type for a in actions].count("place_token") == 3
    for action in actions:
        game.apply(0, action)
    assert game.to_act == (1,)


def test_greedy_is_deterministic_for_a_seed() -> None:
    game = glade.new_game("harmonies", seed=13, players=2)
    assert HarmoniesGreedy(seed=4).choose(game, 0) == HarmoniesGreedy(seed=4).choose(game, 0)


def test_greedy_refuses_a_seat_that_may_not_act() -> None:
    game = glade.new_game("harmonies", seed=14, players=2)
    with pytest.raises(BadInput, match="no move"):
        HarmoniesGreedy().choose(game, 1)


def _brute_distance(game: HarmoniesGame, seat: int, card: int) -> int:
    """Fewest tokens to complete ``card``'s habitat, cell by cell (the slow, obvious way)."""
    from glade.bots.harmonies_eval import COST, INF
    from glade.harmonies.data import CARDS

    layout = game.space.layout
    b = game.boards[seat]
    cubed = {i for i, bit in enumerate(layout.bits) if b.cubes >> bit & 1}

    def cost(i: int, k: int) -> int:
        c = COST[b.cells[i]][k]
        return INF if (i in cubed and c > 0) else c

    best = INF
    for anchor, (q, r) in enumerate(layout.cells):
        if anchor in cubed:
            continue
        base = cost(anchor, CARDS[card].cube_class)
        for rot in CARDS[card].rotations:
            total = base
            for dq, dr, k in rot:
                i = layout.index.get((q + dq, r + dr))
                total = INF if i is None else total + cost(i, k)
            best = min(best, total)
    return min(best, INF)


def test_habitat_distance_matches_a_cell_by_cell_count() -> None:
    from glade.bots.harmonies_eval import habitat_distance, need_masks

    rng = random.Random(8)
    checked = 0
    for seed in range(4):
        game = glade.new_game("harmonies", seed=seed, players=2, side="AB"[seed % 2])
        assert isinstance(game, HarmoniesGame)
        while not game.is_over:
            seat = game.to_act[0]
            game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
            if rng.random() < 0.2:
                b = game.boards[0]
                need = need_masks(b)
                for card in rng.sample(range(32), 4):
                    fast = habitat_distance(card, game.space.rotations[card], need, b.cubes)
                    assert fast == _brute_distance(game, 0, card)
                    checked += 1
    assert checked > 50
