"""Formula enumeration: bottom-up search over a typed grammar, smallest expressions first.

Integer terms are built by size (the number of nodes of the expression tree) from the
features, small constants, ``floor(c*x)`` with c a closed form (the golden ratio, square
roots; computed exactly with integer square roots, never with floats), the functions of one feature
(``FEATURE_FUNCTIONS``: the least Zeckendorf part), the operators of two features (``FEATURE_OPS``: the
nim-product), the binary operators + - * // mod xor and or min max, and (when asked for: ``unary``) the functions
of binary digits lowbit, ν₂, the odd part, the weight and the length.  Every term is held as its vector of values
on the training table; a term whose vector was already seen is dropped (observational equivalence),
so the smallest spelling of each function survives.  Boolean terms are comparisons (= ≠ < ≤)
of two integer terms and, from size 7, And/Or of two comparisons.

For the target ``"P"`` the search goes through boolean sizes 3, 4, 5, ... and stops after the
first size that holds an exact rule: the simplest exact rule wins.  Comparisons are first
checked on a small stratified sample of rows (packed into 64-bit words) and only the ones exact
there are checked on the whole table.  For the target ``"grundy"`` it looks for an integer term
equal to the Grundy values; with ``meet`` it also looks, as each size is built, for two terms A and B whose sum,
difference or xor is the Grundy values (a meet in the middle: y - A, A - y, y + A and y ⊕ A looked up among the
terms built, by their hashes), which reaches exact terms about twice as large as the levels it builds.
``candidates_`` lists the exact rules found (with their sympy
expressions re-scored exactly by ``discover.expr.numeric.evaluate``), then the best partial ones.
"""

from __future__ import annotations

import time

import numpy as np
import sympy as sp

from discover import defaults
from discover.engines.base import Candidate, Engine, WorkBudget
from discover.engines.grammar import (CMP_CONSTANTS, CMP_OPS, CONSTANTS, FEATURE_FUNCTIONS, FEATURE_OPS, INT_OPS,
                                      IRRATIONALS, SMALL, UNARY_OPS, eval_node, to_sympy)
from discover.expr.exact import exact_floor
from discover.expr.numeric import evaluate

__all__ = ["EnumerationEngine"]

_LIMIT = 1 << 30  # terms with larger values are dropped (values are stored as int32)
_CHUNK = 1 << 21  # elements per vectorised block
WORK_BUDGET = 4e9  # element operations a search may spend (the catalogue's tables end on the other limits first)


class _Level:
    """The integer terms of one size: values (int32, full rows or only the sample rows), nodes."""

    def __init__(self, size: int, n: int, sample: np.ndarray, max_stored: int):
        self.size = size
        self.n = n
        self.sample_rows = sample
        self.max_stored = max_stored
        self.full = True  # full rows kept (else only the sample rows: the level cannot grow others)
        self.blocks: list[np.ndarray] = []
        self.nodes: list = []
        self.const: list = []  # the constant's value, or None for a real term

    def add(self, values: np.ndarray, nodes, const=None):
        """Append terms; ``values`` (k, n) int64 full rows."""
        if not len(nodes):
            return
        if self.full and (len(self.nodes) + len(nodes)) * self.n > self.max_stored:
            self.full = False
            self.blocks = [block[:, self.sample_rows] for block in self.blocks]
        self.blocks.append((values if self.full else values[:, self.sample_rows]).astype(np.int32))
        self.nodes.extend(nodes)
        self.const.extend([const] * len(nodes))

    def finish(self):
        width = self.n if self.full else len(self.sample_rows)
        stored = np.concatenate(self.blocks) if self.blocks else np.zeros((0, width), np.int32)
        self.blocks = []
        self.values = stored if self.full else None
        self.sample = np.ascontiguousarray(stored[:, self.sample_rows]) if self.full else stored
        self.is_const = np.array([c is not None for c in self.const], dtype=bool)
        self.terms = np.flatnonzero(~self.is_const)
        if self.full and len(stored):
            self.maxabs = np.maximum(stored.max(axis=1), -stored.min(axis=1)).astype(np.int64)
        else:
            self.maxabs = np.zeros(len(self.nodes), np.int64)

    def constants(self, allowed) -> np.ndarray:
        return np.array([i for i, c in enumerate(self.const) if c is not None and c in allowed], dtype=np.int64)

    def __len__(self):
        return len(self.nodes)


