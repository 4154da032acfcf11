"""``score_board`` refuses boards that cannot occur, naming the cell, card or colour."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from glade.cli import main
from glade.core import BadInput
from glade.harmonies.data import TOKEN_COUNTS
from glade.harmonies.scoring import score_board


def refused(data: dict[str, Any]) -> BadInput:
    with pytest.raises(BadInput) as err:
        score_board(data)
    return err.value


def test_a_cube_on_a_stack_no_card_cube_may_be_on() -> None:
    # a frog's cube goes on water: not on a brown trunk
    err = refused(
        {"stacks": {"0,0": ["brown"]}, "cubes": ["0,0"], "cards": [{"card": "frog", "placed": 1}]}
    )
    assert str(err) == "the cube at 0,0 is on brown, where no card's cube can be"
    assert err.code == "harmonies.board.cube_no_habitat"
    assert err.params == {"cell": "0,0", "stack": "brown"}


def test_a_cube_on_a_landscape_its_cards_do_not_use() -> None:
    # two frog cubes, but one of them is on a field
    err = refused(
        {
            "stacks": {"0,0": ["blue"], "0,1": ["yellow"]},
            "cubes": ["0,0", "0,1"],
            "cards": [{"card": "frog", "placed": 2}],
        }
    )
    assert "0,1" in str(err) and err.code == "harmonies.board.cube_unmatched"
    assert err.params["cubes"] == 0 and err.params["stack"] == "yellow"
    # the same cubes with a card whose cube goes on a field is a real board
    stacks = {"0,0": ["blue"], "0,1": ["yellow"], "1,0": ["yellow"], "1,1": ["green"]}
    fine = {
        "stacks": stacks,
        "cubes": ["0,0", "0,1"],
        "cards": [{"card": "frog", "placed": 1}],
        "spirit": {"card": "butterfly_spirit", "placed": True},
    }
    assert score_board(fine)["spirit"] == 5


def test_more_than_four_unfinished_cards() -> None:
    five = [{"card": c, "placed": 0} for c in ("frog", "duck", "ray", "fish", "otter")]
    err = refused({"cards": five})
    assert err.code == "harmonies.board.too_many_held"
    assert err.params["held"] == 5 and "otter" in str(err)
    four = five[:4]
    assert score_board({"cards": four})["animals"] == 0
    # a spirit whose cube is not placed counts against the 4
    err = refused({"cards": four, "spirit": {"card": "owl_spirit", "placed": False}})
    assert err.params["held"] == 5 and "owl_spirit" in str(err)
    # a completed card does not: 4 unfinished and a completed crocodile
    stacks = {f"0,{r}": ["blue"] for r in range(3)}
    stacks["2,0"] = ["brown", "brown", "green"]
    done = {
        "stacks": stacks,
        "cubes": ["0,0", "0,1", "0,2"],
        "cards": [*four, {"card": "crocodile", "placed": 3}],
    }
    assert score_board(done)["animals"] == 15


@pytest.mark.parametrize(
    ("color", "stack", "per_cell", "side"),
    [
        ("gray", ["gray", "gray", "gray"], 3, "A"),
        ("red", ["red", "red"], 2, "A"),
        ("blue", ["blue"], 1, "B"),
    ],
)
def test_more_tokens_of_a_colour_than_the_game_has(
    color: str, stack: list[str], per_cell: int, side: str
) -> None:
    from glade.harmonies.data import COLOR_INDEX, LAYOUTS

    box = TOKEN_COUNTS[COLOR_INDEX[color]]
    names = LAYOUTS[side].names
    cells = box // per_cell + 1
    assert cells <= len(names)
    err = refused({"side": side, "stacks": {n: stack for n in names[:cells]}})
    assert err.code == "harmonies.board.too_many_tokens"
    assert err.params == {"color": color, "count": cells * per_cell, "box": box}
    assert (
        str(err) == f"the board has {cells * per_cell} {color} tokens, but the game has only {box}"
    )
    # as many as the box holds is fine
    full = {n: [color] for n in names[:box]} if per_cell == 1 else {}
    score_board({"side": side, "stacks": full})


def test_the_command_names_the_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "board.json"
    data = {
        "stacks": {"1,1": ["brown"]},
        "cubes": ["1,1"],
        "cards": [{"card": "frog", "placed": 1}],
    }
    file.write_text(json.dumps(data))
    assert main(["harmonies", "score", str(file)]) == 2
    assert "the cube at 1,1 is on brown" in capsys.readouterr().err
