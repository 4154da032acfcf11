"""Types of the compiled module built from ``_kernels.pyx``."""

from typing import Any

import numpy as np

class Kernel:
    size: int
    def bind(self, state: Any) -> None: ...
    def after(self, seat: int, code: int) -> None: ...
    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray: ...

class HarmoniesKernel(Kernel):
    def __init__(self, encoder: Any) -> None: ...

class LivingForestKernel(Kernel):
    def __init__(
        self, encoder: Any, features: np.ndarray, n_cards: int, n_trees: int, n_sub: int
    ) -> None: ...

def legal_mask(ids: list[int], n_actions: int) -> np.ndarray: ...
def fill_masks(masks: np.ndarray, legal: list[list[int]]) -> None: ...
def first_illegal(codes: list[Any], masks: np.ndarray) -> int: ...
def step_games(
    games: list[Any],
    kernels: list[Any],
    codes: list[int],
    seats: list[int],
    obs: np.ndarray,
    seat_out: np.ndarray,
    legal: list[list[int]],
) -> list[int]: ...
