"""Complementary pairs and Beatty sequences (Wythoff-like 2-D games).

The P positions {a_k, b_k} of a symmetric two-coordinate game are read off the table, sorted
by a_k, and checked against the complementary-pair recurrence a_k = mex{a_j, b_j : j < k},
b_k = a_k + c k.  Such pairs are Beatty sequences a_k = ⌊kα⌋, b_k = ⌊kβ⌋ with β = α + c and
1/α + 1/β = 1; α is taken from the exact interval the data allows, snapped to a closed form
with sympy and then confirmed exactly (``discover.expr.numeric.evaluate``) on every pair.  The
rule is written over the derived features: min(a, b) = ⌊(α/c)·|a - b|⌋ with c | |a - b|
(Wythoff: min(a, b) = ⌊φ·|a - b|⌋).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp

from discover.engines.base import Candidate, Engine
from discover.expr.exact import quadratic_parts
from discover.expr.features import DERIVED
from discover.expr.numeric import evaluate

__all__ = ["PairsEngine", "PairsFit", "complementary_pairs", "beatty_constants", "pairs_expression"]

_CONSTANTS = [sp.GoldenRatio, sp.sqrt(2), sp.sqrt(3), sp.sqrt(5)]


@dataclass
class PairsFit:
    """P positions {a_k, b_k}, k = 0..K-1, with b_k - a_k = c k."""

    a: np.ndarray
    b: np.ndarray
    c: int
    mex: bool  # a_k = mex{a_j, b_j : j < k} for every k seen


def complementary_pairs(positions, is_p, min_pairs: int = 4) -> PairsFit | None:
    """The pairs structure of the P positions of a symmetric 2-coordinate table, or None.

    Examples
    --------
    >>> pos = np.array([(x, y) for x in range(8) for y in range(8)])
    >>> pairs = {(0, 0), (1, 2), (3, 5), (4, 7)}
    >>> is_p = np.array([(x, y) in pairs or (y, x) in pairs for x, y in pos])
    >>> fit = complementary_pairs(pos, is_p)
    >>> fit.a.tolist(), fit.b.tolist(), fit.c, fit.mex
    ([0, 1, 3, 4], [0, 2, 5, 7], 1, True)
    """
    positions = np.asarray(positions, dtype=np.int64)
    is_p = np.asarray(is_p, dtype=bool)
    if positions.ndim != 2 or positions.shape[1] != 2:
        return None
    label = {(int(x), int(y)): bool(v) for (x, y), v in zip(positions, is_p)}
    for (x, y), v in label.items():  # the P set must be symmetric where the table sees both
        if v and label.get((y, x), True) is not True:
            return None
    pairs = sorted({(min(x, y), max(x, y)) for (x, y), v in label.items() if v})
    if len(pairs) < min_pairs:
        return None
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    values = np.concatenate([a, b[b != a]])
    if len(np.unique(values)) != len(values):
        return None  # a value in two pairs: not complementary
    d = b - a
    if d[0] != 0 or d[1] <= 0:
        return None
    c = int(d[1])
    if not np.array_equal(d, c * np.arange(len(d))):
        return None
    seen: set[int] = set()
    mex, least = True, 0  # least = mex(seen), which only grows as seen does
    for ak, bk in zip(a.tolist(), b.tolist()):
        while least in seen:
            least += 1
        if least != ak:
            mex = False
            break
        seen.update((ak, bk))
    return PairsFit(a, b, c, mex)


_parts = functools.lru_cache(maxsize=512)(quadratic_parts)


def _same(x, y) -> bool:
    """Exact equality of two rational or quadratic constants."""
    px, py = _parts(x), _parts(y)
    if px is None or py is None:
        return sp.simplify(x - y) == 0
    (p1, q1, m1, r1), (p2, q2, m2, r2) = px, py
    if q1 == 0 or q2 == 0:
        return q1 == q2 == 0 and p1 * r2 == p2 * r1
    return m1 == m2 and p1 * r2 == p2 * r1 and q1 * r2 == q2 * r1


def _closed_form(x):
    """A tidy sympy form of a constant (the golden ratio as φ)."""
    x = sp.sympify(x)
    for named in (sp.GoldenRatio, sp.GoldenRatio + 1):
        if _same(x, named):
            return named
    return sp.radsimp(sp.nsimplify(x))


def beatty_constants(a, k=None, c: int | None = None) -> list:
    """Closed forms α with a_k = ⌊kα⌋ for every k given, confirmed exactly; simplest first.

    Candidates: the complementary constant (2 - c + sqrt(c² + 4)) / 2 (1/α + 1/(α + c) = 1),
    and the least-squares and interval-midpoint estimates snapped with ``sympy.nsimplify``
    against φ, √2, √3, √5 and small rationals.

    >>> beatty_constants([0, 1, 3, 4, 6, 8, 9, 11, 12], c=1)
    [GoldenRatio]
    """
    a = np.asarray(a, dtype=np.int64)
    k = np.arange(len(a), dtype=np.int64) if k is None else np.asarray(k, dtype=np.int64)
    pos = k > 0
    if pos.sum() < 2:
        return []
    lo = max(Fraction(int(x), int(j)) for x, j in zip(a[pos], k[pos]))
    hi = min(Fraction(int(x) + 1, int(j)) for x, j in zip(a[pos], k[pos]))
    if lo >= hi:
        return []
    kk = k[pos].astype(float)
    least_squares = float(np.sum(kk * (a[pos] + 0.5)) / np.sum(kk * kk))
    guesses = []
    if c is not None and c > 0:
        guesses.append((2 - c + sp.sqrt(c * c + 4)) / 2)
    mid = float((lo + hi) / 2)
    width = float(hi - lo)
    for estimate, tol in ((least_squares, max(width, 1e-9)), (mid, max(width / 2, 1e-12))):
        for constants in (_CONSTANTS, None):
            try:
                guess = sp.nsimplify(estimate, constants or [], tolerance=tol, rational=constants is None)
            except (ValueError, TypeError):
                continue
            guesses.append(guess)
    confirmed = []
    for guess in dict.fromkeys(guesses):
        guess = _closed_form(guess)
        if not guess.is_positive or _parts(guess) is None:
            continue
        if any(_same(guess, g) for g in confirmed):
            continue
        got = evaluate(sp.floor(guess * sp.Symbol("k")), {"k": k})
        if np.array_equal(got, a):
            confirmed.append(guess)
    irrational = [g for g in confirmed if not g.is_Rational]
    # a closed form that holds beats a rational that merely fits the interval the data allows
    return irrational or [g for g in confirmed if g.q <= 12]


def _fmt_const(x) -> str:
    if x == sp.GoldenRatio:
        return "φ"
    if x == sp.GoldenRatio + 1:
        return "φ²"
    text = sp.sstr(x).replace("GoldenRatio", "φ")
    text = text.replace("sqrt(", "√(")
    for m in (2, 3, 5, 6, 7, 8):
        text = text.replace(f"√({m})", f"√{m}")
    return text if x.is_Atom or text.startswith("√") and "+" not in text else f"({text})"


def pairs_expression(alpha, c: int, min_sym, spread_sym):
    """P iff min = ⌊(α/c)·spread⌋ and c divides spread (the pair k = spread / c)."""
    scale = _closed_form(alpha / c)
    rule = sp.Eq(min_sym, sp.floor(scale * spread_sym))
    return rule if c == 1 else sp.And(sp.Eq(sp.Mod(spread_sym, c), 0), rule)


def pairs_words(alpha, c: int, mex: bool) -> str:
    beta = _closed_form(alpha + c)
    a_text, b_text = _fmt_const(alpha), _fmt_const(beta)
    step = "k" if c == 1 else f"{c}k"
    sentence = f"P positions are the pairs {{⌊k{a_text}⌋, ⌊k{b_text}⌋}}, k ≥ 0"
    if mex:
        sentence += f", where a_k = mex{{a_j, b_j : j < k}} and b_k = a_k + {step}"
    else:
        sentence += f", with b_k = a_k + {step}"
    return sentence


class PairsEngine(Engine):
    """Complementary-pairs / Beatty rules for symmetric 2-coordinate tables (target "P").

    Parameters
    ----------
    min_pairs : int
        The fewest pairs a table must show before a rule is proposed.
    random_state : ignored
        Accepted for the common contract; the search is deterministic.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> from discover.table import table_from_solution
    >>> t = table_from_solution(solve(make_game("wythoff"), bound=20))
    >>> best = PairsEngine().fit(t.X, t.is_p, feature_names=t.feature_names).candidates_[0]
    >>> best.expr, best.accuracy
    (Eq(min_all, floor(GoldenRatio*spread)), 1.0)
    """

    name = "pairs"

    def __init__(self, min_pairs=4, random_state=None):
        self.min_pairs = min_pairs
        self.random_state = random_state

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        self.candidates_, self.notes_ = [], []
        names = list(feature_names)
        coords = [n for n in names if n not in DERIVED]
        if target != "P" or len(coords) != 2:
            return self
        X = np.asarray(X)
        positions = X[:, [names.index(c) for c in coords]]
        fit = complementary_pairs(positions, y, self.min_pairs)
        if fit is None:
            return self
        a_sym, b_sym = (sp.Symbol(c) for c in coords)
        min_sym = sp.Symbol("min_all") if "min_all" in names else sp.Min(a_sym, b_sym)
        spread_sym = sp.Symbol("spread") if "spread" in names else sp.Abs(a_sym - b_sym)
        candidates = []
        for alpha in beatty_constants(fit.a, c=fit.c):
            expr = pairs_expression(alpha, fit.c, min_sym, spread_sym)
            accuracy = self.score(expr, X, y, names, sample_weight, target)
            candidates.append(Candidate(expr, target, accuracy, self.name, pairs_words(alpha, fit.c, fit.mex)))
        self.candidates_ = self._ranked(candidates)
        return self
