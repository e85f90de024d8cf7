"""Eventual periods of integer sequences: of a growing Grundy sequence, proved by the periodicity theorem while it
grows (``PeriodWatch``), and of a finished table, every short description (``find_periods``).

This module is where periods are found; the layers above only use them: the periodic engine
(``discover.engines.periods1d``) writes a fit as a rule, the proofs (``discover.proofs.periodicity``)
apply the theorems to a period, ``discover.periodic_values`` stores one.

**The theorem** (Guy and Smith, "The G-values of various games", 1956; *Winning Ways*, chapter 4):
for a take-and-break game whose moves remove at most t tokens and leave at most j heaps, if
G(n + p) = G(n) for every n with n0 <= n <= j (n0 + p) + t - 1 - p, then G(n + p) = G(n) for every
n >= n0.  The induction maps an option of heap n + p to an option of heap n by taking p from its
largest part, which has at least (n + p - t) / j tokens; for octal games (j = 2) this is the
published hypothesis "n0 <= n < 2 n0 + p + t", i.e. values checked up to 2 (n0 + p) + t - 1.
n0 counts as at least 1 here: with n0 = 0 the largest part can shrink to an empty heap, which
changes the move (0.04 is 0-periodic up to heap 3, yet G(4) = 1).  j = 3 covers hexadecimal
codes by the same argument.  No theorem covers Grundy's game (equal splits are forbidden, so
the shifted split can become illegal): its periods are never proved.

**Finding the candidate** (p, n0): at a checkpoint the minimal period of a window at the end of
the sequence (the last half, and the last sixteenth) comes from its longest border
(Knuth-Morris-Pratt), and n0 by scanning back while G(n) = G(n + p).  A candidate whose window
holds a long border is then checked value by value as the sequence grows, and proved as soon as
the theorem's range is computed.  A period proved this way is the minimal one: a smaller
eventual period would start at the same n0 and show in the window.

**A finished table** y[0], ..., y[L - 1] (a solver's P positions or Grundy values, a rule's values) is
*arithmetic-periodic* with pre-period n0, period p and saltus s when y[n + p] = y[n] + s for every
n >= n0 (s = 0: plain periodicity).  ``find_periods`` tries every p in turn and keeps the fits whose
periodic part spans three periods, smallest period first: the descriptions a rule is written from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

__all__ = ["hypothesis_end", "minimal_period", "settled_period", "PeriodWatch", "PeriodicFit", "find_periods"]


def hypothesis_end(preperiod: int, period: int, removal_limit: int, parts: int) -> int:
    """The largest heap whose value the periodicity theorem needs checked.

    Parameters
    ----------
    preperiod, period : int
        The candidate n0 >= 0 and p >= 1.
    removal_limit : int
        t, the most tokens a move removes.
    parts : int
        j, the most heaps a move leaves (1, 2 or 3).

    Examples
    --------
    >>> hypothesis_end(71, 12, 2, 2)  # Kayles: G(n) up to n = 167 prove the period
    167
    """
    if preperiod < 0 or period < 1 or removal_limit < 0 or parts < 1:
        raise ValueError(f"need preperiod >= 0, period >= 1, removal_limit >= 0 and parts >= 1, got "
                         f"{preperiod}, {period}, {removal_limit}, {parts}")
    return parts * (max(preperiod, 1) + period) + removal_limit - 1


@nb.njit(cache=True, nogil=True)
def _minimal_period(window):
    border = np.zeros(window.size, dtype=np.int32)
    k = 0
    for i in range(1, window.size):
        while k > 0 and window[i] != window[k]:
            k = border[k - 1]
        if window[i] == window[k]:
            k += 1
        border[i] = k
    return window.size - k


@nb.njit(cache=True, nogil=True)
def _period_start(values, start, period):
    # the smallest s with values[i] == values[i + period] for s <= i < start
    s = start
    while s > 0 and values[s - 1] == values[s - 1 + period]:
        s -= 1
    return s


def minimal_period(window) -> int:
    """The smallest p with ``window[i] == window[i + p]`` for every i (the length if none).

    Examples
    --------
    >>> minimal_period(np.array([1, 2, 3, 1, 2, 3, 1]))
    3
    """
    window = np.ascontiguousarray(window)
    return int(_minimal_period(window)) if window.size else 0


def settled_period(values) -> tuple[int, int] | None:
    """(n0, p) when a sequence has settled into a period with a margin, else None.

    The period is the minimal one of the last half (``minimal_period``, linear time), n0 the first value from
    which it holds; it counts as settled when the periodic part spans at least three periods and at least the
    pre-period plus two periods (so a table that ends just after a long pre-period does not pass for periodic).

    Examples
    --------
    >>> settled_period(np.array([5, 5, 5] + [1, 0, 0] * 6))
    (3, 3)
    >>> settled_period(np.array([5] * 9 + [1, 0, 0] * 3)) is None  # a pre-period longer than the periodic part
    True
    """
    values = np.ascontiguousarray(values)
    n = values.size
    low = n - n // 2
    if n - low < 2:
        return None
    period = int(_minimal_period(values[low:]))
    if 3 * period > n - low:
        return None
    start = int(_period_start(values, low, period))
    return (start, period) if n - start >= start + 2 * period else None


@dataclass
class PeriodWatch:
    """Follows one growing sequence: the current candidate (n0, p) and whether it is proved.

    ``check(values, n)`` is called with the first n values computed; it verifies the new values
    against the candidate, looks for a candidate when there is none, and sets ``proved``.
    ``theorem_applies`` is False for games no periodicity theorem covers (Grundy's game).

    Examples
    --------
    >>> watch = PeriodWatch(removal_limit=1, parts=1)
    >>> watch.check(np.array([1, 0] * 10, dtype=np.uint16), 20)
    True
    >>> watch.preperiod, watch.period, watch.hypothesis
    (0, 2, (0, 1))
    """

    removal_limit: int
    parts: int
    theorem_applies: bool = True
    preperiod: int | None = None
    period: int | None = None
    end: int | None = None  # the largest heap the theorem needs
    verified: int = 0  # values[:verified] agree with the candidate
    proved: bool = False

    @property
    def candidate(self) -> tuple[int, int] | None:
        """(n0, p) of the current candidate, or None."""
        return None if self.period is None else (self.preperiod, self.period)

    @property
    def hypothesis(self) -> tuple[int, int] | None:
        """(first, last): G(n + p) = G(n) is checked for first <= n <= last (the theorem's range)."""
        if self.period is None:
            return None
        return self.preperiod, self.end - self.period

    def next_stop(self, n: int) -> int | None:
        """Where the sequence must stop next to prove the candidate without delay (None: anywhere)."""
        return self.end + 1 if self.period is not None and self.theorem_applies and self.end >= n else None

    def check(self, values: np.ndarray, n: int) -> bool:
        """Update with the first ``n`` values; True once the candidate is proved."""
        if self.proved:
            return True
        if self.period is not None:
            p, lo = self.period, self.verified
            if not np.array_equal(values[lo:n], values[lo - p:n - p]):
                self.preperiod = self.period = self.end = None
            else:
                self.verified = n
        if self.period is None:
            self._search(values, n)
        self.proved = self.period is not None and self.theorem_applies and self.end <= n - 1
        return self.proved

    def _search(self, values: np.ndarray, n: int) -> None:
        best = None
        for lo in (n - n // 2, n - n // 16):
            size = n - lo
            if size < 2:
                continue
            p = int(_minimal_period(values[lo:n]))
            if p == size:
                continue
            start = int(_period_start(values, lo, p))
            end = hypothesis_end(start, p, self.removal_limit, self.parts)
            proves = end <= n - 1
            if (proves or 8 * (size - p) >= size) and (best is None or end < best[2]):
                best = (start, p, end)
        if best is not None:
            self.preperiod, self.period, self.end = best
            self.verified = n


@dataclass(frozen=True)
class PeriodicFit:
    """y[n + period] = y[n] + saltus for every n >= start (within the table)."""

    start: int  # the pre-period n0
    period: int
    saltus: int
    length: int  # how many values y[0..length-1] were checked

    @property
    def repeats(self) -> float:
        """How many full periods the periodic part spans in the table."""
        return (self.length - self.start) / self.period


def _min_tail(period: int, margin: int) -> int:
    return 2 * period + max(margin, period)


def find_periods(values, max_period=None, margin: int = 3, limit: int = 3, arithmetic: bool = True):
    """The shortest (pre-period, period, saltus) descriptions of a sequence, smallest period first.

    A fit counts only when its periodic part spans at least ``2 * p + max(margin, p)``
    values (three periods), so a table cannot be "periodic" by being too short to contradict it.  Periods that
    are multiples of an accepted one with no earlier start are skipped.

    Examples
    --------
    >>> find_periods([2, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0])[0]
    PeriodicFit(start=1, period=3, saltus=0, length=14)
    >>> find_periods([0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11, 13, 14])[0]
    PeriodicFit(start=1, period=4, saltus=4, length=15)
    """
    y = np.asarray(values).astype(np.int64)
    length = len(y)
    top = length // 3 if max_period is None else int(max_period)
    fits: list[PeriodicFit] = []
    for p in range(1, max(top, 0) + 1):
        if length - _min_tail(p, margin) < 0:
            break
        d = y[p:] - y[:-p]  # d[i] = y[i + p] - y[i]
        s = int(d[-1]) if arithmetic else 0
        bad = np.flatnonzero(d != s)
        start = int(bad[-1]) + 1 if bad.size else 0
        if length - start < _min_tail(p, margin):
            continue
        if any(p % f.period == 0 and f.start <= start for f in fits):
            continue
        fits.append(PeriodicFit(start, p, s, length))
        if len(fits) >= limit:
            break
    return fits