class _Budget(Exception):
    """The work budget ran out."""


class EnumerationEngine(Engine):
    """Bottom-up enumeration of expressions with observational-equivalence pruning.

    Parameters
    ----------
    max_size : int
        Largest expression (nodes) tried: boolean size for ``"P"``, integer size for ``"grundy"``.
    work_budget : float
        Element operations the search may spend (values computed, compared, combined); it stops, keeping
        what it found, when they run out. A count, not seconds: the same table gives the same candidates on
        any machine. The other limits (sizes, terms, pairs) end most searches first.
    time_cap : float
        Seconds after which the search stops anyway (a safety net far above the usual run; ``notes_`` says
        when it acted).
    max_terms : int
        Most integer terms kept per size (the earliest, i.e. the most readable, are kept).
    sample_size : int
        Rows of the stratified sample used to screen comparisons (rounded up to 64s).
    n_partial : int
        Best inexact candidates reported after the exact ones.
    max_exact : int
        Most exact candidates reported (all of the winning size, simplest first).
    and_or : bool
        Also try And/Or of two comparisons (from boolean size 7).
    max_pool : int
        Most comparisons kept for And (true on every P row) and for Or (false on every N row).
    max_stored : int
        Most values (terms x rows) kept in full per size; a larger size keeps only its sample rows
        and builds no larger terms.
    max_pairs : int
        Above this many pairs, = and ≠ are screened by a hash join and < ≤ only against constants.
    unary : tuple of str
        Functions of binary digits applied to every term (``grammar.UNARY_OPS``: "lowbit", "nu2", "odd",
        "weight", "bitlen"); none by default.
    beyond : int
        For the target ``"grundy"``: sizes searched after the first one holding an exact term (a longer
        exact term may read better, e.g. one with no exception).
    meet : bool
        For the target ``"grundy"``: also find exact terms A + B, A - B and A ⊕ B of two terms built (a meet in
        the middle over their hashes).
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

    def __init__(self, max_size=9, work_budget=WORK_BUDGET, time_cap=defaults.ENGINE_SECONDS, max_terms=150_000, sample_size=128, n_partial=5,
                 max_exact=10, and_or=True, max_pool=2000, max_stored=15_000_000,
                 max_pairs=400_000, unary=(), beyond=0, meet=False, random_state=0):
        self.max_size = max_size
        self.work_budget = work_budget
        self.time_cap = time_cap
        self.max_terms = max_terms
        self.sample_size = sample_size
        self.n_partial = n_partial
        self.max_exact = max_exact
        self.and_or = and_or
        self.max_pool = max_pool
        self.max_stored = max_stored
        self.max_pairs = max_pairs
        self.unary = unary
        self.beyond = beyond
        self.meet = meet
        self.random_state = random_state

    # ----------------------------------------------------------------------- set up
    def _setup(self, X, y, feature_names, sample_weight, target):
        unknown = sorted(set(self.unary) - set(UNARY_OPS))
        if unknown:
            raise ValueError(f"unknown functions of binary digits {unknown}; the known: {', '.join(UNARY_OPS)}")
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
        self._buffer = np.empty(_CHUNK, np.int64)
        self._cols = {name: X[:, j] for j, name in enumerate(self._names)}
        self._levels: dict[int, _Level] = {}
        self._exact: list = []  # (node, vector or None, size)
        self._partial: list = []  # (estimated mismatch, size, order, node)
        self._order = 0
        self._start = time.perf_counter()
        self._budget = WorkBudget(self.work_budget, self.time_cap)
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
            self._n_pwords = (len(sections[0]) // 64) if y[self._sample[0]] else 0
            self._y_full_packed = self._pack(y[None, :])[0]
            self._pools = {"And": {}, "Or": {}}  # op -> size -> [packed rows, nodes]
            self._pool_count = {"And": 0, "Or": 0}
            self._pool_seen = set()
            self._ys_packed = np.packbits(y[self._sample]).view(np.uint64)
        else:
            self._sample = np.resize(np.arange(n), max(64, 64 * int(np.ceil(min(n, self.sample_size) / 64))))
            self._word_w = None

    def _spend(self, units) -> None:
        """Count ``units`` element operations of the block about to be computed; stop when the budget is spent."""
        if not self._budget.spend(units):
            self.timed_out_ = True
            raise _Budget

    # ----------------------------------------------------------------------- integer terms
    def _accept(self, level: _Level, values: np.ndarray, make_nodes, valid=None) -> None:
        """Keep rows of ``values`` (k, n) int64 that are new functions; ``make_nodes(rows)`` names them."""
        if not len(values) or len(level) >= self.max_terms:
            return
        hi, lo = values.max(axis=1), values.min(axis=1)
        ok = (hi != lo) & (hi < _LIMIT) & (lo > -_LIMIT)
        if valid is not None:
            ok &= valid
        idx = np.flatnonzero(ok)
        if not len(idx):
            return
        new = self._new_rows((values @ self._hv)[idx], len(level))
        if not len(new):
            return
        rows = idx[new]
        full = values[rows]
        level.add(full, make_nodes(rows))
        if self._target == "grundy":
            self._grundy_check(full, level.nodes[-len(rows):], level.size)

    def _new_rows(self, h: np.ndarray, have: int) -> np.ndarray:
        """Positions in ``h`` of hashes never seen (first occurrence only); marks them seen."""
        _, first = np.unique(h, return_index=True)
        first = np.sort(first)
        seen = self._seen
        new = [i for i, v in zip(first.tolist(), h[first].tolist()) if v not in seen]
        new = new[: max(0, self.max_terms - have)]
        seen.update(h[new].tolist())
        return np.array(new, dtype=np.int64)

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
        level = _Level(1, self._n, self._sample, self.max_stored)
        level.max_stored = 1 << 62  # features and constants are always kept whole
        for j, name in enumerate(self._names):
            self._accept(level, self._X[:, j:j + 1].T.copy(), lambda rows, name=name: [("x", name)])
        for c in CONSTANTS:
            level.add(np.full((1, self._n), c, np.int64), [("k", c)], const=c)
            self._seen.add(int(np.full(self._n, c, np.int64) @ self._hv))
        return level

    def _build_level(self, size: int) -> _Level:
        level = _Level(size, self._n, self._sample, self.max_stored)
        levels = self._levels
        inner = levels.get(size - 1)  # f(x) for a function of binary digits f: size 1 + |x|
        if inner is not None and inner.full:
            for name in self.unary:
                self._spend(len(inner.terms) * self._n)
                vals = UNARY_OPS[name].numpy_op(inner.values[inner.terms].astype(np.int64))
                self._accept(level, vals, lambda rows, name=name: [(name, inner.nodes[inner.terms[r]]) for r in rows])
        # floor(c * x): size 3 + |x|
        inner = levels.get(size - 3)
        if inner is not None and inner.full and size - 3 in (1, 3):
            terms = inner.terms[inner.maxabs[inner.terms] < (1 << 24)]
            for ci, c in enumerate(IRRATIONALS):
                self._spend(len(terms) * inner.values.shape[1])
                vals = exact_floor(c, inner.values[terms].astype(np.int64))
                self._accept(level, vals, lambda rows, ci=ci: [("floor", ci, inner.nodes[terms[r]]) for r in rows])
        if size == 2:  # a function of one feature, of those never negative
            features = levels[1]
            terms = features.terms[features.values[features.terms].min(axis=1) >= 0]
            for name, (fn, _) in FEATURE_FUNCTIONS.items():
                self._spend(len(terms) * self._n)
                self._accept(level, fn(features.values[terms].astype(np.int64)),
                             lambda rows, name=name: [(name, features.nodes[terms[r]]) for r in rows])
        if size == 3:  # an operator of two features, each pair once (the operators are commutative)
            features = levels[1]
            values = features.values[features.terms]
            terms = features.terms[(values.min(axis=1) >= 0) & (values.max(axis=1) < 1 << 31)]
            pairs = [(i, j) for k, i in enumerate(terms) for j in terms[k + 1:]]
            for name, (fn, _) in FEATURE_OPS.items():
                self._spend(len(pairs) * self._n)
                if pairs:
                    left, right = (np.array(side) for side in zip(*pairs))
                    vals = fn(features.values[left].astype(np.int64), features.values[right].astype(np.int64))
                    self._accept(level, vals, lambda rows, name=name: [
                        (name, features.nodes[left[r]], features.nodes[right[r]]) for r in rows])
        for name, (_, commutative, right_consts) in INT_OPS.items():
            for li in sorted(levels):
                lj = size - 1 - li
                if lj not in levels or not (levels[li].full and levels[lj].full):
                    continue
                if commutative and li > lj and lj != 1:
                    continue
                L, R = levels[li], levels[lj]
                left = L.terms
                if name == "sub" and li == 1:
                    left = np.concatenate([left, L.constants(SMALL)])
                right = R.terms if not (commutative and li > lj) else np.zeros(0, np.int64)
                if lj == 1:
                    right = np.concatenate([right, R.constants(right_consts)])
                self._pairs(level, name, L, left, R, right, same=(li == lj), commutative=commutative)
        level.finish()
        return level

    def _pairs(self, level, name, L, left, R, right, same, commutative):
        """Terms ``name(x, y)`` for x in ``left`` of L and y in ``right`` of R, in blocks."""
        n = self._n
        per_block = max(1, _CHUNK // n)
        for rstart in range(0, len(right), per_block):
            self._pair_block(level, name, L, left, R, right[rstart:rstart + per_block], same, commutative)

    def _pair_block(self, level, name, L, left, R, right, same, commutative):
        if not len(left) or not len(right):
            return
        n, kb = self._n, len(right)
        B = R.values[right][None, :, :]
        zero = None
        if name in ("floordiv", "mod"):
            zero = B == 0
            B = np.where(zero, 1, B)
        step = max(1, _CHUNK // (kb * n))
        ufunc = {"floordiv": np.floor_divide, "mod": np.mod}.get(name, INT_OPS[name][0])
        for start in range(0, len(left), step):
            self._spend(len(left[start:start + step]) * kb * n)
            if len(level) >= self.max_terms:
                return
            li = left[start:start + step]
            out = self._buffer[: len(li) * kb * n].reshape(len(li), kb, n)
            ufunc(L.values[li][:, None, :], B, out=out, dtype=np.int64)
            if zero is not None:
                out[np.broadcast_to(zero, out.shape)] = 0
            valid = self._pair_valid(L, li, R, right, same, commutative)

            def nodes(rows, li=li):
                return [(name, L.nodes[li[r // kb]], R.nodes[right[r % kb]]) for r in rows]

            self._accept(level, out.reshape(-1, n), nodes, valid.ravel())

    @staticmethod
    def _pair_valid(L, li, R, right, same, commutative):
        """Pairs worth computing: not two constants, one order of a commutative op, no x op x."""
        valid = ~(L.is_const[li][:, None] & R.is_const[right][None, :])
        if same:
            if commutative:
                valid &= (right[None, :] > li[:, None]) | R.is_const[right][None, :]
            else:
                valid &= right[None, :] != li[:, None]
        return valid

    def _full(self, level: _Level, idx) -> np.ndarray:
        """Full int64 rows of terms ``idx`` of a level (recomputed when only the sample is kept)."""
        idx = np.atleast_1d(idx)
        if level.full:
            return level.values[idx].astype(np.int64)
        return np.stack([eval_node(level.nodes[i], self._cols, self._n) for i in idx]) if len(idx) else \
            np.zeros((0, self._n), np.int64)

    # ----------------------------------------------------------------------- meet in the middle (Grundy values)
    def _meet_start(self, level: _Level) -> None:
        """Index the first level's terms and constants by hash (the meet in the middle looks partners up here)."""
        self._hy = int(self._y @ self._hv)
        self._index: dict[int, tuple] = {}  # hash of a term's values -> (node, size)
        self._meet_level(level)

    def _meet_level(self, level: _Level) -> None:
        """Index a finished level, then look for y = A + B, A - B, B - A or A ⊕ B with A in it and B indexed."""
        rows = np.arange(len(level))
        values = level.values.astype(np.int64)
        self._spend(2 * values.size)
        hashes = values @ self._hv
        for h, i in zip(hashes.tolist(), rows.tolist()):
            self._index.setdefault(h, (level.nodes[i], level.size))
        keys = np.fromiter(self._index, dtype=np.int64, count=len(self._index))
        keys.sort()
        with np.errstate(over="ignore"):
            wanted = {"add": self._hy - hashes, "sub": hashes - self._hy, "rsub": hashes + self._hy,
                      "xor": (values ^ self._y) @ self._hv}
        for how, key in wanted.items():
            at = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
            for i in np.flatnonzero(keys[at] == key):
                partner, size = self._index[int(key[i])]
                if partner == ("k", 0):  # A + 0, A - 0, A ⊕ 0: A itself, found as a term
                    continue
                node = {"add": ("add", level.nodes[i], partner), "sub": ("sub", level.nodes[i], partner),
                        "rsub": ("sub", partner, level.nodes[i]), "xor": ("xor", level.nodes[i], partner)}[how]
                if np.array_equal(eval_node(node, self._cols, self._n), self._y):  # a hash may collide
                    self._exact.append((node, None, level.size + size + 1))

    # ----------------------------------------------------------------------- comparisons
    def _cmp_indices(self, level: _Level) -> np.ndarray:
        if level.size == 1:
            return np.concatenate([level.terms, level.constants(CMP_CONSTANTS)])
        return level.terms

    def _compare(self, size: int, pools: bool = False, newest=None):
        """All comparisons of boolean size ``size``: screen on the sample, confirm on all rows.

        With ``pools``, only collect the comparisons that And/Or may combine into exact rules.
        ``newest=(k, True)`` does only the comparisons using the integer level k, ``(k, False)``
        only the others.
        """
        levels = self._levels
        for name, (fn, symmetric) in CMP_OPS.items():
            for li in sorted(levels):
                lj = size - 1 - li
                if lj not in levels or (symmetric and li > lj):
                    continue
                if newest is not None and (newest[0] in (li, lj)) != newest[1]:
                    continue
                L, R = levels[li], levels[lj]
                left, right = self._cmp_indices(L), self._cmp_indices(R)
                if len(left) * len(right) > self.max_pairs:
                    # too many pairs to screen one by one: = and ≠ by a hash join, < and ≤ against constants
                    if symmetric:
                        if not pools:
                            self._join(name, fn, L, left, R, right, size)
                        continue
                    if L.size < R.size:
                        left = left[L.is_const[left]]
                    else:
                        right = right[R.is_const[right]]
                if not len(left) or not len(right):
                    continue
                Bs = R.sample[right]
                m = Bs.shape[1]
                step = max(1, _CHUNK // max(1, len(right) * m))
                for start in range(0, len(left), step):
                    la = left[start:start + step]
                    self._spend(len(la) * len(right) * m)
                    C = fn(L.sample[la][:, None, :], Bs[None, :, :])
                    packed = np.packbits(C, axis=-1).view(np.uint64)
                    miss_words = np.bitwise_count(packed ^ self._ys_packed)
                    bad = L.is_const[la][:, None] & R.is_const[right][None, :]
                    if li == lj:
                        bad |= (right[None, :] <= la[:, None]) if symmetric else (right[None, :] == la[:, None])
                    on_sample = (miss_words.sum(-1) == 0) & ~bad
                    if pools:
                        npw = self._n_pwords
                        for op, words in (("And", miss_words[..., :npw]), ("Or", miss_words[..., npw:])):
                            if self._pool_count[op] < self.max_pool:
                                a, b = np.nonzero((words.sum(-1) == 0) & ~bad & ~on_sample)
                                self._pool_add(op, name, fn, L, la[a], R, right[b], size)
                        continue
                    score = np.where(bad, np.inf, miss_words @ self._word_w)  # estimated weighted error
                    for a, b in zip(*np.nonzero(on_sample)):
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

    def _keys(self, level: _Level, part: str) -> np.ndarray:
        """Hashes of the terms' values on the P (or N) rows of the sample, cached per level."""
        cache = level.__dict__.setdefault("keys", {})
        if part not in cache:
            cut = 64 * self._n_pwords
            cols = slice(0, cut) if part == "P" else slice(cut, None)
            hv = np.resize(self._hv, len(self._sample))[cols]  # a sample may repeat rows of a small table
            keys = np.empty(len(level), np.int64)
            for start in range(0, len(level), 8192):
                keys[start:start + 8192] = level.sample[start:start + 8192, cols].astype(np.int64) @ hv
            cache[part] = keys
        return cache[part]

    def _join(self, name, fn, L, left, R, right, size):
        """Exact Eq (Ne) pairs: equal (unequal) on every P row, so equal keys on the sample's P (N) rows."""
        part = "P" if name == "Eq" else "N"
        ka, kb = self._keys(L, part)[left], self._keys(R, part)[right]
        swap = len(right) > len(left)  # loop over the smaller side
        if swap:
            L, left, ka, R, right, kb = R, right, kb, L, left, ka
        for b in range(len(right)):
            self._spend(len(ka))
            hits = np.flatnonzero(ka == kb[b])
            if L is R:
                hits = hits[left[hits] != right[b]]
            hits = hits[~(L.is_const[left[hits]] & R.is_const[right[b]])]
            if not len(hits):
                continue
            C = fn(L.sample[left[hits]], R.sample[right[b]][None, :])
            packed = np.packbits(C, axis=-1).view(np.uint64)
            for h in np.flatnonzero((packed == self._ys_packed).all(axis=1)):
                if swap:
                    self._confirm(name, fn, R, right[b], L, left[hits[h]], size)
                else:
                    self._confirm(name, fn, L, left[hits[h]], R, right[b], size)

    @staticmethod
    def _pack(bools: np.ndarray) -> np.ndarray:
        """Boolean rows (k, n) as uint64 words (k, ceil(n/64)), zero padded."""
        k, n = bools.shape
        pad = (-n) % 64
        if pad:
            bools = np.concatenate([bools, np.zeros((k, pad), bool)], axis=1)
        return np.packbits(bools, axis=-1).view(np.uint64).reshape(k, -1)

    def _pool_add(self, op, name, fn, L, a, R, b, size):
        """Keep comparisons true on every P row (for And) or false on every N row (for Or)."""
        room = self.max_pool - self._pool_count[op]
        if room <= 0 or not len(a):
            return
        a, b = a[: 4 * room], b[: 4 * room]
        vecs = fn(self._full(L, a), self._full(R, b))
        if op == "And":
            ok = vecs[:, self._y].all(axis=1) & ~vecs.all(axis=1)
        else:
            ok = ~vecs[:, ~self._y].any(axis=1) & vecs.any(axis=1)
        idx = np.flatnonzero(ok)
        if not len(idx):
            return
        packed = self._pack(vecs[idx])
        entry = self._pools[op].setdefault(size, [[], []])
        for r, i in enumerate(idx):
            key = (op, packed[r].tobytes())
            if key in self._pool_seen:
                continue
            self._pool_seen.add(key)
            entry[0].append(packed[r])
            entry[1].append((name, L.nodes[a[i]], R.nodes[b[i]]))
            self._pool_count[op] += 1
            if self._pool_count[op] >= self.max_pool:
                return

    def _and_or(self, size: int):
        """And/Or of two pooled comparisons whose sizes add up to ``size - 1``."""
        y = self._y_full_packed
        n = self._n
        for op in ("And", "Or"):
            pools = self._pools[op]
            for si in sorted(pools):
                sj = size - 1 - si
                if sj < si or sj not in pools or not pools[si][0] or not pools[sj][0]:
                    continue
                A = np.array(pools[si][0])
                B = np.array(pools[sj][0])
                step = max(1, _CHUNK // max(1, len(B) * A.shape[1]))
                for start in range(0, len(A), step):
                    block = A[start:start + step]
                    self._spend(len(block) * B.size)
                    res = (block[:, None, :] & B[None, :, :]) if op == "And" else (block[:, None, :] | B[None, :, :])
                    miss = np.bitwise_count(res ^ y).sum(-1)
                    if si == sj:
                        ia = np.arange(start, start + len(block))[:, None]
                        miss = np.where(np.arange(len(B))[None, :] > ia, miss, n + 1)
                    for a, b in zip(*np.nonzero(miss == 0)):
                        node = (op, pools[si][1][start + a], pools[sj][1][b])
                        self._exact.append((node, None, size))
                    k = min(miss.size, 2 * self.n_partial)
                    for flat_i in np.argpartition(miss.ravel(), k - 1)[:k]:
                        m = int(miss.ravel()[flat_i])
                        if 0 < m <= n:
                            a, b = divmod(int(flat_i), miss.shape[1])
                            node = (op, pools[si][1][start + a], pools[sj][1][b])
                            self._partial.append((m / n, size, self._order, node))
                            self._order += 1

    def _confirm(self, name, fn, L, a, R, b, size):
        vec = fn(self._full(L, a)[0], self._full(R, b)[0])
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
        self.notes_ = self._budget.note(self.name)
        self.elapsed_ = time.perf_counter() - self._start
        return self

    def _search(self):
        levels = self._levels
        levels[1] = self._level1()
        levels[1].finish()
        levels[2] = self._build_level(2)  # functions of one term (FEATURE_FUNCTIONS, unary): no binary term so small
        if self._target == "grundy":
            self.searched_size_ = 2
            if self.meet:
                self._meet_start(levels[1])
                if levels[2].full:
                    self._meet_level(levels[2])
            for size in range(3, self.max_size + 1):
                if self._exact and size > min(t[2] for t in self._exact) + self.beyond:
                    return
                levels[size] = self._build_level(size)
                self.searched_size_ = size
                if self.meet and levels[size].full:
                    self._meet_level(levels[size])
            return
        for size in range(3, self.max_size + 1):
            # cheap parts first: comparisons of the terms already built, And/Or; then the new terms
            # of size - 2 (an exact rule found before them is kept: an equally short one may be missed)
            fresh = size - 2 if size - 2 >= 3 else None
            self._compare(size, newest=None if fresh is None else (fresh, False))
            if self.and_or and size >= 7:
                self._compare(size - 4, pools=True)  # the comparisons an And/Or of this size can use
                self._and_or(size)
            if fresh is not None and not self._exact:
                levels[fresh] = self._build_level(fresh)
                self._compare(size, newest=(fresh, True))
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
        # an order comparison equal on the table to an (in)equation no longer than it says nothing more
        plain = [c.complexity for c in exact if isinstance(c.expr, (sp.Eq, sp.Ne))]
        exact = [c for c in exact if not (isinstance(c.expr, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan,
                                                             sp.GreaterThan)) and plain and min(plain) <= c.complexity)]
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
