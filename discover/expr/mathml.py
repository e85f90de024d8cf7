"""The MathML printer: rules as presentation markup, so HTML reports show the formula typeset with no
script and no network: browsers render ``<math>`` natively. The same notation as the LaTeX and the
plain text (``discover.expr.text``): ⊕ for xor, ⊕ₘ for carry-less digit sums, ``mod``, φ, cases for
piecewise rules.

Examples
--------
>>> import sympy as sp
>>> from discover.rule import Rule
>>> rule_mathml(Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",)))
'<mrow><mrow><mi>n</mi><mo>mod</mo><mn>4</mn></mrow><mo>=</mo><mn>0</mn></mrow>'
"""

from __future__ import annotations

import html
import re

import sympy as sp
from sympy.printing.mathml import MathMLPresentationPrinter

from discover.expr.features import expand_derived
from discover.expr.nodes import INFIX, Valuation2
from discover.expr.text import DIGIT_NAMES, OPERATOR_SYMBOLS, SPECIAL_WORDS

__all__ = ["MathMLRulePrinter", "rule_mathml"]


class MathMLRulePrinter(MathMLPresentationPrinter):
    """MathML presentation markup of rule expressions (call ``rule_mathml`` for a rule).

    Markup characters in operators are escaped twice: sympy's ``doprint`` unescapes once.
    """

    def _node(self, tag: str, text: str):
        node = self.dom.createElement(tag)
        node.appendChild(self.dom.createTextNode(text))
        return node

    def _row(self, *children):
        row = self.dom.createElement("mrow")
        for child in children:
            row.appendChild(child)
        return row

    def _operand(self, e, parent=None):
        """Bracketed unless an atom or a function call (a bitwise operand of another kind always is)."""
        plain = e.is_Atom or (isinstance(e, (sp.Function, sp.floor)) and not isinstance(e, INFIX))
        if plain or (parent is not None and type(e) is type(parent)):
            return self._print(e)
        return self._row(self._node("mo", "("), self._print(e), self._node("mo", ")"))

    def _infix(self, operator, operands, parent):
        row = self.dom.createElement("mrow")
        for i, operand in enumerate(operands):
            if i:
                row.appendChild(operator() if callable(operator) else self._node("mo", operator))
            row.appendChild(self._operand(operand, parent))
        return row

    def _print_BitXor(self, e):
        return self._infix(html.escape(OPERATOR_SYMBOLS["BitXor"]), e.args, e)

    def _print_BitAnd(self, e):
        return self._infix(html.escape(OPERATOR_SYMBOLS["BitAnd"]), e.args, e)

    def _print_BitOr(self, e):
        return self._infix(html.escape(OPERATOR_SYMBOLS["BitOr"]), e.args, e)

    def _print_DigitSum(self, e):  # ⊕ with the base as subscript
        def operator():
            sub = self.dom.createElement("msub")
            sub.appendChild(self._node("mo", "⊕"))
            sub.appendChild(self._node("mn", str(int(e.args[0]))))
            return sub
        return self._infix(operator, e.args[1:], e)

    def _digits(self, e):  # lowbit(n), ν₂(n) (ν with the subscript 2), wt(n), bitlen(n)
        if isinstance(e, Valuation2):
            head = self.dom.createElement("msub")
            head.appendChild(self._node("mi", "ν"))
            head.appendChild(self._node("mn", "2"))
        else:
            head = self._node("mi", DIGIT_NAMES[type(e).__name__])
        return self._row(head, self._node("mo", "("), self._print(e.args[0]), self._node("mo", ")"))

    _print_LowBit = _print_Valuation2 = _print_OddPart = _print_BitCount = _print_BitLength = _digits

    def _print_NimProduct(self, e):
        return self._infix(html.escape(OPERATOR_SYMBOLS["NimProduct"]), e.args, e)

    def _print_ZeckendorfLeast(self, e):
        return self._row(self._node("mi", "zeck"), self._node("mo", "("), self._print(e.args[0]), self._node("mo", ")"))

    def _print_Relational(self, e):
        op = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥", "<": "&lt;", ">": "&gt;"}[e.rel_op]
        return self._row(self._print(e.lhs), self._node("mo", op), self._print(e.rhs))

    def _print_Mod(self, e):
        return self._infix("mod", e.args, None)

    def _print_GoldenRatio(self, e):
        return self._node("mi", "φ")

    def _print_Symbol(self, e, style="plain"):
        if e.name.startswith("sorted"):
            sub = self.dom.createElement("msub")
            sub.appendChild(self._node("mi", "s"))
            sub.appendChild(self._node("mn", f"({e.name[6:]})"))
            return sub
        if e.name in SPECIAL_WORDS:
            return self._node("mtext", SPECIAL_WORDS[e.name])
        return super()._print_Symbol(e, style)

    def _print_Piecewise(self, e):
        table = self.dom.createElement("mtable")
        for value, condition in e.args:
            row = self.dom.createElement("mtr")
            for child in (self._print(value),
                          self._node("mtext", "otherwise") if condition is sp.true
                          else self._row(self._node("mtext", "if\u2002"), self._print(condition))):
                cell = self.dom.createElement("mtd")
                cell.appendChild(child)
                row.appendChild(cell)
            table.appendChild(row)
        return self._row(self._node("mo", "{"), table)


def rule_mathml(rule) -> str | None:
    """The rule's formula as MathML presentation markup (the inside of a ``<math>`` element); None for a
    periodic table of values, which the text states better than a formula."""
    if rule.sequence is not None:
        return None
    body = MathMLRulePrinter().doprint(expand_derived(rule.expr, rule.feature_names))
    body = re.sub(r"&[A-Za-z]+;", lambda m: f"&#{ord(html.unescape(m.group(0)))};", body)  # XML has no named ones
    return body if rule.target == "P" else f"<mrow><mi>𝒢</mi><mo>=</mo>{body}</mrow>"
