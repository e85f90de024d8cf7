"""Decision lists: ordered guards, each with a short formula on the rows it covers.

A decision list reads "if guard 1: formula 1; elif guard 2: formula 2; ...; else: formula k"
and is written as ``sp.Piecewise((f1, g1), (f2, g2), ..., (fk, True))``.  Misère Nim is the
classic case: "if every heap is at most 1, the player to move loses iff the number of heaps
of size 1 is odd; otherwise iff the nim-sum is 0",
``Piecewise((Eq(xor_all, 1), max_all <= 1), (Eq(xor_all, 0), True))``.

The search is exact and small.  A tiny, generic vocabulary of atoms is evaluated once over the
table: guards (a feature compared with a small constant, or two features equal) and branch
formulas (the guards, parities, comparisons of two features, ``f <= floor(c*g)`` and
``f == floor(c*g)`` for a few closed-form constants c, their negations, and True/False).  For a
set of rows R, the weighted error of every formula on every guard's branch is one matrix
product (on a table whose rows all weigh 1, counts of rows in packed bits: ``discover.engines.row_bits``); a
guard whose branch some formula labels exactly is kept, and the search goes on with the rows the guard leaves
(iterative deepening over the number of guards, a beam of the guards covering the most rows).  The shortest
exact lists come first; when none exists, the best inexact ones are returned with their true accuracy.
"""

from __future__ import annotations


import numpy as np
import sympy as sp

from discover import defaults
from discover.engines.base import Candidate, Engine, WorkBudget
from discover.engines.row_bits import intersections, pack_rows
from discover.expr.exact import exact_floor
from discover.expr.nodes import complexity

try:  # a multi-threaded BLAS spins on small products; one thread is faster here
    from threadpoolctl import threadpool_limits
except ImportError:  # pragma: no cover
    import contextlib

    def threadpool_limits(*args, **kwargs):
        return contextlib.nullcontext()

__all__ = ["DecisionList"]

_CLOSED_FORMS = (sp.GoldenRatio, sp.sqrt(2), sp.Integer(2))
_PREFERENCE = {"min_all": 0, "max_all": 0, "spread": 1, "xor_all": 4, "sum_all": 5, "nonzero": 6, "big": 6}


_RELATIONS = {"==": sp.Eq, "<=": sp.Le, "!=": sp.Ne, ">": sp.Gt}
_NEGATION = {"==": "!=", "<=": ">", "!=": "==", ">": "<="}


def _negate(e):
    """The negation of an atom, written as one relation (Ne, >) where possible."""
    if isinstance(e, tuple):
        return (_NEGATION[e[0]],) + e[1:]
    if isinstance(e, sp.Eq):
        return sp.Ne(*e.args, evaluate=False)
    if isinstance(e, sp.LessThan):
        return sp.Gt(*e.args, evaluate=False)
    return sp.Not(e)


class _Atoms:
    """Atoms with their values on the table, deduplicated by values (shortest, then first, kept).

    An atom is a sympy expression or, built only when asked for (sympy is slow to build
    thousands of relations), a tuple ``(relation, lhs, rhs, size)``; a side that is itself a
    tuple ``(function, *arguments)`` (``sp.Mod(s, 2)``, ``sp.floor(c*t)``) is built then too.
    """

    def __init__(self):
        self.atoms: list = []
        self.values: list[np.ndarray] = []
        self.sizes: list[int] = []
        self._seen: dict[bytes, int] = {}

    def add(self, atom, values):
        values = np.asarray(values)
        key = values.tobytes()
        size = atom[3] if isinstance(atom, tuple) else complexity(atom)
        i = self._seen.get(key)
        if i is not None:
            if size < self.sizes[i]:
                self.atoms[i], self.sizes[i] = atom, size
            return
        self._seen[key] = len(self.atoms)
        self.atoms.append(atom)
        self.values.append(values)
        self.sizes.append(size)

    def expr(self, i):
        atom = self.atoms[i]
        if isinstance(atom, tuple):
            atom = self.atoms[i] = _RELATIONS[atom[0]](_built(atom[1]), _built(atom[2]), evaluate=False)
        return atom

    def __len__(self):
        return len(self.atoms)


def _built(side):
    """A side of a relation atom: a sympy expression, or a ``(function, *arguments)`` tuple called now."""
    return side[0](*side[1:]) if isinstance(side, tuple) else sp.sympify(side)


def _rel(op, lhs, rhs, lsize=1, rsize=1):
    return (op, lhs, rhs, 1 + lsize + rsize)


