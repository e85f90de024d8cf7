"""The typed grammar of the enumeration engine: integer and boolean expression nodes.

A node is a nested tuple: ``("x", name)`` a feature, ``("k", c)`` a constant, ``("floor", i, x)``
floor(IRRATIONALS[i] * x), ``(f, x)`` with f a function of binary digits of ``UNARY_OPS`` (lowbit, ν₂,
the odd part, the binary weight, the number of digits) or a function of one feature of ``FEATURE_FUNCTIONS``
(zeck: the least Zeckendorf part), ``(op, x, y)`` with op an operator of two features of ``FEATURE_OPS`` (nimmul:
the nim-product), ``(op, left, right)`` with op an integer operator of ``INT_OPS``
(add sub mul floordiv mod xor min max and or), a comparison of ``CMP_OPS`` (Eq Ne Lt Le) or a
connective (And Or).  ``eval_node`` computes a node with numpy exactly as
``discover.expr.numeric.evaluate`` computes its sympy form ``to_sympy(node)``: floor division and
mod by zero give 0, and floor(c*x) with c irrational uses integer square roots, never floats.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.expr.exact import exact_floor
from discover.expr.nodes import BitAnd, BitCount, BitLength, BitOr, BitXor, LowBit, OddPart, Valuation2, complexity
from discover.expr.nimber import NimProduct, nim_product
from discover.expr.zeckendorf import ZeckendorfLeast, zeckendorf_least

__all__ = ["IRRATIONALS", "INT_OPS", "UNARY_OPS", "FEATURE_FUNCTIONS", "FEATURE_OPS", "CMP_OPS", "CONSTANTS",
           "CMP_CONSTANTS", "SMALL",
           "to_sympy", "eval_node"]

#: constants c of the terms floor(c*x), in the order they are tried (earlier = preferred).
IRRATIONALS = (sp.GoldenRatio, sp.GoldenRatio**2, sp.sqrt(2), sp.sqrt(3), 1 / sp.GoldenRatio)


def _floordiv(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b == 0, 0, np.floor_divide(a, np.where(b == 0, 1, b)))


def _mod(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b == 0, 0, np.mod(a, np.where(b == 0, 1, b)))


# name -> (numpy function, commutative, constants allowed as the right operand)
SMALL = (1, 2, 3)
MODULI = tuple(range(2, 13))
INT_OPS = {
    "add": (np.add, True, SMALL),
    "sub": (np.subtract, False, SMALL),
    "mul": (np.multiply, True, (2, 3)),
    "floordiv": (_floordiv, False, MODULI),
    "mod": (_mod, False, MODULI),
    "xor": (np.bitwise_xor, True, SMALL),
    "min": (np.minimum, True, SMALL),
    "max": (np.maximum, True, SMALL),
    "and": (np.bitwise_and, True, SMALL),
    "or": (np.bitwise_or, True, SMALL),
}
# name -> node type of a function of binary digits (its ``numpy_op`` computes it)
UNARY_OPS = {"lowbit": LowBit, "nu2": Valuation2, "odd": OddPart, "weight": BitCount, "bitlen": BitLength}
# name -> (numpy function of non-negative values, sympy node): applied to the features (terms of size 2)
FEATURE_FUNCTIONS = {"zeck": (zeckendorf_least, ZeckendorfLeast)}
# name -> (numpy function of two non-negative values below 2^32, sympy node): applied to two features (size 3), the
# operators too costly to apply to every pair of terms
FEATURE_OPS = {"nimmul": (nim_product, NimProduct)}
# name -> (numpy function, symmetric)
CMP_OPS = {"Eq": (np.equal, True), "Ne": (np.not_equal, True), "Lt": (np.less, False), "Le": (np.less_equal, False)}
CMP_CONSTANTS = (0, 1, 2, 3)
CONSTANTS = tuple(sorted(set((0,) + SMALL + MODULI)))


def to_sympy(node) -> sp.Basic:
    """The sympy expression of a grammar node (nested tuples)."""
    kind = node[0]
    if kind == "x":
        return sp.Symbol(node[1])
    if kind == "k":
        return sp.Integer(node[1])
    if kind == "floor":
        return sp.floor(IRRATIONALS[node[1]] * to_sympy(node[2]))
    if kind in UNARY_OPS:
        return UNARY_OPS[kind](to_sympy(node[1]))
    if kind in FEATURE_FUNCTIONS:
        return FEATURE_FUNCTIONS[kind][1](to_sympy(node[1]))
    if kind in FEATURE_OPS:
        return FEATURE_OPS[kind][1](to_sympy(node[1]), to_sympy(node[2]))
    left, right = to_sympy(node[1]), to_sympy(node[2])
    if kind in ("Eq", "Ne", "Lt", "Le"):
        if left.is_Number and not right.is_Number:
            if kind in ("Eq", "Ne"):
                left, right = right, left
            else:  # constant on the right: 0 < x  ->  x > 0
                return (sp.Gt if kind == "Lt" else sp.Ge)(right, left)
        elif kind in ("Eq", "Ne") and not right.is_Number and \
                (complexity(right), str(right)) < (complexity(left), str(left)):
            left, right = right, left  # the simpler side first: min_all = floor(φ spread)
        return {"Eq": sp.Eq, "Ne": sp.Ne, "Lt": sp.Lt, "Le": sp.Le}[kind](left, right)
    return {
        "add": lambda: left + right,
        "sub": lambda: left - right,
        "mul": lambda: left * right,
        "floordiv": lambda: sp.floor(left / right),
        "mod": lambda: sp.Mod(left, right),
        "xor": lambda: BitXor(left, right),
        "and": lambda: BitAnd(left, right),
        "or": lambda: BitOr(left, right),
        "min": lambda: sp.Min(left, right),
        "max": lambda: sp.Max(left, right),
        "And": lambda: sp.And(left, right),
        "Or": lambda: sp.Or(left, right),
    }[kind]()


def eval_node(node, columns: dict, n: int):
    """A grammar node's values over full columns (numpy, exact; the same semantics as evaluate)."""
    kind = node[0]
    if kind == "x":
        return np.asarray(columns[node[1]], dtype=np.int64)
    if kind == "k":
        return np.full(n, node[1], np.int64)
    if kind in ("true", "false"):
        return np.full(n, kind == "true")
    if kind == "floor":
        return exact_floor(IRRATIONALS[node[1]], eval_node(node[2], columns, n))
    if kind in UNARY_OPS:
        return UNARY_OPS[kind].numpy_op(eval_node(node[1], columns, n))
    if kind in FEATURE_FUNCTIONS:
        return FEATURE_FUNCTIONS[kind][0](eval_node(node[1], columns, n))
    if kind in FEATURE_OPS:
        return FEATURE_OPS[kind][0](eval_node(node[1], columns, n), eval_node(node[2], columns, n))
    left, right = eval_node(node[1], columns, n), eval_node(node[2], columns, n)
    if kind in CMP_OPS:
        return CMP_OPS[kind][0](left, right)
    if kind == "And":
        return left & right
    if kind == "Or":
        return left | right
    return INT_OPS[kind][0](left, right)
