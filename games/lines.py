"""Games whose moves are rays: subtract t * v (t >= 1) for fixed 0/1 vectors v.

Nim (one vector per heap), Wythoff (the two axes and the diagonal) and Wythoff in more
dimensions (every non-empty subset of heaps, the same amount from each) are such games;
the solver decides them in O(1) work per position.
"""

from __future__ import annotations

import itertools

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import Steps
from cgbase.validation import at_most, flag, positive_int

__all__ = ["LineGame", "nim", "wythoff", "wythoff_nd"]

MAX_HEAPS = 1000  # nim's moves are heaps x heaps direction entries


@nb.njit(cache=True, nogil=True)
def _ray_moves_one(p, params, out):
    ndirs, dims = params[0], params[1]
    count = 0
    for d in range(ndirs):
        v = params[2 + d * dims: 2 + (d + 1) * dims]
        reach = -1
        for i in range(dims):
            if v[i] != 0 and (reach < 0 or p[i] < reach):
                reach = p[i]
        for t in range(1, reach + 1):
            for i in range(dims):
                out[count, i] = p[i] - t * v[i]
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _ray_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _ray_moves_one(P[r], params, out[r])


class LineGame(Game):
    """A game of rays: from p, move to p - t * v for any t >= 1 and listed vector v."""

    kernel = staticmethod(_ray_moves)

    def __init__(self, dims: int, directions, **params):
        super().__init__(**params)
        self.dims = dims
        self.misere = bool(params.get("misere", False))
        self.line_directions = tuple(tuple(int(x) for x in v) for v in directions)

    def kernel_params(self) -> np.ndarray:
        flat = [x for v in self.line_directions for x in v]
        return np.array([len(self.line_directions), self.dims, *flat], dtype=np.int64)

    def max_moves(self, limits) -> int:
        limits = np.broadcast_to(np.asarray(limits, dtype=np.int64), (self.dims,))
        return int(sum(min(limits[i] for i in range(self.dims) if v[i]) for v in self.line_directions))

    def move_relation(self) -> Steps:
        return Steps(self.line_directions)


class nim(LineGame):
    """Nim: remove any positive number of tokens from one heap.

    Normal play (the player who cannot move loses) or misere (that player wins).
    Source: C. L. Bouton, "Nim, a game with a complete mathematical theory" (1901);
    seeds 001 and 002 play it with 3 heaps.
    """

    name = "nim"
    binary_features = True

    def __init__(self, heaps: int = 3, misere: bool = False):
        heaps = at_most(positive_int(heaps, "heaps"), "heaps", MAX_HEAPS,
                        "nim lists its moves as one direction of heaps coordinates per heap")
        axes = np.eye(heaps, dtype=np.int64)
        super().__init__(heaps, axes, heaps=heaps, misere=flag(misere, "misere"))


class wythoff(LineGame):
    """Wythoff's game: take any number from one heap, or the same number from both.

    Source: W. A. Wythoff (1907); the HQN paper trains its agents on it (a 2-D board where a
    queen moves left, down or diagonally towards the corner).
    """

    name = "wythoff"

    def __init__(self, misere: bool = False):
        super().__init__(2, [(1, 0), (0, 1), (1, 1)], misere=flag(misere, "misere"))


class wythoff_nd(LineGame):
    """Wythoff in ``heaps`` dimensions: take the same positive amount from any non-empty set of heaps.

    With 3 heaps no rule for the P positions is known; discovery uses it as a negative control.
    """

    name = "wythoff_nd"

    def __init__(self, heaps: int = 3):
        heaps = at_most(positive_int(heaps, "heaps"), "heaps", 16,
                        "wythoff_nd lists its 2^heaps - 1 move directions")
        dirs = [v for v in itertools.product((0, 1), repeat=heaps) if any(v)]
        super().__init__(heaps, dirs, heaps=heaps)
