"""The shared conformance test on Harmonies: >= 300 random complete games over every mode."""

from __future__ import annotations

import itertools

import pytest

import glade
from glade.core.conformance import run_conformance

from .helpers import check_invariants

MODES = list(itertools.product([1, 2, 3, 4], ["A", "B"], [False, True]))  # 16 modes


@pytest.mark.parametrize(("players", "side", "spirits"), MODES)
def test_random_games_conform(players: int, side: str, spirits: bool) -> None:
    def make(seed: int) -> glade.Game:
        return glade.new_game("harmonies", seed=seed, players=players, side=side, spirits=spirits)

    report = run_conformance(make, range(19), check_invariants, deep_every=20)
    assert report.games == 19  # 16 modes x 19 = 304 complete games
    assert report.round_trips > 0 and report.illegal_checked > 0
    assert min(report.lengths) > 10
