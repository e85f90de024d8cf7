"""Moore's Nim_k: remove tokens from up to k heaps at once."""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import TakeFromSome
from cgbase.validation import at_most, positive_int

__all__ = ["moore"]


@nb.njit(cache=True, nogil=True)
def _moore_moves_one(p, params, out):
    k = params[0]
    dims = p.size
    take = np.zeros(dims, dtype=np.int64)
    count = 0
    for mask in range(1, 1 << dims):
        size = 0
        usable = True
        for i in range(dims):
            if mask >> i & 1:
                size += 1
                usable = usable and p[i] > 0
        if size > k or not usable:
            continue
        for i in range(dims):
            take[i] = 1 if mask >> i & 1 else 0
        while True:
            for i in range(dims):
                out[count, i] = p[i] - take[i]
            count += 1
            # odometer over the amounts taken from the chosen heaps
            i = 0
            while i < dims:
                if mask >> i & 1:
                    if take[i] < p[i]:
                        take[i] += 1
                        break
                    take[i] = 1
                i += 1
            if i == dims:
                break
    return count


@nb.njit(cache=True, nogil=True)
def _moore_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _moore_moves_one(P[r], params, out[r])


class moore(Game):
    """Moore's Nim_k: remove any positive number of tokens from each of at most k heaps.

    k = 1 is Nim. Source: E. H. Moore, "A generalization of the game called Nim" (1910):
    P iff every binary digit's column sum is divisible by k + 1.
    """

    name = "moore"
    kernel = staticmethod(_moore_moves)

    def __init__(self, heaps: int = 3, k: int = 2):
        heaps = at_most(positive_int(heaps, "heaps"), "heaps", 16,
                        "a move chooses among the 2^heaps sets of heaps, and each is tried")
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= heaps:
            raise ValueError(f"k must be an integer from 1 to heaps={heaps}, got {k!r}")
        super().__init__(heaps=heaps, k=int(k))
        self.dims = heaps

    def kernel_params(self) -> np.ndarray:
        return np.array([self.params["k"]], dtype=np.int64)

    def move_relation(self) -> TakeFromSome:
        return TakeFromSome(self.params["k"])

    def max_moves(self, limits) -> int:
        limits = np.broadcast_to(np.asarray(limits, dtype=np.int64), (self.dims,)).tolist()
        total = 0
        for mask in range(1, 1 << self.dims):
            chosen = [limits[i] for i in range(self.dims) if mask >> i & 1]
            if len(chosen) <= self.params["k"]:
                total += math.prod(chosen)
        return max(total, 1)
