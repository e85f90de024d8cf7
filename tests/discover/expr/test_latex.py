"""The LaTeX printer keeps every operand and exponent of the project's own node types."""

from __future__ import annotations

import pytest
import sympy as sp

from discover.expr.latex import LatexRulePrinter
from discover.expr.nodes import BitXor, DigitSum

a, b = sp.symbols("a b")


@pytest.mark.parametrize("expr, latex", [
    (BitXor(a, b), r"a \oplus b"),
    (BitXor(a, b) ** 2, r"\left(a \oplus b\right)^{2}"),
    (DigitSum(3, a, b) ** 3, r"\left(a \oplus_{3} b\right)^{3}"),
    (sp.Mod(a, 7) ** 2, r"\left(a \bmod 7\right)^{2}"),
])
def test_powers_of_bitwise_nodes_keep_their_exponent(expr, latex):
    assert LatexRulePrinter().doprint(expr) == latex
