"""Harmonies solo as a single-agent Gymnasium environment, registered as ``glade/HarmoniesSolo-v0``.

The observation is the solo encoding of ``docs/rl.md``; ``info["action_mask"]`` marks the legal
moves; the reward of a step is the score it gained (the episode's rewards add up to the final
score). Gymnasium draws unmasked actions (``check_env`` does), so by default an illegal action is
refused rather than raised: nothing changes, the reward is 0 and ``info["illegal_action"]`` says
why. ``illegal_action="raise"`` raises :class:`glade.IllegalAction` instead.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from glade import IllegalAction, new_game
from glade.core import BadInput
from glade.harmonies.game import HarmoniesGame

from .aec import action_index, check_seed, render_ansi
from .harmonies_encoding import HarmoniesEncoder

ILLEGAL_MODES = ("refuse", "raise")


class HarmoniesSoloEnv(gymnasium.Env[np.ndarray, Any]):
    """One player against the solo rules; episode = one game."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        side: str = "A",
        spirits: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "refuse",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadInput(f'unknown render mode {render_mode!r}; the only one is "ansi"')
        if illegal_action not in ILLEGAL_MODES:
            raise BadInput(
                f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, not {illegal_action!r}"
            )
        self.encoder = HarmoniesEncoder(1, side, spirits, live_scores=True)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observation_space = spaces.Box(
            0.0, self.encoder.high, shape=(self.encoder.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.encoder.n_actions)
        self._total = self.encoder.segment("board[me].score").stop - 1
        self.game: HarmoniesGame | None = None
        self._score = 0.0

    def _mask(self) -> np.ndarray:
        assert self.game is not None
        mask = np.zeros(self.encoder.n_actions, dtype=np.int8)
        mask[self.game.legal_action_ids(0)] = 1
        return mask

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new solo game; ``seed`` becomes the game's seed, so ``glade.new_game`` replays it."""
        game_seed = check_seed(seed) if seed is not None else None
        super().reset(seed=game_seed)
        if game_seed is None:
            game_seed = int(self.np_random.integers(2**63))
        game = new_game("harmonies", seed=game_seed, **self.encoder.options)
        assert isinstance(game, HarmoniesGame)
        self.game = game
        self.encoder.reset(game)
        obs = self.encoder.observe(0)
        self._score = float(obs[self._total])
        return obs, {"action_mask": self._mask()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.over:
            raise IllegalAction("the game is over; call reset() to start a new one")
        code = action_index(action, self.encoder.n_actions)
        reason = game.why_illegal(0, code)
        if reason is not None:
            move = game.action_table()[code].to_json()
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {code} {move} is not legal: {reason}")
            refused = {
                "action_mask": self._mask(),
                "illegal_action": f"action {code} {move} was refused: {reason}",
            }
            return self.encoder.observe(0), 0.0, False, False, refused
        game.apply_action_id(0, code, checked=True)
        self.encoder.after(0, code)
        obs = self.encoder.observe(0)
        score = float(obs[self._total])
        reward = score - self._score
        self._score = score
        info: dict[str, Any] = {"action_mask": self._mask()}
        if game.over:
            result = game.result()
            info["score"] = result["scores"][0]
            info["suns"] = result["suns"]
        return obs, reward, game.over, False, info

    def render(self) -> str | None:
        return render_ansi(self.render_mode, self.encoder, self.game, 0)
