"""The LaTeX printer: the golden ratio as \\phi, xor as \\oplus, digit sums as \\oplus_m, ``\\bmod``.

``LatexRulePrinter`` is a sympy ``LatexPrinter`` with a ``_print_<NodeType>`` for each node type it
writes its own way; sympy's LaTeX printer already covers the others (``GoldenRatio`` prints itself).
"""

from __future__ import annotations

import sympy as sp
from sympy.printing.latex import LatexPrinter

from discover.expr.features import expand_derived
from discover.expr.text import DIGIT_NAMES, SPECIAL_WORDS, bit_operand

__all__ = ["LatexRulePrinter", "rule_latex"]


class LatexRulePrinter(LatexPrinter):
    """LaTeX of rule expressions (call ``rule_latex`` for a rule).

    Examples
    --------
    >>> LatexRulePrinter().doprint(sp.Mod(sp.Symbol("n"), 7))
    'n \\\\bmod 7'
    """

    def _bracket(self, text):
        return rf"\left({text}\right)"

    def _wrap(self, e):
        text = self._print(e)
        return text if e.is_Atom or isinstance(e, (sp.Function, sp.floor)) else self._bracket(text)

    def _infix(self, symbol, e, operands, exp=None):
        """Operands joined by ``symbol``; raised to ``exp`` (sympy's power printer passes it) in brackets."""
        text = f" {symbol} ".join(bit_operand(self, a, e) for a in operands)
        return text if exp is None else rf"{self._bracket(text)}^{{{exp}}}"

    def _print_BitXor(self, e, exp=None):
        return self._infix(r"\oplus", e, e.args, exp)

    def _print_BitAnd(self, e, exp=None):
        return self._infix(r"\mathbin{\&}", e, e.args, exp)

    def _print_BitOr(self, e, exp=None):
        return self._infix(r"\mid", e, e.args, exp)

    def _print_DigitSum(self, e, exp=None):
        return self._infix(f"\\oplus_{{{int(e.args[0])}}}", e, e.args[1:], exp)

    def _digits(self, e, exp=None):  # \operatorname{lowbit}(n), \nu_2(n), \operatorname{wt}(n), ...
        name = type(e).__name__
        head = r"\nu_2" if name == "Valuation2" else rf"\operatorname{{{DIGIT_NAMES[name]}}}"
        text = rf"{head}\left({self._print(e.args[0])}\right)"
        return text if exp is None else rf"{text}^{{{exp}}}"

    _print_LowBit = _print_Valuation2 = _print_OddPart = _print_BitCount = _print_BitLength = _digits

    def _print_NimProduct(self, e, exp=None):
        return self._infix(r"\otimes", e, e.args, exp)

    def _print_ZeckendorfLeast(self, e, exp=None):
        text = rf"\operatorname{{zeck}}({self._print(e.args[0])})"
        return text if exp is None else rf"{text}^{{{exp}}}"

    def _print_Symbol(self, e, style="plain"):
        if e.name.startswith("sorted"):
            return rf"s_{{({e.name[6:]})}}"
        if e.name in SPECIAL_WORDS:
            return rf"\#\{{\text{{{SPECIAL_WORDS[e.name][2:-1]}}}\}}"
        return super()._print_Symbol(e, style)

    def _print_Mod(self, e, exp=None):
        text = rf"{self._wrap(e.args[0])} \bmod {self._wrap(e.args[1])}"
        return text if exp is None else rf"{self._bracket(text)}^{{{exp}}}"

    def _print_Contains(self, e):
        members = ", ".join(self._print(m) for m in sorted(e.args[1], key=lambda v: int(v)))
        return rf"{self._print(e.args[0])} \in \{{{members}\}}"


def rule_latex(expr, coordinate_names, target: str = "P") -> str:
    """LaTeX of a rule (the golden ratio as \\phi, xor as \\oplus).

    Examples
    --------
    >>> rule_latex(sp.Eq(sp.Symbol("xor_all"), 0), ["a", "b"])
    'a \\\\oplus b = 0'
    """
    body = LatexRulePrinter().doprint(expand_derived(expr, coordinate_names))
    return body if target == "P" else f"\\mathcal{{G}} = {body}"
