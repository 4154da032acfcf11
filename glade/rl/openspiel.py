"""Both games as OpenSpiel Python games: ``import glade.rl.openspiel`` registers them.

    import pyspiel
    import glade.rl.openspiel
    game = pyspiel.load_game("python_glade_harmonies", {"players": 2})
    game = pyspiel.load_game("python_glade_living_forest", {"players": 3})

Players are the seats; an action is an index of the game's integer action table (the same
numbers as the PettingZoo environments and ``glade.Game.legal_action_ids``). The games are
sequential, general-sum, with terminal rewards: by default (parameter ``rewards="win_loss"``) +1 to
a sole winner, 0 to each winner of a shared victory, -1 to everyone else; ``rewards="score_diff"``
gives each seat its final score minus the best other seat's and ``rewards="score"`` its final
score (``glade.rl.REWARDS``; ``min_utility``/``max_utility`` follow: +-1, then +-SCORE_BOUND).

Chance: ``SAMPLED_STOCHASTIC``, not explicit chance nodes. The engines deal every hidden order
(Harmonies' pouch and animal pile, Living Forest's stacks and the future reshuffles) from the
game's seed when the game starts (``glade.core.chance``) and never choose an outcome at the
moment of a draw, so there is no point in the game where a chance outcome could be handed in from
outside without changing the rules engines. Instead each ``new_initial_state()`` draws a fresh
seed from the game's generator (parameter ``rng_seed``, -1: fresh entropy), and
``resample_from_infostate(player, sampler)`` re-deals everything ``player`` cannot see with
the engine's own re-dealing of hidden information (``Game.resample_hidden``), which is what OpenSpiel's ISMCTS needs. A
plain ``clone()`` keeps the true hidden orders, so an algorithm that searches clones (OpenSpiel's
``MCTSBot``) plays with knowledge of future draws; ISMCTS does not.

Parameters: ``players`` (2-4), Harmonies' ``side`` ("A"/"B") and ``spirits``, ``normalize``
(tensors scaled to [0, 1] as in the Gymnasium envs), ``rewards`` and ``rng_seed``.

Observations: the observation and information-state tensors are the seat's PettingZoo
observation vector (``docs/rl.md`` lists its segments and bounds) and the observation string the
seat's text view of the table. The information-state string stands for the history: every move
(all moves are public) with each chance outcome it met as the seat saw it
(``Game.describe_chance``), folded into a chain of BLAKE2 digests (so it stays short and cheap in
games of thousands of moves), and in Harmonies the seat's own face-down spirit offer while it
holds one (after the choice the unchosen spirit, out of the game, is forgotten).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from glade import new_game
from glade.core import BadInput, Game

from .aec import check_reward, final_rewards, own_score
from .common import Normaliser
from .copies import SavedGame
from .encoders import make_encoder
from .explicit_chance import OUTCOMES, ExplicitDeal

HARMONIES = "python_glade_harmonies"
LIVING_FOREST = "python_glade_living_forest"
# generous bounds on a game's moves (random 4-player Living Forest games take up to ~5,000)
MAX_MOVES = {"harmonies": 400, "living-forest": 12_000}
# a bound on a final score (Harmonies' score segment is bounded by 500; a Living Forest score is
# trees + fires + sacred flowers, each far below 100), for the utilities of the score rewards
SCORE_BOUND = {"harmonies": 500.0, "living-forest": 100.0}
TERMINAL_REWARDS = ("win_loss", "score_diff", "score")
CHANCE_MODES = ("sampled", "explicit")
ENGINE_PARAMETERS = ("rng_seed", "normalize", "rewards", "chance_mode")


def _game_type(
    short: str,
    long: str,
    params: dict[str, Any],
    min_p: int,
    chance: Any = pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
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
    {
        "players": 2,
        "side": "A",
        "spirits": False,
        "normalize": False,
        "rewards": "win_loss",
        "rng_seed": -1,
        "chance_mode": "sampled",
    },
    2,
)
LIVING_FOREST_TYPE = _game_type(
    LIVING_FOREST,
    "glade Living Forest",
    {"players": 2, "normalize": False, "rewards": "win_loss", "rng_seed": -1},
    2,
)


class GladeGame(pyspiel.Game):
    """A glade game configuration as an OpenSpiel game."""

    game_name = ""
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self._params = dict(params)
        defaults = dict(self.game_type.parameter_specification)
        merged = {**defaults, **params}
        options = {k: v for k, v in merged.items() if k not in ENGINE_PARAMETERS}
        self.chance_mode = str(merged.get("chance_mode", "sampled"))
        if self.chance_mode not in CHANCE_MODES:
            raise BadInput(
                f"unknown chance_mode {self.chance_mode!r}; choose one of: {', '.join(CHANCE_MODES)}"
            )
        explicit = self.chance_mode == "explicit"
        self.normalize = bool(merged["normalize"])
        self.options = options
        self.encoder = make_encoder(self.game_name, **options)
        players = self.encoder.players
        self.rewards = str(merged["rewards"])
        if self.rewards not in TERMINAL_REWARDS:
            raise BadInput(
                f"unknown rewards {self.rewards!r}; choose one of: {', '.join(TERMINAL_REWARDS)}"
            )
        check_reward(self.rewards, players)
        bound = 1.0 if self.rewards == "win_loss" else SCORE_BOUND[self.game_name]
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.n_actions,
            max_chance_outcomes=OUTCOMES if explicit else 0,
            num_players=players,
            min_utility=0.0 if self.rewards == "score" else -bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_MOVES[self.game_name] * players,
        )
        game_type = self.game_type
        if explicit:
            game_type = _game_type(
                game_type.short_name,
                game_type.long_name,
                dict(game_type.parameter_specification),
                game_type.min_num_players,
                pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            )
        super().__init__(game_type, info, params)
        seed = int(merged["rng_seed"])
        self._rng = random.Random(None if seed < 0 else seed)

    def new_initial_state(self, glade_game: Game | None = None) -> GladeState:
        """A new game, from a seed drawn from this game's generator (or ``glade_game``); with
        ``chance_mode="explicit"``, a game whose set-up draws come first as chance nodes."""
        if self.chance_mode == "explicit":
            return GladeState(self, None, ExplicitDeal(self.encoder.options))
        if glade_game is None:
            glade_game = new_game(
                self.encoder.game_name, seed=self._rng.getrandbits(63), **self.encoder.options
            )
        return GladeState(self, glade_game)

    def max_chance_nodes_in_history(self) -> int:
        """A bound on the chance nodes of a history (explicit mode: the set-up's 20 draws, 2 spirits
        a seat, then at most 3 tokens and 5 cards a move)."""
        if self.chance_mode != "explicit":
            return 0
        players = self.encoder.players
        return 20 + 2 * players + 8 * MAX_MOVES[self.game_name] * players

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle or deep copy of the game: its parameters and its generator's state (the
        seeds of the next ``new_initial_state()`` calls), not OpenSpiel's own serialization,
        which asks a sampled-stochastic game for a C++ generator state a Python game lacks."""
        return (_game_of, (type(self), self._params, self._rng.getstate()))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GladeObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return GladeObserver(self, perfect_recall)


