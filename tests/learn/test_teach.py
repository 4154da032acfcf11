"""Hints that teach: a move's lines are the difference of the explained parts before and after it,
in words in three languages, and the hint's answer carries them."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from glossary_check import forbidden

import glade
from glade.bots import Budget
from glade.bots.hint import hint
from glade.bots.teach import gains, parts_of, teach
from glade.core import BadInput
from glade.learn.gains import gain_text, lesson
from glade.learn.tutorial import Tutorial


def totals(state: Any, seat: int) -> dict[str, int]:
    b = state.breakdown(seat)
    return {k: v for k, v in b.items() if k not in ("total", "parts", "suns")}


def test_the_lines_of_every_move_add_up_to_what_the_score_gains() -> None:
    """On random Harmonies games of both sides, for every legal move of many positions: the
    ``total`` lines are exactly the categories' changes and each part line's gain is its part's
    points less what the parts it grew from had."""
    rng = random.Random(11)
    checked = 0
    for seed, side in ((1, "A"), (2, "B"), (3, "A")):
        g = glade.new_game("harmonies", seed=seed, players=2, side=side, spirits=seed == 3)
        while not g.is_over:
            seat = g.to_act[0]
            legal = [a for a in g.legal_actions(seat) if a.type != "undo"]
            for a in rng.sample(legal, min(4, len(legal))):
                lines = teach(g, seat, [a.to_json()])
                h = g.copy()
                h.apply(seat, a)
                was, now = totals(g, seat), totals(h, seat)
                told = {
                    l["params"]["category"]: l["params"]["gain"]
                    for l in lines
                    if l["code"] == "total"
                }
                assert told == {c: now[c] - was[c] for c in now if now[c] != was[c]}, a
                after = parts_of(h, seat)
                for line in lines:
                    if line["code"] != "total":
                        p = line["params"]
                        assert any(
                            q["points"] == p["points"] and q["cells"] == p["cells"] for q in after
                        )
                checked += 1
            g.apply(seat, rng.choice(legal))
    assert checked > 300


def test_a_tree_of_three_teaches_its_height_cell_and_gain() -> None:
    g = glade.new_game("harmonies", seed=4, players=1)
    board = g.boards[0]  # type: ignore[attr-defined]
    from glade.harmonies.data import B2, LAYOUTS

    cell = LAYOUTS["A"].names.index("1,2")
    board.cells[cell] = B2
    board.masks = LAYOUTS["A"].masks_of(board.cells)
    g.hand = [3]  # type: ignore[attr-defined]  (a green token in hand)
    g.took = True  # type: ignore[attr-defined]
    lines = teach(g, 0, [{"type": "place_token", "color": "green", "cell": "1,2"}])
    assert lines[0] == {
        "code": "harmonies.tree",
        "params": {"height": 3, "cells": ["1,2"], "points": 7, "gain": 7},
    }
    assert gain_text("harmonies", lines[0]) == "tree of 3 on 1,2: +7"
    assert gain_text("harmonies", lines[0], "ko", cell=lambda c: "B2") == "B2의 높이 3 나무: +7"


def test_a_river_that_grows_teaches_its_new_length() -> None:
    before = [
        {
            "category": "water",
            "points": 11,
            "cells": ["0,0", "0,1", "0,2", "0,3", "0,4"],
            "what": "river",
            "params": {"length": 5},
        }
    ]
    after = [
        {
            "category": "water",
            "points": 15,
            "cells": ["0,0", "0,1", "0,2", "0,3", "0,4", "1,3"],
            "what": "river",
            "params": {"length": 6},
        }
    ]
    lines = gains("harmonies", before, after)
    assert gain_text("harmonies", lines[0]) == "river grows to 6: +4"
    assert lines[1] == {"code": "total", "params": {"category": "water", "points": 15, "gain": 4}}


def test_living_forest_parts_teach_the_same_way() -> None:
    """Living Forest's parts (trees, fires, flowers of a forest) diff like Harmonies' ones."""
    before = [
        {"category": "trees", "points": 1, "cells": ["2,3"], "what": "start_tree", "params": {}}
    ]
    after = before + [
        {
            "category": "trees",
            "points": 1,
            "cells": ["1,3"],
            "what": "tree",
            "params": {"tree": "T4b", "elements": {"flower": 1}},
        },
        {
            "category": "flowers",
            "points": 1,
            "cells": ["1,3"],
            "what": "tree_flowers",
            "params": {"tree": "T4b"},
        },
    ]
    lines = gains("living-forest", before, after)
    assert [l["code"] for l in lines] == [
        "living-forest.tree",
        "living-forest.tree_flowers",
        "total",
        "total",
    ]
    assert (
        lesson("living-forest", lines)
        == "a new kind of Protective Tree: +1; Sacred Flowers of a tree: +1"
    )
    assert lesson("living-forest", lines, "ko") == "새 종류의 보호수: +1; 보호수의 신성한 꽃: +1"
    g = glade.new_game("living-forest", seed=3, players=2)
    t = Tutorial.replay("living-forest", upto=2)  # the first plant step is next
    expected = t.expected()
    assert expected is not None and expected["type"] == "plant"
    lines = teach(t.game, 0, [expected])
    if "parts" in t.game.view(0)["spirits"][0]:  # the engine's explained progress (issue #34)
        now = t.game.view(0)["spirits"][0]["progress"]["trees"]
        total = {"code": "total", "params": {"category": "trees", "points": now + 1, "gain": 1}}
        assert total in lines
        assert lines[0]["code"] == "living-forest.tree"
        assert lines[0]["params"]["tree"] == expected["tree"]
    else:
        assert lines == []
    assert g.view(0)["round"] == 1


def test_every_teach_text_reads_in_three_languages_in_the_glossarys_words() -> None:
    from glade.learn.gains import _texts

    found = []
    for code, text in _texts().items():
        assert set(text) == {"en", "ko", "zh"}, code
        game = "living-forest" if "living-forest" in code else "harmonies"
        for lang in ("ko", "zh"):
            found += forbidden(game, lang, code, text[lang])
            assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", text[lang])), code
    assert not found, found


def test_the_hint_carries_what_each_move_gains() -> None:
    t = Tutorial.replay("harmonies", upto=9)  # a green token to place next
    answer = hint(t.game, 0, Budget(iterations=4), top=3, seed=1)
    assert answer and all("teach" in item for item in answer)
    for item in answer:
        assert item["teach"] == teach(t.game, 0, item["actions"])
    with pytest.raises(BadInput):
        teach(t.game, 7, [])


def test_the_terminal_words_of_the_guided_game_read_in_three_languages() -> None:
    from glade.terminal.learn import _ui

    found = []
    for key, text in _ui().items():
        assert set(text) == {"en", "ko", "zh"}, key
        for lang in ("ko", "zh"):
            found += forbidden("harmonies", lang, key, text[lang])
            found += forbidden("living-forest", lang, key, text[lang])
    assert not found, found
