"""The z3 and numpy backends compute the same value for random expressions on random inputs.

z3 proves the translated formula while verification runs the numpy one, so any drift between the
two would be a false "proved".  Expressions mix + - ·, squares, mod and floor division by constants
and by expressions (0 for a zero divisor in both), floor(c·x) with c rational or quadratic
irrational, min, max, |x|, xor/and/or, carry-less digit sums, the functions of binary digits (lowbit, ν₂,
odd part, weight, length, of either sign), least Zeckendorf parts, nim-products, comparisons, membership,
connectives and branches; integers in unbounded arithmetic, bitwise ones in bit-vectors as wide as the interval
analysis asks (whose bounds must hold too).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from discover.expr.intervals import value_range
from discover.expr.nodes import DIGIT_FUNCTIONS, BitAnd, BitOr, BitXor, DigitSum, is_condition
from discover.expr.numeric import evaluate
from discover.expr.smt import Arithmetic, SmtTranslator, needs_bits
from discover.expr.walker import Unsupported
from discover.expr.nimber import NimProduct
from discover.expr.zeckendorf import ZeckendorfLeast

SYMBOLS = sp.symbols("a b c")
BITS = 10  # coordinates below 2^10
RANGES = {s.name: (0, (1 << BITS) - 1) for s in SYMBOLS}


def _divisor(e):
    return sp.Integer(1) if e == 0 else e  # sympy refuses a literal zero divisor; an expression may still be 0


def values(bitwise: bool):
    symbols = st.sampled_from(SYMBOLS)
    constants = [sp.Rational(1, 2), sp.Rational(2, 3), sp.Rational(3, 2)]
    if not bitwise:  # an irrational floor is exact only in integer arithmetic
        constants += [sp.GoldenRatio, sp.sqrt(2), 1 / sp.GoldenRatio, (sp.sqrt(13) - 1) / 2, sp.sqrt(110) / 7]
    operators = st.sampled_from([BitXor, BitAnd, BitOr])
    leaves = (symbols | st.integers(-3, 7).map(sp.Integer) | symbols.map(lambda s: s**2)
              | st.tuples(st.sampled_from(constants), symbols).map(lambda p: sp.floor(p[0] * p[1])))
    if bitwise:
        leaves |= (st.sampled_from([2, 3, 4]).map(lambda m: DigitSum(m, *SYMBOLS))
                   | st.tuples(operators, symbols, symbols).map(lambda p: p[0](p[1], p[2]))
                   | st.tuples(st.sampled_from(DIGIT_FUNCTIONS), symbols).map(lambda p: p[0](p[1] - 3))
                   | symbols.map(ZeckendorfLeast) | st.tuples(symbols, symbols).map(lambda p: NimProduct(*p)))

    def extend(inner):
        pairs = st.tuples(inner, inner)
        options = [
            pairs.map(lambda p: p[0] + p[1]), pairs.map(lambda p: p[0] - p[1]), pairs.map(lambda p: p[0] * p[1]),
            st.tuples(inner, st.integers(1, 6)).map(lambda p: sp.Mod(p[0], p[1])),
            pairs.map(lambda p: sp.Mod(p[0], _divisor(p[1]))),
            pairs.map(lambda p: sp.floor(p[0] / _divisor(p[1]))),
            st.tuples(inner, st.sampled_from(constants)).map(lambda p: sp.floor(p[1] * p[0])),
            pairs.map(lambda p: sp.Min(*p)), pairs.map(lambda p: sp.Max(*p)), inner.map(sp.Abs),
        ]
        if bitwise:
            options += [st.tuples(operators, inner, inner)
                        .map(lambda p: p[0](sp.Abs(p[1]), sp.Abs(p[2]))),
                        st.tuples(st.sampled_from(DIGIT_FUNCTIONS), inner).map(lambda p: p[0](p[1])),
                        inner.map(lambda p: ZeckendorfLeast(p * p)),
                        pairs.map(lambda p: NimProduct(sp.Mod(p[0], 64), sp.Mod(p[1], 64)))]
        return st.one_of(options)
    return st.recursive(leaves, extend, max_leaves=4)


def expressions(bitwise: bool):
    value = values(bitwise)
    relations = st.tuples(st.sampled_from([sp.Eq, sp.Ne, sp.Lt, sp.Le, sp.Gt, sp.Ge]), value, value).map(
        lambda p: p[0](p[1], p[2]))
    atoms = relations | value.map(lambda v: sp.Contains(sp.Mod(v, 5), sp.FiniteSet(0, 2)))
    if bitwise:
        atoms |= st.sampled_from([sp.Eq, sp.Ne]).map(lambda r: r(DigitSum(3, *SYMBOLS), 0))
    conditions = st.recursive(atoms, lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda p: sp.And(*p)), st.tuples(inner, inner).map(lambda p: sp.Or(*p)),
        inner.map(sp.Not)), max_leaves=3)
    branches = st.tuples(value, conditions, value).map(  # unevaluated: sympy 1.14 may recurse simplifying
        lambda p: sp.Piecewise((p[0], p[1]), (p[2], True), evaluate=False))
    return value | conditions | branches


def z3_value(translator, expr, row):
    ar = translator.ar
    term = translator.term(expr, {s.name: ar.const(int(v)) for s, v in zip(SYMBOLS, row)})
    solver = z3.Solver()
    solver.add(*translator.side)  # floor(c·x) with c irrational: constraints fix the fresh variables
    assert solver.check() == z3.sat
    value = solver.model().eval(term, model_completion=True)
    if z3.is_bool(value):
        return z3.is_true(value)
    return value.as_signed_long() if ar.is_bits else value.as_long()


def check_agreement(expr, rows):
    """Both backends give the same values, or both refuse the expression (as not exact)."""
    rows = np.asarray(rows, dtype=np.int64)
    try:
        want = evaluate(expr, {s.name: rows[:, i] for i, s in enumerate(SYMBOLS)})
    except ValueError as err:  # floor(a/2 + b/2): a fraction outside floor's constant
        assert "exactly" in str(err)
        with pytest.raises(Unsupported):
            z3_value(SmtTranslator(Arithmetic(bits=BITS, width=4 * BITS)), expr, rows[0])
        return
    if needs_bits(expr):
        bounds, peak = value_range(expr, RANGES)
        arithmetic = Arithmetic(bits=BITS, width=max(BITS, peak.bit_length()) + 2)
        if bounds is not None:
            assert bounds[0] <= want.min() and want.max() <= bounds[1] <= peak
    else:
        arithmetic = Arithmetic()
    for row, expected in zip(rows, want):
        got = z3_value(SmtTranslator(arithmetic), expr, row)
        assert got == (bool(expected) if is_condition(expr) else int(expected)), (expr, row.tolist())


rows = st.lists(st.tuples(*[st.integers(0, (1 << BITS) - 1)] * 3), min_size=1, max_size=4)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(expr=expressions(bitwise=False), rows=rows)
def test_integers_agree(expr, rows):
    check_agreement(expr, rows)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(expr=expressions(bitwise=True), rows=rows)
def test_bit_vectors_agree(expr, rows):
    check_agreement(expr, rows)
