"""Learning the games: the rules as data in three languages, and a guided first game of each.

``rules(game, lang)`` is the rules page (``rulebook.py``); ``Tutorial`` plays a guided first game
from its script (``tutorial.py``). This package reads the rules engines and nothing above them.
"""

from .rulebook import GAMES, LANGS, rules, section, section_ids

__all__ = ["GAMES", "LANGS", "rules", "section", "section_ids"]
