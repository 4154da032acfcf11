"""Harmonies solo as a single-agent Gymnasium environment, registered as ``glade/HarmoniesSolo-v0``.

The observation is the solo encoding of ``docs/rl.md`` (``normalize=True``: every entry scaled to
[0, 1] from its documented bounds). The reward of a step is the score it gained, so an episode's
rewards add up to the final score. ``action_masks()`` (what sb3-contrib's MaskablePPO looks for)
and ``info["action_mask"]`` mark the legal moves; ``sample_legal()`` draws one uniformly.

Every step's ``info`` has the same keys, shapes and types: ``action_mask`` (int8, one entry per
action), ``score`` (int, the score now), ``suns`` (int, the solo sun rating once the game is over,
0 before) and ``illegal_action`` (bool). Gymnasium draws unmasked actions (``check_env`` does), so
by default an illegal action is refused rather than raised: nothing changes, the reward is 0,
``info["illegal_action"]`` is True and ``env.refusal`` says why. ``illegal_action="raise"`` raises
:class:`glade.IllegalAction` instead. The registered id truncates an episode after
``MAX_EPISODE_STEPS`` steps (a game has about 50 moves; only refused moves can make it longer).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces

from glade import IllegalAction, new_game
from glade.core import BadInput
from glade.harmonies.game import HarmoniesGame

from . import kernels
from .aec import action_index, check_seed
from .common import RENDER_MODES, Normaliser, check_flag, check_render_mode, observation_box, render
from .copies import SavedGame, deep_copy, playing, restore, saved
from .harmonies_encoding import HarmoniesEncoder
from .kernels import step_functions

ILLEGAL_MODES = ("refuse", "raise")
MAX_EPISODE_STEPS = 1000


class _PythonCore:
    """``step()`` when the compiled module is not built: the full Python method (the compiled
    ``SoloCore`` runs the usual case itself and hands the rest to the same one)."""

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """One move (see ``HarmoniesSoloEnv._full_step``)."""
        out: tuple[np.ndarray, float, bool, bool, dict[str, Any]]
        out = self._full_step(action)  # type: ignore[attr-defined]
        return out

    def sample_legal(self) -> int:
        """A uniformly random legal move (see ``HarmoniesSoloEnv._full_sample_legal``)."""
        out: int = self._full_sample_legal()  # type: ignore[attr-defined]
        return out


# (an if statement, not a conditional expression: mypy takes a base class from a plain name)
if TYPE_CHECKING or not kernels.COMPILED:  # noqa: SIM108
    _Core = _PythonCore
else:
    _Core = kernels.compiled_module().SoloCore


class HarmoniesSoloEnv(_Core, gymnasium.Env[np.ndarray, Any]):
    """One player against the solo rules; episode = one game."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        side: str = "A",
        spirits: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "refuse",
        normalize: bool = False,
    ) -> None:
        # what a pickle or a copy rebuilds the environment from (glade.rl.copies)
        self._arguments: dict[str, Any] = {
            "side": side,
            "spirits": spirits,
            "render_mode": render_mode,
            "illegal_action": illegal_action,
            "normalize": normalize,
        }
        self.render_mode = check_render_mode(render_mode)
        if illegal_action not in ILLEGAL_MODES:
            raise BadInput(
                f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, not {illegal_action!r}"
            )
        self.encoder = HarmoniesEncoder(1, side, spirits, live_scores=True)
        self.illegal_action = illegal_action
        self.normalize = check_flag("normalize", normalize)
        self._normaliser = Normaliser(self.encoder) if self.normalize else None
        # the compiled step() normalises with the same bounds and arithmetic as the Normaliser
        self._norm_low = None if self._normaliser is None else self._normaliser.low
        self._norm_scale = None if self._normaliser is None else self._normaliser.scale
        self.observation_space = observation_box(self.encoder, self.normalize)
        self.action_space = spaces.Discrete(self.encoder.n_actions)
        self._total = self.encoder.segment("board[me].score").stop - 1
        self.game: HarmoniesGame | None = None
        self._score = 0.0
        self._mask = np.zeros(self.encoder.n_actions, dtype=np.int8)
        self._legal: list[int] = []
        self.refusal: str | None = None  # why the last refused action was refused
        self._sampler = random.Random()
        # the per-move work in one call each (compiled when the kernels are built)
        self._kernel: Any
        self._kernel, self._seat_view, self._play = step_functions(self.encoder)
        self._fast = self._kernel is not self.encoder  # the compiled step() may run
        self._n_actions = self.encoder.n_actions

    # ------------------------------------------------------------------ pickles and copies
    # what a game in progress changes besides the game (glade.rl.copies carries them over)
    PLAYING = ("_score", "_mask", "_legal", "refusal", "_sampler", "_np_random", "_np_random_seed")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles and copies rebuild the environment from its constructor's arguments, the
        attributes in ``PLAYING`` and the game's seed and moves (``glade.rl.copies``)."""
        state = playing(self, self.PLAYING)
        state["game"] = saved(self.game)
        return (restore, (type(self), dict(self._arguments), state))

    def __deepcopy__(self, memo: dict[int, Any]) -> HarmoniesSoloEnv:
        out: HarmoniesSoloEnv = deep_copy(self, memo)
        return out

    def _restored(self, game: SavedGame | None) -> None:
        if game is not None:
            replayed = game.replay(self.encoder)
            assert isinstance(replayed, HarmoniesGame)
            self.game = replayed

    def clone(self) -> HarmoniesSoloEnv:
        """An independent copy that continues exactly as this environment does."""
        return self.__deepcopy__({})

    def _view(self) -> np.ndarray:
        """The observation now (normalised when asked); lists the legal moves and their mask."""
        legal, view = self._seat_view(self._kernel, self.game, 0, self.encoder.n_actions)
        self._legal = legal
        self._mask = view["action_mask"]
        obs: np.ndarray = view["observation"]
        self._score = float(obs[self._total])
        return obs if self._normaliser is None else self._normaliser(obs)

    def action_masks(self) -> np.ndarray:
        """The legal moves now as a bool array (sb3-contrib's ``MaskablePPO`` calls this)."""
        if self.game is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask.view(bool).copy()  # the mask holds only 0 and 1

    def _full_sample_legal(self) -> int:
        """A uniformly random legal move, from the environment's own generator (``reset(seed)``
        seeds it): ``sample_legal()``, compiled in ``SoloCore`` for the usual case."""
        if self.game is None:
            raise RuntimeError("call reset() before sample_legal()")
        legal = self._legal
        return int(legal[int(self._sampler.random() * len(legal))])

    def _obs(self) -> np.ndarray:
        obs = self.encoder.observe(0)
        self._score = float(obs[self._total])
        return obs if self._normaliser is None else self._normaliser(obs)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        game = self.game
        assert game is not None
        suns = int(game.result()["suns"]) if game.over else 0
        return {
            "action_mask": self._mask.copy(),
            "score": int(self._score),
            "suns": suns,
            "illegal_action": illegal,
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new solo game; ``seed`` becomes the game's seed, so ``glade.new_game`` replays it."""
        game_seed = check_seed(seed) if seed is not None else None
        super().reset(seed=game_seed)
        if game_seed is None:
            game_seed = int(self.np_random.integers(2**63))
        self._sampler = random.Random(game_seed)  # sample_legal's (numpy's costs 3 us a draw)
        game = new_game("harmonies", seed=game_seed, **self.encoder.options)
        assert isinstance(game, HarmoniesGame)
        self.game = game
        self.encoder.reset(game)
        self.refusal = None
        return self._view(), self._info()

    # step() comes from the compiled SoloCore (the usual case) or _PythonCore: both end here
    def _full_step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """One move: ``action`` is an index the mask allows (else refused or raised, above)."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.over:
            raise IllegalAction("the game is over; call reset() to start a new one")
        code = action_index(action, self.encoder.n_actions)
        if not self._mask[code]:
            reason = game.why_illegal(0, code) or "it is not legal now"
            move = game.action_table()[code].to_json()
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {code} {move} is not legal: {reason}")
            self.refusal = f"action {code} {move} was refused: {reason}"
            obs = self._obs()
            return obs, 0.0, False, False, self._info(illegal=True)
        self.refusal = None
        before = self._score
        self._play(self._kernel, game, 0, code, self._legal)  # legal: the mask said so
        obs = self._view()
        return obs, self._score - before, game.over, False, self._info()

    def render(self) -> Any:
        return render(self.render_mode, self.encoder, self.game, 0)
