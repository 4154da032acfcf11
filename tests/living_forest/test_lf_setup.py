"""Set-up per player count and the validation of the data file."""

import copy
import json
from importlib import resources

import pytest
from lf_helpers import check_invariants, fresh, state_of

import glade
from glade.core.errors import BadInput
from glade.living_forest import data


@pytest.mark.parametrize(
    ("players", "trees", "rocks"), [(2, 24, [0, 6]), (3, 33, [2, 6, 10]), (4, 39, [0, 6, 9, 3])]
)
def test_setup_per_player_count(players: int, trees: int, rocks: list[int]) -> None:
    g = fresh(players, seed=5)
    assert sum(state_of(g).tree_supply) == trees
    assert state_of(g).rocks == rocks
    assert state_of(g).centre_fires == [2]
    assert [len(st) for st in state_of(g).animal_stacks] == [19, 12, 8]
    assert all(c >= 0 for c in state_of(g).display) and len(state_of(g).display) == 12
    assert [state_of(g).display[i] in data.LEVEL_RANGES[i // 4] for i in range(12)] == [True] * 12
    assert all(sorted(d) == list(range(14)) for d in state_of(g).draw_stacks)
    assert state_of(g).fragment_supply == 20 and state_of(g).varan_supply == 23
    assert state_of(g).victory_tiles == [[1, 1, 1]] * players
    assert g.to_act == tuple(range(players))
    assert all(f[7] == 12 and f.count(-1) == 14 for f in state_of(g).forests)
    check_invariants(g)


def test_each_spirit_shuffles_its_own_deck() -> None:
    g = fresh(4, seed=11)
    assert len({tuple(d) for d in state_of(g).draw_stacks}) == 4
    assert fresh(4, seed=11).to_json() == g.to_json()
    assert fresh(4, seed=12).to_json() != g.to_json()


def test_bad_options() -> None:
    with pytest.raises(BadInput, match="2 to 4"):
        glade.new_game("living-forest", players=5, seed=1)
    with pytest.raises(BadInput, match="no option"):
        glade.new_game("living-forest", players=2, seed=1, side="A")
    assert glade.new_game("living-forest", seed=1).num_players == 2


def _raw() -> dict:
    path = resources.files("glade.living_forest").joinpath("data/living-forest-cards.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_data_counts() -> None:
    assert data.NUM_CARDS == 14 + 23 + 16 + 12 + 1
    assert [len(r) for r in data.LEVEL_RANGES] == [23, 16, 12]
    assert data.CARDS.names[data.VARAN] == "Fire Varan"
    toucan = data.CARD_BY_NAME["Toucan"]
    assert data.CARDS.elements[toucan] == (-2, -1, 0, 0, 0)  # card art, not Game Park's typo
    assert data.CARDS.elements[data.CARD_BY_NAME["Tapir"]] == (0, 4, 0, 2, 2)
    assert data.CARDS.elements[data.CARD_BY_NAME["Cobra"]] == (4, 1, 1, 0, 2)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["guardian_animals"]["level2"].pop(), "level 2 must hold 16"),
        (lambda d: d["starting_deck"]["cards"].pop(), "14 cards"),
        (lambda d: d["fire_varan"].update(count=22), "23 fire varans"),
        (lambda d: d["protective_trees"]["tiles"][0]["copies"].update({"3p": 4}), "33 tiles"),
        (lambda d: d["guardian_animals"]["level1"][0].update(symbol="odd"), "unknown symbol"),
        (lambda d: d["guardian_animals"]["level1"][1].update(name="Hedgehog"), "appears twice"),
        (lambda d: d.update(schema="x"), "schema"),
        (lambda d: d["circle_of_spirits"]["start_rocks"].update({"2p": [0, 12]}), "rocks 0 to 11"),
        (lambda d: d["guardian_animals"]["level3"][0].update(sun="2"), "whole number"),
        # the forest board's bonuses
        (lambda d: d["forest_board"]["line_bonuses"][0].update(row=1), "exactly one row or one"),
        (lambda d: d["forest_board"]["line_bonuses"][0].update(column=6), "column from 1 to 5"),
        (lambda d: d["forest_board"]["line_bonuses"][1].update(trees_needed=3), "needs 2 trees"),
        (lambda d: d["forest_board"]["line_bonuses"][0].update(gives={"fire": 1}), "one element"),
        (lambda d: d["forest_board"]["line_bonuses"][0].update(gives={"sun": 0}), "at least 1"),
        (
            lambda d: d["forest_board"]["line_bonuses"].append(
                {"column": 2, "trees_needed": 3, "gives": {"sun": 1}}
            ),
            "twice",
        ),
        (lambda d: d["forest_board"]["corner_bonuses"][0].update(row=2), "on a corner"),
        (lambda d: d["forest_board"]["corner_bonuses"][1].update(row=1, column=1), "corner twice"),
        (lambda d: d["forest_board"]["corner_bonuses"][0].update(bonus="fly"), "unknown bonus"),
        (lambda d: d["forest_board"]["corner_bonuses"][0].update(plus={"water": 3}), "only sun"),
        (lambda d: d["forest_board"]["corner_bonuses"][1].update(count=0), "at least 1 fragment"),
        (lambda d: d["forest_board"].update(starting_tree={"row": 1, "column": 3}), "row 2"),
        (lambda d: d["forest_board"].update(columns=6), "5 columns"),
    ],
)
def test_malformed_data_is_refused(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(_raw())
    edit(raw)
    with pytest.raises(BadInput, match=message):
        data.load(raw)


def test_the_board_bonuses_come_from_the_data_file() -> None:
    from glade.living_forest.game import CORNER_BONUS, LINE_BONUSES

    assert data.BOARD.corners == {
        0: ("attract", 3),
        4: ("take_fragment", 2),
        10: ("take_fragment", 2),
        14: ("extinguish", 2),
    }
    assert data.BOARD.lines == [
        ((1, 6, 11), data.WATER, 1),
        ((2, 7, 12), data.SUN, 1),
        ((3, 8, 13), data.SPIRAL, 1),
        ((5, 6, 7, 8, 9), data.FLOWER, 2),
    ]
    assert tuple(data.BOARD.lines) == LINE_BONUSES and set(CORNER_BONUS) == {0, 4, 10, 14}
    # an edited data file changes the engine's board: the rules read it, nothing retypes it
    raw = copy.deepcopy(_raw())
    raw["forest_board"]["corner_bonuses"][0]["plus"] = {"sun": 5}
    raw["forest_board"]["line_bonuses"][3]["gives"] = {"water": 4}
    board = data.load(raw)[4]
    assert board.corners[0] == ("attract", 5) and board.lines[3][1:] == (data.WATER, 4)
