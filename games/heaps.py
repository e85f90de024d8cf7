"""Take-and-break games: a position is a sum of heaps, one heap size per coordinate.

An option of a heap is at most two heaps (``parts = 2``; three for hexadecimal codes); the
Grundy value of a sum is the xor of its parts (Sprague-Grundy), so solving single heaps solves
every sum in normal play.  With ``misere=True`` the player who cannot move wins; a sum is then
not decided by its parts' Grundy values: ``solvers.heap_sums`` solves sums of heaps exactly and
``discover.quotients`` finds their misère quotient.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.symbolic import TakeAndBreak
from cgbase.validation import flag, text

__all__ = ["HeapGame", "octal", "hexadecimal", "lasker", "grundy_game"]


@nb.njit(cache=True, nogil=True)
def _octal_moves_one(p, params, out):
    # params[k] is the code's digit for removing k tokens (params[0]: splitting without removal):
    # bit 1 leaves nothing, bit 2 one heap, bit 4 two heaps, bit 8 (hexadecimal) three heaps;
    # a row has one column per part, 0 where there is no heap
    n = p[0]
    count = 0
    three = out.shape[1] > 2
    for k in range(params.size):
        d = params[k]
        if k > n or d == 0:
            continue
        rest = n - k
        if d & 1 and rest == 0 and k > 0:
            out[count, 0] = 0
            out[count, 1] = 0
            if three:
                out[count, 2] = 0
            count += 1
        if d & 2 and rest > 0 and k > 0:
            out[count, 0] = rest
            out[count, 1] = 0
            if three:
                out[count, 2] = 0
            count += 1
        if d & 4:
            for left in range(1, rest // 2 + 1):
                out[count, 0] = rest - left
                out[count, 1] = left
                if three:
                    out[count, 2] = 0
                count += 1
        if d & 8:
            for small in range(1, rest // 3 + 1):
                for middle in range(small, (rest - small) // 2 + 1):
                    out[count, 0] = rest - small - middle
                    out[count, 1] = middle
                    out[count, 2] = small
                    count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _octal_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _octal_moves_one(P[r], params, out[r])


@nb.njit(cache=True, nogil=True)
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


@nb.njit(cache=True, nogil=True)
def _lasker_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _lasker_moves_one(P[r], params, out[r])


@nb.njit(cache=True, nogil=True)
def _grundy_game_moves_one(p, params, out):
    n = p[0]
    count = 0
    for left in range(1, (n + 1) // 2):
        out[count, 0] = n - left
        out[count, 1] = left
        count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _grundy_game_moves(P, params, counts, out):
    for r in range(P.shape[0]):
        counts[r] = _grundy_game_moves_one(P[r], params, out[r])


class HeapGame(Game):
    """A single-heap take-and-break game; an option is ``parts`` heaps (0 = no heap).

    ``misere`` (a parameter of every family) puts the game in misère play: the player who cannot move
    wins (a file name shows it only when true: ``octal-code0.77-misere``).
    """

    dims = 1
    parts = 2

    def __init__(self, misere: bool = False, **params):
        misere = flag(misere, "misere")
        super().__init__(**params, misere=misere)
        self.misere = misere

    def moves(self, position) -> list[tuple[int, ...]]:
        """Options as tuples of the non-empty heaps left, largest first (``()``: nothing left)."""
        return [tuple(int(h) for h in sorted(row, reverse=True) if h > 0) for row in self.options(position)]

    def max_moves(self, limits) -> int:
        return 2 * int(np.max(limits)) + 2

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("n",)


def _code_digits(code: str, family: str, radix: int, example: str) -> np.ndarray:
    """The digits d0, d1, ... of a take-and-break code ``d0.d1d2...`` in base ``radix`` (8 or 16).

    d0 may only split (4, and 8 or C in hexadecimal): removing nothing and leaving one heap
    would be a pass, and leaving nothing is no move from a heap."""
    head, dot, tail = code.partition(".")
    allowed = "01234567" if radix == 8 else "0123456789ABCDEF"
    heads = ("0", "4") if radix == 8 else ("0", "4", "8", "C")
    if not dot or head.upper() not in heads or not tail or any(c not in allowed for c in tail.upper()):
        raise ValueError(
            f"{family} code must look like {example} (digits {allowed[0]}-{allowed[-1]} after the point, "
            f"{', '.join(heads[:-1])} or {heads[-1]} before it), got {code!r}"
        )
    return np.array([int(c, 16) for c in head + tail], dtype=np.int64)


class octal(HeapGame):
    """Octal game with code ``d0.d1d2d3...`` (any number of digits): digit d_k says what removing
    k tokens may leave: bit 1 nothing, bit 2 one heap, bit 4 two non-empty heaps (d0 is 0, or 4
    to split without removing).  "0.77" is Kayles, "0.07" Dawson's Kayles, "0.137" Dawson's chess.

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4; Guy and Smith (1956).
    """

    name = "octal"
    kernel = staticmethod(_octal_moves)
    period_theorem = "octal"

    def __init__(self, code: str = "0.77", misere: bool = False):
        code = text(code, "code", "'0.77'")
        digits = _code_digits(code, "octal", 8, "0.77 or 4.07")
        super().__init__(misere, code=code)
        self._digits = digits

    def kernel_params(self) -> np.ndarray:
        return self._digits

    @property
    def removal_limit(self) -> int:
        """t: the most tokens a move removes (the position of the last non-zero digit).

        >>> octal("0.77").removal_limit, octal("0.1370").removal_limit
        (2, 3)
        """
        return int(np.flatnonzero(self._digits)[-1]) if self._digits[1:].any() else 0

    def max_moves(self, limits) -> int:
        return len(self._digits) * (int(np.max(limits)) // 2 + 2)

    def move_relation(self) -> TakeAndBreak:
        return TakeAndBreak(tuple(self._digits.tolist()))

    def take_and_break_code(self) -> tuple[np.ndarray, bool]:
        """The code's digits, trailing zeros dropped (``Game.take_and_break_code``)."""
        used = np.flatnonzero(self._digits)
        return self._digits[: (used[-1] + 1 if used.size else 1)].copy(), False


