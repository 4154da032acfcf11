"""Issue 30, failure 4: reviews (and hints) have their own bounded queue and workers, so a flood
of them never starves a bot's move; a review says where it stands while it waits.

The review decisions are held at a gate the test opens: a bot at another table plays its turns
while every review is still held (were reviews and bots to share workers, the bot's move would
wait behind the held decisions until they gave up after 20 s, and the test would fail by order,
not by time).
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_support import (  # noqa: F401
    bearer,
    db_url,
    gated_judge,
    make_settings,
    new_table,
    pg_url,
    play_one_move,
    wait_until,
)

from glade.server import create_app
from glade.server.features import reviews as reviews_module


def finished_tables(c: TestClient, n: int) -> list[str]:
    """``n`` tables of two random bots, played to their end."""
    ids = [new_table(c, "harmonies", humans=0, bots=("random", "random"))[0] for _ in range(n)]
    wait_until(
        lambda: all(c.get(f"/api/games/{gid}").json()["over"] for gid in ids),
        what="the bots' games ending",
    )
    return ids


def test_a_review_flood_is_bounded_and_never_delays_a_bot(
    db_url: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setattr(reviews_module, "judge_position", partial(gated_judge, str(gate)))
    settings = make_settings(
        db_url, review_queue=4, reviews_per_client=100, bot_workers=1, hint_workers=1
    )
    with TestClient(create_app(settings)) as c:
        c.app.state.services.reviews.samples = 1  # type: ignore[attr-defined]
        ids = finished_tables(c, 20)
        answers = [c.post(f"/api/games/{gid}/review") for gid in ids]
        statuses = [r.status_code for r in answers]
        assert statuses.count(200) == 4 and statuses.count(503) == 16, statuses
        busy = next(r.json() for r in answers if r.status_code == 503)
        assert busy["code"] == "server.review.busy" and busy["error"].startswith("The server")
        started = [gid for gid, r in zip(ids, answers, strict=True) if r.status_code == 200]
        wait_until(lambda: (gate / "judging").exists(), what="the first review decision")

        # the reviews behind the first say they wait, and how many jobs go before them (once
        # each has found its decisions and asked for a worker)
        def progress() -> list[dict[str, object]]:
            return [c.get(f"/api/games/{gid}/review").json() for gid in started]

        waiting = wait_until(
            lambda: (
                (found := progress())
                and sorted(p["queued"] for p in found) == [0, 0, 1, 2]
                and found
            ),
            what="the reviews queueing",
        )
        assert all(p["status"] == "running" and p["done"] == 0 for p in waiting)
        # a greedy bot at another table plays turn after turn while every review is held
        game_id, tokens = new_table(c, "harmonies", humans=1, bots=("greedy",))
        rng = random.Random(7)
        for _ in range(3):
            wait_until(
                lambda: c.get(f"/api/games/{game_id}").json()["to_act"] == [0],
                what="the bot's turn",
            )
            mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
            version = mine["version"]
            while 0 in mine["to_act"]:  # the human's whole turn
                play_one_move(c, game_id, tokens, rng)
                mine = c.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
            assert mine["version"] > version
        wait_until(
            lambda: c.get(f"/api/games/{game_id}").json()["to_act"] == [0],
            what="the bot's third turn",
        )
        log = c.get(f"/api/games/{game_id}/log").json()["history"]
        assert sum(1 for h in log if h["seat"] == 1) >= 3  # the bot moved, reviews still held
        assert not (gate / "released").exists() and not (gate / "gave-up").exists()
        (gate / "go").touch()


def test_one_review_at_a_time_per_player(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setattr(reviews_module, "judge_position", partial(gated_judge, str(gate)))
    with TestClient(create_app(make_settings(db_url))) as c:
        c.app.state.services.reviews.samples = 1  # type: ignore[attr-defined]
        first, second = finished_tables(c, 2)
        assert c.post(f"/api/games/{first}/review").status_code == 200
        r = c.post(f"/api/games/{second}/review")
        assert r.status_code == 429 and r.json()["code"] == "server.review.pending"
        # asking about the running one again is no new review: its progress comes back
        again = c.post(f"/api/games/{first}/review")
        assert again.status_code == 200 and again.json()["status"] == "running"
        (gate / "go").touch()
        wait_until(
            lambda: c.get(f"/api/games/{first}/review").json()["status"] == "done",
            seconds=300,
            what="the first review",
        )
        assert c.post(f"/api/games/{second}/review").status_code == 200  # its turn now
