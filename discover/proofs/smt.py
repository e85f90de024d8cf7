"""Rules and strategies as z3 terms: unbounded integers, or signed bit-vectors wide enough never to wrap.

``Arithmetic`` is the choice of sort.  Integers (``Arithmetic()``) are exact for every rule
built from + - ·, mod and floor division by constants, min, max, |x|, comparisons, set
membership and piecewise branches; ``floor(c·x)`` with c a quadratic irrational (the golden
ratio) is encoded exactly with squares (nonlinear: z3 may answer "unknown").  Bitwise operators
(xor, and, or, carry-less digit sums) need bit-vectors: ``Arithmetic(bits=64)`` states the result
for coordinates below 2^64 and computes in a width chosen by interval analysis of every
expression, so no intermediate value can wrap around (signed arithmetic throughout).

``Unsupported`` is raised for what cannot be stated exactly (a feature such as ``sorted2``, an
irrational constant inside bit-vector arithmetic); the prover turns it into "unknown".
"""

from __future__ import annotations

import math

import sympy as sp
import z3

from discover.expressions import BitAnd, BitOr, BitXor, DigitSum, quadratic_parts
from discover.features import DERIVED

__all__ = ["Arithmetic", "Unsupported", "is_condition", "needs_bits", "expand_features", "split_scale", "value_range", "SmtTranslator"]


class Unsupported(Exception):
    """The expression cannot be stated exactly in this arithmetic."""


_BITWISE = (BitXor, BitAnd, BitOr, DigitSum)


def needs_bits(*exprs) -> bool:
    """True when an expression uses bitwise operators (after derived features are expanded)."""
    return any(e.has(*_BITWISE) for e in exprs)


def expand_features(expr, coordinates) -> sp.Basic:
    """Derived features written out over the coordinate symbols (counts as sums of 0/1 branches).

    Examples
    --------
    >>> expand_features(sp.Eq(sp.Symbol("nonzero"), 1), ["a", "b"])
    Eq(Piecewise((1, a > 0), (0, True)) + Piecewise((1, b > 0), (0, True)), 1)
    """
    coords = [sp.Symbol(n) for n in coordinates]
    counts = {"nonzero": 0, "big": 1}
    subs = {}
    for symbol in expr.free_symbols:
        name = symbol.name
        if name in counts:
            subs[symbol] = sp.Add(*[sp.Piecewise((1, x > counts[name]), (0, True)) for x in coords])
        elif name in DERIVED:
            if name.startswith("sorted"):
                raise Unsupported(f"the feature {name} (an order statistic) has no exact encoding here")
            if len(coords) < DERIVED[name].min_dims:
                raise Unsupported(f"the feature {name} needs {DERIVED[name].min_dims} coordinates")
            subs[symbol] = DERIVED[name].expand(coords)
    return expr.xreplace(subs) if subs else expr


def is_condition(expr) -> bool:
    """True for a condition (a comparison, a connective, membership, true/false, or branches of them);
    a symbol is a value here, though sympy counts it as Boolean too."""
    if isinstance(expr, sp.Piecewise):
        return is_condition(expr.args[0][0])
    return isinstance(expr, (sp.core.relational.Relational, sp.And, sp.Or, sp.Not, sp.Contains,
                             sp.logic.boolalg.BooleanAtom))


def _zero_digit_sum(e):
    """The DigitSum of ``DigitSum(...) = 0`` (or ``≠ 0``), else None: such a test is encoded column by
    column in a few bits, never as the base-m number."""
    if isinstance(e, (sp.Eq, sp.Ne)):
        for side, other in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(side, DigitSum) and other == 0:
                return side
    return None


def _bits(value: int) -> int:
    return max(int(abs(value)).bit_length(), 1)


def split_scale(arg) -> tuple[sp.Basic, sp.Basic]:
    """arg = c · rest with c the product of its numeric factors (floor(c·rest) as evaluated)."""
    coeff, rest = arg.as_coeff_Mul()
    numeric = [f for f in sp.Mul.make_args(rest) if f.is_number]
    rest = sp.Mul(*[f for f in sp.Mul.make_args(rest) if not f.is_number])
    return coeff * sp.Mul(*numeric), rest


