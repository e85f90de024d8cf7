"""Exact integer arithmetic for ``floor(c·x)``: c rational, or quadratic such as the golden ratio.

``split_scale`` separates the constant of a floor's argument (the same split for numpy, z3 and the
interval analysis); ``quadratic_parts`` writes the constant as (p + q·sqrt(m)) / r; ``exact_floor``
computes floor(c·x) over int64 arrays with integer square roots, never floating point, so a rule
checked on a million positions is checked exactly; ``Surd`` adds, inverts and compares such constants
with rationals (a theorem's hypotheses on them, checked without sympy's simplification).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp

__all__ = ["split_scale", "quadratic_parts", "quadratic_parts_or_fail", "exact_floor", "Surd"]


def split_scale(arg) -> tuple[sp.Basic, sp.Basic]:
    """arg = c · rest with c the product of its numeric factors (floor(c·rest) as evaluated).

    Examples
    --------
    >>> a = sp.Symbol("a")
    >>> split_scale(sp.sqrt(2) * a / 3), split_scale(sp.Integer(5))
    ((sqrt(2)/3, a), (5, 1))
    """
    coeff, rest = arg.as_coeff_Mul()
    numeric = [f for f in sp.Mul.make_args(rest) if f.is_number]
    rest = sp.Mul(*[f for f in sp.Mul.make_args(rest) if not f.is_number])
    return coeff * sp.Mul(*numeric), rest


def quadratic_parts(c) -> tuple[int, int, int, int] | None:
    """Write a constant as (p + q*sqrt(m)) / r with integers (m squarefree > 1 or q == 0), else None.

    Read off the constant's terms when its radicals are in the open (φ, √2 / 2, 1/φ after ``radsimp``); sympy's
    ``nsimplify`` (much slower the first time: it parses text) only for other forms.

    Examples
    --------
    >>> quadratic_parts(sp.GoldenRatio), quadratic_parts(sp.Rational(3, 4)), quadratic_parts(sp.pi)
    ((1, 1, 5, 2), (3, 0, 0, 4), None)
    >>> quadratic_parts(1 / sp.GoldenRatio)
    (-1, 1, 5, 2)
    """
    radicals = sp.expand(sp.sympify(c).rewrite(sp.sqrt))
    return _terms(radicals) or _terms(sp.radsimp(radicals)) or _terms(sp.nsimplify(radicals))


def _terms(c) -> tuple[int, int, int, int] | None:
    """(p, q, m, r) of a constant that reads p/r + (q/r)·sqrt(m) term by term, else None."""
    if c.is_Rational:
        return int(c.p), 0, 0, int(c.q)
    p, q, m = sp.Integer(0), sp.Integer(0), None
    for term in sp.Add.make_args(sp.expand(c)):
        coeff, rest = term.as_coeff_Mul()
        if rest == 1:
            p += coeff
            continue
        if not (isinstance(rest, sp.Pow) and rest.exp == sp.Rational(1, 2) and rest.base.is_Integer):
            return None
        if m is not None and rest.base != m:
            return None
        m, q = rest.base, q + coeff
    if not (p.is_Rational and q.is_Rational):
        return None
    r = sp.ilcm(sp.Rational(p).q, sp.Rational(q).q)
    return int(p * r), int(q * r), int(m or 0), int(r)


@functools.lru_cache(maxsize=256)
def quadratic_parts_or_fail(c):
    """``quadratic_parts(c)``, or a ValueError saying the constant cannot be evaluated exactly.

    Examples
    --------
    >>> quadratic_parts_or_fail(sp.sqrt(2))
    (0, 1, 2, 1)
    """
    parts = quadratic_parts(c)
    if parts is None:
        raise ValueError(f"cannot evaluate floor({c} * x) exactly: {c} is not rational or quadratic")
    return parts


def _isqrt(values: np.ndarray) -> np.ndarray:
    """Exact floor(sqrt(v)) for int64 v >= 0 (float estimate, then integer correction)."""
    root = np.floor(np.sqrt(values.astype(np.float64))).astype(np.int64)
    for _ in range(2):
        root -= (root * root > values).astype(np.int64)
        root += ((root + 1) * (root + 1) <= values).astype(np.int64)
    return root


def exact_floor(c, x) -> np.ndarray:
    """Exact floor(c * x) for an integer array x and c rational or quadratic, (p + q sqrt(m)) / r.

    Examples
    --------
    >>> exact_floor(sp.GoldenRatio, np.array([1, 2, 3, -1])).tolist()
    [1, 3, 4, -2]
    """
    p, q, m, r = quadratic_parts_or_fail(c)
    x = np.asarray(x, dtype=np.int64)
    if q == 0:
        return np.floor_divide(p * x, r)
    qx = q * x
    root = _isqrt(m * qx * qx)  # floor(|q x| sqrt(m))
    exact = root * root == m * qx * qx
    irr = np.where(qx >= 0, root, -root - (~exact).astype(np.int64))  # floor(q x sqrt(m))
    return np.floor_divide(p * x + irr, r)


@dataclass(frozen=True)
class Surd:
    """u + v·sqrt(m), u and v rational, m squarefree > 1 (or 0 with v = 0): exact arithmetic in Q(sqrt(m)).

    Examples
    --------
    >>> phi = Surd.of(sp.GoldenRatio)
    >>> (1 / phi + 1 / (phi + 1)).sign(), (1 / phi + 1 / (phi + 1) - 1).sign(), phi.rational
    (1, 0, False)
    """

    u: Fraction
    v: Fraction = Fraction(0)
    m: int = 0

    def __post_init__(self):
        if self.v and (self.m < 2 or any(self.m % (k * k) == 0 for k in range(2, int(self.m ** 0.5) + 1))):
            raise ValueError(f"sqrt({self.m}) must be of a squarefree m > 1 where v = {self.v} is not 0")

    @classmethod
    def of(cls, c) -> Surd:
        """The constant ``c`` (sympy, rational or quadratic); a ValueError for any other."""
        p, q, m, r = quadratic_parts_or_fail(c)
        return cls(Fraction(p, r), Fraction(q, r), m)

    @property
    def rational(self) -> bool:
        return self.v == 0

    def _lift(self, other) -> Surd:
        other = other if isinstance(other, Surd) else Surd(Fraction(other))
        if self.m and other.m and self.m != other.m:
            raise ValueError(f"sqrt({self.m}) and sqrt({other.m}) are not in one quadratic field")
        return other

    def __add__(self, other) -> Surd:
        other = self._lift(other)
        return Surd(self.u + other.u, self.v + other.v, self.m or other.m)

    __radd__ = __add__

    def __neg__(self) -> Surd:
        return Surd(-self.u, -self.v, self.m)

    def __sub__(self, other) -> Surd:
        return self + -self._lift(other)

    def __rtruediv__(self, other) -> Surd:
        """other / self: other times the conjugate over the norm u² - m v² (never 0 for m squarefree)."""
        norm = self.u * self.u - self.m * self.v * self.v
        if norm == 0:
            raise ZeroDivisionError("division by zero")
        scale = Fraction(other) / norm
        return Surd(self.u * scale, -self.v * scale, self.m)

    def sign(self) -> int:
        """-1, 0 or 1: the sign of u + v·sqrt(m), decided on integers."""
        su, sv = (self.u > 0) - (self.u < 0), (self.v > 0) - (self.v < 0)
        if sv == 0 or su == sv:
            return sv or su
        if su == 0:
            return sv
        return su if self.u * self.u > self.m * self.v * self.v else sv
