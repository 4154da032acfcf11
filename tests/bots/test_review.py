"""The shared evaluation, hints and the game review."""

from __future__ import annotations

import random

import pytest

import glade
from glade.bots import Budget, make_bot
from glade.bots.evaluation import (
    SAMPLES,
    TIMED_MIN,
    WIN_PRIOR,
    candidates,
    evaluate_moves,
    evaluation_adapter,
    rank,
)
from glade.bots.hint import hint
from glade.bots.mcts import adapter_for
from glade.bots.review import Decision, decisions, mark_for, review, review_decisions
from glade.core import BadInput, Game
from glade.living_forest.game import LivingForestGame


def play(name: str, seed: int, force: dict[int, str] | None = None) -> Game:
    """A greedy 2-player game; ``force[k]`` = "worst" or "best" replaces decision k's move."""
    g = glade.new_game(name, seed=seed, players=2)
    bots = [make_bot("greedy", name, seed=i) for i in range(2)]
    k = 0
    while not g.is_over:
        s = g.to_act[0]
        how = (force or {}).get(k)
        if how and len(g.legal_action_ids(s)) > 1:
            moves = candidates(g, s, 12)
            if how == "worst":
                moves += random_turns(g, s)
            evals = rank(g, s, evaluate_moves(g, s, moves, seed=k))
            pick = evals[-1] if how == "worst" else evals[0]
            for c in pick.move:
                g.apply_action_id(s, c, checked=True)
        else:
            for a in bots[s].choose(g, s):
                g.apply(s, a)
        k += 1
    return g


def random_turns(g: Game, seat: int, n: int = 8) -> list[tuple[int, ...]]:
    """Whole random turns of ``seat`` (Harmonies), played on copies."""
    rng = random.Random(5)
    out = []
    table = g.action_table()
    for _ in range(n):
        c = g.copy()
        codes: list[int] = []
        while not c.is_over and c.to_act and c.to_act[0] == seat:
            ids = c.legal_action_ids(seat)
            code = rng.choice(ids)
            codes.append(code)
            c.apply_action_id(seat, code, checked=True)
            if table[code].type == "end_turn" or g.game_name != "harmonies":
                break
        out.append(tuple(codes))
    return out


def hide(d: Decision, rng: random.Random) -> Decision:
    """The same decision with every hidden part of its position in another order."""
    p = d.position.copy()
    if p.game_name == "harmonies":
        rng.shuffle(p.pouch)  # type: ignore[attr-defined]
        rng.shuffle(p.deck)  # type: ignore[attr-defined]
    else:
        assert isinstance(p, LivingForestGame)
        known = p.known_on_top()
        with p.edit() as state:
            for s, pile in enumerate(state.draw_stacks):
                cut = len(pile) - min(known[s], len(pile))
                hidden = pile[:cut]
                rng.shuffle(hidden)
                pile[:cut] = hidden
            for stack in state.animal_stacks:
                rng.shuffle(stack)
    return Decision(p, d.seat, d.move, d.start, d.end)


def first_choice(seed: int) -> tuple[Game, int]:
    """A 2-player Living Forest game walked to the first decision with two moves or more."""
    g = glade.new_game("living-forest", seed=seed, players=2)
    s = g.to_act[0]
    while len(g.legal_action_ids(s)) < 2:
        g.apply(s, g.legal_actions(s)[0])
        s = g.to_act[0]
    return g, s


def test_hints_are_ranked_by_the_number_they_show() -> None:
    for name, key in (("harmonies", "score"), ("living-forest", "win")):
        g = glade.new_game(name, seed=3, players=2)
        for _ in range(6):  # into the game a little
            s = g.to_act[0]
            for a in make_bot("greedy", name, seed=1).choose(g, s):
                g.apply(s, a)
        s = g.to_act[0]
        while len(g.legal_action_ids(s)) < 2:
            g.apply(s, g.legal_actions(s)[0])
            s = g.to_act[0]
        got = hint(g, s, top=4)
        shown = [h[key] for h in got]
        assert all(x is not None for x in shown)
        assert shown == sorted(shown, reverse=True)
        assert all(h["text"] and "," not in h["text"][:3] for h in got)


