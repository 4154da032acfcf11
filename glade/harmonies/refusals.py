"""Every refusal of the Harmonies package: its stable code and English template.

Codes begin with ``harmonies.`` so that they can never clash with another game's. Params are
language-neutral: colour names (``"gray"``), cells (``"q,r"``), card ids and names,
action and field names, numbers. The shared codes (``game.over``, ``move.unknown``, ``seat.*``,
``undo.*``) live in ``glade.core.refusals.CORE``. ``docs/refusals.md`` lists them all.
"""

from __future__ import annotations

from typing import Any

from glade.core.errors import BadInput, Catalogue, IllegalAction, Refusal

PREFIX = "harmonies."

REFUSALS = Catalogue(
    "harmonies",
    {
        # ---------------------------------------------------------------- turn order
        "harmonies.turn.not_yours": "it is not your turn: seat {seat} is playing",
        "harmonies.spirit.choose_first": "first choose which of your two Nature's Spirits to keep",
        # ---------------------------------------------------------------- taking tokens
        "harmonies.tokens.already_taken": "you already took tokens from the central board this turn",
        "harmonies.tokens.no_space": "the solo central board has only {spaces} spaces",
        "harmonies.tokens.space_empty": "central space {space} is empty",
        # ---------------------------------------------------------------- placing a token
        "harmonies.token.take_first": "take the tokens of one central space first",
        "harmonies.token.not_in_hand": "you have no {color} token to place",
        "harmonies.token.on_cube": "the cell {cell} holds a cube, so nothing can be placed on it",
        "harmonies.stack.building": "the building at {cell} is complete: nothing can be placed on a building",
        "harmonies.stack.mountain_full": "the mountain at {cell} is already at its full height of 3",
        "harmonies.stack.trunk_full": (
            "the trunk at {cell} is already 2 brown tokens high; only green can go on it"
        ),
        # one code per colour: the rule each colour follows, with the top it met (``on``)
        "harmonies.stack.blue": "a water token cannot go on {on} (cell {cell}): blue goes only on an empty cell",
        "harmonies.stack.gray": (
            "a mountain cannot rise on {on} (cell {cell}): "
            "gray goes on an empty cell or on one or two gray"
        ),
        "harmonies.stack.brown": (
            "a trunk cannot go on {on} (cell {cell}): brown goes on an empty cell or on one brown"
        ),
        "harmonies.stack.green": (
            "a tree cannot grow on {on} (cell {cell}): "
            "green goes on an empty cell or on one or two brown"
        ),
        "harmonies.stack.yellow": (
            "a field token cannot go on {on} (cell {cell}): yellow goes only on an empty cell"
        ),
        "harmonies.stack.red": (
            "a building cannot be made on {on} (cell {cell}): "
            "red goes on an empty cell or on one red, brown or gray token"
        ),
        # ---------------------------------------------------------------- animal cards
        "harmonies.card.already_taken": "you already took an animal card this turn",
        "harmonies.card.after_discard": "you discarded a card this turn, so you cannot take one",
        "harmonies.card.hand_full": "you already hold {limit} unfinished cards; complete one first",
        "harmonies.card.no_slot": "there are only {slots} face-up animal cards",
        "harmonies.card.slot_empty": "card slot {slot} is empty",
        # ---------------------------------------------------------------- cubes
        "harmonies.cube.no_spirit": "you do not have the {name} Spirit",
        "harmonies.cube.spirit_placed": "the cube of the {name} Spirit is already on your board",
        "harmonies.cube.card_done": "all cubes of the {name} card are already placed",
        "harmonies.cube.not_held": "you do not hold the {name} card",
        "harmonies.cube.occupied": "the cell {cell} already holds a cube",
        "harmonies.cube.no_habitat": "the {name} habitat is not on your board with its cube cell at {cell}",
        # ---------------------------------------------------------------- Nature's Spirits
        "harmonies.spirit.nothing_to_choose": "you have no Nature's Spirit to choose now",
        "harmonies.spirit.not_dealt": "the {name} Spirit is not one of the two you were dealt",
        # ---------------------------------------------------------------- solo discard
        "harmonies.discard.not_solo": "discarding a face-up card is only allowed in solo games",
        "harmonies.discard.after_take": "you took an animal card this turn, so you cannot discard one",
        "harmonies.discard.already": "you already discarded a card this turn",
        "harmonies.discard.tokens_first": "place your three tokens before discarding a card",
        "harmonies.discard.pile_empty": (
            "the animal draw pile is empty, so a discarded card could not be replaced"
        ),
        # ---------------------------------------------------------------- ending the turn
        "harmonies.end.take_first": "you must take the tokens of one central space before ending your turn",
        "harmonies.end.tokens_left": "you still have {left} {left:token|tokens} to place",
        # ---------------------------------------------------------------- actions naming nothing
        "harmonies.action.unknown": (
            "{type!r} is not a Harmonies action; actions are take_tokens, place_token, "
            "take_card, place_cube, choose_spirit, discard_card, end_turn and undo"
        ),
        "harmonies.action.missing_field": "{type} needs the field {field!r}",
        "harmonies.action.extra_field": "{type} has no field {field!r}",
        "harmonies.action.not_number": "the {field} must be a whole number from 0 to {limit}",
        "harmonies.action.out_of_range": "there is no {field} {value}; {field}s are numbered 0 to {limit}",
        "harmonies.action.no_such": "that {type} action does not exist",
        "harmonies.color.unknown": (
            "{color!r} is not a token colour; colours are blue, gray, brown, green, yellow, red"
        ),
        "harmonies.card.unknown": "there is no card {card!r}",
        "harmonies.spirit.is_animal": "the {name} is an animal card, not a Nature's Spirit",
        "harmonies.cell.not_text": 'a cell is written "q,r", for example "1,2"',
        "harmonies.cell.off_board": "the cell {cell} is not on side {side} of the board",
        # ---------------------------------------------------------------- options and saves
        "harmonies.options.unknown": (
            "unknown Harmonies option {option!r}; options are players, side, spirits"
        ),
        "harmonies.options.players": "Harmonies is played by 1 to 4 players",
        "harmonies.options.side": 'the board side must be "A" or "B"',
        "harmonies.options.spirits": "spirits must be true or false",
        "harmonies.save.damaged": "this saved Harmonies game is damaged ({detail})",
        "harmonies.save.log_entry": (
            "this saved Harmonies game is damaged: its log does not replay from entry {entry} "
            "of {entries}"
        ),
        "harmonies.save.log_state": (
            "this saved Harmonies game is damaged: its log, replayed to its end (entry {entries}), "
            "does not give the saved state"
        ),
        # ---------------------------------------------------------------- boards to score
        "harmonies.board.not_object": "a board must be a JSON object",
        "harmonies.board.side": 'the side must be "A" or "B", not {side!r}',
        "harmonies.board.cell_name": '{cell!r} is not a cell; cells are written "q,r"',
        "harmonies.board.stacks": '"stacks" must map cells to lists of colours',
        "harmonies.board.stack_list": "the stack at {cell} must be a list of colour names",
        "harmonies.board.stack_color": (
            "the stack at {cell} has an unknown colour {color!r}; "
            "colours are blue, gray, brown, green, yellow, red"
        ),
        "harmonies.board.stack_impossible": "the stack at {cell} ({stack}, bottom first) cannot be built",
        "harmonies.board.too_many_tokens": (
            "the board has {count} {color} tokens, but the game has only {box}"
        ),
        "harmonies.board.cubes": '"cubes" must be a list of cells',
        "harmonies.board.cube_twice": "the cell {cell} holds two cubes",
        "harmonies.board.cube_no_token": "the cell {cell} holds a cube but no token",
        "harmonies.board.cube_no_habitat": (
            "the cube at {cell} is on {stack}, where no card's cube can be"
        ),
        "harmonies.board.cube_unmatched": (
            "the cube at {cell} is on {stack}, but the cards whose cube goes there "
            "account for only {cubes} {cubes:cube|cubes} on such stacks"
        ),
        "harmonies.board.cards": '"cards" must be a list',
        "harmonies.board.card_entry": 'each card must be {{"card": id, "placed": n}}',
        "harmonies.board.no_animal": "there is no animal card {card!r}",
        "harmonies.board.card_twice": "the card {card} appears twice",
        "harmonies.board.placed_not_number": "the card {card} needs a whole number of placed cubes",
        "harmonies.board.placed_too_many": "the card {card} has only {cubes} cubes, not {placed}",
        "harmonies.board.too_many_held": (
            "the board holds {held} unfinished cards ({cards}), but a player may hold only "
            "{limit} (a Nature's Spirit whose cube is not placed counts)"
        ),
        "harmonies.board.spirit_entry": '"spirit" must be {{"card": id, "placed": true|false}}',
        "harmonies.board.no_spirit": "there is no Nature's Spirit {card!r}",
        "harmonies.board.cube_count": (
            'the cards account for {expected} cubes on the board but "cubes" lists {listed}'
        ),
        "harmonies.board.solo_not_bool": "solo must be true or false",
        "harmonies.board.explain_not_bool": "explain must be true or false",
    },
)


def refuse(code: str, **params: Any) -> Refusal:
    """The refusal ``harmonies.<code>`` with ``params``."""
    return REFUSALS.refuse(PREFIX + code, **params)


def illegal(code: str, **params: Any) -> IllegalAction:
    return REFUSALS.illegal(PREFIX + code, **params)


def bad_input(code: str, **params: Any) -> BadInput:
    return REFUSALS.bad_input(PREFIX + code, **params)


__all__ = ["PREFIX", "REFUSALS", "bad_input", "illegal", "refuse"]
