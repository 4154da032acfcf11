"""Bot seats think off the event loop: a slow bot never delays other tables."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_support import make_settings, new_table, play_one_move, sleepy_choose

from glade.server import botrunner as botrunner_module
from glade.server import create_app


def test_a_thinking_bot_does_not_hold_up_other_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(botrunner_module, "choose_actions", sleepy_choose)
    monkeypatch.setattr(botrunner_module, "FAST_BOTS", set())
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'b.db'}"))) as c:
        slow_id, _ = new_table(c, "harmonies", humans=0, bots=("random", "random"))
        time.sleep(0.3)  # the slow bot is thinking now (in a worker process)
        game_id, tokens = new_table(c, "harmonies")
        rng = random.Random(4)
        started = time.perf_counter()
        for _ in range(10):
            play_one_move(c, game_id, tokens, rng)
        elapsed = time.perf_counter() - started
        assert elapsed < 1.0, f"10 moves took {elapsed:.2f} s next to a thinking bot"
        assert c.get(f"/api/games/{slow_id}").json()["version"] == 0  # it really was thinking
        deadline = time.monotonic() + 10
        while c.get(f"/api/games/{slow_id}").json()["version"] == 0:
            assert time.monotonic() < deadline, "the slow bot never moved"
            time.sleep(0.1)


def test_unknown_and_uninstalled_bots_are_refused_with_a_sentence(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'u.db'}"))) as c:
        r = c.post(
            "/api/games",
            json={"game": "harmonies", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "hal"}]},
        )
        assert r.status_code == 422 and "unknown bot 'hal'" in r.json()["error"]
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
