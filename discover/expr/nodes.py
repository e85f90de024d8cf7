"""The node table: every node type a rule expression may hold, and the integer operators sympy lacks.

Rules are sympy expressions over integer-valued features.  sympy has no bitwise integer operators,
so ``BitXor``, ``BitAnd``, ``BitOr`` and the carry-less digit sum ``DigitSum`` are defined here, with the
functions of one integer's binary digits (``DIGIT_FUNCTIONS``): ``LowBit`` (the largest power of 2 dividing it),
``Valuation2`` (its exponent), ``OddPart`` (the quotient: x = 2^ν₂(x)·odd(x)), ``BitCount`` (the binary weight)
and ``BitLength`` (the number of binary digits); ``ZeckendorfLeast``, the least part of a Zeckendorf
representation, is in ``discover.expr.zeckendorf``, and ``NimProduct``, Conway's nim-multiplication, in
``discover.expr.nimber``.
``NODES`` lists the sympy classes of the language, one node type each; a subclass belongs to its
class's node type (``Eq`` and the other comparisons to ``Relational``, ``Zero`` to ``Integer``).
Every backend (``discover.expr.walker.BACKENDS``) has one method per node type.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp
from sympy.logic.boolalg import BooleanFalse, BooleanTrue
from sympy.printing.precedence import PRECEDENCE

from discover.expr.nimber import NimProduct
from discover.expr.zeckendorf import ZeckendorfLeast

__all__ = ["NODES", "RELATIONS", "BITWISE", "INFIX", "DIGIT_FUNCTIONS", "NEEDS_BITS", "BitXor", "BitAnd", "BitOr",
           "DigitSum", "LowBit", "Valuation2", "OddPart", "BitCount", "BitLength", "digit_sum", "complexity", "is_condition",
           "zero_digit_sum"]


class _Bitwise(sp.Function):
    """An n-ary bitwise operator on integers (evaluates when every argument is an integer)."""

    nargs = None
    python_op = None

    @classmethod
    def eval(cls, *args):
        if len(args) == 1:
            return args[0]
        if all(isinstance(a, sp.Integer) for a in args):
            return sp.Integer(functools.reduce(cls.python_op, (int(a) for a in args)))
        return None

    def _eval_is_integer(self):
        return True


class BitXor(_Bitwise):
    """Bitwise exclusive or (the nim-sum).

    Examples
    --------
    >>> BitXor(5, 3)
    6
    """

    python_op = staticmethod(lambda x, y: x ^ y)
    precedence = PRECEDENCE["BitwiseXor"]  # below + and ·: printed as φ·(a ⊕ b), not φ·a ⊕ b


class BitAnd(_Bitwise):
    """Bitwise and.

    Examples
    --------
    >>> BitAnd(5, 3)
    1
    """

    python_op = staticmethod(lambda x, y: x & y)
    precedence = PRECEDENCE["BitwiseAnd"]


class BitOr(_Bitwise):
    """Bitwise or.

    Examples
    --------
    >>> BitOr(5, 3)
    7
    """

    python_op = staticmethod(lambda x, y: x | y)
    precedence = PRECEDENCE["BitwiseOr"]


class DigitSum(sp.Function):
    """Carry-less digit sum: ``DigitSum(m, x1, ..., xn)`` adds the binary digits of x1..xn column
    by column, keeps each column sum mod m, and reads the columns as base-m digits,
    sum_b ((sum_i bit_b(x_i)) mod m) * m^b.  m = 2 is the xor; Moore's Nim_k is P iff the sum for
    m = k + 1 is 0.

    Examples
    --------
    >>> DigitSum(3, 5, 7, 3)  # column sums (from bit 0): 3, 2, 2 -> 0 + 2*3 + 2*9
    24
    >>> DigitSum(2, 5, 7, 3) == BitXor(5, 7, 3)
    True
    """

    nargs = None

    @classmethod
    def eval(cls, m, *args):
        if not (m.is_Integer and m >= 2):
            raise ValueError(f"DigitSum needs an integer base m >= 2 first, got {m}")
        if args and all(isinstance(a, sp.Integer) for a in args):
            return sp.Integer(int(digit_sum(int(m), np.array([[int(a) for a in args]], dtype=object))[0]))
        return None

    def _eval_is_integer(self):
        return True


def _bit_length(x: np.ndarray) -> np.ndarray:
    """The number of binary digits of each |x| (int64), exactly: the highest 1 smeared down, then counted."""
    y = np.abs(np.asarray(x, dtype=np.int64))
    for shift in (1, 2, 4, 8, 16, 32):
        y = y | (y >> shift)
    return np.bitwise_count(y).astype(np.int64)


class _Digits(sp.Function):
    """A function of the binary digits of one integer's absolute value (evaluates on an integer); never negative.

    ``python_op`` computes it on a Python int, ``numpy_op`` on an int64 array (the numpy backend and the grammar
    of the enumeration engine call it: one definition).
    """

    nargs = 1
    python_op = None
    numpy_op = None

    @classmethod
    def eval(cls, x):
        if isinstance(x, sp.Integer):
            return sp.Integer(cls.python_op(int(x)))
        return None

    def _eval_is_integer(self):
        return True

    def _eval_is_nonnegative(self):
        return True


class LowBit(_Digits):
    """The largest power of 2 dividing x, x & -x (0 for x = 0): the ruler function.

    Examples
    --------
    >>> LowBit(12), LowBit(-12), LowBit(0)
    (4, 4, 0)
    """

    python_op = staticmethod(lambda x: x & -x)
    numpy_op = staticmethod(lambda x: x & -x)


class Valuation2(_Digits):
    """The 2-adic valuation ν₂(x), the exponent of ``LowBit(x)``, with ν₂(0) = 0 by convention.

    Examples
    --------
    >>> Valuation2(12), Valuation2(7), Valuation2(0)
    (2, 0, 0)
    """

    python_op = staticmethod(lambda x: (x & -x).bit_length() - 1 if x else 0)
    numpy_op = staticmethod(lambda x: np.where(x == 0, 0, np.bitwise_count((x & -x) - 1)).astype(np.int64))


class OddPart(_Digits):
    """The odd part of |x|, |x| / 2^ν₂(x) (0 for x = 0).

    Examples
    --------
    >>> OddPart(12), OddPart(-12), OddPart(0)
    (3, 3, 0)
    """

    python_op = staticmethod(lambda x: abs(x) // (x & -x) if x else 0)
    numpy_op = staticmethod(lambda x: np.abs(x) // np.where(x == 0, 1, x & -x))


class BitCount(_Digits):
    """The binary weight of |x| (its number of 1 digits): x is odious when it is odd, evil when even.

    Examples
    --------
    >>> BitCount(7), BitCount(-7), BitCount(0)
    (3, 3, 0)
    """

    python_op = staticmethod(lambda x: abs(x).bit_count())
    numpy_op = staticmethod(lambda x: np.bitwise_count(x).astype(np.int64))  # numpy counts the 1s of |x|


class BitLength(_Digits):
    """The number of binary digits of |x|, ⌊log₂|x|⌋ + 1 (0 for x = 0).

    Examples
    --------
    >>> BitLength(8), BitLength(7), BitLength(0)
    (4, 3, 0)
    """

    python_op = staticmethod(lambda x: abs(x).bit_length())
    numpy_op = staticmethod(_bit_length)


#: the node types of the rule language, one sympy class each (a subclass is its class's node type)
NODES: tuple[type, ...] = (
    sp.Symbol, sp.Integer, sp.Rational, type(sp.GoldenRatio), BooleanTrue, BooleanFalse,
    sp.Add, sp.Mul, sp.Pow, sp.Mod, sp.floor, sp.ceiling, sp.Min, sp.Max, sp.Abs,
    BitXor, BitAnd, BitOr, DigitSum, LowBit, Valuation2, OddPart, BitCount, BitLength, ZeckendorfLeast, NimProduct,
    sp.core.relational.Relational, sp.And, sp.Or, sp.Not, sp.Contains, sp.Piecewise,
)
#: the comparisons of the node type ``Relational``, by sympy's ``rel_op``
RELATIONS = {"==": sp.Eq, "!=": sp.Ne, "<": sp.Lt, "<=": sp.Le, ">": sp.Gt, ">=": sp.Ge}
#: the bitwise operators
BITWISE = (BitXor, BitAnd, BitOr, DigitSum)
#: the operators printed between their operands (a ⊕ b, a ⊗ b): an operand of another one is bracketed
INFIX = BITWISE + (NimProduct,)
#: the functions of one integer's binary digits (written as calls: ν₂(n))
DIGIT_FUNCTIONS = (LowBit, Valuation2, OddPart, BitCount, BitLength)
#: the nodes that need bit-vectors in z3
NEEDS_BITS = BITWISE + DIGIT_FUNCTIONS + (ZeckendorfLeast, NimProduct)


def digit_sum(m: int, columns) -> np.ndarray:
    """``DigitSum`` of the rows of an (n, k) array of non-negative integers (int64, or Python ints).

    Raises ValueError when a value is negative or the result would not fit in int64.

    Examples
    --------
    >>> digit_sum(3, np.array([[1, 1, 1], [1, 2, 3]])).tolist()
    [0, 8]
    """
    values = np.asarray(columns)
    if values.ndim != 2:
        raise ValueError(f"digit_sum needs an (n, k) array, got shape {values.shape}")
    if values.size and (values < 0).any():
        raise ValueError("digit sums are defined for non-negative integers; got a negative value")
    top = int(values.max()) if values.size else 0
    bits = max(top.bit_length(), 1)
    if values.dtype == object:
        return np.array([sum((sum((int(x) >> b) & 1 for x in row) % m) * m**b for b in range(bits))
                         for row in values], dtype=object)
    if m ** bits > 2**62:
        raise ValueError(f"digit sums mod {m} of values up to {top} exceed int64; use smaller positions")
    result = np.zeros(len(values), dtype=np.int64)
    for b in range(bits):
        result += (((values >> b) & 1).sum(axis=1) % m) * m**b
    return result


def complexity(expr) -> int:
    """Description length: the number of nodes of the expression tree.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> complexity(sp.Eq(BitXor(a, b), 0))
    5
    """
    return sum(1 for _ in sp.preorder_traversal(sp.sympify(expr)))


def is_condition(expr) -> bool:
    """True for a condition (a comparison, a connective, membership, true/false, or branches of them);
    a symbol is a value here, though sympy counts it as Boolean too.

    Examples
    --------
    >>> a = sp.Symbol("a")
    >>> is_condition(sp.Eq(a, 0)), is_condition(a), is_condition(sp.Piecewise((a, sp.Eq(a, 1)), (0, True)))
    (True, False, False)
    """
    if isinstance(expr, sp.Piecewise):
        return is_condition(expr.args[0][0])
    return isinstance(expr, (sp.core.relational.Relational, sp.And, sp.Or, sp.Not, sp.Contains,
                             sp.logic.boolalg.BooleanAtom))


def zero_digit_sum(e):
    """The DigitSum of ``DigitSum(...) = 0`` (or ``≠ 0``), else None: the provers test such a sum column
    by column in a few bits, never as the base-m number.

    Examples
    --------
    >>> a, b, c = sp.symbols("a b c")
    >>> zero_digit_sum(sp.Eq(DigitSum(3, a, b, c), 0)), zero_digit_sum(sp.Eq(a, 0))
    (DigitSum(3, a, b, c), None)
    """
    if isinstance(e, (sp.Eq, sp.Ne)):
        for side, other in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(side, DigitSum) and other == 0:
                return side
    return None
