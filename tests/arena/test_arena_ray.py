"""The Ray backend on a local Ray instance started by the test."""

from __future__ import annotations

import pytest

from glade.arena.runner import report, run, schedule

ray = pytest.importorskip("ray", reason="ray is a dev dependency; `make test` installs it")


def test_ray_backend_streams_the_same_games_as_serial() -> None:
    bots = ["greedy", "random"]
    matches = schedule("harmonies", bots, 2, seed=5)
    ray.init(num_cpus=1, include_dashboard=False)
    try:
        streamed: list[int] = []
        records, wall = run(matches, use_ray=True, progress=lambda r: streamed.append(r.index))
    finally:
        ray.shutdown()
    serial, _ = run(matches)
    assert sorted(streamed) == [0, 1]
    assert [r.scores for r in records] == [r.scores for r in serial]
    rep = report(records, bots, "harmonies", {}, 5, wall, 1, "ray", {})
    assert rep["results"]["bots"]["greedy"]["games"] == 2