def value_range(expr, ranges: dict) -> tuple[tuple[int, int] | None, int]:
    """Integer bounds of an expression, and the largest magnitude of any of its subterms, when
    each symbol lies in ``ranges[name]`` (bounds are None for a condition).

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> value_range(sp.Mod(BitXor(a, b) * b, 5), {"a": (0, 7), "b": (0, 12)})
    ((0, 4), 180)
    """
    peak = 0

    def seen(lo, hi):
        nonlocal peak
        peak = max(peak, abs(lo), abs(hi))
        return lo, hi

    def walk(e):
        if e.is_Integer:
            return seen(int(e), int(e))
        if e.is_Symbol:
            if e.name not in ranges:
                raise Unsupported(f"no range for the symbol {e.name}")
            return seen(*ranges[e.name])
        if isinstance(e, sp.Add):
            parts = [walk(a) for a in e.args]
            return seen(sum(p[0] for p in parts), sum(p[1] for p in parts))
        if isinstance(e, sp.Mul):
            coeff, rest = e.as_coeff_Mul()
            if not coeff.is_Integer:
                raise Unsupported(f"{e}: a non-integer coefficient outside floor()")
            lo = hi = int(coeff)
            for a in sp.Mul.make_args(rest):
                x, y = walk(a)
                corners = [lo * x, lo * y, hi * x, hi * y]
                lo, hi = seen(min(corners), max(corners))
            return lo, hi
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
            x, y = walk(e.base)
            k = int(e.exp)
            corners = [x**k, y**k] + ([0] if x < 0 < y else [])
            return seen(min(corners), max(corners))
        if isinstance(e, sp.Mod):
            walk(e.args[0])
            x, y = walk(e.args[1])
            if x == y and x > 0:
                return seen(0, x - 1)
            top = max(abs(x), abs(y))
            return seen(-top, top)
        if isinstance(e, sp.floor):
            num, den = sp.fraction(sp.together(e.args[0]))
            if not den.is_number:
                x, y = walk(num)
                walk(den)
                top = max(abs(x), abs(y))
                return seen(-top, top)
            c, rest = split_scale(e.args[0])
            x, y = walk(rest)
            ends = sorted([math.floor(float(c) * x), math.floor(float(c) * y)])
            return seen(ends[0] - 1, ends[1] + 1)
        if isinstance(e, (sp.Min, sp.Max)):
            parts = [walk(a) for a in e.args]
            return seen(min(p[0] for p in parts), max(p[1] for p in parts))
        if isinstance(e, sp.Abs):
            x, y = walk(e.args[0])
            return seen(0 if x <= 0 <= y else min(abs(x), abs(y)), max(abs(x), abs(y)))
        if isinstance(e, sp.Piecewise):
            parts = [walk(value) for value, _ in e.args]
            for _, cond in e.args:
                walk_bool(cond)
            return seen(min(p[0] for p in parts), max(p[1] for p in parts))
        if isinstance(e, DigitSum):
            m, parts = int(e.args[0]), [walk(a) for a in e.args[1:]]
            if any(p[0] < 0 for p in parts):
                raise Unsupported(f"{e}: a digit sum of possibly negative values")
            seen(0, len(parts))
            return seen(0, m ** _bits(max(p[1] for p in parts)) - 1)
        if isinstance(e, (BitXor, BitAnd, BitOr)):
            parts = [walk(a) for a in e.args]
            if any(p[0] < 0 for p in parts):
                raise Unsupported(f"{e}: a bitwise operator on possibly negative values")
            return seen(0, (1 << _bits(max(p[1] for p in parts))) - 1)
        raise Unsupported(f"{e} (a {type(e).__name__}) has no exact encoding here")

    def walk_bool(e):
        if isinstance(e, sp.Contains):
            walk(e.args[0])
        elif isinstance(e, (sp.And, sp.Or, sp.Not)):
            for a in e.args:
                walk_bool(a)
        elif _zero_digit_sum(e) is not None:
            for a in _zero_digit_sum(e).args[1:]:
                if walk(a)[0] < 0:
                    raise Unsupported(f"{e}: a digit sum of possibly negative values")
        elif isinstance(e, sp.core.relational.Relational):
            walk(e.lhs)
            walk(e.rhs)
        elif isinstance(e, sp.Piecewise):
            for value, cond in e.args:
                walk_bool(value)
                walk_bool(cond)
        elif e not in (sp.true, sp.false):
            raise Unsupported(f"{e} (a {type(e).__name__}) is not a condition this prover reads")

    if is_condition(expr):
        walk_bool(expr)
        return None, peak
    bounds = walk(expr)
    return bounds, peak


