"""``glade serve`` refuses bad flags and databases with one sentence and exit code 2."""

from __future__ import annotations

import pytest

from glade.server.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--db", "mysql://x/y"], "neither sqlite"),
        (["--db", "postgresql://postgres@127.0.0.1:1/none?connect_timeout=2"], "cannot open"),
        (["--port", "70000", "--db", "sqlite:///{tmp}/a.db"], "--port"),
        (["--bot-workers", "0", "--db", "sqlite:///{tmp}/a.db"], "--bot-workers"),
        (["--messages-per-second", "-1", "--db", "sqlite:///{tmp}/a.db"], "--messages-per-second"),
    ],
)
def test_serve_refuses_bad_settings_with_a_sentence(
    argv: list[str], words: str, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("glade: ") and words in err and err.count("\n") == 1
