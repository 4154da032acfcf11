"""What every glade environment shares: its render modes and the normalised observation option.

Render modes (``render_mode=`` of every env):

- ``"ansi"``: ``render()`` returns the table as text (the terminal picture);
- ``"human"``: ``render()`` prints that text and returns None;
- ``"rgb_array"``: ``render()`` returns a picture of the table, a ``(H, W, 3)`` uint8 array
  drawn with Pillow (``glade.rl.picture``).

``normalize=True`` maps every observation entry ``x`` of a segment with bounds ``low..high``
(``docs/rl.md`` lists them) to ``(x - low) / (high - low)`` as float32, so the observation space
becomes ``Box(0, 1)``; the encoders keep every entry within its bounds, so nothing is clipped in
practice (the clip only guards the float arithmetic).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from glade.core import BadInput, Game

from .kernels import compiled_module, use_compiled
from .spec import Encoder

RENDER_MODES = ["human", "ansi", "rgb_array"]


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is one of ``RENDER_MODES`` or None, else BadInput naming them."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise BadInput(
            f"unknown render mode {render_mode!r}; choose one of: {', '.join(RENDER_MODES)}"
        )
    return render_mode


def render(
    render_mode: str | None, encoder: Encoder, game: Game | None, seat: int | None
) -> str | np.ndarray | None:
    """What ``render()`` gives in ``render_mode`` for ``game`` seen by ``seat`` (None: everyone).

    Without a render mode it warns (as Gymnasium asks) and returns None."""
    if render_mode is None:
        gymnasium.logger.warn(
            "render() was called without a render mode; pass render_mode= one of "
            + ", ".join(RENDER_MODES)
        )
        return None
    if game is None:
        raise RuntimeError("call reset() before render()")
    if render_mode == "rgb_array":
        from .picture import picture

        return picture(game, seat)
    text = encoder.render(game, seat)
    if render_mode == "human":
        print(text)
        return None
    return text


class Normaliser:
    """Maps raw observations to [0, 1] entry by entry from the encoder's bounds (a new array;
    the compiled ``normalise`` when the kernels are built, the same bytes as NumPy's)."""

    def __init__(self, encoder: Encoder) -> None:
        span = (encoder.high - encoder.low).astype(np.float32)
        self.low = encoder.low.astype(np.float32)
        self.scale = np.where(span > 0, 1.0 / np.maximum(span, 1e-12), 0.0).astype(np.float32)
        self._compiled = compiled_module().normalise if use_compiled(None) else None

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        if (
            self._compiled is not None
            and type(obs) is np.ndarray
            and obs.dtype == np.float32
            and obs.ndim == 1
            and obs.flags.c_contiguous
        ):
            out: np.ndarray = self._compiled(obs, self.low, self.scale)
            return out
        return self.numpy(obs)

    def numpy(self, obs: np.ndarray) -> np.ndarray:
        """The same map in NumPy (any shape and dtype; the compiled one's twin)."""
        out = (obs - self.low) * self.scale
        np.clip(out, 0.0, 1.0, out=out)
        return out


def observation_box(encoder: Encoder, normalize: bool) -> gymnasium.spaces.Box:
    """The observation space: the encoder's bounds, or [0, 1] when normalised."""
    if normalize:
        return gymnasium.spaces.Box(0.0, 1.0, shape=(encoder.size,), dtype=np.float32)
    return gymnasium.spaces.Box(encoder.low, encoder.high, shape=(encoder.size,), dtype=np.float32)


def check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise BadInput(f"{name} must be True or False, not {value!r}")
    return bool(value)
