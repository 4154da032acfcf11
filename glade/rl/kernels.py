"""Which implementation does the RL environments' per-step work: compiled or pure Python.

``pip install -e .`` builds ``glade/rl/_kernels.pyx`` (Cython) into ``glade.rl._kernels``; the
encoders, the AEC environment and the batched runner use it when it is there. Without it (or with
``GLADE_RL_PURE=1`` in the environment, or ``compiled=False`` given to an encoder or to
``VectorGames``) the pure-Python code below and in the encoders runs instead and produces
byte-identical observations and masks, only slower. ``COMPILED`` says whether the compiled module
was found.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import numpy as np

from glade.core import BadInput

_compiled: ModuleType | None
try:
    from . import _kernels as _compiled
except ImportError:  # not built: the pure-Python twins below run instead
    _compiled = None

COMPILED: bool = _compiled is not None


def use_compiled(want: bool | None) -> bool:
    """Whether to run the compiled kernels: ``want`` if given (True needs them built), else
    whenever they are built and ``GLADE_RL_PURE`` is not set."""
    if want is None:
        return COMPILED and not os.environ.get("GLADE_RL_PURE")
    if want and not COMPILED:
        raise BadInput(
            "the compiled RL kernels are not built; install glade with `pip install -e .` "
            "(needs a C compiler and the Python headers)"
        )
    return bool(want)


def compiled_module() -> ModuleType:
    """The compiled module (only called once ``use_compiled`` said yes)."""
    assert _compiled is not None
    return _compiled


def step_functions(encoder: Any) -> tuple[Any, Any, Any]:
    """What an environment calls each move: ``(target, seat_view, play)``, the encoder's compiled
    kernel and the compiled ``seat_view``/``play`` when they run, else the encoder and the
    Python twins below (``seat_view(target, game, seat, n_actions)``,
    ``play(target, game, seat, code, legal)``)."""
    kernel = getattr(encoder, "kernel", None)
    if kernel is not None and use_compiled(None):
        module = compiled_module()
        return kernel, module.seat_view, module.play
    return encoder, seat_view, play


# ---------------------------------------------------------------------- pure-Python twins
def legal_mask(ids: list[int], n_actions: int) -> np.ndarray:
    """A fresh int8 mask of ``n_actions`` entries, 1 at each index in ``ids``."""
    mask = np.zeros(n_actions, dtype=np.int8)
    mask[ids] = 1
    return mask


def seat_view(
    encoder: Any, game: Any, seat: int, n_actions: int
) -> tuple[list[int], dict[str, np.ndarray]]:
    """``seat``'s legal move indices and its view ``{"observation", "action_mask"}`` (two new
    arrays), in one call: the AEC environment's ``observe``."""
    legal = game.legal_action_ids(seat)
    return legal, {
        "observation": encoder.observe(seat),
        "action_mask": legal_mask(legal, n_actions),
    }


def play(encoder: Any, game: Any, seat: int, code: int, legal: list[int]) -> int:
    """Play ``code`` for ``seat`` if it is in ``legal`` (the seat's legal move indices) and note
    it in ``encoder``. Returns the next seat to act, -1 if the game is now over, or -2 (nothing
    changed) if ``code`` is not in ``legal``: the AEC environment's ``step``."""
    if code not in legal:
        return -2
    game.apply_action_id(seat, code, True)
    encoder.after(seat, code)
    if game.is_over:
        return -1
    return int(game.to_act[0])


def fill_masks(masks: np.ndarray, legal: list[list[int]]) -> None:
    """Row ``i`` of ``masks`` becomes the mask of the indices in ``legal[i]``."""
    masks.fill(0)
    rows = np.repeat(np.arange(len(legal)), [len(ids) for ids in legal])
    columns = np.fromiter((c for ids in legal for c in ids), dtype=np.intp)
    masks[rows, columns] = 1


def first_illegal(codes: list[Any], masks: np.ndarray) -> int:
    """Check one action per mask row: -2 if an entry is not a plain int, -3 if one is out of
    range, else the first row whose action its mask forbids, or -1 when every action is legal."""
    num, n_actions = masks.shape
    if len(codes) != num or any(type(c) is not int for c in codes):
        return -2
    if any(not 0 <= c < n_actions for c in codes):
        return -3
    for i, code in enumerate(codes):
        if not masks[i, code]:
            return i
    return -1


def step_games(
    games: list[Any],
    encoders: list[Any],
    codes: list[int],
    seats: list[int],
    obs: np.ndarray,
    seat_out: np.ndarray,
    legal: list[list[int]],
) -> list[int]:
    """Apply ``codes[i]`` for ``seats[i]`` in every game; for each game still going, write the
    acting seat, its observation and its legal moves. Returns the indices of finished games."""
    done = []
    for i, game in enumerate(games):
        seat = seats[i]
        code = codes[i]
        game.apply_action_id(seat, code, True)
        encoders[i].after(seat, code)
        if game.is_over:
            done.append(i)
            continue
        seat = game.to_act[0]
        seat_out[i] = seat
        encoders[i].observe(seat, out=obs[i])
        legal[i] = game.legal_action_ids(seat)
    return done
