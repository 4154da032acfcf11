"""The engine owns hidden information: ``resample_hidden`` re-deals what a seat cannot know."""

from __future__ import annotations

import random

import pytest

import glade
from glade.core import IllegalAction
from glade.harmonies import HarmoniesGame


def _midgame(seed: int, turns: int, **options: object) -> HarmoniesGame:
    """A game after ``turns`` turns of random moves."""
    game = glade.new_game("harmonies", seed=seed, **options)
    assert isinstance(game, HarmoniesGame)
    rng = random.Random(seed)
    while game.turn < turns:
        seat = game.current
        game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
    return game


def _reorder_hidden(game: HarmoniesGame, seed: int, seat: int | None) -> HarmoniesGame:
    """The same game with a different hidden order (pouch, draw pile, others' spirit offers)."""
    other = game.copy()
    rng = random.Random(seed)
    rng.shuffle(other.pouch)
    rng.shuffle(other.deck)
    for s, b in enumerate(other.boards):
        if s != seat and b.offer:
            b.offer = tuple(reversed(b.offer))
    assert other.pouch != game.pouch and other.deck != game.deck
    return other


@pytest.mark.parametrize("seat", [0, 2, None])
def test_resampling_keeps_the_public_parts_and_redeals_the_hidden_ones(seat: int | None) -> None:
    game = _midgame(1, 4, players=3, spirits=True)
    before = game.fingerprint()
    sample = game.resample_hidden(seat, random.Random(5))
    assert game.fingerprint() == before  # the game itself is untouched
    assert sorted(sample.pouch) == sorted(game.pouch) and sample.pouch != game.pouch
    assert sorted(sample.deck) == sorted(game.deck) and sample.deck != game.deck
    assert sample.view(seat) == game.view(seat)
    assert sample.seed != game.seed
    # the sample plays on: its legal moves are the game's (but a hidden spirit offer's)
    mover = game.current
    if mover == seat or not game.boards[mover].offer:
        assert sample.legal_action_ids(mover) == game.legal_action_ids(mover)
    else:
        assert len(sample.legal_action_ids(mover)) == 2


@pytest.mark.parametrize("seat", [0, 1, None])
def test_resampling_depends_only_on_what_the_seat_may_know(seat: int | None) -> None:
    game = glade.new_game("harmonies", seed=2, players=3, spirits=True)
    assert isinstance(game, HarmoniesGame)
    other = _reorder_hidden(game, 9, seat)
    a = game.resample_hidden(seat, random.Random(3))
    b = other.resample_hidden(seat, random.Random(3))
    assert a.fingerprint() == b.fingerprint()


def test_redealt_spirit_offers_are_consistent_with_what_the_seat_saw() -> None:
    game = glade.new_game("harmonies", seed=6, players=4, spirits=True)
    assert isinstance(game, HarmoniesGame)
    dealt0 = game.boards[0].offer
    game.apply_action_id(0, game.legal_action_ids(0)[0])  # seat 0 keeps one, turns one down
    kept = game.boards[0].spirit
    for trial in range(30):
        sample = game.resample_hidden(0, random.Random(trial))
        offers = [sample.boards[s].offer for s in (1, 2, 3)]
        cards = [c for pair in offers for c in pair]
        assert len(set(cards)) == 6 and all(len(pair) == 2 for pair in offers)
        assert not set(cards) & set(dealt0), "a seat was dealt a spirit seat 0 saw"
        assert sample.boards[0].spirit == kept and sample.boards[0].offer == ()
    spectator = game.resample_hidden(None, random.Random(1))
    cards = [c for s in (1, 2, 3) for c in spectator.boards[s].offer]
    assert kept not in cards and len(set(cards)) == 6


def test_resampling_refuses_a_seat_that_is_not_in_the_game() -> None:
    game = HarmoniesGame.new(1, {"players": 2})
    with pytest.raises(IllegalAction):
        game.resample_hidden(2, random.Random(1))
