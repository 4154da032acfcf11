"""Drive ``glade play`` in a pseudo-terminal of 80x24 (pexpect) and read what the screen shows."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
REPRS = ("{'", "['", "None", "Traceback", "True", "False", "<glade", "dict(")


def spawn(
    *args: str, lang: str = "C.UTF-8", cols: int = 80, rows: int = 24, command: str = "play"
) -> pexpect.spawn:
    env = dict(os.environ, COLUMNS=str(cols), LINES=str(rows), TERM="xterm", LC_ALL=lang, LANG=lang)
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "glade.cli", command, *args],
        cwd=str(ROOT),
        env=env,
        dimensions=(rows, cols),
        encoding="utf-8",
        timeout=120,
    )
    return child


class Screen:
    """What a terminal of ``cols`` x ``rows`` shows (pyte emulates it) for the output of a
    pseudo-terminal child, fed as it comes: the lines a player sees, and all that was printed."""

    def __init__(self, child: pexpect.spawn, cols: int, rows: int) -> None:
        import pyte

        self.child = child
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.text = ""

    def expect(self, pattern: object, timeout: float = 120) -> int:
        k: int = self.child.expect(pattern, timeout=timeout)
        for part in (self.child.before, self.child.after):
            if isinstance(part, str):
                self.stream.feed(part.replace("\n", "\r\n").replace("\r\r\n", "\r\n"))
                self.text += part
        return k

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def lines(self) -> list[str]:
        """The screen now, row by row (wide characters take their two cells)."""
        return [row.rstrip() for row in self.screen.display]

    def shown(self) -> str:
        return "\n".join(self.lines())


def clean(text: str) -> str:
    return ANSI.sub("", text)


MENU = re.compile(r"(?:^|\s)(\d+)\) ")


def play_out(child: pexpect.spawn, save: str = "", limit: int = 4000) -> str:
    """Answer every move prompt with the lowest menu number shown (asking for the menu when it is
    not) until the game is over; the whole screen text."""
    screen = []
    for _ in range(limit):
        k = child.expect(
            [r"\n> ", r"\[Y/n\] ", r"\(Enter to skip\): ", r"Enter\): |跳过）：", pexpect.EOF]
        )
        chunk = clean(child.before or "")
        screen.append(chunk)
        if k == 0:
            numbers = [int(n) for n in MENU.findall(chunk.split("> ")[-1])]
            child.sendline(str(min(numbers)) if numbers else "menu")
        elif k == 1:
            child.sendline("y")
        elif k in (2, 3):
            child.sendline(save)
        else:
            break
    child.close()
    return "\n".join(screen)
