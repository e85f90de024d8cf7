"""Periods in each coordinate of a two-heap table: a periodic core, and eventually periodic lines near the axes.

Many two-heap games (sums of subtraction games, "take 1 to 3 from one heap or 1 from both" and its variants,
Wythoff's game with a cap) have P-sets of one shape: away from the axes, P iff (a mod p, b mod q) lies in a
set; each of the finitely many rows a < a0 and columns b < b0 near the axes is eventually periodic along its
length, with a pre-period and period of its own.  For a sum G1 + G2 of one-heap games whose Grundy values are
eventually periodic, a0 and b0 are the pre-periods of G1 and G2 (Sprague-Grundy: P iff G1(a) = G2(b)).

``grid_periods`` reads that shape off a finished table T[a, b] (0 <= a <= A, 0 <= b <= B), or says it is not
there.  The core's periods (p, q) are the smallest that hold on the last half of the table in both coordinates
and span three periods there; (a0, b0) is the split with the fewest exceptional lines (a0 + b0) outside which
T agrees with the core; each exceptional line must settle into a period with the margin of
``solvers.periods.sequences.settled_period`` (three periods in its last half, its periodic part at least its
pre-period plus two periods), and the core likewise (its periodic part at least a0 + 2 p rows and b0 + 2 q
columns).  A table too short to show such margins gives None: grow it (``discover.period_growth``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.periods.sequences import settled_period

__all__ = ["GridPeriods", "grid_periods", "shift_period"]


@dataclass(frozen=True)
class GridPeriods:
    """A two-heap table's periodic core and its exceptional lines.

    ``core[r, s]`` is T at (a, b) with a = r (mod p), b = s (mod q), for a >= a0 and b >= b0.  ``rows[k]`` is the
    (pre-period, period) of row a = k along b (from b = 0), for k < a0; ``columns[k]`` that of column b = k along
    a, counted from a = 0 but read only from a = a0 on (the rows cover a < a0), for k < b0.
    """

    periods: tuple[int, int]
    start: tuple[int, int]
    core: np.ndarray
    rows: tuple[tuple[int, int], ...]
    columns: tuple[tuple[int, int], ...]
    shape: tuple[int, int]

    def predict(self, a, b) -> np.ndarray:
        """The core's label at (a, b) (ignoring the exceptional lines)."""
        p, q = self.periods
        return self.core[np.asarray(a) % p, np.asarray(b) % q]


def shift_period(table, axis: int, most: int | None = None) -> int | None:
    """The smallest s <= ``most`` with ``table`` unchanged by a shift of s along ``axis`` (None if none).

    Examples
    --------
    >>> shift_period(np.array([[0, 1, 1, 0, 1, 1, 0]] * 2), axis=1)
    3
    """
    table = np.asarray(table)
    size = table.shape[axis]
    most = size - 1 if most is None else min(most, size - 1)
    for s in range(1, most + 1):
        head = np.take(table, np.arange(size - s), axis=axis)
        tail = np.take(table, np.arange(s, size), axis=axis)
        if np.array_equal(head, tail):
            return s
    return None


def _split(mismatch: np.ndarray) -> tuple[int, int]:
    """(a0, b0) with every mismatch in a row a < a0 or a column b < b0, a0 + b0 least (then the more even)."""
    rows, cols = mismatch.shape
    # last[a] = 1 + the largest b of a mismatch in rows a, a + 1, ... (0 when none)
    per_row = np.where(mismatch.any(axis=1), cols - np.argmax(mismatch[:, ::-1], axis=1), 0)
    last = np.maximum.accumulate(per_row[::-1])[::-1]
    last = np.append(last, 0)
    options = [(a0 + int(last[a0]), max(a0, int(last[a0])), a0) for a0 in range(rows + 1)]
    _, _, a0 = min(options)
    return a0, int(last[a0])


def _settled_from(values: np.ndarray, lo: int) -> tuple[int, int] | None:
    """(pre-period, period) of ``values`` read from index ``lo`` on (the pre-period counted from 0)."""
    found = settled_period(np.asarray(values[lo:], dtype=np.int64))
    return None if found is None else (lo + found[0], found[1])


def grid_periods(table, max_lines: int = 24) -> GridPeriods | None:
    """The periodic core and exceptional lines of a two-heap table, or None when the table shows none.

    Parameters
    ----------
    table : array of bool or int, shape (A + 1, B + 1)
        T[a, b] for every 0 <= a <= A and 0 <= b <= B (P labels, or any integer values).
    max_lines : int
        The most exceptional rows and columns (a0 + b0) accepted.

    Returns
    -------
    GridPeriods or None
        None when the last half of the table is not periodic in both coordinates with three periods to
        spare, when more than ``max_lines`` lines break the core, or when a line or the core has not settled
        with the margins of the module docstring (a longer table may show them).

    Examples
    --------
    >>> a, b = np.indices((40, 40))
    >>> found = grid_periods(np.where(a == 0, b % 4 == 0, (a + b) % 3 == 0))  # row 0 differs from the core
    >>> found.periods, found.start, found.rows, found.columns
    ((3, 3), (1, 0), ((0, 4),), ())
    >>> grid_periods(a == b) is None  # Nim: P iff a = b is periodic along no coordinate
    True
    """
    table = np.asarray(table)
    if table.ndim != 2 or min(table.shape) < 6:
        return None
    rows, cols = table.shape
    far = table[rows // 2:, cols // 2:]
    p = shift_period(far, 0, far.shape[0] // 3)
    q = shift_period(far, 1, far.shape[1] // 3)
    if p is None or q is None:
        return None
    ra, rb = rows // 2, cols // 2
    core = np.empty((p, q), dtype=table.dtype)
    core[np.arange(ra, ra + p)[:, None] % p, np.arange(rb, rb + q)[None, :] % q] = table[ra:ra + p, rb:rb + q]
    a, b = np.indices(table.shape)
    a0, b0 = _split(table != core[a % p, b % q])
    if a0 + b0 > max_lines or rows - a0 < a0 + 2 * p or cols - b0 < b0 + 2 * q:
        return None
    row_fits = [_settled_from(table[k], 0) for k in range(a0)]
    column_fits = [_settled_from(table[:, k], a0) for k in range(b0)]
    if any(fit is None for fit in row_fits + column_fits):
        return None
    return GridPeriods((p, q), (a0, b0), core, tuple(row_fits), tuple(column_fits), (rows, cols))
