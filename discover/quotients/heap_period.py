"""The period of the heap-to-element map of a heap game's misère quotient, and when it is proved.

The periodicity theorem for misère quotients of octal games (Plambeck and Siegel, "Misère quotients for
impartial games"; proved again in Siegel's notes "Misère games and misère quotients") says, for an octal game
whose moves remove at most t tokens: if, in the quotient of the heaps up to 2 n0 + p + t, the element of heap
n + p equals that of heap n for every n0 <= n < 2 n0 + p + t, then the quotient of *all* heaps is that quotient
and the element of heap n + p equals that of heap n for every n >= n0.  ``heap_period`` asks for a little more
than the theorem does, so that either published form of the bound is covered: the map is checked periodic on
every heap up to N >= 2 n0 + 2 p + t, and the quotient must not have grown after heap 2 n0 + p + t (so the
quotients of the heaps up to 2 n0 + p + t and up to N are the same monoid with the same map).  Subtraction games
are octal games (digit 3 at each amount), t = the largest amount.  Otherwise (three-heap moves, Grundy's game's
unequal splits) no theorem is claimed: a period seen is a candidate, "verified" on the heaps computed.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HeapPeriod", "heap_period"]


@dataclass(frozen=True)
class HeapPeriod:
    """Element of heap n + period = element of heap n for n >= preperiod; ``proved`` by the theorem or not."""

    preperiod: int
    period: int
    proved: bool
    checked_to: int

    def line(self) -> str:
        """The period in the project's wording."""
        what = f"period {self.period} from heap {self.preperiod}"
        if self.proved:
            return f"{what}, proved by the periodicity theorem for misère quotients of octal games (Plambeck and Siegel)"
        return f"{what}, a candidate verified on heaps up to {self.checked_to} (no theorem applies yet)"


def heap_period(elements, last_growth: int, removal_limit: int | None) -> HeapPeriod | None:
    """The shortest period of ``elements`` (heap 0, 1, ..., N), proved when the theorem's bound is met.

    Parameters
    ----------
    elements : sequence of int
        The element of each heap 0 .. N (heap 0: the identity).
    last_growth : int
        The last heap at which the quotient grew.
    removal_limit : int or None
        t, the most tokens a move removes, for an octal (or subtraction) game; None where no theorem applies.

    Returns
    -------
    HeapPeriod or None
        None when no period repeats at least twice within the heaps given.

    Examples
    --------
    >>> heap_period([0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2], last_growth=2, removal_limit=1)
    HeapPeriod(preperiod=1, period=2, proved=True, checked_to=10)
    >>> heap_period([0, 1, 2, 1, 2, 1, 2], last_growth=2, removal_limit=3).proved
    False
    """
    e = list(elements)
    n = len(e) - 1
    candidate = None
    for p in range(1, n // 2 + 1):
        n0 = n - p + 1
        while n0 > 0 and e[n0 - 1 + p] == e[n0 - 1]:
            n0 -= 1
        if n - n0 + 1 < 2 * p:  # the period must repeat at least twice
            continue
        proved = removal_limit is not None and n >= 2 * n0 + 2 * p + removal_limit and \
            last_growth <= 2 * n0 + p + removal_limit
        if proved:
            return HeapPeriod(n0, p, True, n)
        if candidate is None:
            candidate = HeapPeriod(n0, p, False, n)
    return candidate
