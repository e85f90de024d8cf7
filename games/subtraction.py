"""Subtraction games: one heap, remove any amount from a fixed set."""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import Steps, take_from_one
from cgbase.validation import flag

__all__ = ["subtraction"]


@nb.njit(cache=True, nogil=True)
def _subtraction_moves_one(p, params, out):
    count = 0
    for s in params:
        if s <= p[0]:
            out[count, 0] = p[0] - s
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _subtraction_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _subtraction_moves_one(P[r], params, out[r])


class subtraction(Game):
    """Subtraction game S(s1, s2, ...): remove exactly s tokens from one heap, s in the set.

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4. Its P positions are
    eventually periodic (for {1, 3, 4}: n mod 7 in {0, 2}).  ``misere=True``: the player who cannot
    move wins (sums of heaps: ``solvers.heap_sums``, ``discover.quotients``).
    """

    name = "subtraction"
    period_theorem = "subtraction"
    dims = 1
    kernel = staticmethod(_subtraction_moves)

    def __init__(self, subtract: tuple[int, ...] = (1, 2, 3), misere: bool = False):
        if isinstance(subtract, (int, np.integer)):
            subtract = (subtract,)
        if isinstance(subtract, (str, bytes)) or not hasattr(subtract, "__iter__"):
            raise ValueError(f"subtract must be a set of positive integers, got {subtract!r}")
        items = list(subtract)
        if not items or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 1 for s in items):
            raise ValueError(f"subtract must be a non-empty set of positive integers, got {subtract!r}")
        values = tuple(sorted({int(s) for s in items}))
        misere = flag(misere, "misere")
        super().__init__(subtract=values, misere=misere)
        self.misere = misere

    def kernel_params(self) -> np.ndarray:
        return np.array(self.params["subtract"], dtype=np.int64)

    def max_moves(self, limits) -> int:
        return len(self.params["subtract"])

    def move_relation(self) -> Steps:
        return take_from_one(1, self.params["subtract"])

    @property
    def removal_limit(self) -> int:
        """The most tokens a move removes: max(S)."""
        return self.params["subtract"][-1]

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("n",)
