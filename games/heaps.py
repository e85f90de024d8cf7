"""Take-and-break games: a position is a sum of heaps, one heap size per coordinate.

An option of a heap is at most two heaps (``parts = 2``); the Grundy value of a sum is the
xor of its parts (Sprague-Grundy), so solving single heaps solves every sum.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import TakeAndBreak

__all__ = ["HeapGame", "octal", "lasker", "grundy_game"]


@nb.njit(cache=True)
def _octal_moves_one(p, params, out):
    # params[k] is the octal digit for removing k tokens (params[0]: splitting without removal)
    n = p[0]
    count = 0
    for k in range(params.size):
        d = params[k]
        if k > n or d == 0:
            continue
        rest = n - k
        if d & 1 and rest == 0 and k > 0:
            out[count, 0] = 0
            out[count, 1] = 0
            count += 1
        if d & 2 and rest > 0 and k > 0:
            out[count, 0] = rest
            out[count, 1] = 0
            count += 1
        if d & 4:
            for left in range(1, rest // 2 + 1):
                out[count, 0] = rest - left
                out[count, 1] = left
                count += 1
    return count


@nb.njit(cache=True)
def _octal_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _octal_moves_one(P[r], params, out[r])


@nb.njit(cache=True)
def _lasker_moves_one(p, params, out):
    n = p[0]
    count = 0
    for keep in range(n - 1, -1, -1):
        out[count, 0] = keep
        out[count, 1] = 0
        count += 1
    for left in range(1, n // 2 + 1):
        out[count, 0] = n - left
        out[count, 1] = left
        count += 1
    return count


@nb.njit(cache=True)
def _lasker_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _lasker_moves_one(P[r], params, out[r])


@nb.njit(cache=True)
def _grundy_game_moves_one(p, params, out):
    n = p[0]
    count = 0
    for left in range(1, (n + 1) // 2):
        out[count, 0] = n - left
        out[count, 1] = left
        count += 1
    return count


@nb.njit(cache=True)
def _grundy_game_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _grundy_game_moves_one(P[r], params, out[r])


class HeapGame(Game):
    """A single-heap take-and-break game; options are pairs of heaps (0 = no heap)."""

    dims = 1
    parts = 2

    def moves(self, position) -> list[tuple[int, ...]]:
        """Options as tuples of the non-empty heaps left, largest first (``()``: nothing left)."""
        return [tuple(int(h) for h in sorted(row, reverse=True) if h > 0) for row in self.options(position)]

    def max_moves(self, limits) -> int:
        return 2 * int(np.max(limits)) + 2

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("n",)


class octal(HeapGame):
    """Octal game with code ``d0.d1d2d3...``: digit d_k says what removing k tokens may leave:
    bit 1 nothing, bit 2 one heap, bit 4 two non-empty heaps (d0 is 0, or 4 to split
    without removing).  "0.77" is Kayles, "0.07" Dawson's Kayles, "0.137" Dawson's chess.

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4; Guy and Smith (1956).
    """

    name = "octal"
    kernel = staticmethod(_octal_moves)

    def __init__(self, code: str = "0.77"):
        code = str(code)
        head, dot, tail = code.partition(".")
        if not dot or head not in ("0", "4") or not tail or any(c not in "01234567" for c in tail):
            raise ValueError(
                f"octal code must look like 0.77 or 4.07 (digits 0-7 after the point), got {code!r}"
            )
        super().__init__(code=code)
        self._digits = np.array([int(head)] + [int(c) for c in tail], dtype=np.int64)

    def kernel_params(self) -> np.ndarray:
        return self._digits

    def max_moves(self, limits) -> int:
        return len(self._digits) * (int(np.max(limits)) // 2 + 2)

    def move_relation(self) -> TakeAndBreak:
        return TakeAndBreak(tuple(self._digits.tolist()))


class lasker(HeapGame):
    """Lasker's Nim: remove any positive number of tokens from a heap, or split a heap into two
    non-empty heaps.  Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4."""

    name = "lasker"
    kernel = staticmethod(_lasker_moves)

    def __init__(self):
        super().__init__()

    def move_relation(self) -> TakeAndBreak:
        return TakeAndBreak((4,), rest=3)  # split without removing; remove any amount, leaving 0 or 1 heap


class grundy_game(HeapGame):
    """Grundy's game: split one heap into two non-empty heaps of different sizes.

    Its Grundy sequence is believed, not known, to be periodic; discovery uses it as a
    negative control.  Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4."""

    name = "grundy_game"
    kernel = staticmethod(_grundy_game_moves)

    def __init__(self):
        super().__init__()

    def move_relation(self) -> TakeAndBreak:
        return TakeAndBreak((4,), unequal=True)
