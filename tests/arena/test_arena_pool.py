"""``glade arena pool``: several runs' --json reports as one sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from glade.arena.cli import main
from glade.arena.stats import mean_ci, wilson


def _run(tmp_path: Path, seed: int, games: int, bots: str = "greedy,random") -> Path:
    out = tmp_path / f"run-{seed}-{bots.replace(',', '-')}.json"
    argv = ["living-forest", "--bots", bots, "--games", str(games), "--seed", str(seed)]
    assert main([*argv, "--quiet", "--json", str(out)]) == 0
    return out


def test_pooled_report_counts_every_game_of_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _run(tmp_path, 1, 3), _run(tmp_path, 2, 4)
    pooled = tmp_path / "pooled.json"
    assert main(["pool", str(a), str(b), "--json", str(pooled)]) == 0
    assert "7 games pooled from 2 reports" in capsys.readouterr().out
    rep = json.loads(pooled.read_text())
    runs = [json.loads(p.read_text()) for p in (a, b)]
    assert rep["games"] == 7 and rep["seeds"] == [1, 2]
    for label in ("greedy", "random"):
        wins = sum(r["results"]["bots"][label]["wins"] for r in runs)
        scores = [rec[2][rec[1].index(label)] for r in runs for rec in r["results"]["scores"]]
        entry = rep["results"]["bots"][label]
        assert entry["games"] == 7 and entry["wins"] == wins
        lo, hi = wilson(wins, 7)
        assert entry["win_ci95"] == [round(lo, 4), round(hi, 4)]
        mean, half = mean_ci(scores)
        assert entry["score"] == {"mean": round(mean, 3), "ci95": round(half, 3)}


def test_pool_refuses_reports_of_different_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _run(tmp_path, 1, 1)
    b = _run(tmp_path, 1, 1, bots="random,greedy")
    assert main(["pool", str(a), str(b)]) == 2
    err = capsys.readouterr().err.strip()
    assert "only runs of the same match pool" in err and "\n" not in err
    junk = tmp_path / "junk.json"
    junk.write_text('{"game": 1}')
    assert main(["pool", str(junk)]) == 2
    assert "is not a glade arena --json report" in capsys.readouterr().err
    assert main(["pool", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
