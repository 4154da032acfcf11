"""The Living Forest terminal client in-process: whole games, the words of moves, menus, summaries."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

import glade
from glade.core.errors import BadInput
from glade.terminal.common import Numbering, action_key, parse
from glade.terminal.i18n import Lang
from glade.terminal.living_forest import LivingForestClient, parse_seats, play_living_forest

REPRS = ("{'", "['", "None", "True", "False", "Traceback")


def _console(out: io.StringIO) -> Console:
    return Console(file=out, width=80, highlight=False, markup=False, no_color=True)


def run(
    seats: str, inputs: list[str], seed: int, monkeypatch: pytest.MonkeyPatch, lang: str = "en"
) -> str:
    feed = iter(inputs)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    out = io.StringIO()
    args = SimpleNamespace(seats=seats, seed=seed, lang=lang, plain=True, save=None)
    assert play_living_forest(args, _console(out)) == 0
    return out.getvalue()


def test_bots_play_to_the_end_with_round_summaries(monkeypatch: pytest.MonkeyPatch) -> None:
    text = run("random,greedy", [], 3, monkeypatch)
    assert "Game over" in text and ("Winner: " in text or "Shared victory" in text)
    assert "End of round 1:" in text and "Onibi attacks the Sacred Tree: fires" in text
    assert "The Sacred Tree passes to" in text and "Last round:" in text
    assert "Greedy bot: drew " in text and "drew a card" not in text
    for bad in REPRS:
        assert bad not in text


def test_human_moves_undo_and_quit(monkeypatch: pytest.MonkeyPatch) -> None:
    text = run(
        "you,random", ["draw", "banana", "99", "stop", "undo", "pile", "quit"], 1, monkeypatch
    )
    assert "You: drew " in text and "You: stopped drawing (1 card," in text
    assert "'banana' is not a move you can make now" in text and "There is no move 99" in text
    assert "Discard pile of You (0 cards):" in text
    assert "Game left unfinished." in text
    assert "  1   .     .     .     .     ." in text and "      1     2     3     4     5" in text
    for bad in REPRS:
        assert bad not in text


def test_end_of_input_quits(monkeypatch: pytest.MonkeyPatch) -> None:
    text = run("you,greedy", [], 2, monkeypatch)
    assert "Game left unfinished." in text


def test_seat_parsing() -> None:
    assert parse_seats(None) == ["you", "greedy"]
    assert parse_seats("you,mcts:easy,random") == ["you", "mcts:easy", "random"]
    with pytest.raises(BadInput, match="2 to 4 seats"):
        parse_seats("you")
    with pytest.raises(BadInput, match="unknown seat"):
        parse_seats("you,wizard")


def _find(
    pred: Callable[[Any, int], bool], seeds: range = range(40)
) -> tuple[LivingForestClient, int]:
    """A position (reached by random play) where ``pred(game, seat)`` holds for the seat to act."""
    for seed in seeds:
        rng = random.Random(seed)
        g = glade.new_game("living-forest", seed=seed, players=3)
        for _ in range(2000):
            if g.is_over:
                break
            seat = g.to_act[0]
            if pred(g, seat):
                client = LivingForestClient(
                    g, ["you", "greedy", "random"], Lang("en"), _console(io.StringIO())
                )
                return client, seat
            moves = [a for a in g.legal_actions(seat) if a.type != "undo"]
            g.apply(seat, rng.choice(moves))
    raise AssertionError("no such position")


def _step(g: Any, seat: int) -> Any:
    return (g.view(seat).get("in_progress") or {}).get("step")


def test_attract_numbers_stay_put_and_words_pick_by_name() -> None:
    def attract(g: Any, seat: int) -> bool:
        picks = [a for a in g.legal_actions(seat) if a.type == "pick_card"]
        if _step(g, seat) != "attract" or len(picks) < 3:
            return False
        for a in picks:  # whichever card is taken first, another stays affordable
            after = g.copy()
            after.apply(seat, a)
            if not any(b.type == "pick_card" for b in after.legal_actions(seat)):
                return False
        return True

    client, seat = _find(attract)
    g = client.game
    numbering = Numbering()
    choices = client.choices(g, seat)
    first = numbering.assign(client.decision_key(g, seat), choices)
    by_phrase = {c.phrase: first[action_key(c.action)] for c in choices}
    pick = next(c for c in choices if c.action.type == "pick_card")
    assert pick.phrase.startswith("attract ") and "(level " in pick.label
    got = parse(client, seat, pick.phrase.removeprefix("attract "))
    assert isinstance(got, list) and got[0] == pick.action
    g.apply(seat, pick.action)
    later = numbering.assign(client.decision_key(g, seat), client.choices(g, seat))
    kept = [c for c in client.choices(g, seat) if c.phrase in by_phrase]
    assert kept
    for c in kept:
        assert later[action_key(c.action)] == by_phrase[c.phrase]
    new = [
        later[action_key(c.action)] for c in client.choices(g, seat) if c.phrase not in by_phrase
    ]
    assert all(n > max(by_phrase.values()) for n in new)


def test_move_tells_where_it_lands_and_whom_it_jumps() -> None:
    def jumping(g: Any, seat: int) -> bool:
        v = g.view(seat)
        if _step(g, seat) != "move":
            return False
        rock = v["spirits"][seat]["rock"]
        near = [r["rock"] for r in v["circle"] if r["spirit"] not in (None, seat)]
        steps = [a["steps"] for a in g.legal_actions(seat) if a.type == "move"]
        # a rival no farther ahead than some legal move's length is jumped (occupied rocks are
        # skipped, so that move lands beyond it)
        return any(0 < (r - rock) % 12 <= max(steps, default=0) for r in near)

    client, seat = _find(jumping)
    g = client.game
    moves = [a for a in g.legal_actions(seat) if a.type == "move"]
    words = [client.move_words(g, seat, a) for a in moves]
    assert all("land on rock" in w for w in words)
    assert any("jumps" in w for w in words)
    for a, w in zip(moves, words, strict=True):
        trial = g.copy()
        trial.apply(seat, a)
        assert f"rock {trial.view(seat)['spirits'][seat]['rock'] + 1} (" in w
    assert client.consequence(seat, [moves[0]]) == words[0]


def test_done_during_a_bonus_says_it_declines() -> None:
    def bonus(g: Any, seat: int) -> bool:
        prog = g.view(seat).get("in_progress") or {}
        return bool(prog.get("bonus")) and any(a.type == "done" for a in g.legal_actions(seat))

    client, seat = _find(bonus)
    done = next(c for c in client.choices(client.game, seat) if c.phrase == "done")
    assert "decline the bonus" in done.label
    assert client.prompt(seat).startswith("Bonus action:")


def test_plant_menu_is_compact_and_one_based() -> None:
    def planting(g: Any, seat: int) -> bool:
        return (
            _step(g, seat) == "plant" and sum(a.type == "plant" for a in g.legal_actions(seat)) >= 8
        )

    client, seat = _find(planting)
    choices = [c for c in client.choices(client.game, seat) if c.action.type == "plant"]
    from glade.terminal.common import menu_lines

    numbers = Numbering().assign(None, choices)
    lines = menu_lines(choices, numbers, 80)
    assert len(lines) < len(choices)
    c = choices[0]
    assert c.phrase.endswith(f"at {c.action['column'] + 1},{c.action['row'] + 1}")


def test_korean_run(monkeypatch: pytest.MonkeyPatch) -> None:
    text = run("you,greedy", ["draw", "stop", "quit"], 4, monkeypatch, lang="ko")
    assert "리빙 포레스트" in text and "나: " in text and "뽑기를 멈춤" in text


def test_one_line_chooses_the_action_and_makes_it() -> None:
    def choosing(g: Any, seat: int) -> bool:
        v = g.view(seat)
        legal = g.legal_actions(seat)
        return (
            v["phase"] == "actions"
            and not v.get("in_progress")
            and any(a.type == "choose_action" and a["action"] == "move" for a in legal)
        )

    client, seat = _find(choosing)
    got = parse(client, seat, "move 1")
    assert isinstance(got, list) and [a.type for a in got] == ["choose_action", "move"]
    note = client.consequence(seat, got)
    assert note is not None and "move 1: land on rock" in note
    # the step after "move" is refused: the engine's reason, and the move chosen is not made
    said = str(parse(client, seat, "move 99"))
    assert said.startswith("After 'move', '99' is refused: ") and said.endswith(
        "Nothing was played."
    )


def test_hint_in_living_forest() -> None:
    from glade.terminal.common import hint_lines

    client, seat = _find(
        lambda g, s: g.view(s)["phase"] == "actions" and not g.view(s).get("in_progress")
    )
    lines = hint_lines(client, seat)
    assert lines[0] == "Suggested, best first:" and len(lines) >= 3


def test_the_plain_text_renderer_beside_the_engine() -> None:
    """glade/living_forest/render.py (the RL wrappers' ansi mode): the whole table as a seat sees
    it, within the width asked for, read from the public view only."""
    from glade.living_forest.render import render

    g = glade.new_game("living-forest", players=3, seed=5)
    rng = random.Random(5)
    for _ in range(60):  # into the game: help lines, the circle, maybe trees
        seat = g.to_act[0]
        acts = [a for a in g.legal_actions(seat) if a.type != "undo"]
        g.apply(seat, rng.choice(acts))
    view = g.view(1)
    for width in (50, 80, 160):
        text = render(g, 1, width)
        lines = text.splitlines()
        assert max(len(x) for x in lines) <= width
        assert lines[0].startswith(f"Living Forest  Round {view['round']}")
        # the seat's own spirit first, then the others, each with its forest of 3 rows
        spirits = [x for x in lines if x.startswith("Spirit ")]
        assert [x.split(" ")[1].rstrip(":<") for x in spirits] == ["2", "1", "3"]
        joined = " ".join(x.strip() for x in lines)
        for row in view["display"]:
            for card in row:
                if card is not None:
                    assert card["name"] in joined
        for s in range(3):
            for name in view["spirits"][s]["help_line"]:
                assert name in joined
    named = render(g, None, 80, names=["Ada", "Bo", "Cy"])
    assert "Sacred Tree: " + ["Ada", "Bo", "Cy"][view["sacred_tree"]] in named
