"""The review routes: only for a finished game, run off the event loop, kept for everyone."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient
from server_support import bearer, client, db_url, new_table, pg_url, play_random  # noqa: F401


def test_a_finished_game_is_reviewed_and_the_review_is_kept(client: TestClient) -> None:  # noqa: F811
    client.app.state.review_samples = 1  # type: ignore[attr-defined]
    game_id, tokens = new_table(client, "living-forest", humans=2, options={"players": 2})
    r = client.post(f"/api/games/{game_id}/review")
    assert r.status_code == 409 and "finished" in r.json()["error"]
    assert client.get(f"/api/games/{game_id}/review").json()["status"] == "none"
    play_random(client, game_id, tokens, random.Random(2))
    r = client.post(f"/api/games/{game_id}/review")
    assert r.status_code == 200 and r.json()["status"] in ("running", "done")
    body = r.json()
    for _ in range(3000):  # polls, as the browser does, until the worker is done
        body = client.get(f"/api/games/{game_id}/review").json()
        if body["status"] != "running":
            break
        time.sleep(0.1)
    assert body["status"] == "done", body
    review = body["review"]
    assert review["game"] == "living-forest" and body["done"] == body["total"] == len(
        review["turns"]
    )
    assert len(review["summary"]) == 2 and review["series"]
    # asked again (by anyone, no token), the same stored review comes back, not a new run
    again = client.post(f"/api/games/{game_id}/review").json()
    assert again["status"] == "done" and again["review"] == review
    assert client.get("/api/games/nosuchgame/review").status_code == 404
    assert bearer(None) == {}
