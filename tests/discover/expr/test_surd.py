"""``Surd``: exact arithmetic in Q(sqrt(m)) agrees with sympy's on random constants (Hypothesis)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from discover.expr.exact import Surd

SQUAREFREE = (2, 3, 5, 6, 7, 10, 11, 13)
fractions = st.builds(Fraction, st.integers(-40, 40), st.integers(1, 12))


def _sympy(x: Surd):
    return sp.Rational(x.u.numerator, x.u.denominator) + sp.Rational(x.v.numerator, x.v.denominator) * sp.sqrt(x.m)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(fractions, fractions, fractions, fractions, st.sampled_from(SQUAREFREE))
def test_sums_inverses_and_signs_agree_with_sympy(u1, v1, u2, v2, m):
    x, y = Surd(u1, v1, m), Surd(u2, v2, m)
    for got, want in ((x + y, _sympy(x) + _sympy(y)), (x - y, _sympy(x) - _sympy(y)), (x - 1, _sympy(x) - 1)):
        assert sp.simplify(_sympy(got) - want) == 0
        assert got.sign() == sp.sign(sp.nsimplify(want))
    if x.sign() != 0:
        assert sp.simplify(_sympy(1 / x) - 1 / _sympy(x)) == 0


def test_constants_read_from_sympy_and_the_golden_ratio_identities():
    phi = Surd.of(sp.GoldenRatio)
    assert (phi.u, phi.v, phi.m) == (Fraction(1, 2), Fraction(1, 2), 5)
    assert (1 / phi + 1 / (phi + 1) - 1).sign() == 0 and (phi - 1).sign() == 1
    assert Surd.of(sp.Rational(3, 4)).rational and not phi.rational
    with pytest.raises(ValueError, match="not rational or quadratic"):
        Surd.of(sp.pi)
    with pytest.raises(ValueError, match="one quadratic field"):
        phi + Surd.of(sp.sqrt(2))
    for m in (0, 1, 4, 12):  # sqrt(m) rational, or m not squarefree: not this representation
        with pytest.raises(ValueError, match="squarefree"):
            Surd(Fraction(0), Fraction(1), m)
    with pytest.raises(ZeroDivisionError):
        1 / Surd(Fraction(0))
