"""The z3 translation of rule expressions computes exactly what numpy computes, value by value.

Random coordinates (some large, some zero) are substituted into each expression's z3 term, in
integers and in bit-vectors, and the simplified constant must equal the numpy backend's
exact value; interval bounds must contain every value seen.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
import z3

from discover.expr.features import expand_features
from discover.expr.intervals import value_range
from discover.expr.nimber import NimProduct
from discover.expr.nodes import BitAnd, BitOr, BitXor, DigitSum
from discover.expr.numeric import evaluate
from discover.expr.smt import Arithmetic, SmtTranslator
from discover.expr.walker import Unsupported

a, b, c = sp.symbols("a b c")
LINEAR = [
    a - 3 * b + 7, sp.Mod(a - b, 5), sp.Mod(a, b), sp.floor(a / 3) - b, sp.floor(a / b), sp.Min(a, b - 4),
    sp.Max(a, b, c) - sp.Min(a, b, c), sp.Abs(a - b), sp.floor(sp.Rational(161804, 100000) * sp.Abs(b - a)),
    sp.Piecewise((a, sp.Le(b, 3)), (c + 1, True)), a * b - c,
]
CONDITIONS = [
    sp.Contains(sp.Mod(a, 7), sp.FiniteSet(0, 2)), sp.And(sp.Eq(a, b), sp.Ne(c, 0)), sp.Or(sp.Lt(a, b), sp.Ge(c, 9)),
    sp.Not(sp.Gt(a, c)), sp.Eq(sp.Symbol("nonzero"), 2), sp.Eq(sp.Symbol("big"), 1),
    sp.Piecewise((sp.Eq(sp.Symbol("xor_all"), 1), sp.Le(sp.Symbol("max_all"), 1)), (sp.Eq(sp.Symbol("xor_all"), 0), True)),
    sp.Eq(DigitSum(3, a, b, c), 0), sp.Ne(DigitSum(3, a, b, c), 0),
]
BITWISE = [BitXor(a, b, c), BitAnd(a, b) + BitOr(b, c), DigitSum(3, a, b, c), DigitSum(4, a, b, c) + a]
IRRATIONAL = [sp.floor(sp.GoldenRatio * a), sp.floor(sp.GoldenRatio * sp.Abs(a - b)), sp.floor(a / sp.GoldenRatio)]


def values(rng, n=20, top=10**6):
    rows = rng.integers(0, top, size=(n, 3))
    rows[: n // 4] %= 4  # small values: zeros, ones and equal coordinates
    return rows


def concrete(translator, expr, row):
    arithmetic = translator.ar
    term = translator.term(expand_features(expr, ["a", "b", "c"]), {n: arithmetic.const(int(v)) for n, v in zip("abc", row)})
    if translator.side:  # floor(c·x) with c irrational: the defining constraints fix the fresh variable
        solver = z3.Solver()
        solver.add(*translator.side)
        assert solver.check() == z3.sat
        value = solver.model().eval(term, model_completion=True)
        solver.add(term != value)
        assert solver.check() == z3.unsat  # and fix it uniquely
        return value.as_long()
    value = z3.simplify(term)
    if z3.is_bool(value):
        return z3.is_true(value)
    return value.as_signed_long() if arithmetic.is_bits else value.as_long()


@pytest.mark.parametrize("bits", [None, 64])
@pytest.mark.parametrize("expr", LINEAR + CONDITIONS + BITWISE, ids=str)
def test_translation_agrees_with_numpy(expr, bits):
    needs = any(expr.has(f) for f in (BitXor, BitAnd, BitOr, DigitSum)) or "xor_all" in str(expr)
    arithmetic = Arithmetic(bits=bits, width=bits + 70) if bits else Arithmetic()
    rng = np.random.default_rng(0)
    rows = values(rng)
    columns = {n: rows[:, i] for i, n in enumerate("abc")}
    from discover.expr.features import feature_columns

    columns.update(feature_columns(["xor_all", "max_all", "nonzero", "big"], ["a", "b", "c"], rows))
    want = evaluate(expr, columns)
    translator = SmtTranslator(arithmetic)
    if needs and not bits:
        with pytest.raises(Unsupported):
            concrete(translator, expr, rows[0])
        return
    for row, expected in zip(rows, want):
        assert concrete(SmtTranslator(arithmetic), expr, row) == (bool(expected) if want.dtype == bool
                                                                  else int(expected)), row
    if want.dtype != bool:
        ranges = {n: (0, 10**6) for n in "abc"}
        (lo, hi), peak = value_range(expand_features(expr, ["a", "b", "c"]), ranges)
        assert lo <= want.min() and want.max() <= hi <= peak


@pytest.mark.parametrize("expr", IRRATIONAL, ids=str)
def test_irrational_floors_are_exact_in_integers_and_refused_in_bit_vectors(expr):
    rng = np.random.default_rng(1)
    rows = values(rng, n=12)
    want = evaluate(expr, {n: rows[:, i] for i, n in enumerate("abc")})
    for row, expected in zip(rows, want):
        assert concrete(SmtTranslator(Arithmetic()), expr, row) == int(expected)
    with pytest.raises(Unsupported, match="irrational"):
        SmtTranslator(Arithmetic(bits=64, width=70)).term(expr, {n: z3.BitVec(n, 70) for n in "abc"})


def test_what_cannot_be_stated_is_unsupported():
    with pytest.raises(Unsupported, match="sorted2"):
        expand_features(sp.Eq(sp.Symbol("sorted2"), 0), ["a", "b", "c"])
    with pytest.raises(Unsupported):
        SmtTranslator(Arithmetic()).term(sp.Eq(sp.sin(a), 0), {"a": z3.Int("a")})


def test_a_nim_product_of_a_factor_past_2_32_is_exact_in_z3():
    """Coordinates below 2^32 may sum past it: z3 multiplies every bit its width holds (it once dropped those from
    bit 32 up, so that (2^31 + 2^31) ⊗ 2 was 0), as the interval analysis sizes the width for."""
    expr = NimProduct(a + b, c)
    bits = 32
    _, peak = value_range(expr, {n: (0, (1 << bits) - 1) for n in "abc"})
    ar = Arithmetic(bits=bits, width=peak.bit_length() + 2)
    for x, y, z in [(2**31, 2**31, 2), (2**32 - 1, 2**32 - 1, 2**32 - 1), (2**31 + 7, 2**31 + 9, 3)]:
        term = SmtTranslator(ar).term(expr, {"a": ar.const(x), "b": ar.const(y), "c": ar.const(z)})
        assert z3.simplify(term).as_signed_long() == NimProduct(x + y, z)
