"""Poker Nim: Nim heaps and two banks of chips; a move takes chips from one heap into the mover's bank, or puts
chips from the mover's bank onto one heap.

A position is (h_1, ..., h_k, bank, other): the heaps, the chips of the player to move, those of the other
player; after a move the two banks trade places (the other player moves next).  No chip is made or lost, so the
positions holding at most as many chips as the box [0, bound]^(heaps + 2) can, (heaps + 2)·bound, are closed under
moves: that is the universe of ``bound`` (the box and everything reachable from it).  A move that adds
chips can be undone, so the game is loopy, and a player with chips in the bank may move while every heap is
empty.  Winning Ways (Berlekamp, Conway and Guy, ch. 2, "Poker Nim"): the player to move loses exactly when the
heaps' nim-sum is 0, whatever the banks hold; the winner plays Nim and undoes every addition, each of the
winner's moves adding to the winner's bank, so the play ends.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from cgbase.memory import check_memory
from cgbase.validation import at_most, positive_int
from games.base import Game, coordinate_names
from games.symbolic import PokerMoves
from games.universe import Universe

__all__ = ["poker_nim", "chips_at_most"]

MAX_HEAPS = 8


@nb.njit(cache=True, nogil=True)
def _poker_moves(P, params, counts, out):
    heaps = params[0]
    for r in range(P.shape[0]):
        bank, other = P[r, heaps], P[r, heaps + 1]
        count = 0
        for i in range(heaps):
            for t in range(1, P[r, i] + bank + 1):
                change = -t if t <= P[r, i] else t - P[r, i]  # remove 1..h_i, then add 1..bank
                for j in range(heaps):
                    out[r, count, j] = P[r, j]
                out[r, count, i] = P[r, i] + change
                out[r, count, heaps] = other
                out[r, count, heaps + 1] = bank - change
                count += 1
        counts[r] = count


def chips_at_most(dims: int, bound: int) -> np.ndarray:
    """Every position of ``dims`` non-negative coordinates summing to at most ``bound``, as an (n, dims) array.

    Examples
    --------
    >>> chips_at_most(2, 1).tolist()
    [[0, 0], [0, 1], [1, 0]]
    """
    import math

    check_memory(8.0 * dims * math.comb(bound + dims, dims), f"the positions of {dims} coordinates holding at most "
                 f"{bound} chips")
    rows, used = np.zeros((1, 0), dtype=np.int64), np.zeros(1, dtype=np.int64)
    for _ in range(dims):
        counts = bound - used + 1  # the next coordinate takes 0 .. what is left
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        values = np.arange(int(counts.sum()), dtype=np.int64) - starts
        rows = np.column_stack([np.repeat(rows, counts, axis=0), values])
        used = np.repeat(used, counts) + values
    return rows


class poker_nim(Game):
    """Poker Nim: take chips from a heap into your bank, or add chips from your bank to a heap.

    Examples
    --------
    >>> poker_nim(heaps=2).moves((1, 0, 1, 0))
    [(0, 0, 0, 2), (2, 0, 0, 0), (1, 1, 0, 0)]
    """

    name = "poker_nim"
    kernel = staticmethod(_poker_moves)

    def __init__(self, heaps: int = 2):
        heaps = at_most(positive_int(heaps, "heaps"), "heaps", MAX_HEAPS, "a position holds every heap and two banks")
        super().__init__(heaps=heaps)
        self.dims = heaps + 2

    def kernel_params(self) -> np.ndarray:
        return np.array([self.params["heaps"]], dtype=np.int64)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return coordinate_names(self.params["heaps"]) + ("bank", "other")

    def max_moves(self, limits) -> int:
        limits = np.broadcast_to(np.asarray(limits, dtype=np.int64), (self.dims,))
        heaps = self.params["heaps"]
        return max(int(limits[:heaps].sum()) + heaps * int(limits[heaps]), 1)

    def universe(self, bound: int) -> Universe:
        """The positions holding at most dims·bound chips in all (heaps and banks): the box [0, bound]^dims and every
        position its moves reach (chips are never made or lost)."""
        return Universe.from_positions(chips_at_most(self.dims, self.dims * bound), bound=bound)

    def move_relation(self) -> PokerMoves:
        return PokerMoves(self.params["heaps"])
