"""Staircase Nim: coins on stairs move down one stair at a time."""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import Steps
from cgbase.memory import check_memory
from games.universe import MAX_DIMS, Universe
from cgbase.validation import at_most, positive_int

__all__ = ["staircase"]


@nb.njit(cache=True, nogil=True)
def _staircase_moves_one(p, params, out):
    count = 0
    for i in range(p.size):
        for t in range(1, p[i] + 1):
            for j in range(p.size):
                out[count, j] = p[j]
            out[count, i] -= t
            if i > 0:
                out[count, i - 1] += t
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _staircase_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _staircase_moves_one(P[r], params, out[r])


class staircase(Game):
    """Staircase Nim: move any positive number of coins from a stair to the stair below; coins moved down
    from the first stair leave the game (``stairs``: how many stairs).

    Coordinate i is the number of coins on stair i + 1.  Source: Berlekamp, Conway and Guy,
    *Winning Ways*; the P positions are those whose odd-numbered stairs have nim-sum zero.
    """

    name = "staircase"
    kernel = staticmethod(_staircase_moves)

    def __init__(self, stairs: int = 3):
        stairs = at_most(positive_int(stairs, "stairs"), "stairs", MAX_DIMS,
                         "a position's coordinates are packed into one 64-bit key")
        super().__init__(stairs=int(stairs))
        self.dims = int(stairs)

    def max_moves(self, limits) -> int:
        return int(np.sum(np.broadcast_to(limits, (self.dims,)))) + 1

    def move_relation(self) -> Steps:
        """Coins from stair i + 1 to stair i: the vector e_i - e_(i-1) (off the board from the first)."""
        return Steps(tuple(tuple(int(j == i) - int(j == i - 1) for j in range(self.dims)) for i in range(self.dims)))

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(f"s{i + 1}" for i in range(self.dims))

    def universe(self, bound: int) -> Universe:
        """Everything reachable from the box [0, bound]^stairs: at most (stairs - i) * bound
        coins on stairs i+1 and above, for every i."""
        d = self.dims
        check_memory(8 * d * ((d * bound + 1) ** d), f"staircase({d}) at bound {bound}")
        rows = np.zeros((1, 0), dtype=np.int64)
        above = np.zeros(1, dtype=np.int64)
        for i in reversed(range(d)):
            cap = (d - i) * bound
            counts = cap - above + 1
            which = np.repeat(np.arange(len(rows)), counts)
            offsets = np.arange(len(which)) - np.repeat(np.cumsum(counts) - counts, counts)
            rows = np.column_stack([offsets, rows[which]])
            above = above[which] + offsets
        return Universe.from_positions(rows, bound=bound)
