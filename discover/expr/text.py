"""The text printer: rules the way a mathematician writes them, a ⊕ b ⊕ c = 0, n mod 7 ∈ {0, 2}, ⌊kφ⌋.

``TextPrinter`` is a sympy ``StrPrinter`` with one ``_print_<NodeType>`` per node type the base
printer does not already write this way.  ``OPERATOR_SYMBOLS`` and ``SPECIAL_WORDS`` are the
notation the MathML printer shares.
"""

from __future__ import annotations

import sympy as sp
from sympy.printing.str import StrPrinter

from discover.expr.features import DERIVED, expand_derived
from discover.expr.nodes import INFIX

__all__ = ["TextPrinter", "rule_text", "general_text", "bit_operand", "OPERATOR_SYMBOLS", "SPECIAL_WORDS",
           "DIGIT_NAMES"]

#: the symbols of the bitwise operators in plain text (and MathML)
OPERATOR_SYMBOLS = {"BitXor": "⊕", "BitAnd": "&", "BitOr": "|"}
#: the functions of binary digits, by node type: the name each is written with (ν₂ in every notation)
DIGIT_NAMES = {"LowBit": "lowbit", "Valuation2": "ν₂", "OddPart": "odd", "BitCount": "wt", "BitLength": "bitlen"}
OPERATOR_SYMBOLS = {"BitXor": "⊕", "BitAnd": "&", "BitOr": "|", "NimProduct": "⊗"}
#: counts among the derived features, written as words
SPECIAL_WORDS = {"nonzero": "#{non-zero}", "big": "#{> 1}"}
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def bit_operand(printer, arg, parent) -> str:
    """An operand of a bitwise operator: another bitwise operator, a ``mod`` or a case split inside it is
    bracketed, (b | c) ⊕ d, (a mod 4) ⊕ (b mod 4).

    Examples
    --------
    >>> from discover.expr.nodes import BitOr, BitXor
    >>> a, b, c = sp.symbols("a b c")
    >>> bit_operand(TextPrinter(), BitOr(b, c), BitXor(a, BitOr(b, c)))
    '(b | c)'
    >>> bit_operand(TextPrinter(), sp.Mod(a, 4), BitXor(sp.Mod(a, 4), b))
    '(a mod 4)'
    """
    if isinstance(arg, INFIX) and type(arg) is not type(parent) or isinstance(arg, (sp.Mod, sp.Piecewise)):
        return printer._bracket(printer._print(arg))
    return printer._wrap(arg)


class TextPrinter(StrPrinter):
    """Plain text of rule expressions (call ``rule_text`` for a rule).

    Examples
    --------
    >>> TextPrinter().doprint(sp.floor(sp.GoldenRatio * sp.Symbol("k")))
    '⌊φ*k⌋'
    """

    def _bracket(self, text):
        return f"({text})"

    def _wrap(self, e):
        text = self._print(e)
        return text if e.is_Atom or isinstance(e, (sp.Function, sp.floor)) else self._bracket(text)

    def _infix(self, symbol, e, operands):
        return f" {symbol} ".join(bit_operand(self, a, e) for a in operands)

    def _print_Symbol(self, e):
        if e.name.startswith("sorted"):
            return f"sorted_{e.name[6:]}"
        return SPECIAL_WORDS.get(e.name, e.name)

    def _print_GoldenRatio(self, e):
        return "φ"

    def _print_BitXor(self, e):
        return self._infix(OPERATOR_SYMBOLS["BitXor"], e, e.args)

    def _print_BitAnd(self, e):
        return self._infix(OPERATOR_SYMBOLS["BitAnd"], e, e.args)

    def _print_BitOr(self, e):
        return self._infix(OPERATOR_SYMBOLS["BitOr"], e, e.args)

    def _print_DigitSum(self, e):  # the carry-less sum mod m: a ⊕₃ b ⊕₃ c
        return self._infix("⊕" + str(int(e.args[0])).translate(_SUBSCRIPTS), e, e.args[1:])

    def _digits(self, e):  # lowbit(n), ν₂(n), odd(n), wt(n), bitlen(n)
        return f"{DIGIT_NAMES[type(e).__name__]}({self._print(e.args[0])})"

    _print_LowBit = _print_Valuation2 = _print_OddPart = _print_BitCount = _print_BitLength = _digits
    def _print_NimProduct(self, e):
        return self._infix(OPERATOR_SYMBOLS["NimProduct"], e, e.args)

    def _print_ZeckendorfLeast(self, e):  # the least part of the Zeckendorf representation
        return f"zeck({self._print(e.args[0])})"

    def _print_Min(self, e):
        return "min(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Max(self, e):
        return "max(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_floor(self, e):
        return f"⌊{self._print(e.args[0])}⌋"

    def _print_ceiling(self, e):
        return f"⌈{self._print(e.args[0])}⌉"

    def _print_Abs(self, e):
        return f"|{self._print(e.args[0])}|"

    def _print_Mod(self, e):
        return f"{self._wrap(e.args[0])} mod {self._wrap(e.args[1])}"

    def _print_Contains(self, e):
        members = ", ".join(self._print(m) for m in sorted(e.args[1], key=lambda v: int(v)))
        return f"{self._print(e.args[0])} ∈ {{{members}}}"

    def _print_Relational(self, e):
        op = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}[e.rel_op]
        return f"{self._print(e.lhs)} {op} {self._print(e.rhs)}"

    def _print_And(self, e):
        return " and ".join(self._wrap_bool(a) for a in e.args)

    def _print_Or(self, e):
        return " or ".join(self._wrap_bool(a) for a in e.args)

    def _print_Not(self, e):
        return f"not ({self._print(e.args[0])})"

    def _wrap_bool(self, e):
        text = self._print(e)
        return f"({text})" if isinstance(e, (sp.And, sp.Or)) else text

    def _print_Piecewise(self, e):
        branches = []
        for value, cond in e.args:
            if cond is sp.true:
                branches.append(f"otherwise {self._print(value)}")
            else:
                branches.append(f"if {self._print(cond)}: {self._print(value)}")
        return "; ".join(branches)


def _plain(body: str) -> str:
    return body.replace("**", "^").replace("*", "·")


def rule_text(expr, coordinate_names, target: str = "P") -> str:
    """Plain text of a rule; a Grundy rule reads ``G = ...``.

    Examples
    --------
    >>> rule_text(sp.Eq(sp.Symbol("xor_all"), 0), ["a", "b", "c"])
    'a ⊕ b ⊕ c = 0'
    """
    body = _plain(TextPrinter().doprint(expand_derived(expr, coordinate_names)))
    return body if target == "P" else f"G = {body}"


class _WordsPrinter(TextPrinter):
    def _print_Symbol(self, e):
        return f"[{DERIVED[e.name].words}]" if e.name in DERIVED else super()._print_Symbol(e)


def general_text(expr, target: str = "P") -> str | None:
    """The rule stated for any number of coordinates, when it uses only derived features.

    Examples
    --------
    >>> general_text(sp.Eq(sp.Symbol("xor_all"), 0))
    '[the xor of all coordinates] = 0'
    """
    names = {s.name for s in expr.free_symbols}
    if not names or not names <= set(DERIVED):
        return None
    body = _plain(_WordsPrinter().doprint(expr))
    return body if target == "P" else f"G = {body}"
