"""Subtraction games: one heap, remove any amount from a fixed set."""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import Steps, take_from_one

__all__ = ["subtraction"]


@nb.njit(cache=True)
def _subtraction_moves_one(p, params, out):
    count = 0
    for s in params:
        if s <= p[0]:
            out[count, 0] = p[0] - s
            count += 1
    return count


@nb.njit(cache=True)
def _subtraction_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _subtraction_moves_one(P[r], params, out[r])


class subtraction(Game):
    """Subtraction game S(s1, s2, ...): remove exactly s tokens from one heap, s in the set.

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4. Its P positions are
    eventually periodic (for {1, 3, 4}: n mod 7 in {0, 2}).
    """

    name = "subtraction"
    dims = 1
    kernel = staticmethod(_subtraction_moves)

    def __init__(self, subtract: tuple[int, ...] = (1, 2, 3)):
        if isinstance(subtract, (int, np.integer)):
            subtract = (subtract,)
        try:
            values = tuple(sorted({int(s) for s in subtract}))
        except (TypeError, ValueError):
            raise ValueError(f"subtract must be a set of positive integers, got {subtract!r}") from None
        if not values or values[0] < 1 or any(isinstance(s, bool) for s in subtract):
            raise ValueError(f"subtract must be a non-empty set of positive integers, got {subtract!r}")
        super().__init__(subtract=values)

    def kernel_params(self) -> np.ndarray:
        return np.array(self.params["subtract"], dtype=np.int64)

    def max_moves(self, limits) -> int:
        return len(self.params["subtract"])

    def move_relation(self) -> Steps:
        return take_from_one(1, self.params["subtract"])

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("n",)
