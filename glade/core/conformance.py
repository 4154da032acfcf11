"""The conformance test every game must pass (pytest calls ``run_conformance`` per game).

Random complete games, checking along the way:
* the game's own invariants after every action (token/card conservation, limits...);
* every offered action is accepted, and ``why_illegal`` agrees with ``legal_action_ids``: on a
  sample of ids at every step, and on the whole action space (``plain_legal_action_ids``, the
  legal moves generated from the checks) at every deep step;
* a ``to_json``/``load_game`` round trip gives the same bytes and plays on identically;
* ``copy()`` is independent of the original;
* an illegal action (or garbage) raises IllegalAction and leaves ``to_json`` byte-identical;
* undo restores the exact state before the undone action;
* determinism: replaying the seed and the actions gives the identical final state;
* every game ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .errors import IllegalAction
from .game import Game


@dataclass
class ConformanceReport:
    games: int = 0
    actions: int = 0
    undos: int = 0
    round_trips: int = 0
    illegal_checked: int = 0
    lengths: list[int] = field(default_factory=list)


GARBAGE: list[Any] = [
    None,
    42,
    "end_turn",
    [],
    {},
    {"type": ""},
    {"type": "no_such_action"},
    {"type": "undo", "extra": 1},
    {"type": "take_tokens", "space": "x"},
    {"type": "take_tokens", "space": 10**30},
    {"type": "place_token", "color": "purple", "cell": "0,0"},
    {"type": "place_token", "color": "blue", "cell": "99,99"},
    {"type": "place_token", "color": "blue", "cell": [1, 2]},
    {"type": "draw", "surplus": {"a": [1]}},
]


def _expect_refused(game: Game, seat: int, action: Any) -> None:
    before = game.fingerprint()
    try:
        game.apply(seat, action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"illegal action {action!r} for seat {seat} was accepted")
    assert game.fingerprint() == before, f"refusing {action!r} changed the state"


def play_random_game(
    make: Callable[[int], Game],
    seed: int,
    check_invariants: Callable[[Game], None],
    report: ConformanceReport,
    deep_every: int = 25,
    max_actions: int = 20000,
) -> Game:
    """Play one random game from ``make(seed)`` with every check; return the finished game."""
    rng = random.Random(seed * 7919 + 1)
    game = make(seed)
    start = game.copy()
    table = game.action_table()
    steps = 0
    check_invariants(game)
    while not game.is_over:
        steps += 1
        assert steps <= max_actions, f"game with seed {seed} did not end in {max_actions} actions"
        seat = rng.choice(game.to_act)
        ids = game.legal_action_ids(seat)
        if not ids:  # a seat may be in to_act only to undo (a Living Forest stop)
            assert game.can_undo(seat), f"seat {seat} must act but has no legal action"
            seat = game.to_act[0]
            ids = game.legal_action_ids(seat)
        assert ids, f"seat {seat} must act but has no legal action"
        legal = set(ids)
        # why_illegal agrees with the legal list on a sample of the action space
        for code in rng.sample(range(len(table)), min(12, len(table))):
            assert (game.why_illegal(seat, code) is None) == (code in legal), (
                f"why_illegal and legal_action_ids disagree on {table[code]} for seat {seat}"
            )
        deep = steps % deep_every == 0
        if deep:
            # the fast generator gives exactly the ids the one check of each rule allows
            assert len(set(ids)) == len(ids), f"an id is offered twice to seat {seat}"
            assert sorted(ids) == game.plain_legal_action_ids(seat), (
                f"legal_action_ids and the checks disagree for seat {seat}"
            )
            # illegal ids, a seat that may not act, and garbage are refused without a trace
            outside = [
                c for c in rng.sample(range(len(table)), min(5, len(table))) if c not in legal
            ]
            for code in outside:
                _expect_refused(game, seat, table[code].to_json())
                report.illegal_checked += 1
            for other in range(game.num_players):
                if other not in game.to_act:
                    _expect_refused(game, other, table[ids[0]])
            _expect_refused(game, seat, rng.choice(GARBAGE))
            _expect_refused(game, game.num_players, table[ids[0]])
            # round trip through JSON
            from .registry import load_game

            text = game.fingerprint()
            loaded = load_game(game.to_json())
            assert loaded.fingerprint() == text, "load_game(to_json()) differs"
            report.round_trips += 1
            # copy independence: play on in the copy, the original does not move
            twin = game.copy()
            assert twin.fingerprint() == text
            twin.apply_action_id(seat, ids[0])
            assert game.fingerprint() == text, "playing in a copy changed the original"
            loaded.apply_action_id(seat, ids[0])
            assert loaded.fingerprint() == twin.fingerprint(), "a loaded game plays differently"
        code = rng.choice(ids)
        action = table[code]
        if deep:
            before = game.fingerprint()
            game.apply(seat, action.to_json())
            if game.can_undo(seat):
                game.apply(seat, {"type": "undo"})
                assert game.fingerprint() == before, f"undo of {action} did not restore the state"
                report.undos += 1
                game.apply(seat, action)
        else:
            game.apply_action_id(seat, code)
        report.actions += 1
        check_invariants(game)
    assert game.to_act == ()
    for seat in range(game.num_players):
        assert game.legal_actions(seat) == []
    res = game.result()
    assert set(res) >= {"scores", "winners", "breakdown"}
    assert len(res["scores"]) == game.num_players and res["winners"]
    # determinism: the seed and the logged actions rebuild the same game
    again = type(game).replay(game.seed, game.options, list(game.log))
    assert again.fingerprint() == game.fingerprint(), "replaying the log gives another game"
    assert start.fingerprint() == make(seed).fingerprint(), "same seed gave another start"
    report.games += 1
    report.lengths.append(steps)
    return game


def run_conformance(
    make: Callable[[int], Game],
    seeds: range | list[int],
    check_invariants: Callable[[Game], None],
    deep_every: int = 25,
) -> ConformanceReport:
    report = ConformanceReport()
    for seed in seeds:
        play_random_game(make, seed, check_invariants, report, deep_every=deep_every)
    return report


__all__ = ["Action", "ConformanceReport", "play_random_game", "run_conformance"]
