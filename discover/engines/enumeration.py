"""Formula enumeration: bottom-up search over a typed grammar, smallest expressions first.

Integer terms are built by size (the number of nodes of the expression tree) from the
features, small constants, ``floor(c*x)`` with c a closed form (the golden ratio, square
roots; computed exactly with integer square roots, never with floats), and the binary
operators + - * // mod xor and or min max.  Every term is held as its vector of values on the
training table; a term whose vector was already seen is dropped (observational equivalence),
so the smallest spelling of each function survives.  Boolean terms are comparisons (= ≠ < ≤)
of two integer terms and, from size 7, And/Or of two comparisons.

For the target ``"P"`` the search goes through boolean sizes 3, 4, 5, ... and stops after the
first size that holds an exact rule: the simplest exact rule wins.  Comparisons are first
checked on a small stratified sample of rows (packed into 64-bit words) and only the ones exact
there are checked on the whole table.  For the target ``"grundy"`` it looks for an integer term
equal to the Grundy values.  ``candidates_`` lists the exact rules found (with their sympy
expressions re-scored exactly by ``discover.expressions.evaluate``), then the best partial ones.
"""

from __future__ import annotations

import time

import numpy as np
import sympy as sp

from discover.engines.base import Candidate, Engine
from discover.expressions import BitAnd, BitOr, BitXor, evaluate, quadratic_parts

__all__ = ["EnumerationEngine", "exact_floor", "IRRATIONALS"]

#: constants c of the terms floor(c*x), in the order they are tried (earlier = preferred).
IRRATIONALS = (sp.GoldenRatio, sp.GoldenRatio**2, sp.sqrt(2), sp.sqrt(3), 1 / sp.GoldenRatio)

_LIMIT = 1 << 40  # terms with larger values are dropped (keeps products far from int64 overflow)
_CHUNK = 1 << 21  # elements per vectorised block


def _isqrt(v: np.ndarray) -> np.ndarray:
    """Exact floor(sqrt(v)) for int64 v >= 0."""
    root = np.floor(np.sqrt(v.astype(np.float64))).astype(np.int64)
    for _ in range(3):
        root -= (root * root > v).astype(np.int64)
        root += ((root + 1) * (root + 1) <= v).astype(np.int64)
    return root


def exact_floor(c, x: np.ndarray) -> np.ndarray:
    """Exact floor(c*x) for an int64 array x (any shape) and c rational or quadratic irrational.

    Examples
    --------
    >>> exact_floor(sp.GoldenRatio, np.array([1, 2, 3, -1])).tolist()
    [1, 3, 4, -2]
    """
    parts = _parts(c)
    if parts is None:
        raise ValueError(f"cannot compute floor({c} * x) exactly")
    p, q, m, r = parts
    x = np.asarray(x, dtype=np.int64)
    if q == 0:
        return np.floor_divide(p * x, r)
    qx = q * x
    sq = m * qx * qx
    root = _isqrt(sq)
    exact = root * root == sq
    irr = np.where(qx >= 0, root, -root - (~exact).astype(np.int64))
    return np.floor_divide(p * x + irr, r)


_PARTS: dict = {}


def _parts(c):
    key = sp.srepr(c)
    if key not in _PARTS:
        _PARTS[key] = quadratic_parts(c)
    return _PARTS[key]


# --------------------------------------------------------------------------- grammar


def _floordiv(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b == 0, 0, np.floor_divide(a, np.where(b == 0, 1, b)))


def _mod(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b == 0, 0, np.mod(a, np.where(b == 0, 1, b)))


# name -> (numpy function, commutative, constants allowed as the right operand)
_SMALL = (1, 2, 3)
_MODULI = tuple(range(2, 13))
INT_OPS = {
    "add": (np.add, True, _SMALL),
    "sub": (np.subtract, False, _SMALL),
    "mul": (np.multiply, True, (2, 3)),
    "floordiv": (_floordiv, False, _MODULI),
    "mod": (_mod, False, _MODULI),
    "xor": (np.bitwise_xor, True, _SMALL),
    "min": (np.minimum, True, _SMALL),
    "max": (np.maximum, True, _SMALL),
    "and": (np.bitwise_and, True, _SMALL),
    "or": (np.bitwise_or, True, _SMALL),
}
# name -> (numpy function, symmetric)
CMP_OPS = {"Eq": (np.equal, True), "Ne": (np.not_equal, True), "Lt": (np.less, False), "Le": (np.less_equal, False)}
_CMP_CONSTANTS = (0, 1, 2, 3)
_CONSTANTS = tuple(sorted(set((0,) + _SMALL + _MODULI)))


