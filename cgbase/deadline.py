"""Time budgets as deadlines the work checks: ``Deadline(seconds)`` passed down to every loop that may run long.

A budget given by the user (``--seconds``, ``seconds=``) is a promise: the work stops within about that time, with
the best it has.  A loop calls ``deadline.check(what)`` now and then (every few thousand steps); past the deadline
it raises ``OutOfTime``, a ``ValueError`` naming the budget and what was running, which a caller with a partial
answer catches (the quotient of the heaps before, the best rule so far) and any other turns into one line.
Work reached through layers that do not pass a deadline on (the graph a ``solve`` builds) reads the one of the
innermost ``with within(deadline):`` around it (``current()``; a context variable, so nothing outlives the block).

Examples
--------
>>> Deadline(None).left() == float("inf"), Deadline(60).passed()
(True, False)
>>> Deadline(0).check("the example")
Traceback (most recent call last):
...
cgbase.deadline.OutOfTime: the 0-second budget ran out in the example
"""

from __future__ import annotations

import contextvars
import math
import time
from contextlib import contextmanager

__all__ = ["Deadline", "OutOfTime", "within", "current"]


class OutOfTime(ValueError):
    """The time budget ran out before the work was done."""


class Deadline:
    """The moment ``seconds`` from now (None or inf: never).

    Parameters
    ----------
    seconds : float or None
        The budget, from now.
    """

    def __init__(self, seconds: float | None):
        self.seconds = math.inf if seconds is None else float(seconds)
        self.start = time.perf_counter()
        self.end = self.start + self.seconds

    def left(self) -> float:
        """Seconds left (0 once passed; inf without a budget)."""
        return max(0.0, self.end - time.perf_counter())

    def passed(self) -> bool:
        """True once the budget is spent."""
        return time.perf_counter() >= self.end

    def check(self, what: str) -> None:
        """Raise ``OutOfTime`` naming ``what`` was running when the budget is spent."""
        if self.passed():
            raise OutOfTime(f"the {self.seconds:g}-second budget ran out in {what}")

    @staticmethod
    def of(deadline) -> "Deadline":
        """``deadline`` itself, or a deadline that never passes for None."""
        return deadline if deadline is not None else Deadline(None)


_CURRENT: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("deadline", default=None)


@contextmanager
def within(deadline: Deadline):
    """The block's work reads ``deadline`` through ``current()`` (the earlier one where a block is nested in another);
    ``as`` gives the one in force.

    Examples
    --------
    >>> with within(Deadline(60)):
    ...     current().seconds
    60.0
    >>> with within(Deadline(5)), within(Deadline(60)) as inner:
    ...     inner.seconds
    5.0
    >>> current().seconds
    inf
    """
    outer = _CURRENT.get()
    in_force = deadline if outer is None or deadline.end < outer.end else outer
    token = _CURRENT.set(in_force)
    try:
        yield in_force
    finally:
        _CURRENT.reset(token)


def current() -> Deadline:
    """The deadline of the innermost ``within`` block (one that never passes outside any)."""
    return _CURRENT.get() or Deadline(None)
