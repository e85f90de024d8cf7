"""Welter's game: coins on a strip of squares 0, 1, 2, ...; a move takes one coin to any empty square below it
(jumping over others is allowed).

A position lists the coins' squares in decreasing order, c_1 > c_2 > ... > c_k: Nim with heaps that must stay
distinct.  Welter (1954) and Conway (On Numbers and Games, ch. 13; Winning Ways ch. 15) gave its Grundy values,
Welter's function [c_1 | c_2 | ... | c_k]; with two coins the player to move loses exactly when the coins are on
2j + 1 and 2j.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from cgbase.memory import check_memory
from cgbase.validation import at_most, positive_int
from games.base import Game
from games.symbolic import CoinSlides
from games.universe import Universe

__all__ = ["welter"]

MAX_COINS = 8


@nb.njit(cache=True, nogil=True)
def _welter_moves(P, params, counts, out):
    coins = P.shape[1]
    for r in range(P.shape[0]):
        count = 0
        for i in range(coins):
            for square in range(P[r, i] - 1, -1, -1):
                taken = False
                for j in range(coins):
                    taken |= P[r, j] == square
                if taken:
                    continue
                k = 0  # the other coins with the moved one among them, kept in decreasing order
                placed = False
                for j in range(coins):
                    if j == i:
                        continue
                    if not placed and square > P[r, j]:
                        out[r, count, k] = square
                        k += 1
                        placed = True
                    out[r, count, k] = P[r, j]
                    k += 1
                if not placed:
                    out[r, count, k] = square
                count += 1
        counts[r] = count


class welter(Game):
    """Welter's game: coins on distinct squares, a position their squares in decreasing order.

    Examples
    --------
    >>> welter(coins=2).moves((3, 1))
    [(2, 1), (1, 0), (3, 0)]
    """

    name = "welter"
    kernel = staticmethod(_welter_moves)

    def __init__(self, coins: int = 3):
        coins = at_most(positive_int(coins, "coins"), "coins", MAX_COINS, "a move tries every empty square of every "
                        "coin")
        super().__init__(coins=coins)
        self.dims = coins

    def check_position(self, p: np.ndarray) -> None:
        """Coins on distinct squares, listed in decreasing order."""
        super().check_position(p)
        if (np.diff(p) >= 0).any():
            raise ValueError(f"{self!r}: {tuple(p.tolist())} is not a position: the squares of the coins must be "
                             f"distinct and listed in decreasing order")

    def max_moves(self, limits) -> int:
        return max(int(np.sum(np.broadcast_to(np.asarray(limits, dtype=np.int64), (self.dims,)))), 1)

    def universe(self, bound: int) -> Universe:
        """The squares bound >= c_1 > c_2 > ... >= 0 (closed under moves)."""
        check_memory(8 * self.dims * (bound + 1) ** self.dims, f"welter({self.dims}) at bound {bound}")
        grid = np.stack(np.meshgrid(*[np.arange(bound + 1)] * self.dims, indexing="ij"), -1).reshape(-1, self.dims)
        keep = (np.diff(grid, axis=1) < 0).all(axis=1)
        if not keep.any():
            raise ValueError(f"{self.dims} coins need at least {self.dims} squares: use a bound of at least "
                             f"{self.dims - 1}, got {bound}")
        return Universe.from_positions(grid[keep], bound=bound)

    def move_relation(self) -> CoinSlides:
        return CoinSlides()
