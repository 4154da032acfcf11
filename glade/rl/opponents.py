"""A 2-4 player game as a single-agent Gymnasium environment: one learner, glade bots in the
other seats (or policies, such as a frozen copy of the learner for self-play).

    env = OpponentsEnv("harmonies", players=2, opponents=("greedy",))
    env = gymnasium.make("glade/HarmoniesVsBots-v0", opponents=("mcts:easy",), reward="shaped")
    env.set_opponents((frozen(model),))            # self-play: the learner's current weights

``opponents`` lists one opponent per other seat, in seat order after the learner's (one entry
serves every other seat). An opponent is a bot name of ``glade.bots.make_bot`` (``"random"``,
``"greedy"``, ``"mcts:easy"`` ...) or a policy ``policy(observation, mask) -> action`` called with
that seat's own observation (normalised like the learner's) and int8 mask. ``frozen(model)``
makes such a policy from a stable-baselines3 / sb3-contrib model: a copy of its weights at the
time of the call, which later training does not change.

A step plays the learner's move, then every opponent move until the learner is to act again or
the game ends. Rewards: ``reward`` as in ``glade.rl.REWARDS`` for the learner's seat
(``"shaped"``: the change in its own score after each of its moves, the rest at the end, so an
episode's rewards add up to its final score). ``info`` has the same keys, shapes and types every
step: ``action_mask`` (int8), ``score`` (int: the learner's score now), ``scores`` (int64 per seat)
and ``winners`` (int8 per seat, 1 for each winner) which stay zeros until the game ends, and
``illegal_action`` (bool; an illegal action is refused as in the solo env, ``env.refusal`` says
why, or raised with ``illegal_action="raise"``). ``action_masks()`` and ``sample_legal()`` work as
in the solo env. The observation is the learner's AEC observation vector.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from glade import IllegalAction, new_game
from glade.bots import make_bot
from glade.core import BadInput, Game
from glade.core.chance import stream

from .aec import action_index, check_reward, check_seed, final_rewards, own_score
from .common import RENDER_MODES, Normaliser, check_flag, check_render_mode, observation_box, render
from .copies import SavedGame, deep_copy, playing, restore, saved
from .encoders import make_encoder

OpponentPolicy = Callable[[np.ndarray, np.ndarray], int]
ILLEGAL_MODES = ("refuse", "raise")


def frozen(model: Any, deterministic: bool = False) -> OpponentPolicy:
    """A frozen copy of a stable-baselines3 / sb3-contrib model's policy as an opponent:
    ``policy(observation, mask) -> action`` (masked when the model supports masks)."""
    policy = model.policy_class(
        model.observation_space, model.action_space, model.lr_schedule, **model.policy_kwargs
    )
    policy.load_state_dict(model.policy.state_dict())  # a copy of the weights as they are now
    policy.set_training_mode(False)
    masked = "action_masks" in policy.predict.__code__.co_varnames

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        if masked:
            action, _ = policy.predict(
                observation, deterministic=deterministic, action_masks=mask.astype(bool)
            )
        else:
            action, _ = policy.predict(observation, deterministic=deterministic)
        return int(action)

    return act


class OpponentsEnv(gymnasium.Env[np.ndarray, Any]):
    """One seat of a 2-4 player glade game; the other seats are played by ``opponents``."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        game: str = "harmonies",
        players: int = 2,
        opponents: Sequence[str | OpponentPolicy] = ("greedy",),
        seat: int = 0,
        reward: str = "score_diff",
        normalize: bool = False,
        illegal_action: str = "refuse",
        render_mode: str | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        # what a pickle or a copy rebuilds the environment from (glade.rl.copies)
        self._arguments: dict[str, Any] = {
            "game": game,
            "players": players,
            "opponents": opponents,
            "seat": seat,
            "reward": reward,
            "normalize": normalize,
            "illegal_action": illegal_action,
            "render_mode": render_mode,
            "seed": seed,
            **options,
        }
        self.render_mode = check_render_mode(render_mode)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise BadInput(f"an opponents game has 2 to 4 players, not {players!r}")
        self.encoder = make_encoder(game, players=players, **options)
        self.players = players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise BadInput(f"the learner's seat is a number from 0 to {players - 1}, not {seat!r}")
        self.seat = seat
        self.reward_mode = check_reward(reward, players)
        if illegal_action not in ILLEGAL_MODES:
            raise BadInput(
                f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, not {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.normalize = check_flag("normalize", normalize)
        self._normaliser = Normaliser(self.encoder) if self.normalize else None
        self.observation_space = observation_box(self.encoder, self.normalize)
        self.action_space = spaces.Discrete(self.encoder.n_actions)
        self._first_seed = None if seed is None else check_seed(seed)
        self.set_opponents(opponents)
        self.game: Game | None = None
        self._mask = np.zeros(self.encoder.n_actions, dtype=np.int8)
        self._legal: list[int] = []
        self._given = 0.0
        self._final: dict[str, np.ndarray] = {}
        self.refusal: str | None = None
        self._sampler = random.Random()

    # ------------------------------------------------------------------ opponents
    def set_opponents(self, opponents: Sequence[str | OpponentPolicy]) -> None:
        """Replace the opponents (from the next move on): one per other seat, or one for all."""
        if isinstance(opponents, (str, bytes)) or callable(opponents):
            opponents = (opponents,)
        found = list(opponents)
        others = [s for s in range(self.players) if s != self.seat]
        if len(found) == 1:
            found = found * len(others)
        if len(found) != len(others):
            raise BadInput(
                f"give one opponent or one per other seat ({len(others)}), not {len(found)}"
            )
        for spec in found:
            if not isinstance(spec, str) and not callable(spec):
                raise BadInput(f"an opponent is a bot name or a policy, not {spec!r}")
        self._specs: dict[int, str | OpponentPolicy] = dict(zip(others, found, strict=True))
        game = getattr(self, "game", None)
        self._seat_bots(None if game is None else game.seed)

    def _seat_bots(self, game_seed: int | None) -> None:
        """A new bot for every seat an opponent named by a bot name plays, seeded from the
        game's seed (each seat its own stream) so that the game's seed alone replays an episode;
        policies stay as they are."""
        game_name = self.encoder.game_name
        self._opponents: dict[int, Any] = {}
        for s, spec in self._specs.items():
            if isinstance(spec, str):
                bot_seed = None if game_seed is None else bot_seed_of(game_seed, s)
                self._opponents[s] = make_bot(spec, game_name, seed=bot_seed)
            else:
                self._opponents[s] = spec

    def _opponent_moves(self) -> None:
        """Opponents play until the learner is to act or the game is over."""
        game = self.game
        assert game is not None
        # the first seat of to_act always has a move (Living Forest also lists stopped spirits,
        # which may only undo, after it): the learner plays when it comes first, as in the AEC env
        while not game.is_over and game.to_act[0] != self.seat:
            seat = game.to_act[0]
            opponent = self._opponents[seat]
            if hasattr(opponent, "choose"):
                for action in opponent.choose(game, seat):
                    if game.is_over or game.to_act[0] != seat:
                        break
                    code = game.action_id(action)
                    game.apply_action_id(seat, code, checked=True)
                    self.encoder.after(seat, code)
                continue
            obs = self.encoder.observe(seat)
            if self._normaliser is not None:
                obs = self._normaliser(obs)
            mask = np.zeros(self.encoder.n_actions, dtype=np.int8)
            mask[game.legal_action_ids(seat)] = 1
            code = int(opponent(obs, mask))
            if not (0 <= code < len(mask) and mask[code]):
                raise IllegalAction(f"the opponent policy of seat {seat} chose illegal {code}")
            game.apply_action_id(seat, code, checked=True)
            self.encoder.after(seat, code)

    # ------------------------------------------------------------------ helpers
    def _update_mask(self) -> None:
        game = self.game
        assert game is not None
        self._legal = [] if game.is_over else game.legal_action_ids(self.seat)
        mask = np.zeros(self.encoder.n_actions, dtype=np.int8)
        mask[self._legal] = 1
        self._mask = mask

    def action_masks(self) -> np.ndarray:
        """The learner's legal moves now as a bool array (what MaskablePPO calls)."""
        if self.game is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask.astype(bool)

    def sample_legal(self) -> int:
        """A uniformly random legal move of the learner (the env's generator, seeded by reset)."""
        if self.game is None:
            raise RuntimeError("call reset() before sample_legal()")
        return int(self._legal[int(self._sampler.random() * len(self._legal))])

    def _obs(self) -> np.ndarray:
        obs = self.encoder.observe(self.seat)
        return obs if self._normaliser is None else self._normaliser(obs)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        game = self.game
        assert game is not None
        n = self.players
        return {
            "action_mask": self._mask.copy(),
            "score": own_score(game, self.seat),
            "scores": self._final["scores"].copy() if self._final else np.zeros(n, dtype=np.int64),
            "winners": self._final["winners"].copy() if self._final else np.zeros(n, dtype=np.int8),
            "illegal_action": illegal,
        }

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``seed`` becomes the game's seed (``glade.new_game`` replays it)."""
        if seed is None and self._first_seed is not None:  # the constructor's seed, once
            seed = self._first_seed
        self._first_seed = None
        game_seed = check_seed(seed) if seed is not None else None
        super().reset(seed=game_seed)
        if game_seed is None:
            game_seed = int(self.np_random.integers(2**63))
        self._sampler = random.Random(game_seed)  # sample_legal's (numpy's costs 3 us a draw)
        self._seat_bots(game_seed)
        enc = self.encoder
        self.game = new_game(enc.game_name, seed=game_seed, **enc.options)
        enc.reset(self.game)
        self._given = 0.0
        self._final = {}
        self.refusal = None
        self._opponent_moves()
        self._update_mask()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.is_over:
            raise IllegalAction("the game is over; call reset() to start a new one")
        code = action_index(action, self.encoder.n_actions)
        if not self._mask[code]:
            reason = game.why_illegal(self.seat, code) or "it is not legal now"
            move = game.action_table()[code].to_json()
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {code} {move} is not legal: {reason}")
            self.refusal = f"action {code} {move} was refused: {reason}"
            return self._obs(), 0.0, False, False, self._info(illegal=True)
        self.refusal = None
        game.apply_action_id(self.seat, code, checked=True)
        self.encoder.after(self.seat, code)
        reward = 0.0
        if self.reward_mode == "shaped" and not game.is_over:
            gained = own_score(game, self.seat) - self._given
            self._given += gained
            reward = float(gained)
        self._opponent_moves()
        if game.is_over:
            result = game.result()
            final = final_rewards(result, self.reward_mode)[self.seat]
            reward += final - self._given if self.reward_mode == "shaped" else final
            self._given = final
            winners = np.zeros(self.players, dtype=np.int8)
            winners[list(result["winners"])] = 1
            self._final = {
                "scores": np.array(result["scores"], dtype=np.int64),
                "winners": winners,
            }
        self._update_mask()
        return self._obs(), reward, game.is_over, False, self._info()

    def render(self) -> Any:
        return render(self.render_mode, self.encoder, self.game, self.seat)

    # ------------------------------------------------------------------ pickles and copies
    # what a game in progress changes besides the game (glade.rl.copies carries them over); the
    # bots go as they are (their generators with them), policies too (cloudpickle can pickle a
    # function that plain pickle cannot)
    PLAYING = (
        "_given",
        "_final",
        "refusal",
        "_sampler",
        "_mask",
        "_legal",
        "_np_random",
        "_np_random_seed",
        "_first_seed",
        "_specs",
        "_opponents",
    )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles and copies rebuild the environment from its constructor's arguments, the
        attributes in ``PLAYING`` and the game's seed and moves (``glade.rl.copies``)."""
        state = playing(self, self.PLAYING)
        state["game"] = saved(self.game)
        return (restore, (type(self), dict(self._arguments), state))

    def __deepcopy__(self, memo: dict[int, Any]) -> OpponentsEnv:
        out: OpponentsEnv = deep_copy(self, memo)
        return out

    def _restored(self, game: SavedGame | None) -> None:
        self.game = None if game is None else game.replay(self.encoder)

    def clone(self) -> OpponentsEnv:
        """An independent copy that continues exactly as this environment does."""
        return self.__deepcopy__({})


def bot_seed_of(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game of ``game_seed``: its own named stream."""
    return stream(game_seed, f"bot/{seat}").getrandbits(63)


__all__ = ["OpponentsEnv", "bot_seed_of", "frozen"]
