"""Eventual periodicity of 1-D sequences (subtraction and octal games, Grundy sequences).

A sequence y[0], y[1], ... is *arithmetic-periodic* with pre-period n0, period p and saltus s
when y[n + p] = y[n] + s for every n >= n0 (s = 0: plain periodicity).  The engine takes the
shortest such descriptions the table supports (``solvers.periods.sequences.find_periods``: the periodic
part seen for more than two full periods) and writes each as an exact sympy expression: a residue test
``n mod 7 ∈ {0, 2}`` for P positions, a table over residues for Grundy values, and the values
before n0 that break the pattern listed as exceptions (the Kayles style).

For octal games the periodicity theorem of Guy and Smith, and for subtraction games a repeated window of
max(S) values, turn a period checked here into a proof for every heap size (``discover.proofs.periodicity``,
applied by ``prove_rule``).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines.base import Candidate, Engine, weighted_accuracy
from solvers.periods.sequences import PeriodicFit, find_periods

__all__ = ["PeriodicEngine", "one_dimensional", "p_expression", "grundy_expression"]


# -- expressions ------------------------------------------------------------------------------


def _member(x, values):
    values = sorted(int(v) for v in values)
    if len(values) == 1:
        return sp.Eq(x, values[0])
    return sp.Contains(x, sp.FiniteSet(*values), evaluate=False)  # evaluating compares x with every value


def _not_member(x, values):
    values = sorted(int(v) for v in values)
    if len(values) == 1:
        return sp.Ne(x, values[0])
    return sp.Not(sp.Contains(x, sp.FiniteSet(*values), evaluate=False))


def _residue_test(n, p: int, residues):
    residues = sorted(int(r) for r in residues)
    if p == 1:
        return sp.true if residues else sp.false
    if not residues:
        return sp.false
    if len(residues) == p:
        return sp.true
    if len(residues) > p // 2 + 1 and len(residues) > 1:
        return _not_member(sp.Mod(n, p), sorted(set(range(p)) - set(residues)))
    return _member(sp.Mod(n, p), residues)


def _grouped(mapping: dict[int, int]) -> dict[int, list[int]]:
    """value -> keys, keys sorted."""
    groups: dict[int, list[int]] = {}
    for key in sorted(mapping):
        groups.setdefault(int(mapping[key]), []).append(int(key))
    return groups


def _fmt_set(values) -> str:
    return "{" + ", ".join(str(int(v)) for v in sorted(values)) + "}"


def _periodic_values(y: np.ndarray, fit: PeriodicFit) -> np.ndarray:
    """w[r] with y[n] = s * (n // p) + w[n % p] on the periodic part."""
    p, s, n0 = fit.period, fit.saltus, fit.start
    w = np.zeros(p, dtype=np.int64)
    for n in range(n0, n0 + p):
        w[n % p] = y[n] - s * (n // p)
    return w


def _pattern(n: np.ndarray, w: np.ndarray, fit: PeriodicFit) -> np.ndarray:
    return fit.saltus * (n // fit.period) + w[n % fit.period]


def p_expression(y, fit: PeriodicFit, symbol) -> list[tuple[sp.Basic, str]]:
    """Exact forms of a periodic P-position rule (with exceptions, or with a pre-period)."""
    y = np.asarray(y).astype(bool)
    n = np.arange(len(y))
    w = _periodic_values(y.astype(np.int64), fit).astype(bool)
    p, n0 = fit.period, fit.start
    base = _residue_test(symbol, p, np.flatnonzero(w))
    pattern = w[n % p]
    positive = np.flatnonzero(y & ~pattern)
    negative = np.flatnonzero(~y & pattern)
    forms = []
    expr = base
    if negative.size:
        expr = sp.And(expr, _not_member(symbol, negative))
    if positive.size:
        expr = sp.Or(_member(symbol, positive), expr)
    forms.append((expr, _exception_words(positive, negative, "P")))
    if n0 > 0:
        early = np.flatnonzero(y[:n0])
        tail = sp.And(symbol >= n0, base)
        forms.append((sp.Or(_member(symbol, early), tail) if early.size else tail, ""))
    return forms


def _exception_words(positive, negative, what) -> str:
    parts = []
    if len(positive):
        parts.append(f"also {what} at n in {_fmt_set(positive)}")
    if len(negative):
        parts.append(f"not {what} at n in {_fmt_set(negative)}")
    return "; ".join(parts)


def grundy_expression(y, fit: PeriodicFit, symbol) -> tuple[sp.Basic, str]:
    """An exact Piecewise for an (arithmetic-)periodic Grundy sequence with listed exceptions."""
    y = np.asarray(y).astype(np.int64)
    n = np.arange(len(y))
    p, s = fit.period, fit.saltus
    w = _periodic_values(y, fit)
    exceptions = np.flatnonzero(y != _pattern(n, w, fit))
    branches = []
    for value, heaps in _grouped({int(e): int(y[e]) for e in exceptions}).items():
        branches.append((sp.Integer(value), _member(symbol, heaps)))
    if s == p:
        shift = {r: int(w[r]) - r for r in range(p)}  # y = n + shift[r]
        term = lambda v: symbol + v  # noqa: E731
    else:
        shift = {r: int(w[r]) for r in range(p)}  # y = s * floor(n / p) + shift[r]
        base = s * (symbol if p == 1 else sp.floor(symbol / p))  # n is an integer: floor(n / 1) is n
        term = lambda v: base + v  # noqa: E731
    if s != p and p > 1 and all(shift[r] == r for r in range(p)):
        residue_branches, default = [], term(sp.Mod(symbol, p))  # the residue itself
    else:
        residue_branches, default = _by_residue(symbol, p, shift, term)
    branches += residue_branches
    expr = sp.Piecewise(*branches, (default, True)) if branches else default
    words = f"exceptions at n in {_fmt_set(exceptions)}" if exceptions.size else ""
    return expr, words


def _by_residue(symbol, p: int, shift: dict[int, int], term):
    """Branches term(shift[n mod p]) over residue classes, and the commonest value (the default)."""
    groups = _grouped(shift)
    default = max(groups, key=lambda v: (len(groups[v]), -v))
    branches = [
        (term(value), _residue_test(symbol, p, residues)) for value, residues in groups.items() if value != default
    ]
    return branches, term(default)


def _fit_words(fit: PeriodicFit, target: str) -> str:
    what = "the P positions are" if target == "P" else "the Grundy values are"
    if fit.saltus:
        head = f"{what} arithmetic-periodic: G(n + {fit.period}) = G(n) + {fit.saltus}"
    else:
        head = f"{what} periodic with period {fit.period}"
    return f"{head} from n = {fit.start} (checked on n < {fit.length}, {fit.repeats:.1f} periods)"


# -- the engine --------------------------------------------------------------------------------


def one_dimensional(X, feature_names):
    """The heap-size column of a 1-D table: ``n`` if present, else the only feature (or None)."""
    names = list(feature_names)
    if "n" in names:
        return np.asarray(X)[:, names.index("n")], "n"
    if len(names) == 1:
        return np.asarray(X)[:, 0], names[0]
    return None, None


def _dense(column, y):
    """y indexed by n over the contiguous range 0..L-1 present in the table (or None)."""
    column = np.asarray(column, dtype=np.int64)
    if column.size == 0 or column.min() != 0:
        return None
    order = np.argsort(column, kind="stable")
    sorted_n = column[order]
    if np.any(np.diff(sorted_n) == 0):
        return None
    gaps = np.flatnonzero(np.diff(sorted_n) != 1)
    stop = int(gaps[0]) + 1 if gaps.size else len(sorted_n)
    return np.asarray(y)[order][:stop]


class PeriodicEngine(Engine):
    """Eventually (arithmetic-)periodic rules for 1-D tables (feature ``n``).

    Parameters
    ----------
    max_period : int, optional
        Largest period tried (default: what the table can confirm).
    margin : int
        The periodic part must span at least 2 p + max(margin, p) values.
    limit : int
        How many periods to propose.
    random_state : ignored
        Accepted for the common contract; the search is deterministic.

    Examples
    --------
    >>> X = np.arange(30)[:, None]
    >>> engine = PeriodicEngine().fit(X, X[:, 0] % 7 % 2 == 0, feature_names=["n"], target="P")
    >>> str(engine.candidates_[0].expr)
    'Contains(Mod(n, 7), {0, 2, 4, 6})'
    """

    name = "periodic"

    def __init__(self, max_period=None, margin=3, limit=3, random_state=None):
        self.max_period = max_period
        self.margin = margin
        self.limit = limit
        self.random_state = random_state

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        self.candidates_, self.notes_ = [], []
        column, name = one_dimensional(X, feature_names)
        if column is None:
            return self
        seq = _dense(column, y)
        if seq is None or len(seq) < 4:
            return self
        symbol = sp.Symbol(name)
        fits = find_periods(
            seq if target != "P" else np.asarray(seq).astype(np.int64),
            max_period=self.max_period,
            margin=self.margin,
            limit=self.limit,
            arithmetic=target != "P",
        )
        candidates = []
        for fit in fits:
            words = _fit_words(fit, target)
            if target == "P":
                forms = p_expression(seq, fit, symbol)
            else:
                forms = [grundy_expression(seq, fit, symbol)]
            for expr, extra in forms:
                sentence = "; ".join(part for part in (words, extra) if part)
                accuracy = self.score(expr, X, y, feature_names, sample_weight, target)
                candidates.append(Candidate(expr, target, accuracy, self.name, sentence))
        candidates += self._majority(X, y, seq, symbol, feature_names, sample_weight, target, fits)
        self.candidates_ = self._ranked(candidates)
        return self

    def _majority(self, X, y, seq, symbol, feature_names, sample_weight, target, fits):
        """Inexact purely periodic candidates by majority per residue (for noisy tables)."""
        if fits or target != "P":
            return []
        best = None
        column = np.asarray(X)[:, list(feature_names).index(symbol.name)]
        for p in range(1, min(len(seq) // 3, self.max_period or 64) + 1):
            residues = [r for r in range(p) if np.mean(np.asarray(seq[r::p]).astype(bool)) > 0.5]
            if not 0 < len(residues) < p:
                continue
            predicted = np.isin(column % p, residues)
            accuracy = weighted_accuracy(predicted, y, sample_weight)
            if best is None or accuracy > best[0] + 1e-12:
                best = (accuracy, p, residues)
        if best is None or best[0] < 0.9:
            return []
        accuracy, p, residues = best
        expr = _residue_test(symbol, p, residues)
        accuracy = self.score(expr, X, y, feature_names, sample_weight, target)
        return [Candidate(expr, target, accuracy, self.name, f"periodic with period {p} (majority per residue)")]
