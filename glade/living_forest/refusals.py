"""Living Forest's refusal codes: why a move, an action's shape, an option or a save is refused.

Params are language-neutral: element, card, tree and victory-tile names as the data file spells
them, counts, seats, and 0-based forest rows and columns. ``docs/refusals.md`` lists them all.
The codes every game shares (``game.over``, ``seat.unknown``, ``undo.*`` …) live in
``glade.core.refusals.CORE``.
"""

from __future__ import annotations

from glade.core.errors import Catalogue

REFUSALS = Catalogue(
    "living-forest",
    {
        # the shape of an action (names nothing in the action space)
        "lf_action.number": "there is no action number {number}",
        "lf_action.kind": "Living Forest has no action {kind}; the actions are: {actions}",
        "lf_action.fields": "the {kind} action takes {fields}",
        "lf_action.no_fields": "the {kind} action takes no fields",
        "lf_action.choose_action": (
            "that choose_action names nothing on the table: action must be one of {actions}"
        ),
        "lf_action.pick_card": (
            "that pick_card names nothing on the table: level must be 1, 2 or 3 and slot 0 to 3"
        ),
        "lf_action.pick_fire": (
            "that pick_fire names nothing on the table: index must be a whole number from 0 to "
            "{last}"
        ),
        "lf_action.steal": "that steal names nothing on the table: tile must be one of {tiles}",
        "lf_action.move": (
            "that move names nothing on the table: steps must be a whole number from 1 to {most}"
        ),
        "lf_action.plant": (
            "that plant names nothing on the table: tree must be one of {trees}, row 0 to "
            "{last_row} and column 0 to {last_column}, and the centre (row {start_row}, column "
            "{start_column}) holds the starting tree"
        ),
        # whose turn, which phase
        "round.drawing": "the spirits are drawing Guardian Animals now; actions come after",
        "round.draw_over": "the Guardian Animals phase is over; draw again next round",
        "round.other_spirit": "it is spirit {spirit}'s turn to act, not yours",
        # the Guardian Animals phase
        "draw.stopped": "you have stopped drawing this round; wait for the other spirits",
        "draw.three_solitary_fragment": (
            "your help line shows 3 solitary symbols: use a fragment on that card or stop"
        ),
        "draw.three_solitary": "your help line shows 3 solitary symbols, so you must stop",
        "draw.no_cards": "your draw stack and your discard are both empty",
        "draw.stop_empty": "your help line is empty: draw at least one card before you stop",
        "draw.no_fragment": "you have no fragment to use",
        "draw.not_just_drawn": "a fragment can only send away the card you have just drawn",
        # choosing an action
        "actions.nothing_to_finish": (
            "there is nothing to finish: choose an action or end your actions"
        ),
        "actions.choose_first": (
            "choose an action first (take a fragment, attract, extinguish, move or plant)"
        ),
        "actions.same_action": (
            "you have already chosen {action} this turn; only the cost-11 tree allows the same "
            "action twice"
        ),
        "fragment.none_left": "there is no fragment left in the supply",
        "attract.no_animal": "there is no face-up animal left to attract",
        "attract.too_dear": "the cheapest face-up animal costs {cost} sun but you have {sun}",
        "extinguish.no_fire": "there is no fire in the centre to extinguish",
        "extinguish.too_big": "the smallest fire is worth {value} but you have {water} water",
        "move.no_spiral": "you need at least 1 spiral to move on the circle",
        "plant.forest_full": "your forest is full",
        "plant.no_tree": "there is no protective tree left in the supply",
        "plant.too_dear": "the cheapest tree left costs {cost} plant but you have {plant}",
        # inside an action
        "attract.take_one": "you chose to attract: take at least one animal (or undo)",
        "attract.pick": "you are attracting animals: pick a face-up card or say done",
        "attract.slot_empty": "slot {slot} of level {level} is empty",
        "attract.over_budget": "the {card} costs {cost} sun but you have {left} left",
        "extinguish.take_one": "you chose to extinguish: take at least one fire (or undo)",
        "extinguish.pick": "you are extinguishing fires: pick a fire in the centre or say done",
        "extinguish.no_such_fire": ("there is no fire number {index} in the centre ({left} left)"),
        "extinguish.over_budget": "that fire is worth {value} but you have {left} water left",
        "move.steps": "you are moving on the circle: choose how many rocks to move",
        "move.too_far": (
            "you have {spiral} spiral, so you can move at most {spiral} {spiral:rock|rocks}"
        ),
        "steal.choose": "choose a victory tile to take from spirit {spirit}",
        "steal.no_tile": "spirit {spirit} has no {tile} victory tile",
        "plant.plant_one": "you chose to plant: plant a tree (or undo)",
        "plant.choose": "you are planting: choose a tree and an empty space of your forest",
        "plant.none_left": "there is no {tree} tree left in the supply",
        "plant.over_budget": "the {tree} tree costs {cost} plant but you have {plant}",
        "plant.occupied": "there is already a tree at row {row}, column {column}",
        "plant.not_adjacent": (
            "row {row}, column {column} does not touch a tree of your forest (orthogonally)"
        ),
        # bonuses (a rock or a corner): carried out once they can do something
        "bonus.attract": "a bonus attract must be carried out: take at least one animal",
        "bonus.extinguish": "a bonus extinguish must be carried out: take at least one fire",
        "bonus.plant": "a bonus plant must be carried out: plant a tree",
        # options and saves
        "lf_options.not_mapping": "options must be a mapping",
        "lf_options.unknown": (
            "Living Forest has no option {option}; the only option is players (2-4)"
        ),
        "lf_options.players": "Living Forest is for 2 to 4 players, not {players}",
        "lf_save.not_living_forest": "this is not a saved Living Forest game",
        "lf_save.version": "unknown Living Forest save version {version}",
        "lf_save.damaged": "this Living Forest save is damaged (at {field})",
        # the packaged data file (checked once, at import)
        "lf_data.malformed": "living-forest-cards.json is malformed: {what}",
    },
)

__all__ = ["REFUSALS"]
