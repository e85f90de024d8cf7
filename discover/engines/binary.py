"""Values with binary structure: one-heap sequences written with the binary digits of n.

Many one-heap games whose values are not periodic have values read off the binary digits of n: the ruler game's
2^ν₂(n) (the largest power of 2 dividing n), Mock Turtles' odious numbers (odd binary weight), taking at most half
a heap's G(2n) = n, G(2n + 1) = G(n), whose closed form is ⌊odd(n + 1) / 2⌋ (odd(m): m without its factors 2).
This engine searches such closed forms: the enumeration engine (``discover.engines.enumeration``) over its grammar
with the functions of binary digits (lowbit, ν₂, odd part, weight, length) and, for Grundy values, its meet in the
middle (two terms whose sum, difference or xor is the sequence), first on every heap, then from heap 1 and from
heap 2 with the values before listed as exceptions (a coin-turning game's heap 0 is no coin, often off the
pattern).  P positions are searched in the plain grammar first (n & (n + 1) = 0 rather than wt(n) = bitlen(n):
the closure certificate proves bitwise forms in bit-vectors best), then with the digit functions.  It reads 1-D
tables only (feature ``n``, heaps 0, 1, 2, ... in a row).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines.base import Candidate, Engine
from discover.engines.enumeration import EnumerationEngine
from discover.engines.grammar import UNARY_OPS
from discover.engines.periods1d import _dense, _fmt_set, _grouped, _member, _not_member, one_dimensional
from discover.expr.numeric import evaluate

__all__ = ["BinaryEngine", "with_exceptions"]

MIN_HEAPS = 16  # shorter sequences show no binary structure worth a formula


def with_exceptions(expr, values, start: int, symbol, target: str) -> tuple[sp.Basic, str]:
    """``expr`` (exact from heap ``start`` on) with the heaps below ``start`` where it differs from ``values``
    listed as exceptions, and the words saying which.

    Examples
    --------
    >>> n = sp.Symbol("n")
    >>> with_exceptions(2 * n - 1, np.array([0, 1, 3, 5]), 1, n, "grundy")
    (Piecewise((0, Eq(n, 0)), (2*n - 1, True)), 'exceptions at n in {0}')
    """
    head = np.arange(start, dtype=np.int64)
    said = evaluate(expr, {symbol.name: head}) if start else np.zeros(0, dtype=np.int64)
    wrong = head[said != np.asarray(values[:start]).astype(said.dtype)]
    if not wrong.size:
        return expr, ""
    if target == "P":
        positive = [int(k) for k in wrong if values[k]]
        negative = [int(k) for k in wrong if not values[k]]
        if negative:
            expr = sp.And(expr, _not_member(symbol, negative))
        if positive:
            expr = sp.Or(_member(symbol, positive), expr)
        return expr, f"exceptions at n in {_fmt_set(wrong)}"
    branches = [(sp.Integer(v), _member(symbol, heaps)) for v, heaps in
                _grouped({int(k): int(values[k]) for k in wrong}).items()]
    return sp.Piecewise(*branches, (expr, True)), f"exceptions at n in {_fmt_set(wrong)}"


class BinaryEngine(Engine):
    """Closed forms in the binary digits of n for 1-D tables (P positions or Grundy values).

    Parameters
    ----------
    max_size : int
        Largest integer term built (the meet in the middle joins two of them for Grundy values; P rules compare a
        term with another, so a comparison reaches ``max_size + 2``).
    exceptions : int
        The formula may miss the heaps below this many (listed as exceptions).
    random_state : int
        Seed of the enumeration's row sample.

    Examples
    --------
    >>> X = np.arange(64)[:, None]
    >>> ruler = BinaryEngine().fit(X, X[:, 0] & -X[:, 0], feature_names=["n"], target="grundy")
    >>> ruler.candidates_[0].expr
    LowBit(n)
    """

    name = "binary"

    def __init__(self, max_size=6, exceptions=2, random_state=0):
        self.max_size = max_size
        self.exceptions = exceptions
        self.random_state = random_state

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        self.candidates_, self.notes_ = [], []
        column, name = one_dimensional(X, feature_names)
        values = None if column is None or len(feature_names) != 1 else _dense(column, y)
        if values is None or len(values) < MIN_HEAPS:
            return self
        values = np.asarray(values).astype(bool if target == "P" else np.int64)
        heaps, symbol = np.arange(len(values), dtype=np.int64)[:, None], sp.Symbol(name)
        partial = []
        # a P rule in the plain grammar first (the closure certificate proves its bitwise form best), then with the
        # digit functions; Grundy values with them at once (the recursion theorems read them)
        grammars = ((), tuple(UNARY_OPS)) if target == "P" else (tuple(UNARY_OPS),)
        for start, unary in ((start, unary) for start in range(self.exceptions + 1) for unary in grammars):
            engine = EnumerationEngine(max_size=self.max_size + (2 if target == "P" else 0), unary=unary,
                                       meet=target == "grundy", and_or=False, random_state=self.random_state)
            engine.fit(heaps[start:], values[start:], feature_names=[name], target=target)
            self.notes_ += [note for note in engine.notes_ if note not in self.notes_]
            exact = [c for c in engine.candidates_ if c.exact]
            partial = partial or [c for c in engine.candidates_ if not c.exact]
            if exact:
                for c in exact:
                    expr, words = with_exceptions(c.expr, values, start, symbol, target)
                    accuracy = self.score(expr, X, y, feature_names, sample_weight, target)
                    self.candidates_.append(Candidate(expr, target, accuracy, self.name, words))
                break
        self.candidates_ = self._ranked(self.candidates_ or [Candidate(c.expr, target, c.accuracy, self.name)
                                                             for c in partial])
        return self
