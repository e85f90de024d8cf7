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

__all__ = ["BitXor", "BitAnd", "BitOr", "evaluate", "complexity", "SYMPY_LOCALS", "quadratic_parts"]


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


class BitAnd(_Bitwise):
    """Bitwise and."""

    numpy_op = staticmethod(np.bitwise_and)
    python_op = staticmethod(lambda x, y: x & y)
    symbol = "&"


class BitOr(_Bitwise):
    """Bitwise or."""

    numpy_op = staticmethod(np.bitwise_or)
    python_op = staticmethod(lambda x, y: x | y)
    symbol = "|"


SYMPY_LOCALS = {"BitXor": BitXor, "BitAnd": BitAnd, "BitOr": BitOr}


def complexity(expr) -> int:
    """Description length: the number of nodes of the expression tree.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> complexity(sp.Eq(BitXor(a, b), 0))
    4
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


def _floor_scaled(c, x: np.ndarray) -> np.ndarray:
    """Exact floor(c * x) for integer arrays x and c = (p + q sqrt(m)) / r."""
    parts = quadratic_parts(c)
    if parts is None:
        raise ValueError(f"cannot evaluate floor({c} * x) exactly: {c} is not rational or quadratic")
    p, q, m, r = parts
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
    n = len(next(iter(columns.values()))) if columns else 1

    def ev(e):
        if e.is_Symbol:
            if e.name not in columns:
                raise ValueError(f"the rule uses feature {e.name!r}, which these positions do not have")
            return np.asarray(columns[e.name], dtype=np.int64)
        if e is sp.true or e is sp.false:
            return np.full(n, bool(e))
        if e.is_Integer:
            return np.full(n, int(e), dtype=np.int64)
        if isinstance(e, sp.Add):
            parts = [ev(t) for t in e.args]
            return functools.reduce(np.add, parts)
        if isinstance(e, sp.Mul):
            coeff, rest = e.as_coeff_Mul()
            if not coeff.is_Integer:
                raise ValueError(f"cannot evaluate {e} exactly: non-integer coefficient outside floor()")
            values = [ev(f) for f in sp.Mul.make_args(rest)]
            return int(coeff) * functools.reduce(np.multiply, values)
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
            return ev(e.base) ** int(e.exp)
        if isinstance(e, sp.floor):
            arg = e.args[0]
            num, den = sp.fraction(sp.together(arg))
            if not den.is_number:
                d = ev(den)
                safe = np.where(d == 0, 1, d)
                return np.where(d == 0, 0, np.floor_divide(ev(num), safe))
            c, rest = _split_scale(arg)
            return _floor_scaled(c, ev(rest))
        if isinstance(e, sp.Mod):
            m = ev(e.args[1])
            safe = np.where(m == 0, 1, m)
            return np.where(m == 0, 0, np.mod(ev(e.args[0]), safe))
        if isinstance(e, sp.Abs):
            return np.abs(ev(e.args[0]))
        if isinstance(e, sp.Min):
            return functools.reduce(np.minimum, [ev(a) for a in e.args])
        if isinstance(e, sp.Max):
            return functools.reduce(np.maximum, [ev(a) for a in e.args])
        if isinstance(e, _Bitwise):
            return functools.reduce(type(e).numpy_op, [ev(a) for a in e.args])
        if isinstance(e, sp.Eq):
            return ev(e.lhs) == ev(e.rhs)
        if isinstance(e, sp.Ne):
            return ev(e.lhs) != ev(e.rhs)
        if isinstance(e, sp.StrictLessThan):
            return ev(e.lhs) < ev(e.rhs)
        if isinstance(e, sp.LessThan):
            return ev(e.lhs) <= ev(e.rhs)
        if isinstance(e, sp.StrictGreaterThan):
            return ev(e.lhs) > ev(e.rhs)
        if isinstance(e, sp.GreaterThan):
            return ev(e.lhs) >= ev(e.rhs)
        if isinstance(e, sp.And):
            return functools.reduce(np.logical_and, [ev(a) for a in e.args])
        if isinstance(e, sp.Or):
            return functools.reduce(np.logical_or, [ev(a) for a in e.args])
        if isinstance(e, sp.Not):
            return np.logical_not(ev(e.args[0]))
        if isinstance(e, sp.Contains):
            values = ev(e.args[0])
            members = [int(v) for v in e.args[1]]
            return np.isin(values, members)
        if isinstance(e, sp.Piecewise):
            result = None
            for value, cond in reversed(e.args):
                v, c = ev(value), ev(cond)
                result = v if result is None else np.where(c, v, result)
            return result
        raise ValueError(f"cannot evaluate {e} (a {type(e).__name__}) exactly")

    result = ev(sp.sympify(expr))
    return np.broadcast_to(result, (n,)).copy() if np.ndim(result) == 0 else result
