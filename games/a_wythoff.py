"""Fraenkel's a-Wythoff games: take any amount from one heap, or s >= 1 and t >= 1 from both with |s - t| < a.

a = 1 is Wythoff's game.  Fraenkel ("How to beat your Wythoff games' opponent on three fronts", American
Mathematical Monthly 89, 1982) proved its P positions are the pairs (A_n, B_n), A_n = mex{A_i, B_i : i < n},
B_n = A_n + a·n, the Beatty pairs of α = (2 - a + √(a² + 4))/2 and β = α + a.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import AnyOf, TakeBoth, take_from_one
from cgbase.validation import at_most, flag, positive_int

__all__ = ["a_wythoff"]

MAX_A = 1000  # a move from both heaps lists up to 2a - 1 amounts of the second heap for each of the first


@nb.njit(cache=True, nogil=True)
def _a_wythoff_moves_one(p, a, out):
    x, y = p[0], p[1]
    count = 0
    for t in range(1, x + 1):
        out[count, 0], out[count, 1] = x - t, y
        count += 1
    for t in range(1, y + 1):
        out[count, 0], out[count, 1] = x, y - t
        count += 1
    for s in range(1, x + 1):
        for t in range(max(1, s - a + 1), min(y, s + a - 1) + 1):
            out[count, 0], out[count, 1] = x - s, y - t
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _a_wythoff_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _a_wythoff_moves_one(P[r], params[0], out[r])


class a_wythoff(Game):
    """Fraenkel's a-Wythoff game on two heaps: any amount from one heap, or s and t from both with |s - t| < a.

    Examples
    --------
    >>> a_wythoff(a=2).moves((1, 2))
    [(0, 2), (1, 1), (1, 0), (0, 1), (0, 0)]
    """

    name = "a_wythoff"
    dims = 2
    kernel = staticmethod(_a_wythoff_moves)

    def __init__(self, a: int = 2, misere: bool = False):
        a = at_most(positive_int(a, "a"), "a", MAX_A, "a move from both heaps lists up to 2a - 1 amounts")
        super().__init__(a=a, misere=flag(misere, "misere"))
        self.misere = self.params["misere"]

    def kernel_params(self) -> np.ndarray:
        return np.array([self.params["a"]], dtype=np.int64)

    def max_moves(self, limits) -> int:
        x, y = np.broadcast_to(np.asarray(limits, dtype=np.int64), (2,)).tolist()
        return max(x + y + (2 * self.params["a"] - 1) * min(x, y), 1)

    def move_relation(self) -> AnyOf:
        return AnyOf((take_from_one(2), TakeBoth(self.params["a"])))
