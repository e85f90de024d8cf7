"""The node ``NimProduct``: Conway's nim-multiplication of non-negative integers.

The nimbers below 2^(2^k) form a field under xor (the nim-sum) and the nim-product (Conway, On Numbers and Games,
ch. 6): for Fermat 2-powers F = 2^(2^k), F ⊗ x = F·x when x < F, and F ⊗ F = 3F/2.  The product distributes over
xor, so x ⊗ y is the xor of 2^i ⊗ 2^j over the bits i of x and j of y; ``nim_product`` reads those from a table
of the 2^i ⊗ 2^j for i, j < 32 (the field below 2^32 holds every product of its elements), and the z3 backend
writes the same sum over every bit its bit-vectors hold (``power_product`` for any i, j).  The Tartan theorem
(Winning Ways ch. 14) makes the Grundy value of a product of coin-turning games the nim-product of the factors'
values: Turning Corners has G(x, y) = x ⊗ y.

Examples
--------
>>> NimProduct(2, 2), NimProduct(2, 3), NimProduct(4, 4)
(3, 1, 6)
>>> nim_product(np.array([5, 7, 16]), np.array([3, 7, 16])).tolist()
[15, 4, 24]
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

__all__ = ["NimProduct", "nim_product", "power_product", "POWER_PRODUCTS", "FIELD_BITS"]

FIELD_BITS = 32  # the factors and products of nim_product lie below 2^32


@functools.cache
def power_product(i: int, j: int) -> int:
    """2^i ⊗ 2^j for any i, j >= 0, by the Fermat 2-powers of the bits of i and j (Conway's rules).

    Examples
    --------
    >>> power_product(1, 1), power_product(16, 16), power_product(32, 1)  # 2 ⊗ 2 = 3, F ⊗ F = 3F/2, F ⊗ 2 = 2F
    (3, 98304, 8589934592)
    """
    if i == 0 or j == 0:
        return 1 << (i + j)
    top = 1 << (max(i, j).bit_length() - 1)  # the largest power of two in i or j: 2^top is a Fermat 2-power
    if i & top and j & top:  # F ⊗ F = 3F/2 with F = 2^(2^top'): (2^(i - top) ⊗ 2^(j - top)) ⊗ (F ⊗ F)
        rest = power_product(i - top, j - top)
        return _times(rest, (1 << top) | (1 << (top - 1)))
    if i & top:
        return power_product(i - top, j) << top  # F ⊗ x = F·x for x < F
    return power_product(i, j - top) << top


def _times(x: int, y: int) -> int:
    """x ⊗ y for Python integers, bit by bit from the power products."""
    out = 0
    for i in range(x.bit_length()):
        if x >> i & 1:
            for j in range(y.bit_length()):
                if y >> j & 1:
                    out ^= power_product(i, j)
    return out


#: POWER_PRODUCTS[i, j] = 2^i ⊗ 2^j for i, j < FIELD_BITS
POWER_PRODUCTS = np.array([[power_product(i, j) for j in range(FIELD_BITS)] for i in range(FIELD_BITS)],
                          dtype=np.int64)


def nim_product(x, y) -> np.ndarray:
    """The nim-products of two arrays of non-negative integers below 2^32, as int64.

    Raises ValueError for a negative value or one of 2^32 or more.

    Examples
    --------
    >>> nim_product([3], [3]).tolist()
    [2]
    """
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64))
    if x.size and (min(x.min(), y.min()) < 0 or max(x.max(), y.max()) >> FIELD_BITS):
        raise ValueError(f"nim-products are computed for integers from 0 to 2^{FIELD_BITS} - 1; got a value outside")
    out = np.zeros(x.shape, dtype=np.int64)
    for i in range(int(x.max(initial=0)).bit_length()):
        row = np.zeros(x.shape, dtype=np.int64)  # 2^i ⊗ y
        for j in range(int(y.max(initial=0)).bit_length()):
            row ^= np.where(y >> j & 1, POWER_PRODUCTS[i, j], 0)
        out ^= np.where(x >> i & 1, row, 0)
    return out


class NimProduct(sp.Function):
    """Conway's nim-product of non-negative integers (n-ary: associative and commutative), exact for integers of
    any size (``nim_product``, the numpy backend's, for those below 2^32).

    Examples
    --------
    >>> a = sp.Symbol("a")
    >>> NimProduct(a, 1), NimProduct(a, 0), NimProduct(3, 5, 2), NimProduct(2**32, 2)
    (a, 0, 5, 8589934592)
    """

    nargs = None

    @classmethod
    def eval(cls, *args):
        if len(args) == 1:
            return args[0]
        numbers = [a for a in args if isinstance(a, sp.Integer)]
        if any(a < 0 for a in numbers):
            raise ValueError(f"NimProduct needs non-negative integers, got {numbers}")
        if any(a == 0 for a in numbers):
            return sp.Integer(0)
        if len(numbers) == len(args):
            return sp.Integer(functools.reduce(_times, (int(a) for a in numbers)))
        if any(a == 1 for a in numbers):
            return cls(*[a for a in args if a != 1])
        return None

    def _eval_is_integer(self):
        return True

    def _eval_is_nonnegative(self):
        return True
