"""The node ``ZeckendorfLeast``: the smallest part of an integer's Zeckendorf representation.

Every n >= 1 is one sum of non-consecutive Fibonacci numbers 1, 2, 3, 5, 8, ... (Zeckendorf's theorem); the
greedy choice (the largest Fibonacci number that fits, then the same for the rest) finds it.
``ZeckendorfLeast(n)`` is its smallest part, 0 for n = 0 (the empty sum).  Whinihan ("Fibonacci Nim",
Fibonacci Quarterly 1, 1963) proved that in Fibonacci Nim the player to move loses exactly when the amount
allowed is below it.  ``zeckendorf_least`` computes it for int64 arrays, greedily over the ``FIBONACCI`` numbers
below 2^63 (91 of them), and the z3 backend unrolls the same greedy over the Fibonacci numbers below 2^bits.

Examples
--------
>>> ZeckendorfLeast(12)  # 12 = 8 + 3 + 1
1
>>> zeckendorf_least(np.array([0, 1, 4, 7, 10, 20])).tolist()  # 4 = 3 + 1, 7 = 5 + 2, 10 = 8 + 2, 20 = 13 + 5 + 2
[0, 1, 1, 2, 2, 2]
"""

from __future__ import annotations

import numpy as np
import sympy as sp

__all__ = ["ZeckendorfLeast", "zeckendorf_least", "FIBONACCI", "fibonacci_below"]


def fibonacci_below(limit: int) -> list[int]:
    """The Fibonacci numbers 1, 2, 3, 5, ... below ``limit`` (the parts of Zeckendorf representations).

    Examples
    --------
    >>> fibonacci_below(20)
    [1, 2, 3, 5, 8, 13]
    """
    out, a, b = [], 1, 2
    while a < limit:
        out.append(a)
        a, b = b, a + b
    return out


#: the Fibonacci numbers below 2^63, smallest first
FIBONACCI = np.array(fibonacci_below(1 << 63), dtype=np.int64)


def zeckendorf_least(values) -> np.ndarray:
    """The smallest Zeckendorf part of each non-negative integer of ``values`` (0 for 0), as int64.

    Raises ValueError for a negative value.

    Examples
    --------
    >>> zeckendorf_least([6, 9, 11]).tolist()  # 6 = 5 + 1, 9 = 8 + 1, 11 = 8 + 3
    [1, 1, 3]
    """
    rest = np.array(values, dtype=np.int64)
    if rest.size and (rest < 0).any():
        raise ValueError("the Zeckendorf representation is defined for non-negative integers; got a negative value")
    least = np.zeros_like(rest)
    top = int(rest.max(initial=0))
    for f in FIBONACCI[FIBONACCI <= top][::-1]:  # greedy: the largest part first, so the last one taken is the least
        taken = rest >= f
        rest -= np.where(taken, f, 0)
        least = np.where(taken, f, least)
    return least


class ZeckendorfLeast(sp.Function):
    """The smallest part of the Zeckendorf representation of a non-negative integer (0 for 0).

    Examples
    --------
    >>> n = sp.Symbol("n")
    >>> ZeckendorfLeast(n).subs(n, 17), ZeckendorfLeast(2**100)  # 17 = 13 + 3 + 1
    (1, 3)
    """

    nargs = 1

    @classmethod
    def eval(cls, x):
        if isinstance(x, sp.Integer):
            if x < 0:
                raise ValueError(f"ZeckendorfLeast needs a non-negative integer, got {x}")
            rest, least = int(x), 0
            for f in reversed(fibonacci_below(rest + 1)):  # the greedy in Python integers: any size
                if rest >= f:
                    rest, least = rest - f, f
            return sp.Integer(least)
        return None

    def _eval_is_integer(self):
        return True

    def _eval_is_nonnegative(self):
        return True
