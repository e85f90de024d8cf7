"""Labels of pairs in order of first appearance, by hashing (numba): the step of Moore's partition refinement.

``monoid.refine`` relabels the pairs ``(acc[x], column[x])`` of millions of trial elements once per generator
and round; sorting them (``numpy.unique``) was most of a trial's reduction.  An open-addressing table does it in
one pass, with the same labels: 0, 1, ... in order of first appearance.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["pair_labels"]


@nb.njit(cache=True, nogil=True)
def _pair_labels(acc, column, width, slots):
    n = acc.size
    keys = np.full(slots, -1, dtype=np.int64)
    values = np.empty(slots, dtype=np.int64)
    out = np.empty(n, dtype=np.int64)
    mask = slots - 1
    count = 0
    for x in range(n):
        key = acc[x] * width + column[x]
        h = (key * 0x9E3779B97F4A7C15) >> 17 & mask
        while keys[h] != -1 and keys[h] != key:
            h = (h + 1) & mask
        if keys[h] == -1:
            keys[h] = key
            values[h] = count
            count += 1
        out[x] = values[h]
    return out


def pair_labels(acc: np.ndarray, column: np.ndarray) -> np.ndarray:
    """Label ``x`` by the pair ``(acc[x], column[x])`` (non-negative integers): 0, 1, ... in order of first
    appearance.

    Examples
    --------
    >>> pair_labels(np.array([0, 1, 0, 1]), np.array([5, 5, 5, 2])).tolist()
    [0, 1, 0, 2]
    """
    acc = np.ascontiguousarray(acc, dtype=np.int64)
    column = np.ascontiguousarray(column, dtype=np.int64)
    width = int(column.max()) + 1 if column.size else 1
    distinct = min(acc.size, (int(acc.max()) + 1 if acc.size else 1) * width)
    slots = 1 << max(4, (2 * distinct).bit_length())
    return _pair_labels(acc, column, width, slots)