def to_sympy(node) -> sp.Basic:
    """The sympy expression of a grammar node (nested tuples)."""
    kind = node[0]
    if kind == "x":
        return sp.Symbol(node[1])
    if kind == "k":
        return sp.Integer(node[1])
    if kind == "floor":
        return sp.floor(IRRATIONALS[node[1]] * to_sympy(node[2]))
    left, right = to_sympy(node[1]), to_sympy(node[2])
    if kind in ("Eq", "Ne", "Lt", "Le"):
        if left.is_Number and not right.is_Number:
            if kind in ("Eq", "Ne"):
                left, right = right, left
            else:  # constant on the right: 0 < x  ->  x > 0
                return (sp.Gt if kind == "Lt" else sp.Ge)(right, left)
        return {"Eq": sp.Eq, "Ne": sp.Ne, "Lt": sp.Lt, "Le": sp.Le}[kind](left, right)
    return {
        "add": lambda: left + right,
        "sub": lambda: left - right,
        "mul": lambda: left * right,
        "floordiv": lambda: sp.floor(left / right),
        "mod": lambda: sp.Mod(left, right),
        "xor": lambda: BitXor(left, right),
        "and": lambda: BitAnd(left, right),
        "or": lambda: BitOr(left, right),
        "min": lambda: sp.Min(left, right),
        "max": lambda: sp.Max(left, right),
        "And": lambda: sp.And(left, right),
        "Or": lambda: sp.Or(left, right),
    }[kind]()


def eval_node(node, columns: dict, n: int):
    """A grammar node's values over full columns (numpy, exact; the same semantics as evaluate)."""
    kind = node[0]
    if kind == "x":
        return np.asarray(columns[node[1]], dtype=np.int64)
    if kind == "k":
        return np.full(n, node[1], np.int64)
    if kind in ("true", "false"):
        return np.full(n, kind == "true")
    if kind == "floor":
        return exact_floor(IRRATIONALS[node[1]], eval_node(node[2], columns, n))
    left, right = eval_node(node[1], columns, n), eval_node(node[2], columns, n)
    if kind in CMP_OPS:
        return CMP_OPS[kind][0](left, right)
    if kind == "And":
        return left & right
    if kind == "Or":
        return left | right
    return INT_OPS[kind][0](left, right)


class _Level:
    """The integer terms of one size: values (k, n), sample values, nodes, constant flags."""

    def __init__(self, size: int, n: int):
        self.size = size
        self.n = n
        self.blocks: list[np.ndarray] = []
        self.nodes: list = []
        self.const: list = []  # the constant's value, or None for a real term
        self.values = np.zeros((0, n), np.int64)

    def add(self, values: np.ndarray, nodes, const=None):
        if len(nodes):
            self.blocks.append(values)
            self.nodes.extend(nodes)
            self.const.extend([const] * len(nodes) if not isinstance(const, list) else const)

    def finish(self, sample: np.ndarray):
        self.values = np.concatenate(self.blocks) if self.blocks else np.zeros((0, self.n), np.int64)
        self.blocks = []
        self.sample = np.ascontiguousarray(self.values[:, sample])
        self.const_value = self.const
        self.is_const = np.array([c is not None for c in self.const], dtype=bool)
        self.terms = np.flatnonzero(~self.is_const)
        self.maxabs = np.abs(self.values).max(axis=1) if len(self.values) else np.zeros(0, np.int64)

    def constants(self, allowed) -> np.ndarray:
        return np.array([i for i, c in enumerate(self.const) if c is not None and c in allowed], dtype=np.int64)

    def __len__(self):
        return len(self.nodes)


class _Budget(Exception):
    """The time budget ran out."""


