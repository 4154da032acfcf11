"""``glade review`` prints a review and writes it as JSON, for a saved game of each game."""

from __future__ import annotations

import json
import re
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
    # moves in the words the player types, colours in the screen's language
    colours = {
        "ko": ("회색", "파랑", "갈색", "초록", "노랑", "빨강"),
        "zh": ("灰色", "蓝色", "棕色"),
    }
    assert "take space" not in printed and re.search(r"take \d", printed)
    assert "place" in printed and any(c in printed for c in colours[lang])


def test_review_speaks_as_the_game_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: the players by the names the save holds, moves in the words typed at the game
    (cells as the board labels them, column,row from 1), the early Living Forest draws listed as
    not judged (with why), and a header with the seed and the final score."""
    from glade.terminal.harmonies import _coords

    g = finished("harmonies", 9)
    path = tmp_path / "h.json"
    path.write_text(json.dumps({"names": ["Ada", "Greedy bot"], "state": g.to_json()}))
    assert main(["review", str(path), "--samples", "1", "--lang", "en"]) == 0
    printed = capsys.readouterr().out
    assert "Ada" in printed and "player 1" not in printed
    assert f"Seed {g.seed}. Final score: Ada {g.result()['scores'][0]}" in printed
    to_player = _coords("A")[0]
    placed = [e["action"]["cell"] for e in g.log_json(None) if e["action"]["type"] == "place_token"]
    assert any(f"{to_player[c]}" in printed for c in placed)
    assert not any(f" on {c} " in printed for c in placed if c not in to_player.values())
    lf = finished("living-forest", 5)
    path = tmp_path / "lf.json"
    path.write_text(json.dumps({"names": ["Ada", "Bo"], "state": lf.to_json()}))
    assert main(["review", str(path), "--samples", "1", "--lang", "en"]) == 0
    printed = capsys.readouterr().out
    assert "not judged" in printed and "Not judged: draws that could not end the drawing" in printed
    assert "draw ; draw" in printed