def _game_of(cls: type[GladeGame], params: dict[str, Any], rng_state: Any) -> GladeGame:
    game = cls(params)
    game._rng.setstate(rng_state)
    return game


class HarmoniesOpenSpiel(GladeGame):
    game_name = "harmonies"
    game_type = HARMONIES_TYPE


class LivingForestOpenSpiel(GladeGame):
    game_name = "living-forest"
    game_type = LIVING_FOREST_TYPE


class _Holder:
    """Holds a glade game; OpenSpiel clones a Python state by deep-copying its attributes, and
    this makes that copy the engine's own fast ``Game.copy()``."""

    deal: ExplicitDeal | None = None  # explicit chance mode: the game and its draws to decide

    def __init__(self, game: Game, seen: dict[int, tuple[int, str]] | None = None) -> None:
        self.game = game
        # per player: how many log entries are folded into its digest, and the digest
        self._seen: dict[int, tuple[int, str]] = dict(seen or {})

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game.copy(), self._seen)

    def __reduce__(self) -> tuple[Any, ...]:
        """What ``state.serialize()`` (OpenSpiel pickles a Python state's attributes) and a
        pickle of a state keep: the game's seed, options and moves, from which every hidden
        order and later draw follows, and the digests made so far; the game is replayed when it
        is read back, so the state round-trips exactly with either build of the engines."""
        return (_holder_of, (SavedGame.of(self.game), self._seen))

    def seen(self, player: int) -> tuple[int, str]:
        """The number of moves so far and a digest of them, each move with the chance outcome it
        met as ``player`` may see it: a chain of BLAKE2 hashes, one link per move, so a clone
        copies two values and a new move costs one hash."""
        game = self.game
        count, digest = self._seen.get(player, (0, ""))
        for entry in game.log[count:]:
            chance = game.describe_chance(entry, player)
            text = f"{digest}|{entry[0]}:{entry[1]}"
            if chance is not None:
                text += "=" + json.dumps(chance, sort_keys=True)
            digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
            count += 1
        self._seen[player] = (count, digest)
        return count, digest