class Arithmetic:
    """Unbounded integers (``bits=None``) or ``bits``-bit positions in signed bit-vectors of ``width``."""

    def __init__(self, bits: int | None = None, width: int | None = None):
        if bits is not None and (width is None or width < bits + 2):
            raise ValueError(f"a width of at least bits + 2 = {bits + 2} is needed, got {width}")
        self.bits, self.width = bits, width

    @property
    def is_bits(self) -> bool:
        return self.bits is not None

    def var(self, name: str):
        return z3.BitVec(name, self.width) if self.is_bits else z3.Int(name)

    def const(self, value: int):
        return z3.BitVecVal(int(value), self.width) if self.is_bits else z3.IntVal(int(value))

    def mod(self, x, y):
        """Python's x mod y (sign of y; 0 for y = 0)."""
        if self.is_bits:
            return z3.If(y == 0, self.const(0), x % y)  # z3py's % on bit-vectors is bvsmod: the sign of y
        pos = x % y
        return z3.If(y == 0, self.const(0), z3.If(y > 0, pos, -((-x) % (-y))))

    def floordiv(self, x, y):
        """Python's x // y (0 for y = 0): exact division of x - (x mod y)."""
        return z3.If(y == 0, self.const(0), (x - self.mod(x, y)) / y)


class SmtTranslator:
    """Translate sympy rule and strategy expressions into z3 terms over an environment of variables.

    Side conditions (definitions of floor(c·x) with c irrational) collect in ``side`` and must be
    asserted with every query that uses the terms.
    """

    def __init__(self, arithmetic: Arithmetic):
        self.ar = arithmetic
        self.side: list = []  # constraints defining the fresh variables
        self.fresh: list = []  # variables standing for floor(c·x) with c irrational
        self.nonlinear = False  # a product of unknowns, a division by one, or a square root was used

    def term(self, expr, env: dict):
        ar = self.ar

        def num(e):
            if e.is_Integer:
                return ar.const(int(e))
            if e.is_Symbol:
                if e.name not in env:
                    raise Unsupported(f"unknown symbol {e.name}")
                return env[e.name]
            if isinstance(e, sp.Add):
                out = num(e.args[0])
                for a in e.args[1:]:
                    out = out + num(a)
                return out
            if isinstance(e, sp.Mul):
                coeff, rest = e.as_coeff_Mul()
                if not coeff.is_Integer:
                    raise Unsupported(f"{e}: a non-integer coefficient outside floor()")
                factors = sp.Mul.make_args(rest)
                self.nonlinear |= len(factors) > 1
                out = ar.const(int(coeff))
                for a in factors:
                    out = out * num(a)
                return out
            if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
                out = ar.const(1)
                for _ in range(int(e.exp)):
                    out = out * num(e.base)
                return out
            if isinstance(e, sp.Mod):
                self.nonlinear |= not e.args[1].is_Integer
                return ar.mod(num(e.args[0]), num(e.args[1]))
            if isinstance(e, sp.floor):
                return floor(e.args[0])
            if isinstance(e, sp.Min) or isinstance(e, sp.Max):
                parts = [num(a) for a in e.args]
                out = parts[0]
                for p in parts[1:]:
                    out = z3.If(p < out, p, out) if isinstance(e, sp.Min) else z3.If(p > out, p, out)
                return out
            if isinstance(e, sp.Abs):
                x = num(e.args[0])
                return z3.If(x < 0, -x, x)
            if isinstance(e, sp.Piecewise):
                return piecewise(e, num)
            if isinstance(e, (BitXor, BitAnd, BitOr)):
                if not ar.is_bits:
                    raise Unsupported(f"{e}: bitwise operators need bit-vectors")
                parts = [num(a) for a in e.args]
                out = parts[0]
                for p in parts[1:]:
                    out = {BitXor: lambda x, y: x ^ y, BitAnd: lambda x, y: x & y, BitOr: lambda x, y: x | y}[type(e)](out, p)
                return out
            if isinstance(e, DigitSum):
                return digit_sum(e)
            raise Unsupported(f"{e} (a {type(e).__name__}) has no exact encoding here")

        def residues(e):
            """Each binary column's sum mod m, as small bit-vectors (bit 0 first)."""
            if not ar.is_bits:
                raise Unsupported(f"{e}: digit sums need bit-vectors")
            if any(not a.is_Symbol for a in e.args[1:]):
                raise Unsupported(f"{e}: a digit sum of terms other than coordinates")
            m, parts = int(e.args[0]), [num(a) for a in e.args[1:]]
            small = max(len(parts), m).bit_length() + 1
            out = []
            for b in range(ar.bits):  # arguments are coordinates, below 2^bits
                column = sum((z3.ZeroExt(small - 1, z3.Extract(b, b, p)) for p in parts[1:]),
                             z3.ZeroExt(small - 1, z3.Extract(b, b, parts[0])))
                out.append(z3.URem(column, z3.BitVecVal(m, small)))
            return out

        def digit_sum(e):
            m = int(e.args[0])
            return sum((z3.ZeroExt(ar.width - r.size(), r) * ar.const(m**b) for b, r in enumerate(residues(e))),
                       ar.const(0))

        def floor(arg):
            num_, den = sp.fraction(sp.together(arg))
            if not den.is_number:
                self.nonlinear = True
                return ar.floordiv(num(num_), num(den))
            coeff, rest = split_scale(arg)
            parts = quadratic_parts(coeff)
            if parts is None:
                raise Unsupported(f"floor({arg}): the constant {coeff} is not rational or quadratic")
            p, q, m, r = parts
            x = num(rest)
            if q == 0:
                return ar.floordiv(ar.const(p) * x, ar.const(r))
            if ar.is_bits:
                raise Unsupported(f"floor({arg}): an irrational constant inside bit-vector arithmetic")
            return self._quadratic_floor(p, q, m, r, x)

        def piecewise(e, translate):
            """A Piecewise as nested z3.If, its branches translated by ``translate`` (num or boolean)."""
            out = None
            for value, cond in reversed(e.args):
                v = translate(value)
                out = v if out is None else z3.If(boolean(cond), v, out)
            return out

        def boolean(e):
            if e is sp.true:
                return z3.BoolVal(True)
            if e is sp.false:
                return z3.BoolVal(False)
            if isinstance(e, sp.And):
                return z3.And(*[boolean(a) for a in e.args])
            if isinstance(e, sp.Or):
                return z3.Or(*[boolean(a) for a in e.args])
            if isinstance(e, sp.Not):
                return z3.Not(boolean(e.args[0]))
            if isinstance(e, sp.Contains):
                x = num(e.args[0])
                return z3.Or(*[x == ar.const(int(v)) for v in e.args[1]])
            if _zero_digit_sum(e) is not None:
                zero = z3.And(*[r == 0 for r in residues(_zero_digit_sum(e))])
                return zero if isinstance(e, sp.Eq) else z3.Not(zero)
            ops = {sp.Eq: lambda x, y: x == y, sp.Ne: lambda x, y: x != y, sp.StrictLessThan: lambda x, y: x < y,
                   sp.LessThan: lambda x, y: x <= y, sp.StrictGreaterThan: lambda x, y: x > y,
                   sp.GreaterThan: lambda x, y: x >= y}
            if type(e) in ops:
                return ops[type(e)](num(e.lhs), num(e.rhs))
            if isinstance(e, sp.Piecewise):
                return piecewise(e, boolean)
            raise Unsupported(f"{e} (a {type(e).__name__}) is not a condition this prover reads")

        return boolean(expr) if is_condition(expr) else num(expr)

    def _quadratic_floor(self, p, q, m, r, x):
        """y = floor((p + q·sqrt(m)) x / r): r y - p x <= q x sqrt(m) < r y + r - p x, by squares."""
        y = z3.Int(f"floor_{len(self.fresh)}_{id(self)}")
        self.fresh.append(y)
        self.nonlinear = True
        u, low, high = q * x, r * y - p * x, r * y + r - p * x
        lower = z3.If(u >= 0, z3.Or(low <= 0, low * low <= m * u * u), z3.And(low <= 0, low * low >= m * u * u))
        upper = z3.If(u >= 0, z3.And(high > 0, m * u * u < high * high), z3.Or(high > 0, high * high < m * u * u))
        self.side += [lower, upper]
        return y
