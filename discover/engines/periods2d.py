"""Periods in each coordinate of two-heap games: a periodic core, with eventually periodic lines near the axes.

The shape (``solvers.periods.grids``): for a >= a0 and b >= b0, P iff (a mod p, b mod q) lies in a set S; each row
a = k < a0 is eventually periodic in b, and each column b = k < b0 in a, with a pre-period and period of its own.
The engine writes it as one ``Piecewise`` of existing nodes, so the verification and the z3 closure certificate
take it unchanged:

- by lines: ``Piecewise((row_0(b), Eq(a, 0)), ..., (column_0(a), Eq(b, 0)), ..., ((a mod p, b mod q) in S, True))``,
  equal lines merged under one guard (``a ∈ {0, 2}``);
- for a symmetric table, also by the smaller heap: ``Piecewise((line_k(max_all), Eq(min_all, k)), ..., (core, True))``.

Each line is written as the periodic engine writes a one-heap sequence (``discover.engines.periods1d.p_expression``):
a residue test with the P positions before its period listed as exceptions, or a pre-period.  A sum G1 + G2 of
subtraction games with pre-periods e1 and e2 is the typical case (P iff G1(a) = G2(b): rows a < e1 and columns
b < e2 are exceptional); ``find_rule`` grows a two-heap table until this shape settles (``discover.period_growth``).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines.base import Candidate, Engine
from discover.engines.periods1d import p_expression
from discover.engines.residues import residue_member
from discover.expr.features import DERIVED
from discover.expr.nodes import complexity
from solvers.periods.sequences import PeriodicFit, settled_period
from solvers.periods.grids import GridPeriods, grid_periods

__all__ = ["Periods2DEngine", "line_expression", "grid_from_table"]


def grid_from_table(X, labels, columns) -> np.ndarray | None:
    """The table as a grid T[a, b] over 0..A x 0..B, or None unless every cell is there exactly once.

    Examples
    --------
    >>> X = np.array([(a, b) for a in range(2) for b in range(3)])
    >>> grid_from_table(X, X[:, 1] == 0, (0, 1)).astype(int).tolist()
    [[1, 0, 0], [1, 0, 0]]
    >>> grid_from_table(X[:-1], X[:-1, 1] == 0, (0, 1)) is None
    True
    """
    X = np.asarray(X, dtype=np.int64)
    a, b = X[:, columns[0]], X[:, columns[1]]
    if not len(a) or min(a.min(), b.min()) < 0:
        return None
    shape = (int(a.max()) + 1, int(b.max()) + 1)
    if shape[0] * shape[1] != len(a):
        return None
    seen = np.zeros(shape, dtype=np.int64)
    np.add.at(seen, (a, b), 1)
    if not (seen == 1).all():
        return None
    grid = np.zeros(shape, dtype=bool)
    grid[a, b] = np.asarray(labels, dtype=bool)
    return grid


def line_expression(values, fit: tuple[int, int], symbol, lo: int = 0) -> sp.Basic:
    """The plainest exact P condition on ``symbol`` for a line whose values settle into ``fit`` = (start, period),
    read from index ``lo`` on (the values before ``lo`` are covered by earlier branches and ignored).

    Examples
    --------
    >>> line_expression(np.array([1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]), (1, 3), sp.Symbol("b"))
    Eq(b, 0) | Eq(Mod(b, 3), 1)
    """
    start, period = fit
    y = np.asarray(values).astype(bool)
    n = np.arange(len(y))
    pattern = np.zeros(period, dtype=bool)
    pattern[n[start:start + period] % period] = y[start:start + period]
    y = np.where(n < lo, pattern[n % period], y)
    mismatch = np.flatnonzero(y != pattern[n % period])
    first = int(mismatch[-1]) + 1 if mismatch.size else 0
    forms = p_expression(y, PeriodicFit(first, period, 0, len(y)), symbol)
    return min((expr for expr, _ in forms), key=lambda e: (complexity(e), str(e)))


def _merged(lines) -> list[tuple[sp.Basic, sp.Basic]]:
    """(value, guard) branches, lines with equal values under one guard (``symbol = k`` or ``symbol ∈ {...}``)."""
    groups: dict = {}
    for symbol, k, value in lines:
        groups.setdefault((symbol, value), []).append(k)
    branches = []
    for (symbol, value), keys in groups.items():
        guard = sp.Eq(symbol, keys[0]) if len(keys) == 1 else sp.Contains(symbol, sp.FiniteSet(*keys), evaluate=False)
        branches.append((value, guard))
    return branches


class Periods2DEngine(Engine):
    """P rules of two-heap games periodic in each coordinate, with exceptional rows and columns near the axes.

    Parameters
    ----------
    max_lines : int
        The most exceptional rows and columns (a0 + b0; by the smaller heap, its bound).
    random_state : ignored
        Accepted for the common contract; the search is deterministic.

    Examples
    --------
    >>> a, b = (x.ravel() for x in np.indices((40, 40)))
    >>> P = np.where(a < 2, b % 3 == a, False)  # Nim on heap a, "take 1 or 2" on heap b: P iff a = b mod 3
    >>> engine = Periods2DEngine().fit(np.column_stack([a, b]), P, feature_names=["a", "b"])
    >>> engine.candidates_[0].expr
    Piecewise((Eq(Mod(b, 3), 0), Eq(a, 0)), (Eq(Mod(b, 3), 1), Eq(a, 1)), (False, True))
    """

    name = "periods2d"

    def __init__(self, max_lines=24, random_state=None):
        self.max_lines = max_lines
        self.random_state = random_state

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        self.candidates_, self.notes_ = [], []
        names = list(feature_names)
        coords = [i for i, name in enumerate(names) if name not in DERIVED]
        if len(coords) != 2:
            return self
        if target != "P":
            self.notes_ = ["periods2d fits P tables only (Grundy values per coordinate are not tried)"]
            return self
        keep = np.ones(len(y), bool) if sample_weight is None else np.asarray(sample_weight) > 0
        grid = grid_from_table(np.asarray(X)[keep], np.asarray(y)[keep], coords)
        if grid is None:
            self.notes_ = ["periods2d reads a full box of positions (0..A by 0..B); this table is not one"]
            return self
        found = grid_periods(grid, self.max_lines)
        if found is None:
            return self
        a, b = (sp.Symbol(names[i]) for i in coords)
        exprs = [self._by_lines(grid, found, a, b)]
        if "min_all" in names and "max_all" in names and np.array_equal(grid, grid.T):
            exprs.append(self._by_smaller_heap(grid, found, (a, b)))
        words = (f"periodic in each coordinate: (a mod {found.periods[0]}, b mod {found.periods[1]}) from "
                 f"a >= {found.start[0]}, b >= {found.start[1]}; the lines nearer the axes eventually periodic")
        self.candidates_ = self._ranked(
            [Candidate(e, target, self.score(e, X, y, names, sample_weight), self.name, words)
             for e in exprs if e is not None])
        return self

    @staticmethod
    def _core(found: GridPeriods, symbols) -> sp.Basic:
        p, q = found.periods
        return residue_member(symbols, (p, q), [tuple(c) for c in np.argwhere(found.core)])

    def _by_lines(self, grid, found: GridPeriods, a, b) -> sp.Basic:
        a0 = found.start[0]
        lines = [(a, k, line_expression(grid[k], fit, b)) for k, fit in enumerate(found.rows)]
        lines += [(b, k, line_expression(grid[:, k], fit, a, lo=a0)) for k, fit in enumerate(found.columns)]
        core = self._core(found, (a, b))
        return sp.Piecewise(*_merged(lines), (core, True)) if lines else core

    def _by_smaller_heap(self, grid, found: GridPeriods, symbols) -> sp.Basic | None:
        """Lines k < m by min(a, b) = k, read along max(a, b) (a symmetric table); None when they do not settle."""
        a, b = np.indices(grid.shape)
        wrong = grid != found.predict(a, b)
        m = int(np.minimum(a, b)[wrong].max()) + 1 if wrong.any() else 0
        if m > self.max_lines:
            return None
        lines = []
        smaller, larger = sp.Symbol("min_all"), sp.Symbol("max_all")
        for k in range(m):
            fit = settled_period(grid[k, k:].astype(np.int64))
            if fit is None:
                return None
            lines.append((smaller, k, line_expression(grid[k], (k + fit[0], fit[1]), larger, lo=k)))
        core = self._core(found, symbols)
        return sp.Piecewise(*_merged(lines), (core, True)) if lines else core
