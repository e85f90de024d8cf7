"""Residue tables with a guard: rules periodic in each coordinate, apart from a guarded edge.

A rule of this shape reads "if guard: a residue test of one feature; otherwise (a mod m_a, b mod m_b, ...)
lies in a set R", written ``Piecewise((branch, guard), (member, True))``.  "Take 1 to 3 from one heap, or
1 from both" is the example: if min(a, b) = 0, P iff max(a, b) mod 4 = 0; otherwise P iff
(a mod 4, b mod 4) is (1, 2), (2, 1) or (3, 3).

The search is a table look-up, not an enumeration.  For each tuple of moduli (one per coordinate, from 1,
the coordinate ignored, to ``max_modulus``; fewest residue classes first) and each guard of a small
vocabulary (none; a feature equal to or at most a small constant; two coordinates equal or ordered), the
rows the guard leaves are grouped by their residue class (one ``bincount``): the table fits when no class
holds both a P and an N position and every class is seen at least ``min_class`` times (a class seen
too rarely is a guess).  The guard's own rows then need an exact branch: True, False, or a residue test
``f mod m in S`` of one feature, also checked by classes.  The plainest fits come first; every candidate
is an expression of existing nodes (``Mod``, ``Eq``, ``And``, ``Or``, ``Piecewise``), so the z3
certificate can prove it for every position.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from discover.engines.base import Candidate, Engine
from discover.expr.features import DERIVED
from discover.expr.nodes import complexity

__all__ = ["ResidueEngine", "residue_member"]

_BRANCH_PREFERENCE = {"max_all": 0, "min_all": 0, "sum_all": 1, "spread": 1}  # then coordinates, then the rest


def residue_member(symbols, moduli, classes) -> sp.Basic:
    """The condition "(x mod m_x, y mod m_y, ...) is one of ``classes``", in its plainest form.

    A product of per-coordinate sets is written coordinate by coordinate; otherwise an ``Or`` of the classes
    (each an ``And`` of ``Eq``), or the negation of the complement's when that is shorter.  A modulus 1 leaves
    its coordinate out.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> residue_member((a, b), (4, 4), [(1, 2), (2, 1), (3, 3)])
    (Eq(Mod(a, 4), 1) & Eq(Mod(b, 4), 2)) | (Eq(Mod(a, 4), 2) & Eq(Mod(b, 4), 1)) | (Eq(Mod(a, 4), 3) & Eq(Mod(b, 4), 3))
    >>> residue_member((a, b), (2, 5), [(0, 0), (0, 2)])
    Eq(Mod(a, 2), 0) & Contains(Mod(b, 5), {0, 2})
    >>> residue_member((a, b), (3, 4), [(0, 0), (0, 3), (1, 1), (2, 0), (2, 3)])
    (Eq(Mod(a, 3), 1) & Eq(Mod(b, 4), 1)) | (Ne(Mod(a, 3), 1) & Contains(Mod(b, 4), {0, 3}))
    """
    kept = [i for i, m in enumerate(moduli) if m > 1]
    classes = sorted({tuple(int(c[i]) for i in kept) for c in classes})
    everything = list(itertools.product(*[range(moduli[i]) for i in kept]))
    if not classes:
        return sp.false
    if len(classes) == len(everything):
        return sp.true
    per = [sorted({c[j] for c in classes}) for j in range(len(kept))]
    if len(classes) == int(np.prod([len(s) for s in per])):  # a product set
        return sp.And(*[_one(symbols[i], moduli[i], per[j]) for j, i in enumerate(kept) if len(per[j]) < moduli[i]])
    rest = sorted(set(everything) - set(classes))
    forms = [sp.Not(_classes(symbols, moduli, kept, rest)) if len(rest) < len(classes)
             else _classes(symbols, moduli, kept, classes)]
    if len(kept) == 2:  # grouped by the first residue: a mod 7 ∈ {0, 2} and b mod 11 ∈ {0, 1, 4, 8}
        forms.append(_grouped(symbols, moduli, kept, classes))
    return min(forms, key=complexity)  # the first on a tie


def _grouped(symbols, moduli, kept, classes) -> sp.Basic:
    """The classes of two coordinates as an ``Or`` over the sets of second residues, each with its first residues."""
    (i, j), seconds = kept, {}
    for r, s in classes:
        seconds.setdefault(r, []).append(s)
    firsts: dict = {}
    for r, s in seconds.items():
        firsts.setdefault(tuple(s), []).append(r)
    return sp.Or(*[sp.And(_one(symbols[i], moduli[i], rs), _one(symbols[j], moduli[j], s)) for s, rs in firsts.items()])


def _one(symbol, modulus: int, residues) -> sp.Basic:
    residues = sorted(int(r) for r in residues)
    if len(residues) == 1:
        return sp.Eq(sp.Mod(symbol, modulus), residues[0])
    if len(residues) == modulus - 1:
        return sp.Ne(sp.Mod(symbol, modulus), (set(range(modulus)) - set(residues)).pop())
    return sp.Contains(sp.Mod(symbol, modulus), sp.FiniteSet(*residues), evaluate=False)


def _classes(symbols, moduli, kept, classes) -> sp.Basic:
    return sp.Or(*[sp.And(*[sp.Eq(sp.Mod(symbols[i], moduli[i]), c[j]) for j, i in enumerate(kept)])
                   for c in classes])


def _pure(keys, labels, size: int, min_class: int):
    """The set of classes labelled True when every class 0..size-1 is seen ``min_class`` times, one label each."""
    seen = np.bincount(keys, minlength=size)
    true = np.bincount(keys, weights=np.asarray(labels, dtype=float), minlength=size)
    if seen.min() < min_class or np.any((true > 0) & (true < seen)):
        return None
    return np.flatnonzero(true > 0)


class ResidueEngine(Engine):
    """P rules periodic in each coordinate (a residue class table), with one guarded branch.

    Parameters
    ----------
    max_modulus : int
        The largest modulus per coordinate.
    max_classes : int
        The most residue classes in a table (the product of the moduli).
    max_constant : int
        The largest constant in guards such as ``min_all = k`` and ``a <= k``.
    min_class : int
        Rows every residue class must hold (on the unguarded rows) for a table to count.
    max_candidates : int
        How many candidates to return.
    random_state : ignored
        Accepted for the common contract; the search is deterministic.

    Examples
    --------
    >>> grid = np.array([(a, b) for a in range(24) for b in range(24)])
    >>> a, b = grid.T
    >>> P = np.where(np.minimum(a, b) == 0, np.maximum(a, b) % 4 == 0, (a % 4 + b % 4) % 4 == 3)
    >>> X = np.column_stack([a, b, np.minimum(a, b), np.maximum(a, b)])
    >>> engine = ResidueEngine().fit(X, P, feature_names=["a", "b", "min_all", "max_all"])
    >>> engine.candidates_[0].accuracy, engine.candidates_[0].expr.args[0]
    (1.0, (Eq(Mod(max_all, 4), 0), Eq(min_all, 0)))
    """

    name = "residues"

    def __init__(self, max_modulus=8, max_classes=64, max_constant=2, min_class=3, max_candidates=4,
                 random_state=None):
        self.max_modulus = max_modulus
        self.max_classes = max_classes
        self.max_constant = max_constant
        self.min_class = min_class
        self.max_candidates = max_candidates
        self.random_state = random_state

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        self.candidates_, self.notes_ = [], []
        names = list(feature_names)
        coords = [i for i, name in enumerate(names) if name not in DERIVED]
        if target != "P" or len(coords) < 2:
            if target != "P" and len(coords) >= 2:
                self.notes_ = ["residues fits P tables only (a Grundy value table per residue class is not tried)"]
            return self
        X = np.asarray(X, dtype=np.int64)
        keep = np.ones(len(y), bool) if sample_weight is None else np.asarray(sample_weight) > 0
        X, labels = X[keep], np.asarray(y, dtype=bool)[keep]
        if not len(labels) or X[:, coords].min() < 0:
            return self
        guards = self._guards(X, names, coords)
        found = []
        for moduli in self._moduli(len(coords), len(labels)):
            keys = self._keys(X[:, coords], moduli)
            size = int(np.prod(moduli))
            for guard, mask in guards:
                rest = ~mask
                classes = _pure(keys[rest], labels[rest], size, self.min_class)
                if classes is None or len(classes) in (0, size):
                    continue
                branch = sp.true if guard is None else self._branch(X[mask], labels[mask], names)
                if branch is None:
                    continue
                found.append(self._expr(names, coords, moduli, classes, guard, branch))
                break  # the plainest guard for these moduli
            if len(found) >= self.max_candidates:
                break
        self.candidates_ = self._ranked(
            [Candidate(e, target, self.score(e, X, labels, names), self.name, "periodic in each coordinate")
             for e in found])
        return self

    def _moduli(self, dims: int, rows: int):
        """Tuples of moduli, fewest classes first; each class needs ``min_class`` rows."""
        top = min(self.max_classes, rows // self.min_class)
        tuples = [m for m in itertools.product(range(1, self.max_modulus + 1), repeat=dims)
                  if 1 < int(np.prod(m)) <= top and sum(x > 1 for x in m) >= 2]
        return sorted(tuples, key=lambda m: (int(np.prod(m)), max(m), m))

    @staticmethod
    def _keys(columns, moduli):
        keys = np.zeros(len(columns), np.int64)
        for j, m in enumerate(moduli):
            keys = keys * m + columns[:, j] % m
        return keys

    def _guards(self, X, names, coords):
        """(sympy guard or None, mask): none first, then constants, then coordinate comparisons."""
        guards, seen = [(None, np.zeros(len(X), bool))], set()

        def add(expr, mask):
            if 0 < mask.sum() < len(mask) and mask.tobytes() not in seen:
                seen.add(mask.tobytes())
                guards.append((expr, mask))

        order = sorted(range(len(names)), key=lambda i: (_BRANCH_PREFERENCE.get(names[i], 2), i))
        for k in range(self.max_constant + 1):
            for i in order:
                symbol, column = sp.Symbol(names[i]), X[:, i]
                add(sp.Eq(symbol, k), column == k)
                add(sp.Le(symbol, k), column <= k)
        for i, j in itertools.combinations(coords, 2):
            add(sp.Eq(sp.Symbol(names[i]), sp.Symbol(names[j])), X[:, i] == X[:, j])
            add(sp.Le(sp.Symbol(names[i]), sp.Symbol(names[j])), X[:, i] <= X[:, j])
        return guards

    def _branch(self, X, labels, names):
        """The plainest exact test on a guard's rows: True, False, or ``f mod m in S`` (seen per class)."""
        if labels.all() or not labels.any():
            return sp.true if labels.all() else sp.false
        order = sorted(range(len(names)), key=lambda i: (_BRANCH_PREFERENCE.get(names[i], 2), i))
        for m in range(2, self.max_modulus + 1):
            for i in order:
                name, column = names[i], X[:, i]
                if column.min() < 0 or column.max() - column.min() < m:
                    continue
                classes = _pure(column % m, labels, m, 1)
                if classes is not None and 0 < len(classes) < m:
                    return residue_member((sp.Symbol(name),), (m,), [(c,) for c in classes])
        return None

    @staticmethod
    def _expr(names, coords, moduli, classes, guard, branch):
        symbols = [sp.Symbol(names[i]) for i in coords]
        size = [int(m) for m in moduli]
        decoded = [np.unravel_index(int(c), size) for c in classes]
        member = residue_member(symbols, size, decoded)
        return member if guard is None else sp.Piecewise((branch, guard), (member, True))
