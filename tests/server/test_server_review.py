"""The review routes: only for a finished game, run in the bot workers, stored for everyone,
kept across a restart, and the position after a decision's best alternative."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient
from server_support import bearer, db_url, make_settings, new_table, pg_url, play_random  # noqa: F401

from glade.server import create_app


def wait_done(c: TestClient, game_id: str) -> dict[str, Any]:
    body: dict[str, Any] = {}
    seen_progress = False
    for _ in range(6000):  # polls, as the browser does, until the workers are done
        body = c.get(f"/api/games/{game_id}/review").json()
        if body["status"] == "running" and body["total"] and body["done"] < body["total"]:
            seen_progress = True
        if body["status"] != "running":
            break
        time.sleep(0.1)
    assert body["status"] == "done", body
    body["seen_progress"] = seen_progress
    return body


def test_a_review_is_stored_once_and_kept_across_a_restart(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(make_settings(db_url))) as c:
        c.app.state.services.reviews.samples = 1  # type: ignore[attr-defined]
        game_id, tokens = new_table(c, "harmonies", humans=2, options={"players": 2})
        r = c.post(f"/api/games/{game_id}/review")
        assert r.status_code == 409 and "finished" in r.json()["error"]
        assert c.get(f"/api/games/{game_id}/review").json()["status"] == "none"
        play_random(c, game_id, tokens, random.Random(2))
        r = c.post(f"/api/games/{game_id}/review")
        assert r.status_code == 200 and r.json()["status"] in ("running", "done")
        body = wait_done(c, game_id)
        review = body["review"]
        assert review["game"] == "harmonies" and body["done"] == body["total"] == len(
            review["turns"]
        )
        assert len(review["summary"]) == 2 and review["series"]
        # asked again (by anyone, no token), the same stored review comes back, not a new run
        again = c.post(f"/api/games/{game_id}/review").json()
        assert again["status"] == "done" and again["review"] == review
        assert c.get("/api/games/nosuchgame/review").status_code == 404
        # the best alternative of a decision that was not the best, as a position to draw
        k = next((t["index"] for t in review["turns"] if not t["is_best"]), 0)
        alt = c.get(f"/api/games/{game_id}/review/{k}/best")
        assert alt.status_code == 200, alt.text
        played = c.get(f"/api/games/{game_id}/past/{alt.json()['move']}").json()["view"]
        if not review["turns"][k]["is_best"]:
            assert alt.json()["view"]["boards"] != played["boards"]
        assert c.get(f"/api/games/{game_id}/review/9999/best").status_code == 422
        assert c.get(f"/api/games/{game_id}/review/x/best").status_code == 422
    # a new server process on the same database shows the stored review without working it out
    with TestClient(create_app(make_settings(db_url))) as c2:
        c2.app.state.services.reviews.samples = 1  # type: ignore[attr-defined]
        stored = c2.get(f"/api/games/{game_id}/review").json()
        assert stored["status"] == "done" and stored["review"] == review
        assert c2.post(f"/api/games/{game_id}/review").json()["review"] == review
    assert bearer(None) == {}


def test_living_forest_review_runs_in_the_workers(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(make_settings(db_url))) as c:
        c.app.state.services.reviews.samples = 1  # type: ignore[attr-defined]
        game_id, tokens = new_table(c, "living-forest", humans=2, options={"players": 2})
        play_random(c, game_id, tokens, random.Random(3))
        assert c.post(f"/api/games/{game_id}/review").status_code == 200
        body = wait_done(c, game_id)
        kinds = {t["kind"] for t in body["review"]["turns"]}
        assert kinds <= {"actions", "draw"} and "actions" in kinds
        assert (
            c.get(f"/api/games/{game_id}/review/0/best").json()["view"]["game"] == "living-forest"
        )
