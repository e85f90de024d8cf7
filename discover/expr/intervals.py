"""The interval backend: integer bounds of an expression and of every subterm, for bit-vector widths.

``value_range`` tells the z3 backend how wide its signed bit-vectors must be so that no intermediate
value of a rule or strategy wraps around.  Bounds are sound, not tight (min and max share one
bound; floor(c·x) is widened by one on each side).
"""

from __future__ import annotations

import math

import sympy as sp

from discover.expr.exact import split_scale
from discover.expr.nodes import is_condition, zero_digit_sum
from discover.expr.walker import TypedWalker, Unsupported

__all__ = ["IntervalAnalysis", "value_range"]


def _bits(value: int) -> int:
    return max(int(abs(value)).bit_length(), 1)


class IntervalAnalysis(TypedWalker):
    """Bounds (lo, hi) of each integer-valued node (None for a condition), recording in ``peak`` the
    largest magnitude met; each symbol lies in ``ranges[name]``.

    Examples
    --------
    >>> walker = IntervalAnalysis({"n": (0, 9)})
    >>> walker.walk(3 * sp.Symbol("n") - 1), walker.peak
    ((-1, 26), 27)
    """

    def __init__(self, ranges: dict):
        self.ranges = ranges
        self.peak = 0

    def refuse(self, e):
        raise Unsupported(f"{e} (a {type(e).__name__}) has no exact encoding here")

    def seen(self, lo, hi):
        """Record the bounds of a subterm and return them."""
        self.peak = max(self.peak, abs(lo), abs(hi))
        return lo, hi

    def _hull(self, e):
        parts = [self.value(a) for a in e.args]
        return self.seen(min(p[0] for p in parts), max(p[1] for p in parts))

    def _nonnegative(self, e, args, what):
        parts = [self.value(a) for a in args]
        if any(p[0] < 0 for p in parts):
            raise Unsupported(f"{e}: {what} possibly negative values")
        return parts

    def _walk_Symbol(self, e):
        if e.name not in self.ranges:
            raise Unsupported(f"no range for the symbol {e.name}")
        return self.seen(*self.ranges[e.name])

    def _walk_Integer(self, e):
        return self.seen(int(e), int(e))

    def _walk_BooleanTrue(self, e):
        return None

    _walk_BooleanFalse = _walk_BooleanTrue
    _walk_Rational = _walk_GoldenRatio = refuse  # exact only inside floor()

    def _walk_Add(self, e):
        parts = [self.value(a) for a in e.args]
        return self.seen(sum(p[0] for p in parts), sum(p[1] for p in parts))

    def _walk_Mul(self, e):
        coeff, rest = e.as_coeff_Mul()
        if not coeff.is_Integer:
            raise Unsupported(f"{e}: a non-integer coefficient outside floor()")
        lo = hi = int(coeff)
        for a in sp.Mul.make_args(rest):
            x, y = self.value(a)
            corners = [lo * x, lo * y, hi * x, hi * y]
            lo, hi = self.seen(min(corners), max(corners))
        return lo, hi

    def _walk_Pow(self, e):
        if not (e.exp.is_Integer and e.exp >= 0):
            return self.refuse(e)
        x, y = self.value(e.base)
        k = int(e.exp)
        corners = [x**k, y**k] + ([0] if x < 0 < y else [])
        return self.seen(min(corners), max(corners))

    def _walk_Mod(self, e):
        self.value(e.args[0])
        x, y = self.value(e.args[1])
        if x == y and x > 0:
            return self.seen(0, x - 1)
        top = max(abs(x), abs(y))
        return self.seen(-top, top)

    def _walk_floor(self, e):
        num, den = sp.fraction(sp.together(e.args[0]))
        if not den.is_number:
            x, y = self.value(num)
            self.value(den)
            top = max(abs(x), abs(y))
            return self.seen(-top, top)
        c, rest = split_scale(e.args[0])
        x, y = self.value(rest)
        ends = sorted([math.floor(float(c) * x), math.floor(float(c) * y)])
        return self.seen(ends[0] - 1, ends[1] + 1)

    def _walk_ceiling(self, e):
        return self.value(-sp.floor(-e.args[0]))

    _walk_Min = _walk_Max = _hull

    def _walk_Abs(self, e):
        x, y = self.value(e.args[0])
        return self.seen(0 if x <= 0 <= y else min(abs(x), abs(y)), max(abs(x), abs(y)))

    def _bitwise(self, e):
        parts = self._nonnegative(e, e.args, "a bitwise operator on")
        return self.seen(0, (1 << _bits(max(p[1] for p in parts))) - 1)

    _walk_BitXor = _walk_BitAnd = _walk_BitOr = _bitwise

    def _magnitudes(self, e):
        """The least and the largest |x| of the argument of a function of binary digits."""
        x, y = self.value(e.args[0])
        return (0 if x <= 0 <= y else min(abs(x), abs(y))), max(abs(x), abs(y))

    def _walk_LowBit(self, e):
        least, top = self._magnitudes(e)
        return self.seen(1 if least else 0, top)

    def _walk_Valuation2(self, e):
        return self.seen(0, _bits(self._magnitudes(e)[1]) - 1)

    def _walk_OddPart(self, e):
        least, top = self._magnitudes(e)
        return self.seen(1 if least else 0, top)

    def _walk_BitCount(self, e):
        least, top = self._magnitudes(e)
        return self.seen(1 if least else 0, _bits(top))

    def _walk_BitLength(self, e):
        least, top = self._magnitudes(e)
        return self.seen(least.bit_length(), top.bit_length())

    def _walk_DigitSum(self, e):
        m, parts = int(e.args[0]), self._nonnegative(e, e.args[1:], "a digit sum of")
        self.seen(0, len(parts))
        return self.seen(0, m ** _bits(max(p[1] for p in parts)) - 1)

    def _walk_ZeckendorfLeast(self, e):
        (low, high), = self._nonnegative(e, e.args, "the least Zeckendorf part of")
        return self.seen(0 if low <= 0 else 1, high)

    def _walk_NimProduct(self, e):  # the field below 2^(2^k) holds every product of its elements
        parts = self._nonnegative(e, e.args, "a nim-product of")
        field = 1 << max(_bits(max(p[1] for p in parts)) - 1, 0).bit_length()
        return self.seen(0, (1 << field) - 1)

    def _walk_Relational(self, e):
        digits = zero_digit_sum(e)
        if digits is not None:
            self._nonnegative(e, digits.args[1:], "a digit sum of")
        else:
            self.value(e.lhs)
            self.value(e.rhs)
        return None

    def _connective(self, e):
        for a in e.args:
            self.condition(a)
        return None

    _walk_And = _walk_Or = _walk_Not = _connective

    def _walk_Contains(self, e):
        self.value(e.args[0])
        return None

    def _walk_Piecewise(self, e):
        if is_condition(e):
            for value, cond in e.args:
                self.condition(value)
                self.condition(cond)
            return None
        parts = [self.value(value) for value, _ in e.args]
        for _, cond in e.args:
            self.condition(cond)
        return self.seen(min(p[0] for p in parts), max(p[1] for p in parts))


def value_range(expr, ranges: dict) -> tuple[tuple[int, int] | None, int]:
    """Integer bounds of an expression, and the largest magnitude of any of its subterms, when
    each symbol lies in ``ranges[name]`` (bounds are None for a condition).

    Examples
    --------
    >>> from discover.expr.nodes import BitXor
    >>> a, b = sp.symbols("a b")
    >>> value_range(sp.Mod(BitXor(a, b) * b, 5), {"a": (0, 7), "b": (0, 12)})
    ((0, 4), 180)
    """
    walker = IntervalAnalysis(ranges)
    bounds = walker.walk(expr)
    return bounds, walker.peak
