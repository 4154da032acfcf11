"""Both clients in a real pseudo-terminal of 80x24: whole games, what the screen says about them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import glade

from .pty_helpers import REPRS, clean, play_out, spawn

pytest.importorskip("pexpect")


def _no_reprs(text: str) -> None:
    for bad in REPRS:
        assert bad not in text, f"{bad!r} on screen"


def _bot_lines_follow_the_log(text: str, data: dict[str, Any]) -> int:
    """Every "Greedy bot: took space N [..]" and "took card N, the X" on screen is the bot's move
    as the game's log has it (the tokens the space held, the card the slot held), in order."""
    from glade.terminal.harmonies import LETTER, _cards

    log = glade.load_game(data["state"]).log_json(None)
    bot = [e for e in log if e["seat"] == 1]
    takes = [
        (str(e["action"]["space"] + 1), " ".join(LETTER[c] for c in e["chance"]["taken"]))
        for e in bot
        if e["action"]["type"] == "take_tokens"
    ]
    assert re.findall(r"Greedy bot: took space (\d) \[([^\]]*)\]", text) == takes
    cards = [
        (str(e["action"]["slot"] + 1), _cards()[e["chance"]["card"]]["name"])
        for e in bot
        if e["action"]["type"] == "take_card"
    ]
    assert (
        re.findall(r"Greedy bot: took card (\d), the ([A-Za-z' ]+?)(?:\s*$|\r?\n)", text, re.M)
        == cards
    )
    return len(takes) + len(cards)


def test_harmonies_whole_game_against_greedy(tmp_path: Path) -> None:
    save = tmp_path / "h.json"
    child = spawn("harmonies", "--seats", "you,greedy", "--seed", "11", "--plain")
    text = play_out(child, save=str(save))
    _no_reprs(text)
    assert "Game over" in text and ("Winner: " in text or "Shared victory" in text)
    assert "Last round:" in text or "The game ends now:" in text
    # the menu lists every space's tokens, as the board shows them
    menus = [b for b in text.split("Central board:")[1:] if ") take " in b]
    assert len(menus) > 5
    for block in menus:
        spaces = re.findall(r"(\d)\[([^\]]*)\]", block.splitlines()[0])
        for n, toks in spaces:
            if toks:
                assert f") take {n} [{toks}]" in block
    data = json.loads(save.read_text())
    assert _bot_lines_follow_the_log(text, data) >= 5
    assert data["format"] == "glade-saved-game/1" and data["names"] == ["You", "Greedy bot"]
    assert glade.load_game(data["state"]).is_over


def test_harmonies_typed_moves_and_their_errors() -> None:
    child = spawn("harmonies", "--seats", "you,greedy", "--seed", "4", "--plain")
    child.expect(r"\n> ")
    child.sendline("take 9")
    child.expect(r"\n> ")
    assert "Refused:" in clean(child.before)
    child.sendline("zzz")
    child.expect(r"\n> ")
    assert "'zzz' is not a move you can make now" in clean(child.before)
    child.sendline("99")
    child.expect(r"\n> ")
    assert "There is no move 99 in this menu." in clean(child.before)
    child.sendline("take 2")
    child.expect(r"\n> ")
    assert "You: took space 2 [M T t] (gray, green, brown)" in clean(child.before)
    child.sendline("place green 9,9")
    child.expect(r"\n> ")
    assert "Refused: the cell 9,9 is not on side A of the board." in clean(child.before)
    child.sendline("place green 1,1 gray 1,2")
    child.expect(r"\n> ")
    out = clean(child.before)
    assert "You: placed green on 1,1 -> T1" in out and "You: placed gray on 1,2 -> M1" in out
    assert "1,1[T1 ]" in out and "21 empty cells" in out
    child.sendline("undo")
    child.expect(r"\n> ")
    assert "Undone." in clean(child.before)
    child.sendline("plac\t\t")  # completion: "place " then the choices
    child.sendline("")
    child.expect(r"\n> ")
    child.sendline("quit")
    child.expect("Game left unfinished.")
    child.close()


def test_living_forest_whole_game_against_greedy(tmp_path: Path) -> None:
    save = tmp_path / "lf.json"
    child = spawn("living-forest", "--seats", "you,greedy", "--seed", "2")  # in colour
    text = play_out(child, save=str(save))
    _no_reprs(text)
    assert "End of round 1:" in text and "Onibi" in text
    assert "Last round:" in text
    assert "Game over" in text and ("Winner: " in text or "Shared victory" in text)
    assert re.search(r"Choose an action \([12] left", text)
    assert not re.search(r"Choose an action \(0 left", text)
    assert re.search(r"Greedy bot: drew [A-Z]", text)
    assert glade.load_game(json.loads(save.read_text())["state"]).is_over


def test_korean_and_chinese() -> None:
    child = spawn("harmonies", "--seats", "you,greedy", "--seed", "4", "--plain", "--lang", "ko")
    child.expect(r"\n> ")
    assert "중앙판:" in clean(child.before)
    child.sendline("take 2")
    child.expect(r"\n> ")
    assert "나: 2번 칸 [M T t] (회색, 초록, 갈색) 가져감" in clean(child.before)
    child.sendline("quit")
    child.expect(pexpect_eof())
    child.close()
    # Chinese from the locale, a whole game of bots
    child = spawn(
        "living-forest", "--seats", "greedy,random", "--seed", "3", "--plain", lang="zh_CN.UTF-8"
    )
    text = play_out(child)
    _no_reprs(text)
    assert "第 1 轮结束：" in text and "鬼火" in text and "游戏结束" in text and "获胜" in text


def pexpect_eof() -> object:
    import pexpect

    return pexpect.EOF


def test_why_explains_your_score() -> None:
    """``why`` prints the one scorer's parts of your board by category, in the hints' words: in
    Harmonies a tree of 1 scores 1 and a lone mountain nothing; in Living Forest (Korean) the
    starting tree and each victory tile count one."""
    child = spawn("harmonies", "--seats", "you,greedy", "--seed", "4", "--plain")
    child.expect(r"\n> ")
    child.sendline("why")
    child.expect(r"\n> ")
    assert "Nothing scores yet." in clean(child.before)
    child.sendline("take 2")
    child.expect(r"\n> ")
    child.sendline("place green 1,1 gray 1,2")
    child.expect(r"\n> ")
    child.sendline("why")
    child.expect(r"\n> ")
    out = clean(child.before)
    assert "Your score, explained: 1" in out
    assert "Trees 1: tree of 1 on 1,1: +1" in out
    assert "Mountains" not in out  # a mountain with no neighbouring mountain scores nothing
    child.sendline("quit")
    child.expect(pexpect_eof())
    child.close()
    child = spawn(
        "living-forest", "--seats", "you,greedy", "--seed", "3", "--plain", "--lang", "ko"
    )
    child.expect(r"\n> ")
    child.sendline("why")
    child.expect(r"\n> ")
    out = clean(child.before)
    assert "내 점수 풀이: 4" in out  # the starting tree and the three victory tiles
    assert "보호수 2: 시작 보호수: +1; 승리 타일: +1" in out and "신성한 꽃 1: 승리 타일: +1" in out
    child.sendline("quit")
    child.expect(pexpect_eof())
    child.close()
