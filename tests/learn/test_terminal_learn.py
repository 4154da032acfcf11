"""``glade rules`` and ``glade learn`` in a real pseudo-terminal of 80x24 (pexpect), in English,
Korean and Chinese: the rules paged and whole, the guided games step by step with a refused move
explained, progress kept and resumed, and a guided game played to its end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from glade.learn import rules
from glade.learn.tutorial import Tutorial

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
LANGS = ("en", "ko", "zh")
TYPE = {"en": "Type: ", "ko": "입력: ", "zh": "输入："}
MENU = re.compile(r"(?:^|\s)(\d+)\) ")
REPRS = ("{'", "['", "None", "Traceback", "<glade", "dict(")


def spawn(*args: str, env: dict[str, str] | None = None) -> pexpect.spawn:
    full = dict(
        os.environ, COLUMNS="80", LINES="24", TERM="xterm", LC_ALL="C.UTF-8", LANG="C.UTF-8"
    )
    full.pop("NO_COLOR", None)
    full.update(env or {})
    return pexpect.spawn(
        sys.executable,
        ["-m", "glade.cli", *args],
        cwd=str(ROOT),
        env=full,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=120,
    )


def clean(text: str) -> str:
    return ANSI.sub("", text)


def cells(text: str) -> int:
    """The terminal cells a line takes (CJK characters take two)."""
    return sum(
        2
        if re.match(r"[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]", ch)
        else 1
        for ch in text
    )


# ------------------------------------------------------------------ glade rules
@pytest.mark.parametrize("game", ["harmonies", "living-forest"])
@pytest.mark.parametrize("lang", LANGS)
def test_rules_printed_whole_when_not_a_terminal(game: str, lang: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "glade.cli", "rules", game, "--lang", lang],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ, COLUMNS="80"),
        check=True,
    ).stdout
    page = rules(game, lang)
    for s in page["sections"]:
        assert s["title"] in out, s["id"]
        assert f"({s['id']})" in out
    for line in out.splitlines():
        assert cells(line.rstrip()) <= 80, line
    for bad in REPRS:
        assert bad not in out
    assert "\x1b[" not in out


@pytest.mark.parametrize("lang", LANGS)
def test_rules_are_paged_in_a_terminal(lang: str) -> None:
    page = rules("living-forest", lang)
    child = spawn("rules", "living-forest", "--lang", lang, env={"PAGER": "less -R"})
    child.expect_exact(page["title"])
    child.expect(r"\r\n:|\(END\)")  # less waits at the bottom of the first screen
    first = clean(child.before or "")
    last = f"({page['sections'][-1]['id']})"
    assert last not in first  # longer than a screen: paged
    child.send("G")  # to the end
    child.expect_exact(last)
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_rules_refuse_an_unknown_language_with_a_sentence() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "glade.cli", "rules", "harmonies", "--lang", "fr"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "unknown language 'fr'" in r.stderr and "Traceback" not in r.stderr


# ------------------------------------------------------------------ glade learn
def follow(
    child: pexpect.spawn, lang: str, wrong: str | None = None, until: str | None = None
) -> list[str]:
    """Type each step's words until the guided part ends (the game's own prompt comes) or a
    screen shows ``until`` (then quit); the first step gets ``wrong`` first. The screens."""
    screens = []
    while True:
        k = child.expect([r"\n> ", pexpect.EOF])
        screen = clean(child.before or "")
        screens.append(screen)
        if k == 1:
            break
        typed = [line for line in screen.splitlines() if line.startswith(TYPE[lang])]
        if not typed:
            child.sendline("menu")  # free play: the game's own prompt (its menu, then again)
            break
        if wrong is not None:
            child.sendline(wrong)
            wrong = None
            continue
        if until is not None and until in screen:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            screens.append(clean(child.before or ""))
            break
        words = re.split(r"\s*[(（]", typed[-1][len(TYPE[lang]) :])[0].strip()
        child.sendline(words)
    return screens


@pytest.mark.parametrize("game", ["harmonies", "living-forest"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_guided_game_steps_through_in_every_language(game: str, lang: str) -> None:
    t = Tutorial(game)
    wrong = "take 1" if game == "harmonies" else "stop"
    child = spawn("learn", game, "--lang", lang)
    screens = follow(child, lang, wrong=wrong)
    text = "\n".join(screens)
    assert t.text("intro", lang)[:20] in text
    explanation = t.explain(lang)
    assert explanation is not None and explanation[:15] in text.replace(
        "\n", ""
    )  # refused, explained
    assert t.text("free", lang)[:15] in text.replace("\n", "")
    count = len(t.steps())
    for k in (1, count):
        label = {
            "en": f"Step {k} of {count}",
            "ko": f"{count}단계 중 {k}단계",
            "zh": f"第 {k} 步，共 {count} 步",
        }[lang]
        assert label in text
    for bad in REPRS:
        assert bad not in text, bad
    if lang != "en":
        assert "Step " not in text and "Type: " not in text
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


def test_progress_is_kept_and_resumed(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    child = spawn("learn", "living-forest", "--lang", "en", "--progress", str(path))
    text = "\n".join(follow(child, "en", until="Step 4 of"))
    assert "Step 3 of" in text and "Step 4 of" in text and path.exists()
    child.close()
    child = spawn("learn", "living-forest", "--lang", "en", "--progress", str(path))
    child.expect(r"\n> ")
    screen = clean(child.before or "")
    assert f"Resumed from {path}" in screen.replace("\n", "") and "Step 4 of" in screen
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


@pytest.mark.parametrize(("game", "lang"), [("harmonies", "zh"), ("living-forest", "ko")])
def test_a_guided_game_is_played_to_its_end(game: str, lang: str) -> None:
    child = spawn("learn", game, "--lang", lang)
    screens = follow(child, lang)
    for _ in range(4000):  # free play: the lowest menu number each time, as a newcomer might
        k = child.expect(
            [r"\n> ", r"\[Y/n\] ", r"\(Enter to skip\): |Enter\): |跳过）：|：\s*$", pexpect.EOF]
        )
        chunk = clean(child.before or "")
        screens.append(chunk)
        if k == 0:
            numbers = [int(n) for n in MENU.findall(chunk.split("> ")[-1])]
            child.sendline(str(min(numbers)) if numbers else "menu")
        elif k == 1:
            child.sendline("y")
        elif k == 2:
            child.sendline("")
        else:
            break
    child.close()
    text = "\n".join(screens)
    end = {"zh": "游戏结束", "ko": "게임 종료"}[lang]
    assert end in text or "게임이 끝" in text, text[-2000:]
