"""The z3 backend: rules and strategies as z3 terms, over unbounded integers or wide signed bit-vectors.

``Arithmetic`` is the choice of sort.  Integers (``Arithmetic()``) are exact for every rule
built from + - ·, mod and floor division by constants, min, max, |x|, comparisons, set
membership and piecewise branches; ``floor(c·x)`` with c a quadratic irrational (the golden
ratio) is encoded exactly with squares (nonlinear: z3 may answer "unknown").  Bitwise operators
(xor, and, or, carry-less digit sums) and the functions of binary digits (the largest power of 2
dividing x, ν₂, the odd part, the binary weight, the number of binary digits), the least Zeckendorf part (a greedy
over the Fibonacci numbers the width holds) and nim-products (for coordinates below 2^32 only) need bit-vectors:
``Arithmetic(bits=64)`` states the result for coordinates below 2^64 and computes in a width chosen by
interval analysis of every expression (``discover.expr.intervals``), so no intermediate value can wrap around
(signed arithmetic throughout).

``Unsupported`` is raised for what cannot be stated exactly (a feature such as ``sorted2``, an
irrational constant inside bit-vector arithmetic); the prover turns it into "unknown".
"""

from __future__ import annotations

import sympy as sp
import z3

from discover.expr.exact import quadratic_parts, split_scale
from discover.expr.nodes import NEEDS_BITS, is_condition, zero_digit_sum
from discover.expr.walker import TypedWalker, Unsupported
from discover.expr.nimber import FIELD_BITS, power_product
from discover.expr.zeckendorf import fibonacci_below

__all__ = ["Arithmetic", "SmtTranslator", "needs_bits"]