def test_no_win_chance_on_the_first_harmonies_turns() -> None:
    g = glade.new_game("harmonies", seed=4, players=2)
    got = hint(g, 0, top=2)
    assert got[0]["score"] is not None and got[0]["score"] > 20
    assert all(h["win"] is None for h in got)
    assert got[0]["text"].startswith("take space ")


@pytest.mark.parametrize("name", ["harmonies", "living-forest"])
def test_a_review_never_reads_hidden_information(name: str) -> None:
    g = play(name, seed=11)
    found = decisions(g)[:6] if name == "harmonies" else decisions(g)[:10]
    twins = [hide(d, random.Random(i)) for i, d in enumerate(found)]
    if name == "harmonies":
        assert any(t.position.pouch != d.position.pouch for t, d in zip(twins, found, strict=True))  # type: ignore[attr-defined]
    else:
        assert any(
            t.position.snapshot() != d.position.snapshot()  # type: ignore[attr-defined]
            for t, d in zip(twins, found, strict=True)
        )
    assert review_decisions(name, found, 4) == review_decisions(name, twins, 4)


def test_a_forced_bad_turn_is_a_mistake_and_a_best_turn_is_best() -> None:
    g = play("harmonies", seed=12, force={4: "worst", 7: "best"})
    r = review(g, samples=6)
    by_start = {t["index"]: t for t in r["turns"]}
    bad, good = by_start[4], by_start[7]
    assert bad["mark"] in ("mistake", "blunder"), bad
    assert bad["loss"] >= 5
    assert good["mark"] == "best" and good["loss"] == 0
    assert bad["best"]["text"] != bad["played"]["text"]
    summary = r["summary"]
    assert (
        len(summary) == 2
        and summary[bad["seat"]]["marks"]["mistake"] + summary[bad["seat"]]["marks"]["blunder"] >= 1
    )
    assert 0 < summary[0]["accuracy"] <= 100
    assert len(r["series"]) == len(r["turns"]) and len(r["series"][0]["scores"]) == 2


def test_living_forest_review_covers_draws_and_actions() -> None:
    g = play("living-forest", seed=13)
    found = decisions(g)
    kinds = {g.action_table()[d.move[0]].type for d in found}
    assert "stop" in kinds or "draw" in kinds
    assert kinds - {"stop", "draw"}
    out = review_decisions("living-forest", found[:12], 3)
    assert all(t["mark"] in ("best", "good", "inaccuracy", "mistake", "blunder") for t in out)
    assert all(0 <= w <= 1 for t in out for w in t["after"]["wins"])
    assert all(len(t["after"]["detail"][0]) == 3 for t in out)


def test_living_forest_evaluation_plays_to_the_end_of_the_game() -> None:
    # early in a game (round 1): the counts and win chance must be final ones, not those of the
    # end of the next round where the search bot's own play-outs stop
    g, s = first_choice(15)
    assert g.round == 1  # type: ignore[attr-defined]
    sample = g.resample_hidden(s, random.Random(1))
    evaluation_adapter(g).rollout(sample, s, random.Random(2))
    assert sample.is_over
    search = adapter_for(g)
    early = g.resample_hidden(s, random.Random(1))
    search.rollout(early, s, random.Random(2))
    assert not early.is_over  # the mcts bot's play-outs are unchanged: they stop early
    n = 4
    for e in evaluate_moves(g, s, candidates(g, s)[:2], samples=n, seed=3):
        # every sample is a finished game: each seat won it (1), shared it (1/2) or lost it (0);
        # the win chance counts WIN_PRIOR more samples shared evenly (1/2 each)
        prior = WIN_PRIOR["living-forest"]
        won = [w * (n + prior) - prior / 2 for w in e.wins]
        assert all(abs(x * 2 - round(x * 2)) < 1e-9 for x in won), e.wins
        assert abs(sum(e.wins) - 1) < 1e-9
        # a finished game has a spirit with 12 of a kind in every sample, so the best seat's
        # best expected count is at least 6 (early in the next round it is far below)
        assert max(max(d) for d in e.detail) >= 6, e.detail
        assert all(abs(sc - sum(d)) < 1e-9 for sc, d in zip(e.scores, e.detail, strict=True))


