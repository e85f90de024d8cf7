"""Float constants snapped to exact ones: closed forms (φ, √2, √3, √5), integers and small rationals.

A regression backend returns float constants, and a float is never a rule.  ``snap_constant``
lists the exact constants near a float, ``snap_model`` rebuilds a float model with them, and
``interval_constants`` picks the plainest exact constant inside an interval the data allows
(``slope_interval``: every c with ⌊c·x⌋ = y on every row), since least-squares constants on floor
data are off by a few percent.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import sympy as sp

from discover.expr.exact import quadratic_parts

__all__ = ["constant_cost", "interval_constants", "slope_interval", "snap_constant", "snap_model"]

_CLOSED = [sp.GoldenRatio, sp.sqrt(2), sp.sqrt(3), sp.sqrt(5)]
# named constants tried first when a coefficient is only known to lie in an interval
_NAMED = [sp.GoldenRatio, sp.GoldenRatio + 1, sp.GoldenRatio - 1, sp.sqrt(2), sp.sqrt(3), sp.sqrt(5),
          1 + sp.sqrt(2), 1 + sp.sqrt(3), sp.sqrt(2) / 2, sp.sqrt(3) / 2, 2 + sp.sqrt(3)]
_MAX_DENOMINATOR = 12


def snap_constant(value: float, tolerance: float = 1e-3) -> list[sp.Expr]:
    """Exact constants within ``tolerance`` of ``value``: closed forms, then small rationals.

    >>> snap_constant(1.6180339)
    [GoldenRatio]
    >>> snap_constant(0.33334)
    [1/3]
    """
    value = float(value)
    found = []
    if abs(value - round(value)) <= tolerance:
        found.append(sp.Integer(round(value)))
    rational = Fraction(value).limit_denominator(_MAX_DENOMINATOR)
    if abs(float(rational) - value) <= tolerance:
        found.append(sp.Rational(rational.numerator, rational.denominator))
    for named in _NAMED:
        for scale in (1, -1, 2, sp.Rational(1, 2)):
            c = scale * named
            if abs(float(c) - value) <= tolerance:
                found.append(c)
    try:
        guess = sp.nsimplify(value, _CLOSED, tolerance=tolerance)
        if guess.is_number and abs(float(guess) - value) <= tolerance and _plain(guess):
            found.append(_tidy(guess))
    except (ValueError, TypeError, ZeroDivisionError):
        pass
    unique = []
    for c in found:
        if not any(sp.simplify(c - u) == 0 for u in unique):
            unique.append(c)
    return sorted(unique, key=constant_cost)


def _plain(c) -> bool:
    """A constant worth printing: (p + q√m) / r with m in {2, 3, 5} and small integers."""
    parts = quadratic_parts(c)
    if parts is None:
        return False
    p, q, m, r = parts
    return m in (0, 2, 3, 5) and max(abs(p), abs(q), r) <= 2 * _MAX_DENOMINATOR


def _tidy(c):
    """φ rather than 1/2 + √5/2."""
    for named in (sp.GoldenRatio, sp.GoldenRatio + 1, sp.GoldenRatio - 1):
        if sp.simplify(c - named.rewrite(sp.sqrt)) == 0:
            return named
    return sp.radsimp(c)


def constant_cost(c) -> tuple:
    """Sort key of a constant: integers, then named closed forms, then rationals by denominator.

    >>> sorted([sp.Rational(1, 3), sp.GoldenRatio, sp.Integer(2)], key=constant_cost)
    [2, GoldenRatio, 1/3]
    """
    c = sp.sympify(c)
    if c.is_Integer:
        return (0, abs(int(c)))
    if c.is_Rational:
        return (2, int(c.q), abs(int(c.p)))
    return (1, sp.count_ops(c), str(c))


def _simplest_rational(lo: Fraction, hi: Fraction) -> Fraction | None:
    """The rational with the least denominator in [lo, hi) (Stern–Brocot), or None."""
    if lo >= hi:
        return None
    for q in range(1, _MAX_DENOMINATOR + 1):
        p = math.ceil(lo * q)
        if Fraction(p, q) < hi:
            return Fraction(p, q)
    return None


def _in_interval(c, lo: Fraction, hi: Fraction) -> bool:
    """lo <= c < hi, exactly (c rational or quadratic)."""
    c = sp.sympify(c)
    return bool(sp.Rational(lo.numerator, lo.denominator) <= c) and bool(c < sp.Rational(hi.numerator, hi.denominator))


def slope_interval(x, y) -> tuple[Fraction, Fraction] | None:
    """The exact interval [lo, hi) of c with ⌊c·x⌋ = y on every row, or None.

    >>> import numpy as np
    >>> slope_interval(np.array([1, 2, 3]), np.array([1, 3, 4]))
    (Fraction(3, 2), Fraction(5, 3))
    """
    lo, hi = Fraction(-10**9), Fraction(10**9)
    for xv, yv in set(zip(x.tolist(), y.tolist())):
        if xv == 0:
            if yv != 0:
                return None
            continue
        a, b = Fraction(yv, xv), Fraction(yv + 1, xv)
        if xv > 0:
            lo, hi = max(lo, a), min(hi, b)
        else:  # y <= c x < y + 1 with x < 0: (y + 1) / x < c <= y / x; keep half-open, conservatively
            lo, hi = max(lo, b + Fraction(1, 10**12)), min(hi, a)
        if lo >= hi:
            return None
    return lo, hi


def interval_constants(lo: Fraction, hi: Fraction, estimate: float) -> list[sp.Expr]:
    """Exact constants in [lo, hi), plainest first (an integer, a named closed form, a rational).

    >>> interval_constants(Fraction(3, 2), Fraction(5, 3), estimate=1.6)
    [GoldenRatio, 3/2]
    """
    found = []
    if math.ceil(lo) < hi:
        found.append(sp.Integer(math.ceil(lo)))
    mid = float((lo + hi) / 2)
    width = float(hi - lo)
    for named in _NAMED:
        if lo - 1 < float(named) < hi + 1 and _in_interval(named, lo, hi):
            found.append(named)
    for value in (mid, estimate):
        try:
            guess = sp.nsimplify(value, _CLOSED, tolerance=max(width / 2, 1e-12))
            if _plain(guess) and _in_interval(guess, lo, hi):
                found.append(_tidy(guess))
        except (ValueError, TypeError, ZeroDivisionError):
            pass
    rational = _simplest_rational(lo, hi)
    if rational is not None:
        found.append(sp.Rational(rational.numerator, rational.denominator))
    unique = []
    for c in found:
        if not any(sp.simplify(c - u) == 0 for u in unique):
            unique.append(c)
    return sorted(unique, key=constant_cost)


def snap_model(model, tolerances=(1e-3, 1e-2, 3e-2), max_combinations=64):
    """Exact rebuilds of a float model, each float replaced by a snapped constant (plainest first).

    >>> snap_model(1.61803 * sp.Symbol("k") + 0.4999)
    [GoldenRatio*k + 1/2]
    """
    model = sp.expand(model)
    floats = sorted(model.atoms(sp.Float), key=lambda f: -abs(float(f)))
    if not floats:
        return [model]
    rebuilt = []
    for tol in tolerances:
        options = []
        for f in floats:
            snaps = snap_constant(float(f), tol)
            if abs(float(f)) <= max(tol, 0.05):
                snaps = [sp.Integer(0)] + snaps
            options.append(snaps[:3] or [None])
        if any(o == [None] for o in options):
            continue
        for combo in itertools.islice(itertools.product(*options), max_combinations):
            expr = sp.expand(model.xreplace(dict(zip(floats, combo))))
            if not expr.atoms(sp.Float):
                rebuilt.append(expr)
        if rebuilt:
            break
    return rebuilt
