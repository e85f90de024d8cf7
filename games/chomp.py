"""Chomp on a chocolate bar given by its row lengths."""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import ChompBite
from cgbase.memory import check_memory
from games.universe import MAX_DIMS, Universe
from cgbase.validation import at_most

__all__ = ["chomp"]


@nb.njit(cache=True, nogil=True)
def _chomp_moves_one(p, params, out):
    count = 0
    for i in range(p.size):
        for j in range(p[i]):
            if i == 0 and j == 0:
                continue  # the poisoned square is never taken
            for m in range(p.size):
                out[count, m] = min(p[m], j) if m >= i else p[m]
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _chomp_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _chomp_moves_one(P[r], params, out[r])


class chomp(Game):
    """Chomp: a position lists the lengths of the rows (``rows``: how many), longest (bottom) first.

    A move picks a remaining square (i, j) and removes it with every square above and to the
    right: row m >= i is cut to length min(length, j).  Square (0, 0) is poisoned: a player
    left with only it has no move and loses.  Source: D. Gale (1974); with 2 rows the P
    positions are (a, a - 1).
    """

    name = "chomp"
    kernel = staticmethod(_chomp_moves)

    def __init__(self, rows: int = 2):
        if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or rows < 2:
            raise ValueError(f"rows must be an integer >= 2, got {rows!r}")
        at_most(int(rows), "rows", MAX_DIMS, "a position's coordinates are packed into one 64-bit key")
        super().__init__(rows=int(rows))
        self.dims = int(rows)

    def max_moves(self, limits) -> int:
        return int(np.sum(np.broadcast_to(limits, (self.dims,))))

    def move_relation(self) -> ChompBite:
        return ChompBite()

    def universe(self, bound: int) -> Universe:
        """Row lengths bound >= r1 >= r2 >= ... >= 0 with r1 >= 1."""
        check_memory(8 * self.dims * (bound + 1) ** self.dims, f"chomp({self.dims}) at bound {bound}")
        grid = np.stack(np.meshgrid(*[np.arange(bound + 1)] * self.dims, indexing="ij"), -1)
        rows = grid.reshape(-1, self.dims)
        keep = (rows[:, 0] >= 1) & (np.diff(rows, axis=1) <= 0).all(axis=1)
        return Universe.from_positions(rows[keep], bound=bound)
