"""Arena statistics, scheduling, determinism and the command line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from glade.arena.cli import main
from glade.arena.runner import labels, report, run, schedule
from glade.arena.stats import mean_ci, wilson


def test_wilson_interval_known_cases() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(3.8415 / 13.8415, abs=1e-4)
    lo, hi = wilson(190, 200)
    assert lo == pytest.approx(0.9103, abs=1e-3) and hi == pytest.approx(0.9726, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_mean_interval() -> None:
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2, rel=1e-5)
    assert mean_ci([7.0]) == (7.0, 0.0)


def test_seats_rotate_fairly_and_labels_are_unique() -> None:
    assert labels(["greedy", "greedy", "random"]) == ["greedy", "greedy#2", "random"]
    matches = schedule("harmonies", ["a", "b", "c"], 6, seed=1)
    for name in "abc":
        seats = sorted(m.seats.index(name) for m in matches)
        assert seats == [0, 0, 1, 1, 2, 2]
    assert len({m.seed for m in matches}) == 6


def test_same_seed_same_report_serial_and_parallel() -> None:
    bots = ["mcts", "greedy"]
    matches = schedule("harmonies", bots, 2, seed=3, iterations=4)
    serial, wall1 = run(matches, workers=1)
    parallel, wall2 = run(matches, workers=2)
    a = report(serial, bots, "harmonies", {}, 3, wall1, 1, "serial", {})
    b = report(parallel, bots, "harmonies", {}, 3, wall2, 2, "processes", {})
    assert a["results"] == b["results"]
    greedy = a["results"]["bots"]["greedy"]
    assert greedy["games"] == 2 and greedy["seats"] == {"0": 1, "1": 1}
    assert greedy["wins"] + greedy["ties"] + a["results"]["bots"]["mcts"]["wins"] == 2
    assert set(greedy["categories"]) >= {"trees", "water", "animals"}


def test_cli_writes_a_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    code = main(
        [
            "harmonies",
            "--bots",
            "greedy",
            "--games",
            "2",
            "--quiet",
            "--json",
            str(out),
            "--options",
            "side=B",
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["games"] == 2 and data["options"] == {"side": "B"}
    bot = data["results"]["bots"]["greedy"]
    assert "win_rate" not in bot and sum(bot["suns"].values()) == 2
    assert "greedy" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["harmonies", "--bots", "greedy,nobody"], "unknown bot"),
        (["chess", "--bots", "random"], "unknown game"),
        (["harmonies", "--bots", "greedy", "--games", "0"], "--games"),
        (["harmonies", "--bots", "greedy", "--options", "side=C"], "side"),
        (["harmonies", "--bots", "greedy", "--options", "players=3"], "players"),
        (["harmonies"], "required"),
    ],
)
def test_cli_refuses_bad_input_with_one_sentence(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
