"""Rules typeset as MathML: well-formed XML for every construct of the grammar, the project's notation."""

from __future__ import annotations

import xml.dom.minidom

import pytest
import sympy as sp

from discover.expr.mathml import rule_mathml
from discover.expr.nodes import BitAnd, BitOr, BitXor, DigitSum
from discover.periodic_values import PeriodicValues
from discover.rule import Rule

a, b, c, n = sp.symbols("a b c n")
XOR = BitXor(a, b, c)


@pytest.mark.parametrize("expr, names, marks", [
    (sp.Eq(XOR, 0), "abc", ["<mo>&#8853;</mo>", "<mn>0</mn>"]),
    (sp.Piecewise((sp.Eq(XOR, 1), sp.Max(a, b, c) <= 1), (sp.Eq(XOR, 0), True)), "abc",
     ["<mtable>", "<mtext>otherwise</mtext>", "<mo>&#8804;</mo>"]),
    (sp.Eq(sp.Min(a, b), sp.floor(sp.GoldenRatio * sp.Abs(a - b))), "ab", ["<mi>&#966;</mi>", "&#8970;"]),
    (sp.Eq(DigitSum(3, a, b, c), 0), "abc", ["<msub><mo>&#8853;</mo><mn>3</mn></msub>"]),
    (sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2)), "n", ["<mo>mod</mo>"]),
    (sp.Eq(BitXor(a, BitAnd(b, c)), BitOr(a, c)), "abc", ["<mo>&#38;</mo>", "<mo>(</mo>", "<mo>|</mo>"]),
    (sp.And(a < b, sp.Eq(sp.Symbol("nonzero"), 2), sp.Eq(sp.Symbol("sorted1"), 0)), "abc",
     ["<mo>&#60;</mo>", "<mtext>#{non-zero}</mtext>", "<msub><mi>s</mi><mn>(1)</mn></msub>"]),
    (sp.Eq(sp.Symbol("xor_all"), 0), "abc", ["<mo>&#8853;</mo>"]),  # derived features written out
])
def test_well_formed_with_the_project_notation(expr, names, marks):
    markup = rule_mathml(Rule(expr, tuple(names)))
    xml.dom.minidom.parseString(f"<math>{markup}</math>")  # raises on bad markup
    for mark in marks:
        assert mark in markup
    assert "xor_all" not in markup and "bitxor" not in markup


def test_grundy_rules_and_periodic_tables():
    markup = rule_mathml(Rule(sp.Mod(n, 3), ("n",), target="grundy"))
    assert markup.startswith("<mrow><mi>𝒢</mi><mo>=</mo>")
    kayles_like = PeriodicValues.from_values([0, 1, 2, 3, 1, 2, 3, 1, 2, 3], preperiod=1, period=3)
    assert rule_mathml(Rule.from_periodic(kayles_like)) is None  # the text states a table better