def test_a_time_budget_caps_the_samples() -> None:
    g, s = first_choice(16)
    moves = candidates(g, s)[:2]
    assert {e.samples for e in evaluate_moves(g, s, moves, seed=1)} == {SAMPLES["living-forest"]}
    timed = evaluate_moves(g, s, moves, seed=1, seconds=0.0)
    assert {e.samples for e in timed} == {TIMED_MIN}
    # the samples it did play are the first ones of the untimed evaluation
    assert timed[0].wins == evaluate_moves(g, s, moves, TIMED_MIN, seed=1)[0].wins
    assert hint(g, s, Budget(seconds=0.0), top=2)[0]["win"] is not None


def test_marks_follow_the_thresholds() -> None:
    assert mark_for("harmonies", 0.0) == "best"
    assert mark_for("harmonies", 1.0) == "good"
    assert mark_for("harmonies", 3.0) == "inaccuracy"
    assert mark_for("harmonies", 7.0) == "mistake"
    assert mark_for("harmonies", 12.0) == "blunder"
    assert mark_for("living-forest", 25.0) == "blunder"


def test_an_unfinished_game_is_refused() -> None:
    with pytest.raises(BadInput):
        review(glade.new_game("harmonies", seed=1, players=2))


def test_living_forest_action_phases_are_whole_decisions() -> None:
    g = play("living-forest", seed=14)
    found = decisions(g)
    phases = [d for d in found if g.action_table()[d.move[0]].type == "choose_action"]
    assert phases and any(len(d.move) > 1 for d in phases)
    # a phase ends where another spirit acts or the draw phase begins: no two phases of one
    # spirit follow each other without a draw between them
    for a, b in zip(found, found[1:], strict=False):
        assert not (a in phases and b in phases and a.seat == b.seat and a.end == b.start)
    out = review_decisions("living-forest", phases[:2], 2)
    assert all(t["kind"] == "actions" and len(t["best"]["actions"]) >= 1 for t in out)


def test_the_two_spirit_offers_are_valued_apart() -> None:
    apart = 0
    for seed in (1, 2, 3):
        g = glade.new_game("harmonies", seed=seed, players=2, spirits=True)
        s = g.to_act[0]
        evals = evaluate_moves(g, s, candidates(g, s))
        assert len(evals) == 2
        apart += abs(evals[0].scores[s] - evals[1].scores[s]) > 0.1
    assert apart == 3


def test_a_harmonies_win_chance_counts_its_prior_samples() -> None:
    # six samples' raw share 0..1 is shown as (6·w + k/2) / (6 + k): never 0% or 100%
    g = glade.new_game("harmonies", seed=21, players=2)
    s = g.to_act[0]
    prior = WIN_PRIOR["harmonies"]
    n = SAMPLES["harmonies"]
    evals = evaluate_moves(g, s, candidates(g, s)[:3], seed=4)
    for e in evals:
        assert abs(sum(e.wins) - 1) < 1e-9
        raw = [w * (n + prior) - prior / 2 for w in e.wins]  # sum of the samples' shares
        assert all(-1e-9 <= x <= n + 1e-9 for x in raw), e.wins
        assert all(x * 2 == pytest.approx(round(x * 2)) for x in raw), e.wins
        low = (prior / 2) / (n + prior)
        assert all(low - 1e-9 <= w <= 1 - low + 1e-9 for w in e.wins)
