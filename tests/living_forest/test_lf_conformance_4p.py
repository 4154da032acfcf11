"""The shared conformance test on random complete 4-player games."""

from lf_helpers import check_invariants

import glade
from glade.core.conformance import run_conformance

PLAYERS = 4


def test_conformance_4p() -> None:
    report = run_conformance(
        lambda s: glade.new_game("living-forest", players=PLAYERS, seed=s),
        range(1000 * PLAYERS, 1000 * PLAYERS + 100),
        check_invariants,
        deep_every=1999,
    )
    assert report.games == 100 and report.round_trips > 0 and report.undos > 0


def test_conformance_4p_deep() -> None:
    """Some games with the deep checks (round trips, copies, refusals, undo) every 30 actions."""
    report = run_conformance(
        lambda s: glade.new_game("living-forest", players=PLAYERS, seed=s),
        [1, 2, 3],
        check_invariants,
        deep_every=30,
    )
    assert report.games == 3 and report.undos > 5
