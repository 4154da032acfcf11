"""What the Harmonies view and log give the page: who triggered the end and why, the tokens and
card a move took, the reasons controls are unavailable, and the solo sun track's parts."""

from __future__ import annotations

import json
import random

import glade
from glade.harmonies.game import HarmoniesGame
from glade.harmonies.scoring import solo_sun_parts, solo_suns

from .test_stacking_and_habitats import fresh


def random_game(players: int, seed: int, take_cards: bool = True) -> HarmoniesGame:
    """A whole game of random legal moves (cards taken when offered if ``take_cards``)."""
    g = fresh(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        acts = g.legal_actions(seat)
        cards = [a for a in acts if a.type == "take_card"]
        g.apply(seat, rng.choice(cards) if take_cards and cards else rng.choice(acts))
    return g


def stacking_game(players: int, seed: int) -> HarmoniesGame:
    """A whole game that stacks tokens whenever it can and takes no card: the pouch runs out."""
    g = fresh(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        acts = g.legal_actions(seat)
        stacks = g.view(None)["boards"][seat]["stacks"]
        high = [a for a in acts if a.type == "place_token" and stacks.get(a.to_json()["cell"])]
        calm = [a for a in acts if a.type not in ("take_card", "discard_card")]
        g.apply(seat, rng.choice(high or calm))
    return g


def trigger_turn(g: HarmoniesGame) -> tuple[int, HarmoniesGame]:
    """The seat whose end of turn first set end_triggered, and the game right after it."""
    again = HarmoniesGame.new(g.seed, g.options)
    for seat, code, _ in g.log:
        again.apply_action_id(seat, code)
        if again.end_triggered:
            return seat, again
    raise AssertionError("the end was never triggered")


def test_the_view_says_who_triggered_the_end_and_why() -> None:
    games = [random_game(p, seed) for p, seed in ((2, 3), (3, 8), (4, 1), (1, 5))]
    games += [stacking_game(4, 1), stacking_game(4, 3)]
    assert {r for g in games for r in g.view(None)["end_trigger"]["reasons"]} == {"board", "pouch"}
    for g in games:
        players = g.players
        seat, at = trigger_turn(g)
        view = g.view(None)
        trig = view["end_trigger"]
        assert trig["seat"] == seat and trig["reason"] == trig["reasons"][0]
        # each reason named is true of the turn that triggered it
        board = at.boards[seat]
        assert ("board" in trig["reasons"]) == (board.empty_cells() <= 2)
        if "pouch" not in trig["reasons"]:
            assert board.empty_cells() <= 2
        else:
            assert len(at.pouch) < (9 if players == 1 else 3)
        assert trig["empty_cells"] == g.boards[seat].empty_cells()
        # before the trigger, nothing is said
        assert HarmoniesGame.new(g.seed, g.options).view(None)["end_trigger"] is None


def test_the_trigger_survives_a_save_and_an_old_save_is_rebuilt() -> None:
    g = random_game(2, 4)
    data = g.to_json()
    assert data["end_trigger"][0] == g.view(None)["end_trigger"]["seat"]
    back = HarmoniesGame.from_json(json.loads(json.dumps(data)))
    assert back.view(None) == g.view(None) and back.log == g.log
    # a save from before: no end_trigger and no taken tokens or cards in its log
    old = json.loads(json.dumps(data))
    del old["end_trigger"]
    sp = g.space
    for entry in old["log"]:
        if entry[1] < sp.PLACE or sp.CARD <= entry[1] < sp.CUBE:
            entry[2] = None
    rebuilt = HarmoniesGame.from_json(old)
    assert rebuilt.view(None) == g.view(None) and rebuilt.log_json(None) == g.log_json(None)


def test_the_log_names_the_tokens_and_the_card_taken() -> None:
    g = fresh(players=2, seed=12)
    central = [list(t) for t in g.view(None)["central"]]
    row = g.view(None)["row"]
    g.apply(0, {"type": "take_tokens", "space": 2})
    g.apply(0, {"type": "take_card", "slot": 1})
    taken, card = g.log_json(None)[-2:]
    assert taken["chance"] == {"taken": central[2]}
    assert card["chance"] == {"card": row[1]}
    # every seat and the public see the same: what was taken was face up
    assert g.log_json(0) == g.log_json(1) == g.log_json(None)
    g.undo(0)
    g.undo(0)
    assert g.view(None)["central"][2] == central[2] and g.view(None)["row"] == row


def test_the_view_gives_the_reasons_controls_are_unavailable() -> None:
    g = fresh(players=2, seed=2)
    ref = g.view(None)["refusals"]
    assert ref["end_turn"]["code"] == "harmonies.end.take_first"
    assert "take_tokens" not in ref and "take_card" not in ref and "discard_card" not in ref
    g.apply(0, {"type": "take_tokens", "space": 0})
    ref = g.view(1)["refusals"]
    assert ref["take_tokens"]["code"] == "harmonies.tokens.already_taken"
    assert ref["end_turn"] == {"code": "harmonies.end.tokens_left", "params": {"left": 3}}
    # four unfinished cards: taking a fifth is refused with the limit
    g = fresh(players=2, seed=2)
    for turn in range(8):
        seat = turn % 2
        g.apply(seat, {"type": "take_tokens", "space": 0})
        if seat == 0:
            g.apply(seat, {"type": "take_card", "slot": 0})
        while g.hand:
            g.apply(seat, [a for a in g.legal_actions(seat) if a.type == "place_token"][0])
        g.apply(seat, {"type": "end_turn"})
    assert g.boards[0].held() == 4
    ref = g.view(None)["refusals"]
    assert ref["take_card"] == {"code": "harmonies.card.hand_full", "params": {"limit": 4}}
    # solo: the discard's reasons
    s = fresh(players=1, seed=3)
    assert s.view(None)["refusals"]["discard_card"]["code"] == "harmonies.discard.tokens_first"
    random_game(1, 3)  # a whole solo game keeps the view valid
    over = random_game(2, 6)
    assert over.view(None)["refusals"] == {}


def test_the_solo_sun_track_counts_only_what_the_score_earned() -> None:
    s = fresh(players=1, seed=1)
    parts = s.view(0)["solo_suns"]
    # at 0 points the score has earned no sun; side A's +1 and the no-spirit +2 are added at the end
    assert parts == {
        "score": 0,
        "side": 1,
        "spirit": 2,
        "next": 40,
        "suns": 3,
        "spirit_known": True,
    }
    assert (
        solo_sun_parts(130, "A", -1)["score"] == 5 and solo_sun_parts(160, "B", -1)["next"] is None
    )
    for total in (0, 39, 40, 95, 150, 170):
        for side in ("A", "B"):
            assert solo_sun_parts(total, side, -1)["suns"] == solo_suns(total, side, -1)
    with_spirits = glade.new_game("harmonies", seed=1, players=1, spirits=True)
    assert with_spirits.view(0)["solo_suns"]["spirit_known"] is False
    assert "solo_suns" not in fresh(players=2, seed=1).view(None)
