"""Integer expressions in sympy and their exact vectorised evaluation.

Rules are sympy expressions over integer-valued features.  sympy has no bitwise integer
operators, so ``BitXor``, ``BitAnd`` and ``BitOr`` are defined here.  ``evaluate`` computes an
expression over numpy int64 columns exactly: ``floor(c * x)`` with c rational or a quadratic
irrational such as the golden ratio uses integer square roots, never floating point, so a rule
checked on a million positions is checked exactly.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp
from sympy.printing.precedence import PRECEDENCE

__all__ = ["BitXor", "BitAnd", "BitOr", "DigitSum", "digit_sum", "evaluate", "compile_expr", "exact_floor", "complexity",
           "quadratic_parts"]


class _Bitwise(sp.Function):
    """An n-ary bitwise operator on integers (evaluates when every argument is an integer)."""

    nargs = None
    numpy_op = None
    identity = 0

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
    """Bitwise exclusive or (the nim-sum)."""

    numpy_op = staticmethod(np.bitwise_xor)
    python_op = staticmethod(lambda x, y: x ^ y)
    symbol = "⊕"
    precedence = PRECEDENCE["BitwiseXor"]  # below + and ·: printed as φ·(a ⊕ b), not φ·a ⊕ b


class BitAnd(_Bitwise):
    """Bitwise and."""

    numpy_op = staticmethod(np.bitwise_and)
    python_op = staticmethod(lambda x, y: x & y)
    symbol = "&"
    precedence = PRECEDENCE["BitwiseAnd"]  # below + and ·: printed as φ·(a ⊕ b), not φ·a ⊕ b


class BitOr(_Bitwise):
    """Bitwise or."""

    numpy_op = staticmethod(np.bitwise_or)
    python_op = staticmethod(lambda x, y: x | y)
    symbol = "|"
    precedence = PRECEDENCE["BitwiseOr"]  # below + and ·: printed as φ·(a ⊕ b), not φ·a ⊕ b


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


def _isqrt(values: np.ndarray) -> np.ndarray:
    """Exact floor(sqrt(v)) for int64 v >= 0 (float estimate, then integer correction)."""
    root = np.floor(np.sqrt(values.astype(np.float64))).astype(np.int64)
    for _ in range(2):
        root -= (root * root > values).astype(np.int64)
        root += ((root + 1) * (root + 1) <= values).astype(np.int64)
    return root


def quadratic_parts(c) -> tuple[int, int, int, int] | None:
    """Write a constant as (p + q*sqrt(m)) / r with integers (m squarefree > 1 or q == 0), else None."""
    c = sp.nsimplify(sp.expand(sp.sympify(c).rewrite(sp.sqrt)))
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
    r = sp.ilcm(sp.Rational(p).q, sp.Rational(q).q)
    return int(p * r), int(q * r), int(m or 0), int(r)


@functools.lru_cache(maxsize=256)
def _quadratic_cached(c):
    return quadratic_parts_or_fail(c)


def exact_floor(c, x) -> np.ndarray:
    """Exact floor(c * x) for an integer array x and c rational or quadratic, (p + q sqrt(m)) / r.

    Examples
    --------
    >>> exact_floor(sp.GoldenRatio, np.array([1, 2, 3, -1])).tolist()
    [1, 3, 4, -2]
    """
    p, q, m, r = _quadratic_cached(c)
    x = np.asarray(x, dtype=np.int64)
    if q == 0:
        return np.floor_divide(p * x, r)
    qx = q * x
    root = _isqrt(m * qx * qx)  # floor(|q x| sqrt(m))
    exact = root * root == m * qx * qx
    irr = np.where(qx >= 0, root, -root - (~exact).astype(np.int64))  # floor(q x sqrt(m))
    return np.floor_divide(p * x + irr, r)


def _split_scale(arg):
    """arg = c * rest with c a number: (c, rest); or None."""
    coeff, rest = arg.as_coeff_Mul()
    if rest.is_number:
        return arg, sp.Integer(1)
    numeric = [f for f in sp.Mul.make_args(rest) if f.is_number]
    if numeric:
        c = coeff * sp.Mul(*numeric)
        rest = sp.Mul(*[f for f in sp.Mul.make_args(rest) if not f.is_number])
        return c, rest
    return coeff, rest


def compile_expr(expr):
    """Compile an integer or boolean sympy expression into ``f(columns) -> array``, evaluated exactly.

    The tree is walked once; each call only runs numpy operations.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> f = compile_expr(sp.Eq(BitXor(a, b), 0))
    >>> f({"a": np.array([1, 2]), "b": np.array([1, 3])}).tolist()
    [True, False]
    """

    def many(args, op):
        parts = [build(a) for a in args]
        return lambda c: functools.reduce(op, [f(c) for f in parts])

    def unary(arg, op):
        f = build(arg)
        return lambda c: op(f(c))

    def binary(lhs, rhs, op):
        f, g = build(lhs), build(rhs)
        return lambda c: op(f(c), g(c))

    def safe_divide(num, den, op):
        f, g = build(num), build(den)

        def run(c):
            d = g(c)
            safe = np.where(d == 0, 1, d)
            return np.where(d == 0, 0, op(f(c), safe))
        return run

    def build(e):
        if e.is_Symbol:
            name = e.name

            def column(c):
                if name not in c:
                    raise ValueError(f"the rule uses feature {name!r}, which these positions do not have")
                return np.asarray(c[name], dtype=np.int64)
            return column
        if e is sp.true or e is sp.false:
            return lambda c: np.bool_(bool(e))
        if e.is_Integer:
            value = np.int64(int(e))
            return lambda c: value
        if isinstance(e, sp.Add):
            return many(e.args, np.add)
        if isinstance(e, sp.Mul):
            coeff, rest = e.as_coeff_Mul()
            if not coeff.is_Integer:
                raise ValueError(f"cannot evaluate {e} exactly: non-integer coefficient outside floor()")
            f, k = many(sp.Mul.make_args(rest), np.multiply), int(coeff)
            return lambda c: k * f(c)
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
            f, k = build(e.base), int(e.exp)
            return lambda c: f(c) ** k
        if isinstance(e, sp.floor):
            arg = e.args[0]
            num, den = sp.fraction(sp.together(arg))
            if not den.is_number:
                return safe_divide(num, den, np.floor_divide)
            scale, rest = _split_scale(arg)
            _quadratic_cached(scale)
            return unary(rest, lambda x: exact_floor(scale, x))
        if isinstance(e, sp.Mod):
            return safe_divide(e.args[0], e.args[1], np.mod)
        simple = {sp.Abs: np.abs, sp.Not: np.logical_not}
        if type(e) in simple:
            return unary(e.args[0], simple[type(e)])
        reductions = {sp.Min: np.minimum, sp.Max: np.maximum, sp.And: np.logical_and, sp.Or: np.logical_or}
        if type(e) in reductions:
            return many(e.args, reductions[type(e)])
        if isinstance(e, _Bitwise):
            return many(e.args, type(e).numpy_op)
        if isinstance(e, DigitSum):
            m, parts = int(e.args[0]), [build(a) for a in e.args[1:]]
            return lambda c: digit_sum(m, np.stack(np.broadcast_arrays(*[f(c) for f in parts]), axis=1))
        relations = {sp.Eq: np.equal, sp.Ne: np.not_equal, sp.StrictLessThan: np.less, sp.LessThan: np.less_equal,
                     sp.StrictGreaterThan: np.greater, sp.GreaterThan: np.greater_equal}
        if type(e) in relations:
            return binary(e.lhs, e.rhs, relations[type(e)])
        if isinstance(e, sp.Contains):
            members = np.array([int(v) for v in e.args[1]], dtype=np.int64)
            return unary(e.args[0], lambda x: np.isin(x, members))
        if isinstance(e, sp.Piecewise):
            branches = [(build(value), build(cond)) for value, cond in e.args]

            def piecewise(c):
                result = None
                for value, cond in reversed(branches):
                    v = value(c)
                    result = v if result is None else np.where(cond(c), v, result)
                return result
            return piecewise
        raise ValueError(f"cannot evaluate {e} (a {type(e).__name__}) exactly")

    run = build(sp.sympify(expr))

    def evaluator(columns):
        n = len(next(iter(columns.values()))) if columns else 1
        result = run(columns)
        return np.broadcast_to(result, (n,)).copy() if np.ndim(result) == 0 else result
    return evaluator


def quadratic_parts_or_fail(c):
    """``quadratic_parts(c)``, or a ValueError saying the constant cannot be evaluated exactly."""
    parts = quadratic_parts(c)
    if parts is None:
        raise ValueError(f"cannot evaluate floor({c} * x) exactly: {c} is not rational or quadratic")
    return parts


def evaluate(expr, columns: dict[str, np.ndarray]):
    """Evaluate an integer or boolean sympy expression exactly over numpy columns.

    Parameters
    ----------
    expr : sympy expression over symbols named in ``columns``.
    columns : dict of name -> int64 array (all the same length).

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> evaluate(sp.Eq(BitXor(a, b), 0), {"a": np.array([1, 2]), "b": np.array([1, 3])}).tolist()
    [True, False]
    >>> evaluate(sp.floor(sp.GoldenRatio * a), {"a": np.array([1, 2, 3])}).tolist()
    [1, 3, 4]
    """
    return compile_expr(expr)(columns)
