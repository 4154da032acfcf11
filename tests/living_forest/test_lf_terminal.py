"""The terminal client: a whole bot game through it, and a few human moves."""

from types import SimpleNamespace

import pytest

from glade.core.errors import BadInput
from glade.terminal.living_forest import parse_seats, play_living_forest


def test_random_random_game_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    code = play_living_forest(SimpleNamespace(seats="random,greedy", seed=3))
    out = capsys.readouterr().out
    assert code == 0
    assert "Game over" in out and "Winner(s): spirit" in out


def test_random_random(capsys: pytest.CaptureFixture[str]) -> None:
    assert play_living_forest(SimpleNamespace(seats="random,random", seed=5)) == 0
    assert "Game over" in capsys.readouterr().out


def test_human_moves_undo_and_quit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["1", "1", "banana", "99", "2", "undo", "2", "1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = play_living_forest(SimpleNamespace(seats="you,random", seed=1))
    out = capsys.readouterr().out
    assert code == 0 and out.rstrip().endswith("bye")
    assert "draw a card" in out and "stop drawing" in out
    assert "type a number from 1 to" in out
    assert "help line (solitary" in out and "forest row 1" in out


def test_end_of_input_quits(monkeypatch: pytest.MonkeyPatch) -> None:
    def eof(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    assert play_living_forest(SimpleNamespace(seats=None, seed=2)) == 0


def test_seat_parsing() -> None:
    assert parse_seats(None) == ["you", "greedy"]
    assert parse_seats("you,mcts:easy,random") == ["you", "mcts:easy", "random"]
    with pytest.raises(BadInput, match="2 to 4 seats"):
        parse_seats("you")
    with pytest.raises(BadInput, match="unknown seat"):
        parse_seats("you,wizard")
