"""Fibonacci Nim and its relatives: a heap, and the most the player to move may take.

The first player may take any amount short of the whole heap; after a player takes t, the next may take up to
ratio·t (ratio 2: Fibonacci Nim).  A position is (n, m): n tokens in the heap, at most m of them to be taken now;
an option's m is capped at its heap (taking more than the heap is no move), so the box [0, B]^2 is closed under
moves.  Whinihan ("Fibonacci Nim", Fibonacci Quarterly 1, 1963): for ratio 2 the player to move loses exactly when
n = 0 or m is below the smallest part of n's Zeckendorf representation; Schwenk ("Take-away games", Fibonacci
Quarterly 8, 1970) gave the P positions for every ratio.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import GrowingTake
from cgbase.validation import at_most, flag, positive_int

__all__ = ["fibonacci_nim"]

MAX_RATIO = 1000


@nb.njit(cache=True, nogil=True)
def _growing_take_moves(P, params, counts, out):
    ratio = params[0]
    for r in range(P.shape[0]):
        n, m = P[r, 0], P[r, 1]
        count = 0
        for t in range(1, min(m, n) + 1):
            out[r, count, 0] = n - t
            out[r, count, 1] = min(ratio * t, n - t)
            count += 1
        counts[r] = count


class fibonacci_nim(Game):
    """Fibonacci Nim on positions (heap, most the mover may take); after taking t the next may take up to ratio·t.

    The game from a heap of n starts at (n, n - 1).

    Examples
    --------
    >>> fibonacci_nim().moves((5, 2))
    [(4, 2), (3, 3)]
    """

    name = "fibonacci_nim"
    dims = 2
    kernel = staticmethod(_growing_take_moves)

    def __init__(self, ratio: int = 2, misere: bool = False):
        ratio = at_most(positive_int(ratio, "ratio"), "ratio", MAX_RATIO, "the next player's allowance is ratio·t")
        super().__init__(ratio=ratio, misere=flag(misere, "misere"))
        self.misere = self.params["misere"]

    def kernel_params(self) -> np.ndarray:
        return np.array([self.params["ratio"]], dtype=np.int64)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("n", "m")

    def max_moves(self, limits) -> int:
        n, m = np.broadcast_to(np.asarray(limits, dtype=np.int64), (2,)).tolist()
        return max(min(n, m), 1)

    def move_relation(self) -> GrowingTake:
        return GrowingTake(self.params["ratio"])
