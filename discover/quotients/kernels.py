"""The construction's numba kernels made ready before it is timed: ``load_kernels``, and what that cost.

The misère quotient's construction runs numba kernels (``proof``, ``trial``, ``tables``, ``labels``,
``least_failure``), compiled with ``cache=True``: the first call of each in a process reads its machine code from
numba's cache (a few hundredths of a second each, plus numba's own start, about 0.3 s on a quiet machine), or
compiles it when the cache is missing or stale (a fresh checkout: tens of seconds).  That cost belongs to the
process, not to the quotient, so ``discover_quotient`` and ``discover_board_quotient`` pay it first, by building
one small quotient (misère Nim heaps 1 to 3: a conservative extension, a growth and a recalibration-free proof)
and taking the least failure of one wrong trial, which calls every kernel with the argument types the
construction uses; the construction is timed after it.  A kernel left to compile inside timed work can also be
cut off mid-compilation by a caller's alarm, which leaves it unusable for the rest of the process (numba's "no
compiled object yet", seen in the suite).  The record says what it cost and whether anything was compiled
(numba's own cache counters), so no work is hidden.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

__all__ = ["KernelLoad", "load_kernels"]

_MODULES = ("discover.quotients.proof", "discover.quotients.trial", "discover.quotients.tables",
            "discover.quotients.labels", "discover.quotients.least_failure")
_NIM = {1: [()], 2: [(), (1,)], 3: [(), (1,), (2,)]}  # misère Nim heaps 1, 2, 3: the options of each


@dataclass(frozen=True)
class KernelLoad:
    """What making the kernels ready cost: ``seconds``, and how many were read from numba's cache or compiled
    (both 0 when an earlier call of this process had made them ready)."""

    seconds: float
    loaded: int
    compiled: int

    def line(self) -> str:
        """``numba kernels: 0.31 s (7 read from its cache)``, or the kernels compiled.

        Examples
        --------
        >>> KernelLoad(0.31, 7, 0).line(), KernelLoad(0.0, 0, 0).line()
        ('numba kernels: 0.31 s (7 read from its cache)', 'numba kernels: 0.00 s (ready in this process)')
        """
        if not self.loaded and not self.compiled:
            how = "ready in this process"
        else:
            how = ", ".join(part for part in (f"{self.loaded} read from its cache" if self.loaded else "",
                                              f"{self.compiled} compiled" if self.compiled else "") if part)
        return f"numba kernels: {self.seconds:.2f} s ({how})"

    def to_record(self) -> dict:
        """Plain data: seconds, loaded, compiled."""
        return {"seconds": self.seconds, "loaded": self.loaded, "compiled": self.compiled}


def load_kernels() -> KernelLoad:
    """Make the construction's kernels ready in this process (read from numba's cache, or compiled) and say what
    it cost.

    Examples
    --------
    >>> first = load_kernels()
    >>> again = load_kernels()   # ready now: nothing read or compiled
    >>> again.loaded, again.compiled
    (0, 0)
    """
    from discover.quotients.construct import QuotientBuilder
    from discover.quotients.least_failure import least_failure
    from discover.quotients.monoid import BipartiteMonoid

    start, before = time.perf_counter(), _counts()
    builder = QuotientBuilder(_NIM.__getitem__)
    for heap in _NIM:
        builder.add(heap)
    # Nim's trials are right at once: the least failure of a wrong one (heap 2 taken for heap 1) readies its kernels
    t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    least_failure(t2, {1: 1, 2: 1}, {1: frozenset({0}), 2: frozenset({0, 1})}, [1, 2])
    after = _counts()
    return KernelLoad(time.perf_counter() - start, after[0] - before[0], after[1] - before[1])


def _counts() -> tuple[int, int]:
    """numba's cache hits and misses over the construction's kernels (signatures read or compiled so far)."""
    import importlib

    from numba.core.registry import CPUDispatcher

    hits = misses = 0
    for name in _MODULES:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, CPUDispatcher):
                hits += sum(value.stats.cache_hits.values())
                misses += sum(value.stats.cache_misses.values())
    return hits, misses
