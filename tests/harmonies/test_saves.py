"""A Harmonies save is judged at the door: one whose log does not replay to its state is refused
when it is loaded (naming the first entry that does not replay), never later."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import glade
from glade.core import BadInput
from glade.harmonies.game import HarmoniesGame


def played(seed: int, moves: int, **options: Any) -> HarmoniesGame:
    game = glade.new_game("harmonies", seed=seed, **options)
    assert isinstance(game, HarmoniesGame)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.current
        game.apply_action_id(seat, rng.choice(game.legal_action_ids(seat)))
    return game


def refusal(save: dict[str, Any]) -> BadInput:
    with pytest.raises(BadInput) as caught:
        glade.load_game(save)
    return caught.value


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 1, "spirits": True}])
def test_an_intact_save_loads_and_plays_on(options: dict[str, Any]) -> None:
    for moves in (0, 1, 37, 400):
        game = played(11, moves, **options)
        loaded = glade.load_game(game.to_json())
        assert loaded.fingerprint() == game.fingerprint()
        loaded.view(0)
        if not loaded.is_over:
            seat = loaded.to_act[0]
            loaded.apply_action_id(seat, loaded.legal_action_ids(seat)[0])


def test_a_log_cut_short_is_refused_after_its_last_entry() -> None:
    save = played(5, 40, players=2).to_json()
    save["log"] = save["log"][:30]
    err = refusal(save)
    assert (err.code, err.params) == ("harmonies.save.log_state", {"entries": 30})
    assert "replayed to its end (entry 30)" in err.message


def test_an_altered_entry_is_named() -> None:
    game = played(6, 40, players=2)
    save = game.to_json()
    # entry 13 (index 12) becomes a move that is not legal where it stands: another seat's
    seat, code, chance = save["log"][12]
    save["log"][12] = [1 - seat, code, chance]
    err = refusal(save)
    assert (err.code, err.params) == ("harmonies.save.log_entry", {"entry": 13, "entries": 40})


def test_an_entry_with_another_chance_outcome_is_named() -> None:
    save = played(7, 40, players=2).to_json()
    first_take = next(i for i, (_, code, _) in enumerate(save["log"]) if code < 5)
    chance = save["log"][first_take][2]
    save["log"][first_take][2] = (
        [chance[1], chance[0], chance[2]]
        if chance[0] != chance[1]
        else [
            (chance[0] + 1) % 6,
            chance[1],
            chance[2],
        ]
    )
    err = refusal(save)
    assert err.params["entry"] == first_take + 1
    assert err.code == "harmonies.save.log_entry"


def test_a_reordered_log_is_refused_at_the_first_entry_out_of_place() -> None:
    save = played(8, 40, players=2).to_json()
    log = save["log"]
    # the first two entries of the second turn swapped: a token placed before the take
    start = next(i for i, (seat, _, _) in enumerate(log) if seat == 1)
    log[start], log[start + 1] = log[start + 1], log[start]
    err = refusal(save)
    assert (err.code, err.params["entry"]) == ("harmonies.save.log_entry", start + 1)


def test_a_state_that_the_log_does_not_give_is_refused() -> None:
    base = played(9, 40, players=2).to_json()
    for change in ("pouch", "cells", "turn"):
        save = copy.deepcopy(base)
        if change == "pouch":
            save["pouch"][0], save["pouch"][-1] = save["pouch"][-1], save["pouch"][0]
            if save["pouch"][0] == save["pouch"][-1]:
                save["pouch"].pop()
        elif change == "cells":
            cells = save["boards"][0]["cells"]
            cells[cells.index(0)] = 1  # a water token nobody placed
        else:
            save["turn"] += 1
        err = refusal(save)
        assert (err.code, err.params) == ("harmonies.save.log_state", {"entries": 40}), change
    assert glade.load_game(base).fingerprint() == played(9, 40, players=2).fingerprint()


def test_a_searchs_resampled_copy_says_so_and_is_never_undone() -> None:
    """A copy whose hidden parts were re-dealt has a seed of its own, from which its log does
    not replay: its save says so, loads as that copy, and offers no undo."""
    game = played(10, 21, players=2, spirits=True)
    assert game.can_undo(game.current)
    copy = game.resample_hidden(game.current, random.Random(1))
    assert not copy.can_undo(copy.current)
    save = copy.to_json()
    assert save["resampled"] is True and "resampled" not in game.to_json()
    loaded = glade.load_game(save)
    assert loaded.fingerprint() == copy.fingerprint()
    assert not loaded.can_undo(copy.current)
    del save["resampled"]  # the same copy passed off as a game: its log is judged
    assert refusal(save).code in ("harmonies.save.log_entry", "harmonies.save.log_state")
