"""``glade review`` prints a review and writes it as JSON, for a saved game of each game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import glade
from glade.bots import make_bot
from glade.cli import main
from glade.core import Game
from glade.review_cli import from_server_log


def finished(name: str, seed: int) -> Game:
    g = glade.new_game(name, seed=seed, players=2)
    bots = [make_bot("greedy", name, seed=i) for i in range(2)]
    while not g.is_over:
        s = g.to_act[0]
        for a in bots[s].choose(g, s):
            g.apply(s, a)
    return g


@pytest.mark.parametrize(("name", "wrap"), [("harmonies", "game"), ("living-forest", None)])
def test_review_prints_and_writes_json(
    name: str, wrap: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = finished(name, 5)
    saved = {wrap: g.to_json(), "saved_by": "glade play"} if wrap else g.to_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    out = tmp_path / "review.json"
    assert main(["review", str(path), "--samples", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "summary" in printed and "accuracy" in printed
    data = json.loads(out.read_text())
    assert data["game"] == name and data["turns"] and len(data["summary"]) == 2
    assert data["turns"][0]["mark"] in printed


def test_review_refuses_an_unfinished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"state": glade.new_game("harmonies", seed=1, players=2).to_json()}))
    assert main(["review", str(path)]) == 2
    assert "not over" in capsys.readouterr().err


def test_a_server_log_rebuilds_the_game() -> None:
    g = finished("living-forest", 6)
    log = {
        "over": True,
        "seed": g.seed,
        "game": "living-forest",
        "options": g.options,
        "moves": g.log_json(None),
    }
    assert from_server_log(log).fingerprint() == g.fingerprint()


@pytest.mark.parametrize(("lang", "word"), [("ko", "복기"), ("zh", "复盘")])
def test_review_speaks_the_chosen_language(
    lang: str, word: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = finished("harmonies", 8)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.to_json()))
    assert main(["review", str(path), "--samples", "1", "--lang", lang]) == 0
    printed = capsys.readouterr().out
    assert word in printed
    assert "take space" not in printed and ("중앙판" in printed or "公共版图" in printed)
