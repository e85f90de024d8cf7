"""Euclid's game on a board, as the HQN paper plays it (read the way its Theorem 5 proof uses it)."""

from __future__ import annotations

import numba as nb

from games.base import Game
from games.symbolic import EuclidMultiples

__all__ = ["euclid"]


@nb.njit(cache=True, nogil=True)
def _euclid_moves_one(p, params, out):
    a, b = p[0], p[1]
    count = 0
    if a == 0 or b == 0:
        return 0
    if a >= b:
        for t in range(1, a // b + 1):
            out[count, 0] = a - t * b
            out[count, 1] = b
            count += 1
    if b >= a:
        for t in range(1, b // a + 1):
            out[count, 0] = a
            out[count, 1] = b - t * a
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _euclid_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _euclid_moves_one(P[r], params, out[r])


class euclid(Game):
    """Euclid: from (a, b) with both positive, subtract a positive multiple of the smaller
    coordinate from the larger (from either one when they are equal) without going below 0.

    A position with a zero coordinate has no moves, so its player to move loses.
    Source: Cole and Davie, "A game based on the Euclidean algorithm" (1969); the HQN paper, section 2.1
    and Theorem 5.
    """

    name = "euclid"
    dims = 2
    kernel = staticmethod(_euclid_moves)

    def __init__(self):
        super().__init__()

    def max_moves(self, limits) -> int:
        return 2 * int(max(limits)) + 2

    def move_relation(self) -> EuclidMultiples:
        return EuclidMultiples()
