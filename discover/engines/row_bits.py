"""Sets of table rows as bits, 64 rows a word, and the size of every pairwise intersection of two families of sets.

The decision-list engine asks, for every branch formula and every guard, how many rows of the guard's branch
the formula gets wrong.  On a table whose rows all weigh 1 (a solver's) that is the size of an intersection of
two sets of rows: with each set packed 64 rows a word, one hardware population count (LLVM's ``ctpop``) per pair
of words counts it exactly, about five times faster than the same numbers as a float32 matrix product.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.core import types
from numba.extending import intrinsic

__all__ = ["pack_rows", "intersections"]


def pack_rows(sets: np.ndarray) -> np.ndarray:
    """A (k, n) boolean array of k sets of n rows as a (k, ceil(n / 64)) uint64 array, row r in bit r % 64 of word
    r // 64 (the unused bits of the last word are 0).

    Examples
    --------
    >>> pack_rows(np.array([[True, False, True], [False, False, False]])).tolist()
    [[5], [0]]
    """
    sets = np.asarray(sets, dtype=bool)
    k, n = sets.shape
    padded = np.zeros((k, -(-n // 64) * 64), dtype=bool)
    padded[:, :n] = sets
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64, copy=False)


@intrinsic
def _ones(typingctx, word):
    """The number of set bits of a uint64 (LLVM's ``ctpop``: one instruction where the processor has one)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@nb.njit(cache=True, nogil=True)
def _intersections(first, second):
    out = np.empty((first.shape[0], second.shape[0]), dtype=np.int64)
    for i in range(first.shape[0]):
        for j in range(second.shape[0]):
            count = 0
            for w in range(first.shape[1]):
                count += _ones(first[i, w] & second[j, w])
            out[i, j] = count
    return out


def intersections(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``out[i, j]``: the number of rows in both set ``i`` of ``first`` and set ``j`` of ``second`` (both packed by
    ``pack_rows`` over the same rows).

    Examples
    --------
    >>> a = pack_rows(np.array([[True, True, False], [False, True, True]]))
    >>> intersections(a, pack_rows(np.array([[True, True, True], [False, False, True]]))).tolist()
    [[2, 0], [2, 1]]
    """
    if first.dtype != np.uint64 or second.dtype != np.uint64 or first.shape[1] != second.shape[1]:
        raise ValueError(f"both families must be packed by pack_rows over the same rows, got {first.dtype} "
                         f"{first.shape} and {second.dtype} {second.shape}")
    return _intersections(np.ascontiguousarray(first), np.ascontiguousarray(second))
