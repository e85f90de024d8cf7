"""The plain construction of a misère quotient from the solver's outcomes: the baseline and the independent check.

Every sum of up to ``parts`` components (among the ones given) is a *word*; two words are taken as equal when
they have the same outcome beside every test word (the same words again, the empty one included): their
*signature*, outcomes read from the exact solver (``components.outcome``).  The classes of signatures are the
elements, the classes of P-positions the P-portion.  Nothing is proved: a bounded test set can only merge what a
larger one would separate, so the order found is at most the true quotient's restricted to these words, and a
word's class is a function of its element in the true quotient (the check ``consistent_with`` makes).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np

__all__ = ["PlainQuotient", "plain_quotient"]


@dataclass
class PlainQuotient:
    """Classes of words by their outcomes beside every test word."""

    words: list
    labels: np.ndarray
    p_classes: set
    parts: int
    seconds: float

    @property
    def order(self) -> int:
        """The number of classes found."""
        return int(self.labels.max()) + 1

    def consistent_with(self, rule) -> bool:
        """True when words with one element of ``rule`` (a ``QuotientRule``) always share a class here, and P-ness.

        Examples
        --------
        >>> from games import make_game
        >>> from discover.quotients.components import HeapComponents
        >>> from discover.quotients.rule import quotient_rule
        >>> nim = HeapComponents(make_game("subtraction", subtract=(1, 2, 3), misere=True), heaps=3)
        >>> plain_quotient(nim, nim.ids(), 2).consistent_with(quotient_rule(nim))
        True
        """
        seen: dict = {}
        for w, label in zip(self.words, self.labels):
            x = rule.product(w)
            if seen.setdefault(x, label) != label or bool(rule.monoid.p_portion[x]) != (label in self.p_classes):
                return False
        return True


def plain_quotient(components, ids, parts: int) -> PlainQuotient:
    """Classes of the sums of up to ``parts`` of ``ids`` by their outcomes beside each other (the solver's).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.quotients.components import HeapComponents
    >>> nim = HeapComponents(make_game("subtraction", subtract=(1,), misere=True), heaps=1)
    >>> q = plain_quotient(nim, nim.ids(), 2)   # sums of up to two heaps of 1: (), (1,), (1, 1)
    >>> q.order, q.labels.tolist(), sorted(q.p_classes)
    (2, [0, 1, 0], [1])
    """
    start = time.perf_counter()
    words = [w for k in range(parts + 1) for w in itertools.combinations_with_replacement(list(ids), k)]
    sums = [a + b for a in words for b in words]
    outcome = np.asarray(components.outcome(sums)).reshape(len(words), len(words))
    _, first, inverse = np.unique(outcome, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(first.size)
    labels = rank[inverse.reshape(-1)]
    p_classes = {int(labels[i]) for i in range(len(words)) if outcome[i, 0] == -1}
    return PlainQuotient(words, labels, p_classes, parts, time.perf_counter() - start)
