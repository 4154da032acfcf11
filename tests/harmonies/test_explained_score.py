"""The explained score: the parts of each category sum to its points, and say which cells earned them."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import glade
from glade.harmonies import HarmoniesGame
from glade.harmonies.data import CARDS, LAYOUTS, NEIGHBOUR_STEPS, NSTATES, SPIRITS
from glade.harmonies.scoring import CATEGORIES, board_breakdown, score_board

GAMES = Path(__file__).resolve().parents[1] / "data" / "harmonies-games"
BOARDS = sorted(GAMES.glob("*.json"))


def sums(result: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for part in result["parts"]:
        assert part["category"] in CATEGORIES
        assert set(part) == {"category", "points", "cells", "what", "params"}
        out[part["category"]] += part["points"]
    return {c: out[c] for c in CATEGORIES}


def check_sums(result: dict[str, Any]) -> None:
    assert sums(result) == {c: result[c] for c in CATEGORIES}
    assert sum(p["points"] for p in result["parts"]) == result["total"]


def connected(cells: list[str]) -> bool:
    coords = {tuple(int(x) for x in c.split(",")) for c in cells}
    if not coords:
        return True
    todo = [next(iter(coords))]
    seen = set(todo)
    while todo:
        q, r = todo.pop()
        for dq, dr in NEIGHBOUR_STEPS:
            n = (q + dq, r + dr)
            if n in coords and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == coords


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_real_boards_parts_sum_to_every_category(path: Path) -> None:
    data = json.loads(path.read_text())
    contract = {k: data[k] for k in ("side", "stacks", "cubes", "cards", "spirit") if k in data}
    result = score_board(contract, explain=True)
    check_sums(result)
    for key, value in data["expected"].items():
        assert result[key] == value
    # every animal cube belongs to exactly one card, and a card has as many as it placed
    animal_cells = [c for p in result["parts"] if p["category"] == "animals" for c in p["cells"]]
    assert len(animal_cells) == len(set(animal_cells))
    assert set(animal_cells) <= set(contract["cubes"])
    for part in result["parts"]:
        if part["category"] == "animals":
            assert len(part["cells"]) == part["params"]["placed"]
            assert set(part["cells"]) <= set(part["params"]["habitat"]) or not part["cells"]
    assert score_board(contract) == {k: v for k, v in result.items() if k != "parts"}


@pytest.mark.parametrize("side", ["A", "B"])
def test_random_boards_with_every_spirit_sum(side: str) -> None:
    layout = LAYOUTS[side]
    rng = random.Random(f"explain{side}")
    for trial in range(300):
        fill = rng.random()
        cells = [rng.randrange(1, NSTATES) if rng.random() < fill else 0 for _ in layout.cells]
        spirit = SPIRITS[trial % len(SPIRITS)]
        cards = [(rng.randrange(32), rng.randrange(0, 3)) for _ in range(3)]
        masks = layout.masks_of(cells)
        result = board_breakdown(layout, masks, cards, spirit, True, explain=True)
        check_sums(result)
        assert {k: v for k, v in result.items() if k != "parts"} == board_breakdown(
            layout, masks, cards, spirit, True
        )


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 1, "spirits": True},
        {"players": 3, "side": "B", "spirits": True},
        {"players": 4, "spirits": True},
    ],
)
def test_games_views_carry_parts_that_sum(options: dict[str, Any]) -> None:
    rng = random.Random(str(options))
    game = glade.new_game("harmonies", seed=11, **options)
    assert isinstance(game, HarmoniesGame)
    while not game.is_over:
        seat = game.current
        game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
        board = game.view(seat)["boards"][seat]
        check_sums(board["score"])
    for board in game.view(None)["boards"]:
        check_sums(board["score"])
        # the cubes of the animal parts and of a placed spirit are exactly the board's cubes
        owned = [
            c for p in board["score"]["parts"] if p["category"] == "animals" for c in p["cells"]
        ]
        spirit_cube = 1 if board.get("spirit", {}).get("placed") else 0
        assert len(owned) == len(set(owned)) == len(board["cubes"]) - spirit_cube
        assert set(owned) <= set(board["cubes"])


def test_each_landscape_says_why() -> None:
    # side A: trees of 1, 2 and 3; a lone mountain and a pair; a field of 2 and a lone yellow;
    # a building among 3 colours and one among 2; a river of 3 and a lone water
    stacks = {
        "0,0": ["green"],
        "0,1": ["brown", "green"],
        "0,2": ["brown", "brown", "green"],
        "2,-1": ["gray"],
        "4,-2": ["gray", "gray"],
        "4,-1": ["gray"],
        "2,1": ["yellow"],
        "2,2": ["yellow"],
        "4,2": ["yellow"],
        "1,1": ["gray", "red"],
        "3,1": ["red", "red"],
        "1,0": ["blue"],
        "2,0": ["blue"],
        "3,-1": ["blue"],
        "0,3": ["blue"],
    }
    result = score_board({"side": "A", "stacks": stacks, "cubes": [], "cards": []}, explain=True)
    check_sums(result)
    by = defaultdict(list)
    for part in result["parts"]:
        by[part["what"]].append(part)
    trees = {p["cells"][0]: (p["params"]["height"], p["points"]) for p in by["tree"]}
    assert trees == {"0,0": (1, 1), "0,1": (2, 3), "0,2": (3, 7)}
    mountains = {p["cells"][0]: (p["points"], p["params"]["next_to"]) for p in by["mountain"]}
    assert mountains == {"2,-1": (0, []), "4,-2": (3, ["4,-1"]), "4,-1": (1, ["4,-2"])}
    fields = sorted((p["cells"], p["points"]) for p in by["field"])
    assert fields == [(["2,1", "2,2"], 5), (["4,2"], 0)]
    buildings = {p["cells"][0]: (p["points"], p["params"]["colors"]) for p in by["building"]}
    # 1,1 touches blue (1,0 and 2,0), green (0,1, 0,2), yellow (2,1): 3 colours
    assert buildings["1,1"] == (5, ["blue", "green", "yellow"])
    # 3,1 touches yellow (2,1, 2,2) and nothing else of another colour
    assert buildings["3,1"][0] == 0 and len(buildings["3,1"][1]) < 3
    rivers = sorted((p["params"]["length"], p["points"], p["cells"]) for p in by["river"])
    assert rivers == [(1, 0, ["0,3"]), (3, result["water"], ["1,0", "2,0", "3,-1"])]


def test_a_long_river_lists_one_shortest_path() -> None:
    # a blue group with a branch: the river is its longest shortest path, the branch is not in it
    stacks = {c: ["blue"] for c in ("0,0", "1,0", "2,0", "3,0", "4,0", "2,1")}
    result = score_board({"side": "A", "stacks": stacks, "cubes": [], "cards": []}, explain=True)
    (river,) = [p for p in result["parts"] if p["what"] == "river"]
    assert river["params"]["length"] == 5 == len(river["cells"])
    assert river["cells"] == ["0,0", "1,0", "2,0", "3,0", "4,0"]
    assert connected(river["cells"]) and river["points"] == result["water"]


def test_side_b_lists_each_island() -> None:
    layout = LAYOUTS["B"]
    # a wall of water across the board splits it in two islands
    qs = sorted({q for q, _ in layout.cells})
    middle = qs[len(qs) // 2]
    stacks = {f"{q},{r}": ["blue"] for q, r in layout.cells if q == middle}
    result = score_board({"side": "B", "stacks": stacks, "cubes": [], "cards": []}, explain=True)
    islands = [p for p in result["parts"] if p["what"] == "island"]
    assert len(islands) == 2 and all(connected(p["cells"]) for p in islands)
    cells = {c for p in islands for c in p["cells"]}
    assert cells == {n for n in layout.names if n not in stacks}
    check_sums(result)


def test_animal_card_parts_name_cube_habitat_and_track() -> None:
    # the contract's example: the macaw's first slot (4) on 0,0's tree; the bee has no cube yet
    data = {
        "side": "A",
        "stacks": {
            "0,0": ["brown", "green"],
            "0,1": ["blue"],
            "1,0": ["blue"],
            "2,0": ["yellow"],
            "2,1": ["yellow"],
            "3,0": ["gray", "gray"],
        },
        "cubes": ["0,0"],
        "cards": [{"card": "macaw", "placed": 1}, {"card": "bee", "placed": 0}],
    }
    result = score_board(data, explain=True)
    check_sums(result)
    animals = {p["params"]["card"]: p for p in result["parts"] if p["what"] == "animal"}
    macaw = CARDS[[c.id for c in CARDS].index("macaw")]
    assert animals["macaw"]["points"] == 4 == macaw.points[0]
    assert animals["macaw"]["cells"] == ["0,0"]
    assert animals["macaw"]["params"]["track"] == list(macaw.points)
    assert "0,0" in animals["macaw"]["params"]["habitat"]
    assert len(animals["macaw"]["params"]["habitat"]) == 1 + len(macaw.rotations[0])
    assert animals["bee"]["points"] == 0 and animals["bee"]["cells"] == []
    (lone,) = [p for p in result["parts"] if p["what"] == "mountain"]
    assert lone["points"] == 0 and lone["params"]["next_to"] == []


def test_spirit_part_counts_what_it_scores() -> None:
    game = glade.new_game("harmonies", seed=5, players=1, spirits=True)
    rng = random.Random(5)
    assert isinstance(game, HarmoniesGame)
    while not game.is_over:
        game.apply_action_id(0, rng.choice(game.legal_action_ids(0)))
    score = game.breakdown(0, explain=True)
    spirit_parts = [p for p in score["parts"] if p["category"] == "spirit"]
    b = game.boards[0]
    if b.spirit_placed:
        (part,) = spirit_parts
        assert part["params"]["card"] == CARDS[b.spirit].id
        assert part["points"] == score["spirit"]
    else:
        assert spirit_parts == [] and score["spirit"] == 0


def test_the_command_explains(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from glade.cli import main

    data = json.loads(BOARDS[0].read_text())
    contract = {k: data[k] for k in ("side", "stacks", "cubes", "cards", "spirit") if k in data}
    file = tmp_path / "board.json"
    file.write_text(json.dumps(contract))
    assert main(["harmonies", "score", str(file), "--explain"]) == 0
    got = json.loads(capsys.readouterr().out)
    check_sums(got)
    assert got["total"] == data["expected"]["total"]


def test_explain_must_be_a_boolean() -> None:
    with pytest.raises(glade.BadInput) as err:
        score_board({"side": "A", "stacks": {}, "cubes": [], "cards": []}, explain="yes")  # type: ignore[arg-type]
    assert err.value.code == "harmonies.board.explain_not_bool"
