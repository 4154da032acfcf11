"""Bot seats think off the event loop: a slow bot never delays other tables."""

from __future__ import annotations

import random
import time
from functools import partial
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_support import gated_choose, make_settings, new_table, play_one_move

from glade.server import create_app
from glade.server.features import bots as bots_module


def test_a_thinking_bot_does_not_hold_up_other_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that thinks until the test lets it go: another table's moves are all answered
    while its turn is still pending, so its thinking is off the event loop (were it on the
    loop, no move could be answered before it gave up waiting and moved first)."""
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setattr(bots_module, "choose_actions", partial(gated_choose, str(gate)))
    monkeypatch.setattr(bots_module, "FAST_BOTS", set())
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'b.db'}"))) as c:
        slow_id, _ = new_table(c, "harmonies", humans=0, bots=("random", "random"))
        deadline = time.monotonic() + 60  # the worker process starts (a bound against a hang)
        while not (gate / "thinking").exists():
            assert time.monotonic() < deadline, "the slow bot never started thinking"
            time.sleep(0.01)
        game_id, tokens = new_table(c, "harmonies")
        rng = random.Random(4)
        for _ in range(10):
            play_one_move(c, game_id, tokens, rng)
        assert c.get(f"/api/games/{game_id}").json()["version"] == 10
        # the bot is still thinking: its table has not moved and it has not given up waiting
        assert c.get(f"/api/games/{slow_id}").json()["version"] == 0
        assert not (gate / "gave-up").exists() and not (gate / "released").exists()
        (gate / "go").touch()
        deadline = time.monotonic() + 60
        while c.get(f"/api/games/{slow_id}").json()["version"] == 0:
            assert time.monotonic() < deadline, "the slow bot never moved"
            time.sleep(0.05)
        assert (gate / "released").exists() and not (gate / "gave-up").exists()


def test_unknown_and_uninstalled_bots_are_refused_with_a_sentence(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'u.db'}"))) as c:
        r = c.post(
            "/api/games",
            json={"game": "harmonies", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "hal"}]},
        )
        assert r.status_code == 422 and "Unknown bot 'hal'" in r.json()["error"]
        from glade.bots import BOTS

        for name in BOTS:
            r = c.post(
                "/api/games",
                json={
                    "game": "harmonies",
                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": name}],
                },
            )
            assert r.status_code in (201, 422), r.text
            if r.status_code == 422:
                assert "not installed" in r.json()["error"] or name in r.json()["error"]