def _holder_of(saved: SavedGame, seen: dict[int, tuple[int, str]]) -> _Holder:
    return _Holder(saved.replay(), seen)


class _DealHolder(_Holder):
    """The holder of a game in explicit chance mode: its state is its history of moves and
    chance outcomes (``ExplicitDeal``), which is what a pickle or ``serialize()`` keeps."""

    def __init__(self, deal: ExplicitDeal, seen: dict[int, tuple[int, str]] | None = None) -> None:
        super().__init__(deal.game, seen)
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _DealHolder:
        assert self.deal is not None
        return _DealHolder(self.deal.copy(), self._seen)

    def __reduce__(self) -> tuple[Any, ...]:
        assert self.deal is not None
        return (_deal_holder_of, (self.deal.options, list(self.deal.history), self._seen))


def _deal_holder_of(
    options: dict[str, Any], history: list[int], seen: dict[int, tuple[int, str]]
) -> _DealHolder:
    return _DealHolder(ExplicitDeal.of(options, history), seen)


class GladeState(pyspiel.State):
    """An OpenSpiel state holding one glade game."""

    def __init__(
        self, game: GladeGame, glade_game: Game | None, deal: ExplicitDeal | None = None
    ) -> None:
        super().__init__(game)
        if deal is not None:
            self._holder: _Holder = _DealHolder(deal)
        else:
            assert glade_game is not None
            self._holder = _Holder(glade_game)

    @property
    def glade_game(self) -> Game:
        return self._holder.game

    def current_player(self) -> int:
        deal = self._holder.deal
        if deal is not None and deal.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        to_act = self.glade_game.to_act
        return int(to_act[0]) if to_act else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        if player not in self.glade_game.to_act:
            return []
        return sorted(self.glade_game.legal_action_ids(player))

    def _apply_action(self, action: int) -> None:
        deal = self._holder.deal
        seat = self.glade_game.to_act[0] if self.glade_game.to_act else -1
        if deal is None:
            self.glade_game.apply_action_id(seat, int(action), checked=True)
        elif deal.is_chance():
            deal.decide(int(action))
        else:
            deal.play(seat, int(action))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Explicit chance mode: the next draw's outcomes and probabilities (they sum to 1)."""
        deal = self._holder.deal
        if deal is None or not deal.is_chance():
            return []
        return deal.outcomes()

    def _action_to_string(self, player: int, action: int) -> str:
        deal = self._holder.deal
        if player == int(pyspiel.PlayerId.CHANCE) and deal is not None:
            return deal.describe(int(action))
        move = self.glade_game.action_table()[action].to_json()
        return f"{player}: {move}"

    def is_terminal(self) -> bool:
        return bool(self.glade_game.is_over)

    def returns(self) -> list[float]:
        if not self.glade_game.is_over:
            return [0.0] * self.glade_game.num_players
        rewards: str = self.get_game().rewards
        return final_rewards(self.glade_game.result(), rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GladeState:
        """A state ``player_id`` cannot tell from this one: everything hidden from it re-dealt."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return GladeState(self.get_game(), self.glade_game.resample_hidden(player_id, rng))

    def __str__(self) -> str:
        return str(self.get_game().encoder.render(self.glade_game, None))

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle or deep copy of the state: its game and ``serialize()`` (the seed, options
        and moves of the glade game, so it round-trips exactly, draws to come included)."""
        return (_state_of, (self.get_game(), self.serialize()))


def _state_of(game: GladeGame, data: str) -> GladeState:
    state: GladeState = game.deserialize_state(data)
    return state


DIGEST_BITS = 128  # the information-state digest (BLAKE2, 16 bytes) as bits


class GladeObserver:
    """OpenSpiel's observer interface over a glade encoder (``tensor``, ``dict``, strings).

    The observation tensor is the seat's observation vector. The perfect-recall one (OpenSpiel's
    information-state tensor) adds the history: ``history``, one row per move of the game so far
    (``max_game_length`` rows, zeros after the last move): the seat that moved, ``(seat + 1) /
    players``, and its action, ``(action + 1) / num_distinct_actions``: every move, all public;
    and ``digest``, the 128 bits of the information-state string's digest, which folds in every
    chance outcome as this seat saw it (its own draws included), so that two histories the seat
    can tell apart never give the same tensor."""

    def __init__(self, game: GladeGame, perfect_recall: bool) -> None:
        self.encoder = make_encoder(game.game_name, **game.options)
        self.perfect_recall = perfect_recall
        self._normaliser = Normaliser(self.encoder) if game.normalize else None
        size = self.encoder.size
        self.rows = game.max_game_length() if perfect_recall else 0
        self.tensor = np.zeros(size + 2 * self.rows + DIGEST_BITS * perfect_recall, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size : size + 2 * self.rows].reshape(self.rows, 2)
            self.dict["digest"] = self.tensor[size + 2 * self.rows :]
        self._players = float(self.encoder.players)
        self._actions = float(self.encoder.n_actions)

    def set_from(self, state: GladeState, player: int) -> None:
        observation = self.dict["observation"]
        self.encoder.reset(state.glade_game)
        self.encoder.observe(player, out=observation)
        if self._normaliser is not None:
            observation[:] = self._normaliser(observation)
        if not self.perfect_recall:
            return
        history = self.dict["history"]
        history.fill(0.0)
        log = state.glade_game.log[: self.rows]
        if log:
            moves = np.array([(seat, code) for seat, code, _ in log], dtype=np.float32)
            history[: len(log), 0] = (moves[:, 0] + 1.0) / self._players
            history[: len(log), 1] = (moves[:, 1] + 1.0) / self._actions
        _, digest = state._holder.seen(player)
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(digest or "00" * 16), dtype=np.uint8))
        self.dict["digest"][:] = bits

    def string_from(self, state: GladeState, player: int) -> str:
        game = state.glade_game
        if not self.perfect_recall:
            return str(self.encoder.render(game, player))
        private = ""
        if game.game_name == "harmonies" and game.boards[player].offer:  # type: ignore[attr-defined]
            private = " offer " + " ".join(map(str, game.boards[player].offer))  # type: ignore[attr-defined]
        count, digest = state._holder.seen(player)
        return f"player {player}{private} moves {count} history {digest}"


class ScoreEvaluator:
    """An MCTS evaluator (OpenSpiel's ``Evaluator`` interface) without rollouts: a state's value
    for each seat is its score lead over the best other seat, squashed to (-1, 1) by
    ``tanh(lead / scale)``; a finished game's value is its returns. Priors are uniform. For Living
    Forest, whose random rollouts run to about 2,000 moves, this keeps a search budget small."""

    def __init__(self, scale: float = 10.0) -> None:
        self.scale = scale

    def evaluate(self, state: GladeState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        game = state.glade_game
        scores = [own_score(game, s) for s in range(game.num_players)]
        leads = [s - max(scores[:i] + scores[i + 1 :]) for i, s in enumerate(scores)]
        return np.tanh(np.array(leads, dtype=np.float64) / self.scale)

    def prior(self, state: GladeState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(HARMONIES_TYPE, HarmoniesOpenSpiel)
pyspiel.register_game(LIVING_FOREST_TYPE, LivingForestOpenSpiel)

__all__ = [
    "HARMONIES",
    "LIVING_FOREST",
    "SCORE_BOUND",
    "TERMINAL_REWARDS",
    "GladeGame",
    "GladeState",
    "ScoreEvaluator",
]
