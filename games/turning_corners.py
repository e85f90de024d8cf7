"""Turning Corners: a coin-turning game on a grid, the product (Tartan theorem) of two copies of one-row "Twins".

A position is one heads-up coin at (x, y) (a row of coins is the sum of its heads); a move turns over the four
corners of a rectangle whose far corner is that coin, (x', y'), (x', y), (x, y'), (x, y) with x' < x and y' < y,
so the coin at (x, y) goes tails and the option is the sum of the three others (a coin turned twice is gone, as
a sum of a game with itself is 0).  Winning Ways (ch. 14, Tartan theorem): a product of coin-turning games has the
nim-product of the factors' values, and one-row Twins (turn two coins, the right one from heads) has G(x) = x, so
G(x, y) = x ⊗ y.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import CornerTurns

__all__ = ["turning_corners"]


@nb.njit(cache=True, nogil=True)
def _corner_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        x, y = P[r, 0], P[r, 1]
        count = 0
        for u in range(x):
            for v in range(y):
                out[r, count, 0], out[r, count, 1] = u, y
                out[r, count, 2], out[r, count, 3] = x, v
                out[r, count, 4], out[r, count, 5] = u, v
                count += 1
        counts[r] = count


class turning_corners(Game):
    """Turning Corners: a position is a heads-up coin (x, y); an option is the sum of the other three corners of
    a rectangle below and left of it.

    Examples
    --------
    >>> turning_corners().moves((1, 2))
    [(0, 2, 1, 0, 0, 0), (0, 2, 1, 1, 0, 1)]
    """

    name = "turning_corners"
    dims = 2
    parts = 3
    kernel = staticmethod(_corner_moves)

    def __init__(self):
        super().__init__()

    def max_moves(self, limits) -> int:
        x, y = np.broadcast_to(np.asarray(limits, dtype=np.int64), (2,)).tolist()
        return max(x * y, 1)

    def move_relation(self) -> CornerTurns:
        return CornerTurns()
