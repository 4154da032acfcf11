"""The terminal client: bots play whole games, a human's typed moves are applied, mistakes explained."""

from __future__ import annotations

import argparse
import io

import pytest
from rich.console import Console

from glade.cli import main
from glade.terminal.harmonies import play_harmonies


def run(seats: str, inputs: list[str], seed: int = 5, spirits: bool = False) -> str:
    feed = iter(inputs)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    console = Console(file=out, width=160, highlight=False, soft_wrap=True)
    args = argparse.Namespace(seats=seats, seed=seed, side="A", spirits=spirits)
    pytest.MonkeyPatch().setattr("builtins.input", fake_input)
    assert play_harmonies(args, console) == 0
    return out.getvalue()


def test_bots_play_a_whole_game_to_the_result() -> None:
    text = run("random,random", [])
    assert "Game over." in text and ("Winner:" in text or "Shared victory" in text)
    assert "seat 1 (random):" in text


def test_human_moves_are_applied_undone_and_mistakes_explained() -> None:
    text = run("you,random", ["1", "1", "undo", "zzz", "99", "quit"])
    assert "take space 0" in text
    assert "Undone." in text
    assert "'zzz' is not a move number" in text and "'99' is not a move number" in text
    assert "Game left unfinished." in text


def test_solo_with_spirits_starts_with_the_spirit_choice() -> None:
    text = run("you", ["quit"], spirits=True)
    assert "keep the" in text and "Spirit" in text
    assert "spirit offer:" in text


def test_bad_seats_are_one_sentence_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "harmonies", "--seats", "you,wizard"]) == 2
    assert "unknown seat 'wizard'" in capsys.readouterr().err
    assert main(["play", "harmonies", "--seats", "you,random,random,random,random"]) == 2
    assert "1 to 4 seats" in capsys.readouterr().err


def test_bench_prints_a_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["bench", "harmonies", "--games", "5", "--players", "3", "--side", "B"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    report = json.loads(last)
    assert report["games"] == 5 and report["games_per_s"] > 0 and report["mean_score"] > 0
    assert report["options"] == {"players": 3, "side": "B", "spirits": False}
