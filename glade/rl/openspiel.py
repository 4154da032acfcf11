"""Both games as OpenSpiel Python games: ``import glade.rl.openspiel`` registers them.

    import pyspiel
    import glade.rl.openspiel
    game = pyspiel.load_game("python_glade_harmonies", {"players": 2})
    game = pyspiel.load_game("python_glade_living_forest", {"players": 3})

Players are the seats; an action is an index of the game's integer action table (the same
numbers as the PettingZoo environments and ``glade.Game.legal_action_ids``). The games are
sequential, general-sum, with terminal rewards: +1 to a sole winner, 0 to each winner of a
shared victory, -1 to everyone else (``glade.rl.REWARDS``' ``win_loss``).

Chance: ``SAMPLED_STOCHASTIC``, not explicit chance nodes. The engines deal every hidden order
(Harmonies' pouch and animal pile, Living Forest's stacks and the future reshuffles) from the
game's seed when the game starts (``glade.core.chance``) and never choose an outcome at the
moment of a draw, so there is no point in the game where a chance outcome could be handed in from
outside without changing the rules engines. Instead each ``new_initial_state()`` draws a fresh
seed from the game's generator (parameter ``rng_seed``, -1: fresh entropy), and
``resample_from_infostate(player, sampler)`` re-deals everything ``player`` cannot see with
glade's determinizer (``glade.bots.determinize``), which is what OpenSpiel's ISMCTS needs. A
plain ``clone()`` keeps the true hidden orders, so an algorithm that searches clones (OpenSpiel's
``MCTSBot``) plays with knowledge of future draws; ISMCTS does not.

Observations: the observation and information-state tensors are the seat's PettingZoo
observation vector (``docs/rl.md`` lists its segments and bounds), the observation string the
seat's text view of the table, and the information-state string that text after the history of
moves (every move is public; the draws a seat saw are on the table it shows).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from glade import new_game
from glade.bots.determinize import determinize
from glade.core import Game

from .aec import final_rewards
from .encoders import make_encoder

HARMONIES = "python_glade_harmonies"
LIVING_FOREST = "python_glade_living_forest"
# generous bounds on a game's moves (random 4-player Living Forest games take up to ~5,000)
MAX_MOVES = {"harmonies": 400, "living-forest": 12_000}


def _game_type(short: str, long: str, params: dict[str, Any], min_p: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=min_p,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


HARMONIES_TYPE = _game_type(
    HARMONIES,
    "glade Harmonies",
    {"players": 2, "side": "A", "spirits": False, "rng_seed": -1},
    2,
)
LIVING_FOREST_TYPE = _game_type(
    LIVING_FOREST, "glade Living Forest", {"players": 2, "rng_seed": -1}, 2
)


class GladeGame(pyspiel.Game):
    """A glade game configuration as an OpenSpiel game."""

    game_name = ""
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        defaults = dict(self.game_type.parameter_specification)
        merged = {**defaults, **params}
        options = {k: v for k, v in merged.items() if k != "rng_seed"}
        self.options = options
        self.encoder = make_encoder(self.game_name, **options)
        players = self.encoder.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.n_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_MOVES[self.game_name] * players,
        )
        super().__init__(self.game_type, info, params)
        seed = int(merged["rng_seed"])
        self._rng = random.Random(None if seed < 0 else seed)

    def new_initial_state(self, glade_game: Game | None = None) -> GladeState:
        """A new game, from a seed drawn from this game's generator (or ``glade_game``)."""
        if glade_game is None:
            glade_game = new_game(
                self.encoder.game_name, seed=self._rng.getrandbits(63), **self.encoder.options
            )
        return GladeState(self, glade_game)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GladeObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return GladeObserver(self, perfect_recall)


class HarmoniesOpenSpiel(GladeGame):
    game_name = "harmonies"
    game_type = HARMONIES_TYPE


class LivingForestOpenSpiel(GladeGame):
    game_name = "living-forest"
    game_type = LIVING_FOREST_TYPE


class _Holder:
    """Holds a glade game; OpenSpiel clones a Python state by deep-copying its attributes, and
    this makes that copy the engine's own fast ``Game.copy()``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game.copy())


class GladeState(pyspiel.State):
    """An OpenSpiel state holding one glade game."""

    def __init__(self, game: GladeGame, glade_game: Game) -> None:
        super().__init__(game)
        self._holder = _Holder(glade_game)

    @property
    def glade_game(self) -> Game:
        return self._holder.game

    def current_player(self) -> int:
        to_act = self.glade_game.to_act
        return int(to_act[0]) if to_act else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        if player not in self.glade_game.to_act:
            return []
        return sorted(self.glade_game.legal_action_ids(player))

    def _apply_action(self, action: int) -> None:
        seat = self.glade_game.to_act[0]
        self.glade_game.apply_action_id(seat, int(action), checked=True)

    def _action_to_string(self, player: int, action: int) -> str:
        move = self.glade_game.action_table()[action].to_json()
        return f"{player}: {move}"

    def is_terminal(self) -> bool:
        return bool(self.glade_game.is_over)

    def returns(self) -> list[float]:
        if not self.glade_game.is_over:
            return [0.0] * self.glade_game.num_players
        return final_rewards(self.glade_game.result(), "win_loss")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GladeState:
        """A state ``player_id`` cannot tell from this one: everything hidden from it re-dealt."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return GladeState(self.get_game(), determinize(self.glade_game, player_id, rng))

    def __str__(self) -> str:
        return str(self.get_game().encoder.render(self.glade_game, None))


class GladeObserver:
    """OpenSpiel's observer interface over a glade encoder (``tensor``, ``dict``, strings)."""

    def __init__(self, game: GladeGame, perfect_recall: bool) -> None:
        self.encoder = make_encoder(game.game_name, **game.options)
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GladeState, player: int) -> None:
        self.encoder.reset(state.glade_game)
        self.encoder.observe(player, out=self.tensor)

    def string_from(self, state: GladeState, player: int) -> str:
        view = self.encoder.render(state.glade_game, player)
        if not self.perfect_recall:
            return view
        moves = " ".join(f"{seat}:{code}" for seat, code, _ in state.glade_game.log)
        return f"player {player}\nmoves {moves}\n{view}"


pyspiel.register_game(HARMONIES_TYPE, HarmoniesOpenSpiel)
pyspiel.register_game(LIVING_FOREST_TYPE, LivingForestOpenSpiel)

__all__ = ["HARMONIES", "LIVING_FOREST", "GladeGame", "GladeState"]
