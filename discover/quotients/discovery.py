"""A heap game's misère quotient found, checked against the solver and proved where the theory allows.

``discover_quotient(game)`` adds heaps 1, 2, ... to a ``QuotientBuilder`` (each step proved for the heaps so far)
until the periodicity theorem proves the heap-to-element period (octal and subtraction games), or the heaps or
seconds run out; then it checks the rule's predictions on every sum of up to 3 heaps (4 on smaller heaps)
against the sum solver.  Its ``seconds`` time that work; the numba kernels are made ready before it
(``kernels.load_kernels``: the process's first read of numba's cache, or a compilation), and the record says
what that cost apart (``kernels``).  The status is "proved" only when the period is proved (every heap of every size is
then decided) and every check passed; otherwise "verified" (the quotient of the heaps computed, proved for sums
of those heaps, and no heap beyond them decided), or "refuted" if a check failed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from cgbase.validation import number_in
from discover import defaults
from discover.verdicts import QuotientStatus
from cgbase.deadline import Deadline
from games import Game
from discover.quotients.check import SumCheck, check_sums
from discover.quotients.components import HeapComponents
from discover.quotients.construct import QuotientBuilder
from discover.quotients.kinds import is_misere_heap_game
from discover.quotients.heap_period import heap_period
from discover.quotients.kernels import KernelLoad, load_kernels
from discover.quotients.rule import QuotientRule, discovery_html, discovery_repr, quotient_rule

__all__ = ["QuotientDiscovery", "discover_quotient", "is_misere_heap_game"]

CHECKS = ((3, 8), (4, 5))  # every sum of up to k heaps of size <= N, against the solver


def _removal_limit(game) -> int | None:
    """t for the periodicity theorem: octal games (two-heap moves) and subtraction games; None otherwise."""
    if game.period_theorem == "subtraction" or (game.period_theorem == "octal" and game.parts == 2):
        return int(game.removal_limit)
    return None


@dataclass
class QuotientDiscovery:
    """What ``discover_quotient`` found: the rule, how it grew, its checks and status."""

    game: Game
    rule: QuotientRule
    heaps: int
    growth: list
    checks: list = field(default_factory=list)
    seconds: float = 0.0
    stopped: str = ""
    kernels: KernelLoad | None = None

    @property
    def status(self) -> QuotientStatus:
        """Proved, verified or refuted."""
        if any(not c.passed for c in self.checks):
            return QuotientStatus.REFUTED
        proved = self.rule.period is not None and self.rule.period.proved
        return QuotientStatus.PROVED if proved else QuotientStatus.VERIFIED

    def statement(self) -> str:
        """The proof status in one sentence, in the project's wording."""
        if self.status == QuotientStatus.PROVED:
            p = self.rule.period
            return (f"proved for every sum of heaps of any size: the quotient of heaps up to {self.heaps} is proved by "
                    f"Plambeck and Siegel's construction, and {p.line()}")
        base = (f"proved for every sum of heaps up to {self.heaps} (Plambeck and Siegel's construction); heaps beyond "
                f"{self.heaps} are not decided")
        if self.rule.period is not None:
            base += f"; {self.rule.period.line()}"
        return base

    def __repr__(self) -> str:
        return discovery_repr(self)

    def _repr_html_(self) -> str:
        return discovery_html(self)

    def to_record(self) -> dict:
        """Plain data: the game, the rule (``QuotientRule.to_record``), status, statement, checks and timing (the
        kernels' apart)."""
        return {"game": self.game.spec(), "rule": self.rule.to_record(), "status": self.status,
                "statement": self.statement(), "heaps": self.heaps, "growth": [[c, o] for c, o in self.growth],
                "checks": [c.line() for c in self.checks], "seconds": self.seconds, "stopped": self.stopped,
                "kernels": None if self.kernels is None else self.kernels.to_record()}


def discover_quotient(game: Game, heaps: int | None = None, seconds: float | None = None, checks=CHECKS,
                      progress=None) -> QuotientDiscovery:
    """The misère quotient of ``game``'s heaps, heap by heap until its period is proved or the budget is spent.

    Parameters
    ----------
    game : Game
        A one-heap game in misère play (``is_misere_heap_game``).
    heaps : int, optional
        Add at most this many heaps (default ``discover.defaults.QUOTIENT.heaps``).
    seconds : float, optional
        Stop adding heaps after this many seconds (default ``discover.defaults.QUOTIENT.seconds``): a deadline every
        step of the construction checks (the heap it interrupts is left out), before the checks of the rule.  It
        starts once the kernels are ready (``kernels.load_kernels``, timed apart).
    checks : sequence of (parts, size)
        Check every sum of up to ``parts`` heaps of size <= ``size`` against the sum solver.
    progress : callable, optional
        Called with a line after each heap.

    Raises
    ------
    ValueError
        If ``game`` is not a misère heap game, ``seconds`` is not a positive number, or not even heap 1 was added
        (the budget ran out, or the quotient outgrew the construction's limit).

    Examples
    --------
    >>> from games import make_game
    >>> found = discover_quotient(make_game("subtraction", subtract=(1, 2), misere=True), checks=((3, 4),))
    >>> found.status, found.rule.monoid.order, found.checks[0].line()
    ('proved', 6, 'verified on every sum of up to 3 components of size <= 4 (34 sums)')
    """
    if not is_misere_heap_game(game):
        raise ValueError(f"{game!r} is not a one-heap game in misère play (give misere=true to a heap family)")
    heaps = defaults.QUOTIENT.heaps if heaps is None else heaps
    seconds = defaults.QUOTIENT.seconds if seconds is None else number_in(seconds, "seconds", 0, low_open=True)
    kernels = load_kernels()
    start = time.perf_counter()
    everything = HeapComponents(game, heaps=heaps)
    builder = QuotientBuilder(everything.options, deadline=Deadline(seconds))
    t = _removal_limit(game)
    stopped = f"{heaps} heaps"
    n = 0
    for n in everything.ids():
        try:
            builder.add(n)
        except ValueError as err:  # outgrew the construction's limit or the time: keep the quotient of the heaps before
            n -= 1
            stopped = f"heap {n + 1}, where {err}"
            break
        last = builder.growth[-1][0] if builder.growth else 0
        period = heap_period([0] + [builder.element[c] for c in range(1, n + 1)], last, t)
        if progress is not None:
            progress(f"heap {n}: quotient of order {builder.monoid.order}")
        if period is not None and period.proved:
            stopped = "a proved period"
            break
        if builder.deadline.passed():
            stopped = f"{seconds:g} seconds"
            break
    if n == 0:  # not even heap 1 within the budget: no quotient to state
        raise ValueError(f"no heap was added: {stopped}")
    components = HeapComponents(game, heaps=n, solver=everything.solver)
    rule = quotient_rule(components, removal_limit=t, game=game.spec(), builder=builder)
    results: list[SumCheck] = []
    for parts, size in checks:
        results.append(check_sums(rule, components, list(range(1, min(size, n) + 1)), parts))
    return QuotientDiscovery(game, rule, n, list(builder.growth), results, time.perf_counter() - start, stopped,
                             kernels)
