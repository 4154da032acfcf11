"""Many games of one configuration stepped together in one process, with batched arrays.

    runner = VectorGames("harmonies", num_games=64, seed=0, players=2)
    obs, masks, seats = runner.reset()
    obs, masks, seats, rewards, dones = runner.step(actions)   # one action per game

Row ``i`` of ``obs``/``masks`` is game ``i`` seen by the seat that acts there now (``seats[i]``).
``runner.legal[i]`` lists the same legal moves as ``masks[i]``, for policies that sample from lists.
A finished game hands out its final rewards (``rewards[i, seat]``, one column per seat), sets
``dones[i]`` and is replaced at once by a new game, whose first observation is the one returned.

Every array returned is fresh (the runner never writes into it again). The per-step work (moves,
observations, masks) runs in the compiled kernels when they are built (``glade.rl.kernels``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from glade import IllegalAction, new_game
from glade.core import BadInput, Game

from . import kernels
from .aec import check_reward, final_rewards
from .copies import SavedGame, deep_copy, playing, restore
from .encoders import make_encoder
from .kernels import compiled_module, use_compiled
from .spec import Encoder


class VectorGames:
    """``num_games`` independent games; seeds run ``seed, seed+1, ...`` in the order games start."""

    def __init__(
        self,
        game: str,
        num_games: int,
        seed: int = 0,
        reward: str = "score_diff",
        **options: Any,
    ) -> None:
        # what a pickle or a copy rebuilds the runner from (glade.rl.copies)
        self._arguments: dict[str, Any] = {
            "game": game,
            "num_games": num_games,
            "seed": seed,
            "reward": reward,
            **options,
        }
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise BadInput("num_games must be a whole number of at least 1")
        # compiled=True/False picks the compiled kernels or the pure-Python code (default: the
        # kernels whenever they are built, see glade.rl.kernels)
        self.compiled = use_compiled(options.pop("compiled", None))
        self.encoders: list[Encoder] = [
            make_encoder(game, **options, compiled=self.compiled) for _ in range(num_games)
        ]
        # what steps the games: the encoders' compiled kernels, or the encoders themselves
        self._workers: list[Any] = [
            enc.kernel if self.compiled else enc  # type: ignore[attr-defined]
            for enc in self.encoders
        ]
        self._k: Any = compiled_module() if self.compiled else kernels
        first = self.encoders[0]
        self.game_name = first.game_name
        self.options = dict(first.options)
        self.players = first.players
        self.reward_mode = check_reward(reward, self.players)
        self.num_games = num_games
        self.obs_size = first.size
        self.n_actions = first.n_actions
        self.games: list[Game] = []
        self.seeds = np.zeros(num_games, dtype=np.int64)
        self._seed = seed
        self._next_seed = seed
        self._obs = np.zeros((num_games, self.obs_size), dtype=np.float32)
        self._masks = np.zeros((num_games, self.n_actions), dtype=np.int8)
        self._seats = np.zeros(num_games, dtype=np.int64)
        self._rows = np.arange(num_games)
        self.finished: list[dict[str, Any]] = []  # results of finished games, in finishing order
        # the legal move indices of each game's acting seat, as lists (the masks' nonzero entries)
        self.legal: list[list[int]] = [[] for _ in range(num_games)]

    def _start(self, i: int) -> None:
        seed = self._next_seed
        self._next_seed += 1
        game = new_game(self.game_name, seed=seed, **self.options)
        self.encoders[i].reset(game)
        if i < len(self.games):
            self.games[i] = game
        else:
            self.games.append(game)
        self.seeds[i] = seed

    def _fill(self, i: int) -> None:
        """Observation and legal moves of game ``i`` (the masks are built for all games at once)."""
        game = self.games[i]
        seat = game.to_act[0]
        self._seats[i] = seat
        self.encoders[i].observe(seat, out=self._obs[i])
        self.legal[i] = game.legal_action_ids(seat)

    def _build_masks(self) -> None:
        self._k.fill_masks(self._masks, self.legal)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every game afresh; returns copies of (observations, masks, acting seats)."""
        self._next_seed = self._seed if seed is None else seed
        self.games = []
        self.finished = []
        for i in range(self.num_games):
            self._start(i)
            self._fill(i)
        self._build_masks()
        return self._obs.copy(), self._masks.copy(), self._seats.copy()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action in every game: (observations, masks, seats, rewards, dones).

        Every action is checked against its mask before any is played, so an illegal one raises
        :class:`glade.IllegalAction` and changes no game.
        """
        if not self.games:
            raise RuntimeError("call reset() before step()")
        codes: list[Any] = []
        bad = -2
        if type(actions) is list:  # the common case, checked in one compiled pass
            codes = actions
            bad = self._k.first_illegal(codes, self._masks)
        if bad == -2:  # not a plain list of ints: through numpy
            acts = np.asarray(actions)
            if acts.shape != (self.num_games,) or not np.issubdtype(acts.dtype, np.integer):
                raise IllegalAction(
                    f"step needs one whole-number action per game ({self.num_games})"
                )
            codes = acts.tolist()
            bad = self._k.first_illegal(codes, self._masks)
        if bad == -3:
            raise IllegalAction(f"actions are numbered 0 to {self.n_actions - 1}")
        if bad >= 0:
            code = codes[bad]
            seat = int(self._seats[bad])
            reason = self.games[bad].why_illegal(seat, code) or "it is not legal now"
            raise IllegalAction(f"game {bad}: seat {seat} cannot play action {code}: {reason}")
        rewards = np.zeros((self.num_games, self.players), dtype=np.float32)
        dones = np.zeros(self.num_games, dtype=bool)
        # a fresh buffer for this step's observations: every row is written below
        self._obs = np.empty((self.num_games, self.obs_size), dtype=np.float32)
        finished = self._k.step_games(
            self.games,
            self._workers,
            codes,
            self._seats.tolist(),
            self._obs,
            self._seats,
            self.legal,
        )
        for i in finished:
            game = self.games[i]
            result = game.result()
            rewards[i] = final_rewards(result, self.reward_mode)
            dones[i] = True
            self.finished.append(
                {
                    "seed": int(self.seeds[i]),
                    "scores": result["scores"],
                    "winners": result["winners"],
                }
            )
            self._start(i)
            self._fill(i)
        self._build_masks()
        return self._obs, self._masks.copy(), self._seats.copy(), rewards, dones

    # ------------------------------------------------------------------ pickles and copies
    # what stepping changes besides the games (glade.rl.copies carries them over)
    PLAYING = ("seeds", "_next_seed", "_obs", "_masks", "_seats", "finished", "legal")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles and copies rebuild the runner from its constructor's arguments, the
        attributes in ``PLAYING`` and each game's seed and moves: the copy steps exactly as the
        original (``glade.rl.copies``)."""
        state = playing(self, self.PLAYING)
        state["game"] = [SavedGame.of(game) for game in self.games]
        return (restore, (type(self), dict(self._arguments), state))

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorGames:
        out: VectorGames = deep_copy(self, memo)
        return out

    def _restored(self, games: list[SavedGame]) -> None:
        self.games = [saved.replay(enc) for saved, enc in zip(games, self.encoders, strict=False)]
