"""Scoring (facts §2, §5, §6): rulebook examples, every landscape, every spirit, 23 real BGA boards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from glade.cli import main
from glade.harmonies.data import CARD_INDEX, CARDS
from glade.harmonies.scoring import river_points, score_board, solo_suns

# the real boards of ../shared/reference/harmonies-games, copied
GAMES = Path(__file__).resolve().parents[1] / "data" / "harmonies-games"
BOARDS = sorted(GAMES.glob("*.json"))


def board(stacks: dict[str, list[str]], side: str = "A", **extra: Any) -> dict[str, Any]:
    return {"side": side, "stacks": stacks, "cubes": [], "cards": [], **extra}


def test_reference_boards_are_there() -> None:
    assert len(BOARDS) == 23


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_real_bga_boards_score_exactly_through_the_command(
    path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads(path.read_text())
    contract = {k: data[k] for k in ("side", "stacks", "cubes", "cards", "spirit") if k in data}
    file = tmp_path / "board.json"
    file.write_text(json.dumps(contract))
    assert main(["harmonies", "score", str(file)]) == 0
    got = json.loads(capsys.readouterr().out)
    for key, value in data["expected"].items():
        assert got[key] == value, (key, got)


def test_installed_command_scores_and_refuses(tmp_path: Path) -> None:
    file = tmp_path / "b.json"
    file.write_text(json.dumps(board({"0,0": ["gray"], "0,1": ["gray", "gray"]})))
    run = subprocess.run(
        [sys.executable, "-m", "glade.cli", "harmonies", "score", str(file), "--solo"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0
    assert json.loads(run.stdout)["mountains"] == 4
    assert json.loads(run.stdout)["suns"] == 0 + 1 + 2  # below 40, side A, no spirit
    file.write_text(json.dumps(board({"7,7": ["gray"]})))
    run = subprocess.run(
        [sys.executable, "-m", "glade.cli", "harmonies", "score", str(file)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert "7,7" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (board({"9,9": ["blue"]}), "9,9"),
        (board({"0,0": ["blue", "gray"]}), "0,0"),
        (board({"0,0": ["red", "red", "red"]}), "0,0"),
        (board({"0,0": ["purple"]}), "purple"),
        (board({"0,0": ["blue"]}, cubes=["0,0"], cards=[{"card": "frog", "placed": 6}]), "frog"),
        (board({"0,0": ["blue"]}, cards=[{"card": "unicorn", "placed": 0}]), "unicorn"),
        (board({}, cubes=["0,0"], cards=[{"card": "frog", "placed": 1}]), "0,0"),
        (board({"0,0": ["blue"]}, cubes=["0,0"]), "cubes"),
        ({"side": "C", "stacks": {}}, "side"),
    ],
)
def test_boards_that_cannot_occur_are_refused(
    data: dict[str, Any], needle: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    assert main(["harmonies", "score", str(file)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_rulebook_branched_river_scores_15_not_19() -> None:
    path = ["0,0", "1,0", "2,0", "3,0", "4,0", "4,1"]  # 6 tokens end to end, no shortcut
    stacks = {c: ["blue"] for c in path + ["1,1"]}  # 1,1 touches path tokens 2 and 3 only
    assert score_board(board(stacks))["water"] == 15
    assert river_points(7) == 19 and river_points(8) == 23


def test_river_lengths_and_only_the_best_river() -> None:
    assert [river_points(n) for n in range(1, 7)] == [0, 2, 5, 8, 11, 15]
    stacks = {"0,0": ["blue"], "0,1": ["blue"], "4,0": ["blue"], "4,1": ["blue"], "4,2": ["blue"]}
    assert score_board(board(stacks))["water"] == 5


def test_rulebook_lion_spirit_2_plus_2_plus_10() -> None:
    stacks = {
        "0,0": ["yellow"],
        "2,0": ["yellow"],
        "2,1": ["yellow"],
        "4,-2": ["yellow"],
        "4,-1": ["yellow"],
        "4,0": ["yellow"],
        "3,2": ["brown", "green"],
    }
    data = board(stacks, cubes=["4,-1"], spirit={"card": "lion_spirit", "placed": True})
    assert score_board(data)["spirit"] == 14
    data["spirit"]["placed"] = False
    data["cubes"] = []
    assert score_board(data)["spirit"] == 0  # scored only if its cube is on the board


def test_rulebook_solo_suns_example() -> None:
    assert solo_suns(130, "A", CARD_INDEX["lion_spirit"]) == 7
    assert solo_suns(130, "B", CARD_INDEX["owl_spirit"]) == 5
    assert solo_suns(39, "B", -1) == 2
    assert solo_suns(160, "A", -1) == 11


def test_trees_mountains_fields_buildings() -> None:
    s = score_board(
        board(
            {
                "0,0": ["green"],
                "0,1": ["brown", "green"],
                "0,2": ["brown", "brown", "green"],
                "0,3": ["brown"],
                "0,4": ["brown", "brown"],
            }
        )
    )
    assert s["trees"] == 1 + 3 + 7
    assert score_board(board({"2,0": ["gray"]}))["mountains"] == 0  # a lone mountain
    assert score_board(board({"2,0": ["gray"], "2,1": ["gray"]}))["mountains"] == 2
    assert score_board(board({"2,0": ["gray"], "2,1": ["gray", "gray", "gray"]}))["mountains"] == 8
    fields = {
        "0,0": ["yellow"],
        "1,0": ["yellow"],
        "1,1": ["yellow"],
        "1,2": ["yellow"],
        "4,2": ["yellow"],
    }
    assert score_board(board(fields))["fields"] == 5
    # building 2,1 with neighbours blue, yellow, green tree: 3 colours -> 5
    around = {"2,1": ["gray", "red"], "2,0": ["blue"], "3,0": ["yellow"], "1,1": ["brown", "green"]}
    assert score_board(board(around))["buildings"] == 5
    around["1,1"] = ["yellow"]  # two colours only
    assert score_board(board(around))["buildings"] == 0
    # a lone red is not a building
    assert (
        score_board(board({"2,1": ["red"], "2,0": ["blue"], "3,0": ["yellow"], "1,1": ["green"]}))[
            "buildings"
        ]
        == 0
    )


def test_side_b_islands_count_empty_cells_as_land() -> None:
    assert score_board(board({}, side="B"))["water"] == 5
    wall = {f"3,{r}": ["blue"] for r in (-1, 0, 1)}  # column 3 cuts the board in two
    assert score_board(board(wall, side="B"))["water"] == 10
    ring = {c: ["blue"] for c in ("1,0", "2,-1", "3,-1", "3,0", "2,1", "1,1")}  # around 2,0
    assert score_board(board(ring, side="B"))["water"] == 10  # the enclosed empty cell is an island


SPIRIT_CASES = [
    ("butterfly_spirit", {"0,0": ["yellow"], "2,0": ["yellow"], "2,1": ["yellow"]}, 10),
    (
        "deer_spirit",
        {"0,0": ["green"], "0,1": ["brown", "green"], "0,3": ["brown", "brown", "green"]},
        8,
    ),
    (
        "owl_spirit",
        {"0,0": ["green"], "0,1": ["brown", "green"], "0,3": ["brown", "brown", "green"]},
        7,
    ),
    (
        "cat_spirit",
        {"0,0": ["red", "red"], "0,1": ["gray", "red"], "2,0": ["brown", "red"], "4,0": ["red"]},
        8,
    ),
    ("crane_spirit", {"0,0": ["red", "red"], "0,1": ["gray", "red"], "2,0": ["brown", "red"]}, 6),
    ("ram_spirit", {"0,0": ["gray"], "0,2": ["gray", "gray"], "0,4": ["gray", "gray", "gray"]}, 8),
    (
        "marmot_spirit",
        {"0,0": ["gray"], "0,2": ["gray", "gray"], "0,4": ["gray", "gray", "gray"]},
        7,
    ),
    (
        "dragonfly_spirit",
        {"0,0": ["blue"], "0,1": ["blue"], "2,0": ["blue"], "4,0": ["blue"], "4,1": ["blue"]},
        14,
    ),
    ("tortoise_spirit", {"0,0": ["blue"], "0,1": ["blue"], "2,0": ["blue"]}, 6),
]


@pytest.mark.parametrize(
    ("spirit", "stacks", "points"), SPIRIT_CASES, ids=[c[0] for c in SPIRIT_CASES]
)
def test_each_spirit_formula(spirit: str, stacks: dict[str, list[str]], points: int) -> None:
    # the spirit's cube sits on a stack its cube cell allows ("*" is any token under a red)
    want = next(c["stack"] for c in CARDS[CARD_INDEX[spirit]].data["cells"] if c["cube"])
    cube = next(
        name
        for name, stack in stacks.items()
        if len(stack) == len(want) and all(w in ("*", c) for w, c in zip(want, stack, strict=True))
    )
    data = board(stacks, cubes=[cube], spirit={"card": spirit, "placed": True})
    assert score_board(data)["spirit"] == points


def test_animal_cards_score_their_topmost_uncovered_slot() -> None:
    stacks = {"0,0": ["blue"], "0,1": ["blue"], "0,2": ["blue"], "1,0": ["green"]}
    data = board(
        stacks,
        cubes=["0,0", "0,1", "0,2"],
        cards=[{"card": "frog", "placed": 3}, {"card": "bee", "placed": 0}],
    )
    assert score_board(data)["animals"] == 6  # frog 2/4/6/10/15, three cubes gone