class hexadecimal(HeapGame):
    """Hexadecimal game with code ``d0.d1d2...`` (digits 0-F): as an octal game, and bit 8 of d_k
    lets a move remove k tokens and leave three non-empty heaps, so an option is up to three heaps
    (``parts = 3``).  A code with digits 0-7 is the octal game of the same code.

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4 (hexadecimal games).
    """

    name = "hexadecimal"
    parts = 3
    kernel = staticmethod(_octal_moves)
    period_theorem = "octal"  # the periodicity theorem holds for moves that leave three heaps too
    removal_limit = octal.removal_limit

    def __init__(self, code: str = "0.7F", misere: bool = False):
        code = text(code, "code", "'0.7F'").upper()  # "0.7f" and "0.7F" are one game
        digits = _code_digits(code, "hexadecimal", 16, "0.7F or 8.0")
        super().__init__(misere, code=code)
        self._digits = digits

    def kernel_params(self) -> np.ndarray:
        return self._digits

    take_and_break_code = octal.take_and_break_code

    def max_moves(self, limits) -> int:
        n = int(np.max(limits))
        return len(self._digits) * (n // 2 + 3 + (n // 3) * (n // 2 + 1))


class lasker(HeapGame):
    """Lasker's Nim: remove any positive number of tokens from a heap, or split a heap into two
    non-empty heaps.  Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4."""

    name = "lasker"
    kernel = staticmethod(_lasker_moves)

    def __init__(self, misere: bool = False):
        super().__init__(misere)

    def move_relation(self) -> TakeAndBreak:
        return TakeAndBreak((4,), rest=3)  # split without removing; remove any amount, leaving 0 or 1 heap


class grundy_game(HeapGame):
    """Grundy's game: split one heap into two non-empty heaps of different sizes.

    Its Grundy sequence is believed, not known, to be periodic; discovery uses it as a
    negative control.  Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4."""

    name = "grundy_game"
    kernel = staticmethod(_grundy_game_moves)

    def __init__(self, misere: bool = False):
        super().__init__(misere)

    def move_relation(self) -> TakeAndBreak:
        return TakeAndBreak((4,), unequal=True)

    def take_and_break_code(self) -> tuple[np.ndarray, bool]:
        """Split a heap into two unequal heaps: the code 4, unequal (``Game.take_and_break_code``)."""
        return np.array([4], dtype=np.int64), True