def _floor_size(c) -> int:
    """The size of ``floor(c*t)`` for a symbol ``t`` (the same for every symbol)."""
    return complexity(sp.floor(c * sp.Symbol("t")))


def _floor_of(c, t):
    return sp.floor(c * t)


def _vocabulary(X, feature_names, target, y, max_constant, constants):
    """Guards (bool masks) and branch formulas (values compared with y) over the table."""
    X = np.asarray(X, dtype=np.int64)
    feats = []
    for i, name in enumerate(feature_names):
        col = X[:, i]
        if len(col) and col.min() != col.max():
            feats.append((sp.Symbol(name), col))
    # atoms are generated in this order, so among equally long atoms with the same values
    # the plainest reading is kept ("a == b" before "a xor b == 0", "max <= 1" before "big == 0")
    feats.sort(key=lambda f: _PREFERENCE.get(f[0].name, 3))

    guards, formulas = _Atoms(), _Atoms()
    n = X.shape[0]
    if target == "P":
        formulas.add(sp.true, np.ones(n, bool))
        formulas.add(sp.false, np.zeros(n, bool))

    # feature vs a small constant: guards and formulas
    for s, col in feats:
        lo, hi = int(col.min()), int(col.max())
        for k in range(max(lo, 0), min(hi, max_constant) + 1):
            guards.add(_rel("==", s, k), col == k)
            if k > lo and k < hi:
                guards.add(_rel("<=", s, k), col <= k)
    # two features equal (a == b, min_all == 0 is above)
    for i, (s, col) in enumerate(feats):
        for t, col2 in feats[i + 1:]:
            guards.add(_rel("==", s, t), col == col2)

    if target == "P":
        for e, v in zip(guards.atoms, guards.values):
            formulas.add(e, v)
        for s, col in feats:
            for m in (2, 3):
                if col.max() - col.min() >= m:
                    r = np.mod(col, m)
                    for k in range(m):
                        formulas.add(_rel("==", (sp.Mod, s, m), k, lsize=3), r == k)
        for i, (s, col) in enumerate(feats):
            for j, (t, col2) in enumerate(feats):
                if i != j:
                    formulas.add(_rel("<=", s, t), col <= col2)
        for c in constants:
            size = _floor_size(c)
            for t, col2 in feats:
                if col2.min() < 0:
                    continue
                term = (_floor_of, c, t)  # built only for the atoms a list keeps
                scaled = exact_floor(c, col2)
                for s, col in feats:
                    if s != t:
                        formulas.add(_rel("<=", s, term, rsize=size), col <= scaled)
                        formulas.add(_rel("==", s, term, rsize=size), col == scaled)
        # negations (Ne, >): kept explicitly so their sizes and names are right
        for e, v in list(zip(formulas.atoms, formulas.values)):
            if e is not sp.true and e is not sp.false:
                formulas.add(_negate(e), ~v)
        matches = np.array(formulas.values) == np.asarray(y, bool)[None, :]
    else:
        y = np.asarray(y, dtype=np.int64)
        for k in range(0, int(min(y.max(initial=0), 2 * max_constant)) + 1):
            formulas.add(sp.Integer(k), np.full(n, k, np.int64))
        for s, col in feats:
            formulas.add(s, col)
            for m in (2, 3, 4):
                if col.max() - col.min() >= m:
                    formulas.add(sp.Mod(s, m), np.mod(col, m))
        matches = np.array(formulas.values) == y[None, :]
    return guards, formulas, matches


