"""The score that explains itself: the parts of each category sum to its count, in the result
and in the views, on random games of every player count and on constructed forests."""

from __future__ import annotations

import random
from typing import Any

import pytest
from lf_helpers import fresh, plant_direct, start_actions, state_of

from glade.living_forest import score
from glade.living_forest.data import EMPTY, START_CELL, START_TREE, TREES
from glade.living_forest.game import OVER, LivingForestGame

CATEGORIES = ("trees", "fires", "flowers")
WHATS = {"start_tree", "tree", "tree_again", "tree_flowers", "line", "fires", "victory_tile",
         "help_line"}  # fmt: skip
CELL_NAMES = {f"{r},{c}" for r in range(3) for c in range(5)}


def _check(parts: list[dict[str, Any]], counts: dict[str, int]) -> None:
    for p in parts:
        assert set(p) == {"category", "points", "cells", "what", "params"}
        assert p["category"] in CATEGORIES and p["what"] in WHATS
        assert isinstance(p["points"], int) and set(p["cells"]) <= CELL_NAMES
    for category in CATEGORIES:
        got = sum(p["points"] for p in parts if p["category"] == category)
        assert got == counts[category], (category, parts)
    assert [CATEGORIES.index(p["category"]) for p in parts] == sorted(
        CATEGORIES.index(p["category"]) for p in parts
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_parts_sum_to_the_counts_in_random_games(players: int) -> None:
    for seed in range(5):
        g = fresh(players, seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not g.is_over:
            if moves % 9 == 0:
                view = g.view(None)
                for s in range(players):
                    spirit = view["spirits"][s]
                    _check(spirit["parts"], spirit["progress"])
                    assert spirit["parts"] == g.parts(s)
                    assert tuple(spirit["progress"].values()) == g.counts(s)
            seat = g.to_act[0]
            ids = g.legal_action_ids(seat)
            g.apply_action_id(seat, 0 if 0 in ids and rng.random() < 0.6 else rng.choice(ids))
            moves += 1
        assert g.phase == OVER
        result = g.result()
        for s, entry in enumerate(result["breakdown"]):
            _check(entry["parts"], entry)
            assert entry["total"] == result["scores"][s] == sum(g.counts(s))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fused_counts_are_the_parts_summed(players: int) -> None:
    """``score.counts`` (one pass, no parts made) equals ``score.counts_plain`` (the points of
    the parts per category) at every position of random games, and on random forests, tiles
    and help lines constructed by hand (lines completed, tree types repeated, no start tree)."""
    rng = random.Random(players)
    for seed in range(4):
        g = fresh(players, seed=seed)
        state = state_of(g)
        while not g.is_over:
            for s in range(players):
                assert score.counts(state, s) == score.counts_plain(state, s)
            seat = g.to_act[0]
            g.apply_action_id(seat, rng.choice(g.legal_action_ids(seat)))
    for _ in range(300):
        g = fresh(players, seed=rng.randrange(100))
        with g.edit() as state:
            for s in range(players):
                full = rng.random()
                forest = [
                    rng.randrange(len(TREES.ids)) if rng.random() < full else EMPTY
                    for _ in range(15)
                ]
                forest[START_CELL] = START_TREE if rng.random() < 0.9 else EMPTY
                state.forests[s] = forest
                state.fires_kept[s] = [rng.randrange(4) for _ in range(3)]
                state.victory_tiles[s] = [rng.randrange(3) for _ in range(3)]
                state.help_elements[s][4] = rng.randrange(5)
            state.help_lines = [[] for _ in range(players)]
        for s in range(players):
            assert score.counts(state, s) == score.counts_plain(state, s)


def _parts(g: LivingForestGame, seat: int, what: str) -> list[dict[str, Any]]:
    return [p for p in g.parts(seat) if p["what"] == what]


def test_a_forest_explains_each_tree_and_line() -> None:
    g = fresh(4)
    start_actions(g, {1: ["Tanuki", "Fawn", "Fox"]})  # flowers -1 + 1 + 1 on the help line
    for c in (0, 1, 3):
        plant_direct(g, 1, "T4b", 1, c)  # three T4b: one type, one flower each
    plant_direct(g, 1, "T9", 1, 4)  # the middle row is complete: +2 flowers (a repeat: 0)
    plant_direct(g, 1, "T9", 0, 2)
    trees = _parts(g, 1, "tree") + _parts(g, 1, "tree_again")
    assert sorted((p["cells"][0], p["points"]) for p in trees) == [
        ("0,2", 1), ("1,0", 1), ("1,1", 0), ("1,3", 0), ("1,4", 0),
    ]  # fmt: skip
    assert _parts(g, 1, "start_tree")[0]["cells"] == ["1,2"]
    t4b = next(p for p in trees if p["cells"] == ["1,0"])
    assert t4b["params"]["tree"] == "T4b" and t4b["params"]["elements"]["flower"] == 1
    lines = _parts(g, 1, "line")
    middle = next(p for p in lines if p["params"]["element"] == "flower")
    assert middle["points"] == 2 and middle["cells"] == [f"1,{c}" for c in range(5)]
    flowers = {p["cells"][0]: p["points"] for p in _parts(g, 1, "tree_flowers")}
    assert flowers == {"1,0": 1, "1,1": 1, "1,3": 1, "1,4": 2, "0,2": 2}
    help_line = _parts(g, 1, "help_line")
    assert help_line[0]["points"] == 1 and help_line[0]["params"]["cards"] == [
        "Tanuki", "Fawn", "Fox",
    ]  # fmt: skip
    # and these are exactly the counts: 2 types + start + tile; 7 + 2 + 1 + tile
    assert g.counts(1) == (4, 1, 1 + 3 + 4 + 2 + 1)