_RELATIONS = {"==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
              "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}


def needs_bits(*exprs) -> bool:
    """True when an expression uses bitwise operators or binary digits (after derived features are expanded).

    Examples
    --------
    >>> from discover.expr.nodes import BitXor
    >>> a, b = sp.symbols("a b")
    >>> needs_bits(sp.Eq(BitXor(a, b), 0)), needs_bits(a + b)
    (True, False)
    """
    return any(e.has(*NEEDS_BITS) for e in exprs)


class Arithmetic:
    """Unbounded integers (``bits=None``) or ``bits``-bit positions in signed bit-vectors of ``width``.

    Examples
    --------
    >>> Arithmetic(bits=8, width=12).var("a").sort()
    BitVec(12)
    """

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


class SmtTranslator(TypedWalker):
    """Translate sympy rule and strategy expressions into z3 terms over an environment of variables.

    Side conditions (definitions of floor(c·x) with c irrational) collect in ``side`` and must be
    asserted with every query that uses the terms.

    Examples
    --------
    >>> ar = Arithmetic()
    >>> rule = SmtTranslator(ar).term(sp.Eq(sp.Mod(sp.Symbol("n"), 3), 1), {"n": ar.var("n")})
    >>> solver = z3.Solver()
    >>> solver.add(rule, ar.var("n") == 7)
    >>> solver.check()
    sat
    """

    def __init__(self, arithmetic: Arithmetic):
        self.ar = arithmetic
        self.side: list = []  # constraints defining the fresh variables
        self.fresh: list = []  # variables standing for floor(c·x) with c irrational
        self.nonlinear = False  # a product of unknowns, a division by one, or a square root was used
        self.env: dict = {}

    def term(self, expr, env: dict):
        """The z3 term of ``expr`` (a Bool for a condition), its symbols read from ``env``."""
        self.env = env
        return self.walk(expr)

    def refuse(self, e):
        raise Unsupported(f"{e} (a {type(e).__name__}) has no exact encoding here")

    def _fold(self, args, op):
        parts = [self.value(a) for a in args]
        out = parts[0]
        for p in parts[1:]:
            out = op(out, p)
        return out

    def _walk_Symbol(self, e):
        if e.name not in self.env:
            raise Unsupported(f"unknown symbol {e.name}")
        return self.env[e.name]

    def _walk_Integer(self, e):
        return self.ar.const(int(e))

    def _walk_BooleanTrue(self, e):
        return z3.BoolVal(True)

    def _walk_BooleanFalse(self, e):
        return z3.BoolVal(False)

    _walk_Rational = _walk_GoldenRatio = refuse  # exact only inside floor()

    def _walk_Add(self, e):
        return self._fold(e.args, lambda x, y: x + y)

    def _walk_Mul(self, e):
        coeff, rest = e.as_coeff_Mul()
        if not coeff.is_Integer:
            raise Unsupported(f"{e}: a non-integer coefficient outside floor()")
        factors = sp.Mul.make_args(rest)
        self.nonlinear |= len(factors) > 1
        out = self.ar.const(int(coeff))
        for a in factors:
            out = out * self.value(a)
        return out

    def _walk_Pow(self, e):
        if not (e.exp.is_Integer and e.exp >= 0):
            return self.refuse(e)
        out = self.ar.const(1)
        for _ in range(int(e.exp)):
            out = out * self.value(e.base)
        return out

    def _walk_Mod(self, e):
        self.nonlinear |= not e.args[1].is_Integer
        return self.ar.mod(self.value(e.args[0]), self.value(e.args[1]))

    def _walk_floor(self, e):
        ar, arg = self.ar, e.args[0]
        num, den = sp.fraction(sp.together(arg))
        if not den.is_number:
            self.nonlinear = True
            return ar.floordiv(self.value(num), self.value(den))
        coeff, rest = split_scale(arg)
        parts = quadratic_parts(coeff)
        if parts is None:
            raise Unsupported(f"floor({arg}): the constant {coeff} is not rational or quadratic")
        p, q, m, r = parts
        x = self.value(rest)
        if q == 0:
            return ar.floordiv(ar.const(p) * x, ar.const(r))
        if ar.is_bits:
            raise Unsupported(f"floor({arg}): an irrational constant inside bit-vector arithmetic")
        return self._quadratic_floor(p, q, m, r, x)

    def _walk_ceiling(self, e):
        return self.value(-sp.floor(-e.args[0]))

    def _walk_Min(self, e):
        return self._fold(e.args, lambda out, p: z3.If(p < out, p, out))

    def _walk_Max(self, e):
        return self._fold(e.args, lambda out, p: z3.If(p > out, p, out))

    def _walk_Abs(self, e):
        x = self.value(e.args[0])
        return z3.If(x < 0, -x, x)

    def _bitwise(self, e, op):
        if not self.ar.is_bits:
            raise Unsupported(f"{e}: bitwise operators need bit-vectors")
        return self._fold(e.args, op)

    def _walk_BitXor(self, e):
        return self._bitwise(e, lambda x, y: x ^ y)

    def _walk_BitAnd(self, e):
        return self._bitwise(e, lambda x, y: x & y)

    def _walk_BitOr(self, e):
        return self._bitwise(e, lambda x, y: x | y)

    def _digit_bits(self, e):
        """The bits of |x| (bit 0 first) as 1-bit vectors, for a function of the binary digits of x."""
        if not self.ar.is_bits:
            raise Unsupported(f"{e}: binary digits need bit-vectors")
        x = self.value(e.args[0])
        x = z3.If(x < 0, -x, x)
        return x, [z3.Extract(b, b, x) for b in range(self.ar.width)]

    def _weight(self, bits):
        width = self.ar.width
        return sum((z3.ZeroExt(width - 1, bit) for bit in bits[1:]), z3.ZeroExt(width - 1, bits[0]))

    def _walk_LowBit(self, e):
        x, _ = self._digit_bits(e)
        return x & -x

    def _walk_Valuation2(self, e):
        x, _ = self._digit_bits(e)
        low = x & -x
        return z3.If(x == 0, self.ar.const(0), self._weight([z3.Extract(b, b, low - 1) for b in range(self.ar.width)]))

    def _walk_OddPart(self, e):
        x, _ = self._digit_bits(e)
        return z3.LShR(x, self._walk_Valuation2(e))

    def _walk_BitCount(self, e):
        return self._weight(self._digit_bits(e)[1])

    def _walk_BitLength(self, e):
        x, bits = self._digit_bits(e)
        out = self.ar.const(0)
        for b, bit in enumerate(bits):  # the highest 1 decides: its place plus one
            out = z3.If(bit == 1, self.ar.const(b + 1), out)
        return out

    def _residues(self, e):
        """Each binary column's sum mod m, as small bit-vectors (bit 0 first)."""
        ar = self.ar
        if not ar.is_bits:
            raise Unsupported(f"{e}: digit sums need bit-vectors")
        if any(not a.is_Symbol for a in e.args[1:]):
            raise Unsupported(f"{e}: a digit sum of terms other than coordinates")
        m, parts = int(e.args[0]), [self.value(a) for a in e.args[1:]]
        small = max(len(parts), m).bit_length() + 1
        out = []
        for b in range(ar.bits):  # arguments are coordinates, below 2^bits
            column = sum((z3.ZeroExt(small - 1, z3.Extract(b, b, p)) for p in parts[1:]),
                         z3.ZeroExt(small - 1, z3.Extract(b, b, parts[0])))
            out.append(z3.URem(column, z3.BitVecVal(m, small)))
        return out

    def _walk_DigitSum(self, e):
        ar, m = self.ar, int(e.args[0])
        return sum((z3.ZeroExt(ar.width - r.size(), r) * ar.const(m**b) for b, r in enumerate(self._residues(e))),
                   ar.const(0))

    def _walk_ZeckendorfLeast(self, e):
        """The greedy over every Fibonacci number the width holds, unrolled: the last one taken is the least part."""
        ar = self.ar
        if not ar.is_bits:
            raise Unsupported(f"{e}: the least Zeckendorf part needs bit-vectors (a greedy over bounded values)")
        rest, least = self.value(e.args[0]), ar.const(0)
        for f in reversed(fibonacci_below(1 << (ar.width - 1))):  # signed: every value is below 2^(width - 1)
            taken = rest >= ar.const(f)
            rest, least = z3.If(taken, rest - ar.const(f), rest), z3.If(taken, ar.const(f), least)
        return least

    def _walk_NimProduct(self, e):
        """The xor of 2^i ⊗ 2^j over the bits i, j the two factors hold: every bit of a non-negative value of the
        width, so a factor of 2^32 or more (a sum of coordinates) is multiplied exactly, as the interval analysis
        sizes the width for (coordinates below 2^32 only: larger ones would make every product thousands of
        terms)."""
        ar = self.ar
        if not ar.is_bits or ar.bits > FIELD_BITS:
            raise Unsupported(f"{e}: nim-products need bit-vectors of coordinates below 2^{FIELD_BITS}")

        bits = ar.width - 1  # the factors are non-negative: the sign bit is 0

        def times(x, y):
            out = ar.const(0)
            for i in range(bits):
                row = ar.const(0)  # 2^i ⊗ y
                for j in range(bits):
                    row = row ^ z3.If(z3.Extract(j, j, y) == 1, ar.const(power_product(i, j)), ar.const(0))
                out = out ^ z3.If(z3.Extract(i, i, x) == 1, row, ar.const(0))
            return out

        return self._fold(e.args, times)

    def _walk_Relational(self, e):
        digits = zero_digit_sum(e)
        if digits is not None:
            zero = z3.And(*[r == 0 for r in self._residues(digits)])
            return zero if e.rel_op == "==" else z3.Not(zero)
        return _RELATIONS[e.rel_op](self.value(e.lhs), self.value(e.rhs))

    def _walk_And(self, e):
        return z3.And(*[self.condition(a) for a in e.args])

    def _walk_Or(self, e):
        return z3.Or(*[self.condition(a) for a in e.args])

    def _walk_Not(self, e):
        return z3.Not(self.condition(e.args[0]))

    def _walk_Contains(self, e):
        x = self.value(e.args[0])
        return z3.Or(*[x == self.ar.const(int(v)) for v in e.args[1]])

    def _walk_Piecewise(self, e):
        """Nested z3.If, the branches translated as values or as conditions (as the first one is)."""
        translate = self.condition if is_condition(e) else self.value
        out = None
        for value, cond in reversed(e.args):
            v = translate(value)
            out = v if out is None else z3.If(self.condition(cond), v, out)
        return out

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