class DecisionList(Engine):
    """Ordered guards with a short exact formula in each branch.

    Parameters
    ----------
    max_guards : the most guards in a list (the last branch is "otherwise").
    beam : how many guards (covering the most rows) are extended at each level.
    max_constant : the largest constant in guards such as ``max_all <= k``.
    constants : closed-form constants c in formulas ``f <= floor(c*g)``, ``f == floor(c*g)``.
    max_candidates : how many candidates to return.
    work_budget : guarded lists the search may extend (a count: the same table gives the same lists on any
        machine); what it found is kept when they run out.
    time_cap : seconds after which it stops anyway (a safety net far above the usual run; ``notes_`` says so).
    random_state : accepted for the common contract; the search is deterministic.
    """

    name = "decision_list"

    def __init__(self, max_guards=3, beam=8, max_constant=4, constants=_CLOSED_FORMS, max_candidates=10,
                 work_budget=100_000, time_cap=defaults.ENGINE_SECONDS, random_state=None):
        self.work_budget = work_budget
        self.time_cap = time_cap
        self.max_guards = max_guards
        self.beam = beam
        self.max_constant = max_constant
        self.constants = tuple(constants)
        self.max_candidates = max_candidates
        self.random_state = random_state

    # -- search ----------------------------------------------------------------------
    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        with threadpool_limits(1):
            return self._fit(X, y, feature_names, sample_weight, target)

    def _fit(self, X, y, feature_names, sample_weight, target):
        X = np.asarray(X, dtype=np.int64)
        y = np.asarray(y)
        feature_names = list(feature_names)
        n = len(y)
        w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        guards, formulas, matches = _vocabulary(X, feature_names, target, y, self.max_constant, self.constants)
        self._G = np.array(guards.values, dtype=bool).reshape(len(guards), n)
        # integer weights (exact tables) are summed exactly in float32, which halves the work
        self._dtype = np.float32 if np.all(w == np.round(w)) and w.sum() < 2**24 else np.float64
        self._matches, self._w, self._weight_matrix = matches, w, None
        self._tol = 1e-9 * max(float(w.sum()), 1.0)
        self._fsize = np.array(formulas.sizes)
        self._gsize = np.array(guards.sizes)
        self._formulas, self._guards = formulas, guards

        rows = self._rows = w > 0
        # the errors on every row: counted without the matrix when every weight is 1 (a solver's table), so that
        # a single formula that fits (Nim's xor = 0) never builds it (tens of MB, a tenth of a second); on other
        # sets of rows counted in bits then (each formula's wrong rows, 64 a word, packed when first asked)
        self._in_bits, self._misses = bool(np.all(w == 1)), None
        self._row_errors = ((n - np.count_nonzero(matches, axis=1)).astype(self._dtype) if self._in_bits
                            else self._W @ rows.astype(self._dtype))
        found: list[list[tuple]] = []  # [(formula, guard, negated), ..., (formula, None, None)]
        self._budget = WorkBudget(self.work_budget, self.time_cap)
        for depth in range(0, self.max_guards + 1):
            found = self._exact(rows, depth)
            if found or not self._budget.spend(0):
                break
        lists = found or self._approximate(rows)
        self.notes_ = self._budget.note(self.name)

        total = float(w.sum()) or 1.0
        scored = []
        for branches in lists:
            expr = self._expr(branches)
            error = self._error(branches, rows)
            scored.append((-(1.0 - error / total), complexity(expr), self._naturalness(branches), str(expr), expr))
        scored.sort(key=lambda t: t[:4])
        candidates, seen = [], set()
        for _, _, _, text, expr in scored:
            if text in seen:
                continue
            seen.add(text)
            accuracy = self.score(expr, X, y, feature_names, sample_weight, target)  # exact re-check
            candidates.append(Candidate(expr, target, accuracy, self.name))
            if len(candidates) >= self.max_candidates:
                break
        # ranked by accuracy, then description length; ties keep the plainest list first
        self.candidates_ = sorted(candidates, key=lambda c: (-c.accuracy, c.complexity))
        return self

    def _error(self, branches, rows) -> float:
        error, rest = 0.0, rows.copy()
        for f, g, neg in branches:
            if g is None:
                branch = rest
            else:
                branch = rest & (~self._G[g] if neg else self._G[g])
                rest = rest & ~branch
            error += float(self._formula_errors(f) @ branch)
        return error

    def _naturalness(self, branches):
        """Tie-break among equally long lists: fewer negated guards, fewer features, plainer guards."""
        negated = sum(bool(neg) for _, g, neg in branches if g is not None)
        symbols = set().union(*(self._formulas.expr(f).free_symbols for f, _, _ in branches))
        symbols |= set().union(*(self._guards.expr(g).free_symbols for _, g, _ in branches if g is not None))
        return (negated, len(symbols), [g for _, g, _ in branches if g is not None])

    @property
    def _W(self) -> np.ndarray:
        """The weighted error of formula i on row r (the errors on a set of rows are ``W @ mask``), built when
        first asked for."""
        if self._weight_matrix is None:
            self._weight_matrix = np.multiply(~self._matches, self._w.astype(self._dtype)[None, :],
                                              dtype=self._dtype)  # no float64 copy
        return self._weight_matrix

    def _formula_errors(self, f) -> np.ndarray:
        """Row ``f`` of ``_W`` (the same numbers), without building the matrix."""
        if self._weight_matrix is not None:
            return self._weight_matrix[f]
        return np.multiply(~self._matches[f], self._w.astype(self._dtype), dtype=self._dtype)

    def _errors(self, mask) -> np.ndarray:
        """The weighted error of every formula on the rows of ``mask``."""
        return self._row_errors if mask is self._rows else self._products(mask[None, :])[:, 0]

    def _products(self, masks) -> np.ndarray:
        """The weighted error of every formula on the rows of each of ``masks`` (k sets of rows): formulas x k."""
        if self._in_bits:
            if self._misses is None:
                self._misses = pack_rows(~self._matches)
            return intersections(self._misses, pack_rows(masks)).astype(self._dtype)
        return self._W @ masks.T.astype(self._dtype)

    def _best_formulas(self, mask, limit=1):
        """Indices of the formulas with the least error on the rows of ``mask`` (then shortest)."""
        err = self._errors(mask)
        order = np.lexsort((self._fsize, err))
        return order[:limit], err[order[:limit]]

    def _exact(self, rows, depth) -> list[list[tuple]]:
        """Exact decision lists with exactly ``depth`` guards on ``rows``."""
        if depth == 0:
            best, err = self._best_formulas(rows, limit=3)
            return [[(int(i), None, None)] for i, e in zip(best, err) if e <= self._tol]
        G = self._G & rows[None, :]
        covered = G.sum(axis=1)
        total = int(rows.sum())
        usable = np.flatnonzero((covered > 0) & (covered < total))
        if not len(usable):
            return []
        G = G[usable]
        H = (~self._G[usable]) & rows[None, :]
        err_in = self._products(G)  # formulas x guards
        err_out = np.maximum(self._errors(rows)[:, None] - err_in, 0.0)
        options = []  # (rows covered, guard size, guard index, negated, formula index, rows left)
        seen = set()
        for neg, err, masks, others in ((False, err_in, G, H), (True, err_out, H, G)):
            exact = err <= self._tol
            for j in np.flatnonzero(exact.any(axis=0)):
                key = masks[j].tobytes()
                if key in seen:
                    continue
                seen.add(key)
                ok = np.flatnonzero(exact[:, j])
                f = int(ok[np.argmin(self._fsize[ok])])
                options.append((int(masks[j].sum()), int(self._gsize[usable[j]]) + neg, int(usable[j]), neg, f, others[j]))
        if not options:
            return []
        if depth == 1:
            rests = np.array([o[5] for o in options])
            err = self._products(rests)  # formulas x options
            lists = []
            for j in np.flatnonzero((err <= self._tol).any(axis=0)):
                ok = np.flatnonzero(err[:, j] <= self._tol)
                last = int(ok[np.argmin(self._fsize[ok])])
                _, _, g, neg, f, _ = options[j]
                lists.append([(f, g, neg), (last, None, None)])
            return lists
        # the beam: the guards covering the most rows, half of it kept for pure branches
        # (a constant True/False formula), the plainest step of a decision list
        options.sort(key=lambda o: (-o[0], o[1]))
        pure = [o for o in options if self._fsize[o[4]] == 1][: (self.beam + 1) // 2]
        chosen = {id(o) for o in pure}
        beam = pure + [o for o in options if id(o) not in chosen][: self.beam - len(pure)]
        lists = []
        for _, _, g, neg, f, rest in beam:
            if not self._budget.spend(1):
                break
            for tail in self._exact(rest, depth - 1):
                lists.append([(f, g, neg)] + tail)
        return lists

    def _approximate(self, rows) -> list[list[tuple]]:
        """The best single formulas and the best one-guard lists (inexact)."""
        lists = []
        best, _ = self._best_formulas(rows, limit=3)
        lists += [[(int(i), None, None)] for i in best]
        G = self._G & rows[None, :]
        H = (~self._G) & rows[None, :]
        err_in = self._products(G)
        err_out = self._products(H)
        fin = np.argmin(err_in + 1e-6 * self._fsize[:, None], axis=0)
        fout = np.argmin(err_out + 1e-6 * self._fsize[:, None], axis=0)
        total = err_in[fin, np.arange(len(fin))] + err_out[fout, np.arange(len(fout))]
        for g in np.argsort(total, kind="stable")[:3]:
            lists.append([(int(fin[g]), int(g), False), (int(fout[g]), None, None)])
        return lists

    def _expr(self, branches):
        if len(branches) == 1:
            return self._formulas.expr(branches[0][0])
        pieces = []
        for f, g, neg in branches[:-1]:
            guard = self._guards.expr(g)
            pieces.append((self._formulas.expr(f), _negate(guard) if neg else guard))
        pieces.append((self._formulas.expr(branches[-1][0]), True))
        return sp.Piecewise(*pieces)
