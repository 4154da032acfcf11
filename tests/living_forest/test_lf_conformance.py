"""The shared conformance test on random complete Living Forest games: 100 per player count."""

import pytest
from lf_helpers import check_invariants

import glade
from glade.core.conformance import run_conformance

# deep checks (round trips, copies, refusals, undo every 30 actions) on a few seeds per count
DEEP_SEEDS = {2: [1, 3, 5], 3: [1, 2], 4: [1, 2, 3]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    report = run_conformance(
        lambda s: glade.new_game("living-forest", players=players, seed=s),
        range(1000 * players, 1000 * players + 100),
        check_invariants,
        deep_every=599,  # (random games: about 500-1800 actions)
    )
    assert report.games == 100 and report.round_trips > 0 and report.undos > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_deep(players: int) -> None:
    seeds = DEEP_SEEDS[players]
    report = run_conformance(
        lambda s: glade.new_game("living-forest", players=players, seed=s),
        seeds,
        check_invariants,
        deep_every=30,
    )
    assert report.games == len(seeds) and report.undos > 5