class EnumerationEngine(Engine):
    """Bottom-up enumeration of expressions with observational-equivalence pruning.

    Parameters
    ----------
    max_size : int
        Largest expression (nodes) tried: boolean size for ``"P"``, integer size for ``"grundy"``.
    time_budget : float
        Seconds; the search stops (keeping what it found) when they run out.
    max_terms : int
        Most integer terms kept per size (the earliest, i.e. the most readable, are kept).
    sample_size : int
        Rows of the stratified sample used to screen comparisons (rounded up to 64s).
    n_partial : int
        Best inexact candidates reported after the exact ones.
    random_state : int
        Seed of the row sample.

    Examples
    --------
    >>> X = np.array([[a, b, a ^ b] for a in range(6) for b in range(6)])
    >>> engine = EnumerationEngine().fit(X, X[:, 2] == 0, feature_names=["a", "b", "xor_all"])
    >>> engine.candidates_[0].expr, engine.candidates_[0].accuracy
    (Eq(a, b), 1.0)
    """

    name = "enumeration"

    def __init__(self, max_size=9, time_budget=3.0, max_terms=150_000, sample_size=128, n_partial=5,
                 max_exact=10, and_or=True, random_state=0):
        super().__init__(max_size=max_size, time_budget=time_budget, max_terms=max_terms, sample_size=sample_size,
                         n_partial=n_partial, max_exact=max_exact, and_or=and_or, random_state=random_state)
        self.max_size = max_size
        self.time_budget = time_budget
        self.max_terms = max_terms
        self.sample_size = sample_size
        self.n_partial = n_partial
        self.max_exact = max_exact
        self.and_or = and_or
        self.random_state = random_state

    # ----------------------------------------------------------------------- set up
    def _setup(self, X, y, feature_names, sample_weight, target):
        X = np.asarray(X, dtype=np.int64)
        if X.ndim != 2 or X.shape[1] != len(feature_names):
            raise ValueError(f"X must be (n, {len(feature_names)}), got shape {X.shape}")
        w = np.ones(len(X)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        keep = w > 0
        self._X_all, self._w_all = X, w
        self._y_all = np.asarray(y).astype(bool) if target == "P" else np.asarray(y, dtype=np.int64)
        X, y, w = X[keep], self._y_all[keep], w[keep]
        self._names = list(feature_names)
        self._X, self._y, self._w = X, y, w
        self._n = n = len(X)
        self._target = target
        self._rng = np.random.default_rng(self.random_state)
        self._hv = self._rng.integers(-(1 << 62), 1 << 62, size=n, dtype=np.int64) | 1
        self._seen: set[int] = set()
        self._levels: dict[int, _Level] = {}
        self._exact: list = []  # (node, vector)
        self._partial: list = []  # (estimated mismatch, size, order, node)
        self._order = 0
        self._start = time.perf_counter()
        self.timed_out_ = False
        # sample rows, P rows then N rows, each section a multiple of 64 (rows repeated if needed)
        if target == "P":
            words, sections = [], []
            per = max(1, self.sample_size // 128)
            for label in (True, False):
                rows = np.flatnonzero(y == label)
                if len(rows) == 0:
                    continue
                k = 64 * per if len(rows) > 64 * per else 64 * int(np.ceil(len(rows) / 64))
                if len(rows) > k:
                    rows = np.sort(self._rng.choice(rows, size=k, replace=False))
                rows = np.resize(rows, k)
                sections.append(rows)
                cls_w = w[y == label].sum() / w.sum()
                words += [cls_w / (k // 64)] * (k // 64)
            self._sample = np.concatenate(sections)
            self._word_w = np.array(words)
            self._ys_packed = np.packbits(y[self._sample]).view(np.uint64)
        else:
            self._sample = np.resize(np.arange(n), max(64, 64 * int(np.ceil(min(n, self.sample_size) / 64))))
            self._word_w = None

    def _check_time(self):
        if time.perf_counter() - self._start > self.time_budget:
            self.timed_out_ = True
            raise _Budget

    # ----------------------------------------------------------------------- integer terms
    def _accept(self, level: _Level, values: np.ndarray, make_nodes, limit_check=False) -> None:
        """Keep rows of ``values`` that are new functions; ``make_nodes(idx)`` names them."""
        if not len(values):
            return
        if len(level) >= self.max_terms:
            return
        nonconst = (values != values[:, :1]).any(axis=1)
        if limit_check:
            nonconst &= (np.abs(values) < _LIMIT).all(axis=1)
        idx = np.flatnonzero(nonconst)
        if not len(idx):
            return
        h = values[idx] @ self._hv
        _, first = np.unique(h, return_index=True)
        first = np.sort(first)
        new = [i for i in first if int(h[i]) not in self._seen]
        if not new:
            return
        new = np.array(new[: self.max_terms - len(level)])
        self._seen.update(int(v) for v in h[new])
        rows = idx[new]
        level.add(values[rows], make_nodes(rows))
        if self._target == "grundy":
            self._grundy_check(values[rows], level.nodes[-len(rows):], level.size)

    def _grundy_check(self, values, nodes, size):
        hits = (values == self._y).all(axis=1)
        for i in np.flatnonzero(hits):
            self._exact.append((nodes[i], values[i], size))
        acc = (values == self._y) @ self._w
        top = np.argsort(-acc, kind="stable")[: 4 * self.n_partial]
        for i in top:
            self._partial.append((-float(acc[i]), size, self._order, nodes[i]))
            self._order += 1
        if len(self._partial) > 200:
            self._partial = sorted(self._partial, key=lambda t: t[:3])[:50]

    def _level1(self) -> _Level:
        level = _Level(1, self._n)
        for j, name in enumerate(self._names):
            self._accept(level, self._X[:, j:j + 1].T.copy(), lambda rows, name=name: [("x", name)])
        for c in _CONSTANTS:
            level.add(np.full((1, self._n), c, np.int64), [("k", c)], const=c)
            self._seen.add(int(np.full(self._n, c, np.int64) @ self._hv))
        return level

    def _build_level(self, size: int) -> _Level:
        level = _Level(size, self._n)
        levels = self._levels
        # floor(c * x): size 3 + |x|
        inner = levels.get(size - 3)
        if inner is not None and size - 3 in (1, 3):
            terms = inner.terms[inner.maxabs[inner.terms] < (1 << 24)]
            for ci, c in enumerate(IRRATIONALS):
                self._check_time()
                vals = exact_floor(c, inner.values[terms])
                self._accept(level, vals, lambda rows, ci=ci: [("floor", ci, inner.nodes[terms[r]]) for r in rows])
        for name, (fn, commutative, right_consts) in INT_OPS.items():
            for li in sorted(levels):
                lj = size - 1 - li
                if lj not in levels:
                    continue
                if commutative and li > lj and lj != 1:
                    continue
                L, R = levels[li], levels[lj]
                left = L.terms
                if name == "sub" and li == 1:
                    left = np.concatenate([left, L.constants(_SMALL)])
                right = R.terms if not (commutative and li > lj) else np.zeros(0, np.int64)
                if lj == 1:
                    right = np.concatenate([right, R.constants(right_consts)])
                if commutative and li == lj:  # x op c, and x op y with y after x
                    pass
                self._pairs(level, name, fn, L, left, R, right, same=(li == lj), commutative=commutative)
        level.finish(self._sample)
        return level

    def _pairs(self, level, name, fn, L, left, R, right, same, commutative):
        if not len(left) or not len(right):
            return
        n = self._n
        B = R.values[right]
        step = max(1, _CHUNK // max(1, len(right) * n))
        limit_check = name in ("mul",)
        for start in range(0, len(left), step):
            self._check_time()
            if len(level) >= self.max_terms:
                return
            li = left[start:start + step]
            out = fn(L.values[li][:, None, :], B[None, :, :])
            valid = np.ones((len(li), len(right)), dtype=bool)
            if same:
                if commutative:
                    valid &= (right[None, :] > li[:, None]) | R.is_const[right][None, :]
                else:
                    valid &= right[None, :] != li[:, None]
            valid &= ~(L.is_const[li][:, None] & R.is_const[right][None, :])
            a_idx, b_idx = np.nonzero(valid)
            vals = out[a_idx, b_idx]

            def nodes(rows, a_idx=a_idx, b_idx=b_idx, li=li):
                return [(name, L.nodes[li[a_idx[r]]], R.nodes[right[b_idx[r]]]) for r in rows]

            self._accept(level, vals, nodes, limit_check)

    # ----------------------------------------------------------------------- comparisons
    def _cmp_indices(self, level: _Level) -> np.ndarray:
        if level.size == 1:
            return np.concatenate([level.terms, level.constants(_CMP_CONSTANTS)])
        return level.terms

    def _compare(self, size: int):
        """All comparisons of boolean size ``size``: screen on the sample, confirm on all rows."""
        levels = self._levels
        for name, (fn, symmetric) in CMP_OPS.items():
            for li in sorted(levels):
                lj = size - 1 - li
                if lj not in levels or (symmetric and li > lj):
                    continue
                L, R = levels[li], levels[lj]
                left, right = self._cmp_indices(L), self._cmp_indices(R)
                if not len(left) or not len(right):
                    continue
                Bs = R.sample[right]
                m = Bs.shape[1]
                step = max(1, _CHUNK // max(1, len(right) * m))
                for start in range(0, len(left), step):
                    self._check_time()
                    la = left[start:start + step]
                    C = fn(L.sample[la][:, None, :], Bs[None, :, :])
                    packed = np.packbits(C, axis=-1).view(np.uint64)
                    miss_words = np.bitwise_count(packed ^ self._ys_packed)
                    score = miss_words @ self._word_w  # estimated weighted error
                    bad = L.is_const[la][:, None] & R.is_const[right][None, :]
                    if li == lj:
                        bad |= (right[None, :] <= la[:, None]) if symmetric else (right[None, :] == la[:, None])
                    # a comparison constant on the sample is almost surely useless
                    flat = (miss_words.sum(-1) == 0)
                    score = np.where(bad, np.inf, score)
                    for a, b in zip(*np.nonzero(flat & ~bad)):
                        self._confirm(name, fn, L, la[a], R, right[b], size)
                    k = min(score.size, 2 * self.n_partial)
                    part = np.argpartition(score.ravel(), k - 1)[:k]
                    for flat_i in part:
                        s = score.ravel()[flat_i]
                        if np.isfinite(s) and s > 0:
                            a, b = divmod(int(flat_i), score.shape[1])
                            node = (name, L.nodes[la[a]], R.nodes[right[b]])
                            self._partial.append((float(s), size, self._order, node))
                            self._order += 1
                    if len(self._partial) > 400:
                        self._partial = sorted(self._partial, key=lambda t: t[:3])[:100]

    def _confirm(self, name, fn, L, a, R, b, size):
        vec = fn(L.values[a], R.values[b])
        if np.array_equal(vec, self._y):
            self._exact.append(((name, L.nodes[a], R.nodes[b]), vec, size))

    # ----------------------------------------------------------------------- main loop
    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        if target not in ("P", "grundy"):
            raise ValueError(f"target must be 'P' or 'grundy', got {target!r}")
        self._setup(X, y, feature_names, sample_weight, target)
        self.searched_size_ = 0
        try:
            if target == "P" and (self._y.all() or not self._y.any()):
                self._exact.append((("true",) if self._y.all() else ("false",), self._y, 1))
            else:
                self._search()
        except _Budget:
            pass
        self.candidates_ = self._finish()
        self.elapsed_ = time.perf_counter() - self._start
        return self

    def _search(self):
        levels = self._levels
        levels[1] = self._level1()
        levels[1].finish(self._sample)
        if self._target == "grundy":
            self.searched_size_ = 1
            for size in range(3, self.max_size + 1):
                if self._exact:
                    return
                levels[size] = self._build_level(size)
                self.searched_size_ = size
            return
        for size in range(3, self.max_size + 1):
            if size - 2 >= 3 and size - 2 not in levels:
                levels[size - 2] = self._build_level(size - 2)
            self._compare(size)
            self.searched_size_ = size
            if self._exact:
                return

    # ----------------------------------------------------------------------- results
    def _columns(self):
        return {name: self._X_all[:, j] for j, name in enumerate(self._names)}

    def _finish(self) -> list[Candidate]:
        columns = self._columns()
        n_all = len(self._X_all)
        y, w = self._y_all, self._w_all

        def convert(node):
            """(Candidate, values) with the sympy expression re-scored by evaluate, or None."""
            if node[0] in ("true", "false"):
                expr = sp.true if node[0] == "true" else sp.false
            else:
                expr = to_sympy(node)
            if isinstance(expr, sp.logic.boolalg.BooleanAtom) and node[0] not in ("true", "false"):
                return None
            try:
                values = evaluate(expr, columns)
            except (ValueError, TypeError, ZeroDivisionError):
                return None
            if self._target == "P":
                values = values.astype(bool)
            acc = float(np.sum(w * (values == y)) / np.sum(w))
            return Candidate(expr, self._target, acc, self.name)

        exact = []
        for node, _, _ in sorted(self._exact, key=lambda t: t[2])[: 3 * self.max_exact]:
            got = convert(node)
            if got is not None:
                exact.append(got)
        exact = self._ranked(exact)[: self.max_exact]
        # partial: rank by full (numpy) accuracy first, convert only the best few to sympy
        scored, vectors = [], set()
        for _, size, order, node in sorted(self._partial, key=lambda t: t[:3])[: 20 * self.n_partial]:
            values = eval_node(node, columns, n_all)
            key = values.tobytes()
            if key in vectors:
                continue
            vectors.add(key)
            acc = float(np.sum(w * (values == y)) / np.sum(w))
            if acc < 1.0:
                scored.append((-acc, size, order, node))
        partial = []
        for _, _, _, node in sorted(scored, key=lambda t: t[:3]):
            got = convert(node)
            if got is not None and got.accuracy < 1.0:
                partial.append(got)
            if len(partial) >= self.n_partial:
                break
        return self._ranked(exact) + self._ranked(partial)
