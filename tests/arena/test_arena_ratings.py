"""The offline rating module and ``glade arena --rate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from glade.arena.cli import main
from glade.arena.ratings import (
    BOT_LEVELS,
    Rating,
    default_path,
    interleave,
    load_calibration,
    ranks_of,
    rate,
    rate_games,
    update_file,
)
from glade.core import BadInput


def test_ranks_winners_first_then_scores_ties_share() -> None:
    assert ranks_of([80, 95, 95], [1, 2]) == [3, 1, 1]
    assert ranks_of([80, 95, 70], [1]) == [2, 1, 3]
    # a tie-breaker decided the winner: the loser on equal points is second
    assert ranks_of([90, 90], [1]) == [2, 1]
    assert ranks_of([50, 60, 60, 10], [1]) == [3, 1, 2, 4]
    with pytest.raises(BadInput):
        ranks_of([1, 2], [5])


def test_rate_is_openskill_plackett_luce() -> None:
    model = PlackettLuce()
    start = [Rating(), Rating(30.0, 5.0, 7), Rating(20.0, 7.0, 2)]
    got = rate(start, [2, 1, 2])
    want = model.rate(
        [[model.rating(mu=r.mu, sigma=r.sigma)] for r in start], ranks=[2.0, 1.0, 2.0]
    )
    for g, w, s in zip(got, want, start, strict=True):
        assert g.mu == pytest.approx(w[0].mu) and g.sigma == pytest.approx(w[0].sigma)
        assert g.games == s.games + 1
    assert got[1].mu > 30.0 and got[0].mu < 25.0
    assert got[0].ordinal == pytest.approx(got[0].mu - 3 * got[0].sigma)
    with pytest.raises(BadInput):
        rate([Rating()], [1])


def test_rate_games_in_order_and_one_seat_each() -> None:
    out = rate_games([(["a", "b"], [1, 2]), (["b", "c", "a"], [1, 1, 3])])
    assert set(out) == {"a", "b", "c"} and out["a"].games == 2 and out["c"].games == 1
    first = rate([Rating(), Rating()], [1, 2])
    second = rate([first[1], Rating(), first[0]], [1, 1, 3])
    assert out["a"] == second[2] and out["b"] == second[0]
    with pytest.raises(BadInput):
        rate_games([(["a", "a"], [1, 2])])
    assert list(interleave([[1, 2, 3], [10], [20, 21]])) == [1, 10, 20, 2, 21, 3]


def test_calibration_file_accumulates_runs(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    run = {"command": "x", "bots": ["a", "b"], "games": 2, "results": [[["a", "b"], [1, 2]]] * 2}
    update_file(path, "harmonies", run)
    data = update_file(path, "harmonies", {**run, "results": [[["b", "a"], [2, 1]]]})
    entry = data["games"]["harmonies"]
    assert entry["games"] == 3 and len(entry["runs"]) == 2
    assert list(entry["ratings"]) == ["a", "b"]  # best first
    loaded = load_calibration(path)["harmonies"]
    assert loaded["a"].games == 3 and loaded["a"].mu > loaded["b"].mu
    path.write_text("nope")
    with pytest.raises(BadInput):
        update_file(path, "harmonies", run)


def test_arena_rate_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cal.json"
    args = ["harmonies", "--bots", "random,greedy", "--games", "2", "--quiet"]
    assert main([*args, "--rate", str(path)]) == 0
    data = json.loads(path.read_text())
    run = data["games"]["harmonies"]["runs"][0]
    assert run["command"].startswith("glade arena harmonies --bots random,greedy")
    assert run["games"] == 2 and len(run["results"]) == 2
    assert {tuple(sorted(players)) for players, _ in run["results"]} == {("greedy", "random")}
    assert "OpenSkill ratings" in capsys.readouterr().out
    assert main(["harmonies", "--bots", "random,random", "--games", "1", "--rate", str(path)]) == 2
    assert "different bots" in capsys.readouterr().err
    assert main(["harmonies", "--bots", "random", "--games", "1", "--rate", str(path)]) == 2


def test_shipped_calibration_rates_the_bot_levels_of_both_games() -> None:
    data = json.loads(default_path().read_text())
    cal = load_calibration()
    for game in ("harmonies", "living-forest"):
        assert {"random", "greedy"} <= set(cal[game]) <= set(BOT_LEVELS)
        assert cal[game]["greedy"].mu > cal[game]["random"].mu
        assert all(r.games > 0 and r.sigma < 25 / 3 for r in cal[game].values())
        entry = data["games"][game]
        assert entry["games"] == sum(len(r["results"]) for r in entry["runs"])
        for run in entry["runs"]:
            assert run["command"].startswith(f"glade arena {game} ") and "--rate" in run["command"]
            assert run["games"] == len(run["results"])
