"""Checking a quotient against the solver, independently of how it was found.

``check_sums`` takes every sum of up to ``parts`` components among the ones given (with repetition), asks the
exact solver for its outcome (``components.outcome``: for heaps, ``solvers.heap_sums``'s retrograde pass over
the sums' move graph) and compares it with the quotient's prediction (P exactly when the product of the
components' elements lies in the P-portion).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

__all__ = ["Verdict", "SumCheck", "check_sums"]


class Verdict:
    """What every check of a quotient says: ``passed`` when it holds no ``disagreement``, and one line, "verified on
    <where>" or "refuted on <where>: <disagreement> disagrees<against>", where a check names its own ``where()``."""

    against = ""  # what the disagreement is with, when the line names it

    @property
    def passed(self) -> bool:
        """True when every sum agreed."""
        return self.disagreement is None

    def line(self) -> str:
        """One line in the project's wording."""
        where = self.where()
        if self.passed:
            return f"verified on {where}"
        return f"refuted on {where}: {self.disagreement} disagrees{self.against}"


@dataclass
class SumCheck(Verdict):
    """The result of ``check_sums``: how many sums were compared and the first disagreement (None if none)."""

    sums: int
    parts: int
    largest: object
    disagreement: tuple | None
    against = " with the solver"

    def where(self) -> str:
        """Where it checked, e.g. ``every sum of up to 3 components of size <= 12 (455 sums)``."""
        return f"every sum of up to {self.parts} components of size <= {self.largest} ({self.sums:,} sums)"


def check_sums(rule, components, ids, parts: int) -> SumCheck:
    """Compare ``rule.is_p`` with the solver on every sum of 1 to ``parts`` of ``ids`` (repetition allowed).

    Parameters
    ----------
    rule : QuotientRule or any object with ``is_p(sum) -> bool``
    components : object with ``outcome(sums)`` (see ``discover.quotients.components``)
    ids : sequence
        The components sums are drawn from.
    parts : int
        The most components in one sum.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.quotients.components import HeapComponents
    >>> from discover.quotients.rule import quotient_rule
    >>> nim = HeapComponents(make_game("subtraction", subtract=(1, 2, 3), misere=True), heaps=4)
    >>> check_sums(quotient_rule(nim), nim, nim.ids(), 3).line()
    'verified on every sum of up to 3 components of size <= 4 (34 sums)'
    """
    sums = [s for k in range(1, parts + 1) for s in itertools.combinations_with_replacement(list(ids), k)]
    truth = np.asarray(components.outcome(sums))
    for s, t in zip(sums, truth):
        if rule.is_p(s) != (t == -1):
            return SumCheck(len(sums), parts, max(ids), s)
    return SumCheck(len(sums), parts, max(ids), None)
