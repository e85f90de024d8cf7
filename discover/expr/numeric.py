"""The numpy backend: a rule expression compiled once into ``f(columns) -> array``, evaluated exactly.

Integers are int64, conditions booleans; ``floor(c·x)`` with c rational or quadratic goes through
``discover.expr.exact`` (integer square roots), division and mod by zero give 0 (as in z3's
translation).  A node the backend cannot evaluate exactly (a bare irrational constant, a
non-integer coefficient outside floor()) is a ValueError naming it.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from discover.expr.exact import exact_floor, quadratic_parts_or_fail, split_scale
from discover.expr.nodes import digit_sum
from discover.expr.nimber import nim_product
from discover.expr.zeckendorf import zeckendorf_least
from discover.expr.walker import Walker

__all__ = ["NumpyCompiler", "compile_expr", "evaluate"]

_RELATIONS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
              ">=": np.greater_equal}


class NumpyCompiler(Walker):
    """Compiles each node into a function of the feature columns (a dict of name -> int64 array).

    Examples
    --------
    >>> f = NumpyCompiler().walk(sp.Mod(sp.Symbol("n"), 3))
    >>> f({"n": np.arange(5)}).tolist()
    [0, 1, 2, 0, 1]
    """

    def refuse(self, e):
        raise ValueError(f"cannot evaluate {e} (a {type(e).__name__}) exactly")

    def _fold(self, args, op):
        parts = [self.walk(a) for a in args]
        return lambda c: functools.reduce(op, [f(c) for f in parts])

    def _unary(self, arg, op):
        f = self.walk(arg)
        return lambda c: op(f(c))

    def _safe_divide(self, num, den, op):
        f, g = self.walk(num), self.walk(den)

        def run(c):
            d = g(c)
            safe = np.where(d == 0, 1, d)
            return np.where(d == 0, 0, op(f(c), safe))
        return run

    def _walk_Symbol(self, e):
        name = e.name

        def column(c):
            if name not in c:
                raise ValueError(f"the rule uses feature {name!r}, which these positions do not have")
            return np.asarray(c[name], dtype=np.int64)
        return column

    def _walk_Integer(self, e):
        value = np.int64(int(e))
        return lambda c: value

    def _walk_BooleanTrue(self, e):
        return lambda c: np.bool_(True)

    def _walk_BooleanFalse(self, e):
        return lambda c: np.bool_(False)

    _walk_Rational = _walk_GoldenRatio = refuse  # a fraction or an irrational is exact only inside floor()

    def _walk_Add(self, e):
        return self._fold(e.args, np.add)

    def _walk_Mul(self, e):
        coeff, rest = e.as_coeff_Mul()
        if not coeff.is_Integer:
            raise ValueError(f"cannot evaluate {e} exactly: non-integer coefficient outside floor()")
        f, k = self._fold(sp.Mul.make_args(rest), np.multiply), int(coeff)
        return lambda c: k * f(c)

    def _walk_Pow(self, e):
        if not (e.exp.is_Integer and e.exp >= 0):
            return self.refuse(e)
        f, k = self.walk(e.base), int(e.exp)
        return lambda c: f(c) ** k

    def _walk_Mod(self, e):
        return self._safe_divide(e.args[0], e.args[1], np.mod)

    def _walk_floor(self, e):
        arg = e.args[0]
        num, den = sp.fraction(sp.together(arg))
        if not den.is_number:
            return self._safe_divide(num, den, np.floor_divide)
        scale, rest = split_scale(arg)
        quadratic_parts_or_fail(scale)
        return self._unary(rest, lambda x: exact_floor(scale, x))

    def _walk_ceiling(self, e):
        return self.walk(-sp.floor(-e.args[0]))

    def _walk_Min(self, e):
        return self._fold(e.args, np.minimum)

    def _walk_Max(self, e):
        return self._fold(e.args, np.maximum)

    def _walk_Abs(self, e):
        return self._unary(e.args[0], np.abs)

    def _walk_BitXor(self, e):
        return self._fold(e.args, np.bitwise_xor)

    def _walk_BitAnd(self, e):
        return self._fold(e.args, np.bitwise_and)

    def _walk_BitOr(self, e):
        return self._fold(e.args, np.bitwise_or)

    def _digits(self, e):
        return self._unary(e.args[0], type(e).numpy_op)

    _walk_LowBit = _walk_Valuation2 = _walk_OddPart = _walk_BitCount = _walk_BitLength = _digits

    def _walk_DigitSum(self, e):
        m, parts = int(e.args[0]), [self.walk(a) for a in e.args[1:]]
        return lambda c: digit_sum(m, np.stack(np.broadcast_arrays(*[f(c) for f in parts]), axis=1))

    def _walk_ZeckendorfLeast(self, e):
        return self._unary(e.args[0], zeckendorf_least)

    def _walk_NimProduct(self, e):
        return self._fold(e.args, nim_product)

    def _walk_Relational(self, e):
        f, g, op = self.walk(e.lhs), self.walk(e.rhs), _RELATIONS[e.rel_op]
        return lambda c: op(f(c), g(c))

    def _walk_And(self, e):
        return self._fold(e.args, np.logical_and)

    def _walk_Or(self, e):
        return self._fold(e.args, np.logical_or)

    def _walk_Not(self, e):
        return self._unary(e.args[0], np.logical_not)

    def _walk_Contains(self, e):
        members = np.array([int(v) for v in e.args[1]], dtype=np.int64)
        return self._unary(e.args[0], lambda x: np.isin(x, members))

    def _walk_Piecewise(self, e):
        branches = [(self.walk(value), self.walk(cond)) for value, cond in e.args]

        def piecewise(c):
            result = None
            for value, cond in reversed(branches):
                v = value(c)
                result = v if result is None else np.where(cond(c), v, result)
            return result
        return piecewise


def compile_expr(expr):
    """Compile an integer or boolean sympy expression into ``f(columns) -> array``, evaluated exactly.

    The tree is walked once; each call only runs numpy operations.

    Examples
    --------
    >>> from discover.expr.nodes import BitXor
    >>> a, b = sp.symbols("a b")
    >>> f = compile_expr(sp.Eq(BitXor(a, b), 0))
    >>> f({"a": np.array([1, 2]), "b": np.array([1, 3])}).tolist()
    [True, False]
    """
    run = NumpyCompiler().walk(sp.sympify(expr))

    def evaluator(columns):
        n = len(next(iter(columns.values()))) if columns else 1
        result = run(columns)
        return np.broadcast_to(result, (n,)).copy() if np.ndim(result) == 0 else result
    return evaluator


def evaluate(expr, columns: dict[str, np.ndarray]):
    """Evaluate an integer or boolean sympy expression exactly over numpy columns.

    Parameters
    ----------
    expr : sympy expression over symbols named in ``columns``.
    columns : dict of name -> int64 array (all the same length).

    Examples
    --------
    >>> from discover.expr.nodes import BitXor
    >>> a, b = sp.symbols("a b")
    >>> evaluate(sp.Eq(BitXor(a, b), 0), {"a": np.array([1, 2]), "b": np.array([1, 3])}).tolist()
    [True, False]
    >>> evaluate(sp.floor(sp.GoldenRatio * a), {"a": np.array([1, 2, 3])}).tolist()
    [1, 3, 4]
    """
    return compile_expr(expr)(columns)
