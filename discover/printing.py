"""Printing rules the way a mathematician writes them: a ⊕ b ⊕ c = 0, n mod 7 ∈ {0, 2}, ⌊kφ⌋.

A periodic Grundy sequence (``discover.periodic_values``) is written out when it is short (Kayles:
twelve values by n mod 12 and fourteen exceptions) and named by its period otherwise ("period
149,459 from n = 105,351 (values in the report)").
"""

from __future__ import annotations

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from discover.expressions import BitAnd, BitOr, BitXor, DigitSum
from discover.features import DERIVED

__all__ = ["expand_derived", "rule_text", "rule_latex", "general_text", "periodic_text", "periodic_latex",
           "SHORT_PERIODIC"]

SHORT_PERIODIC = 36  # a period and an exception list of at most this many values are written out
_SPECIAL_WORDS = {"nonzero": "#{non-zero}", "big": "#{> 1}"}
_BIT_SYMBOLS = {BitXor: "⊕", BitAnd: "&", BitOr: "|"}
_BIT_LATEX = {BitXor: r"\oplus", BitAnd: r"\mathbin{\&}", BitOr: r"\mid"}
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def expand_derived(expr, coordinate_names) -> sp.Basic:
    """Write derived features (xor_all, min_all, ...) out over the coordinates (|x - y| = 0 as x = y).

    Examples
    --------
    >>> expand_derived(sp.Eq(sp.Symbol("spread"), 0), ["a", "b"])
    Eq(a, b)
    """
    coords = [sp.Symbol(n) for n in coordinate_names]
    subs = {
        sp.Symbol(name): d.expand(coords)
        for name, d in DERIVED.items()
        if sp.Symbol(name) in expr.free_symbols and len(coords) >= d.min_dims
    }
    expanded = expr.xreplace(subs) if subs else expr
    return expanded.replace(_is_zero_distance, _as_equality)


def _is_zero_distance(e) -> bool:
    return isinstance(e, sp.Eq) and isinstance(e.lhs, sp.Abs) and e.rhs == 0


def _as_equality(e):
    """|x - y| = 0 reads x = y."""
    inside = e.lhs.args[0]
    plus = [t for t in sp.Add.make_args(inside) if not t.could_extract_minus_sign()]
    minus = [-t for t in sp.Add.make_args(inside) if t.could_extract_minus_sign()]
    return sp.Eq(sp.Add(*plus), sp.Add(*minus), evaluate=False)


def _bit_operand(printer, arg, parent) -> str:
    """An operand of a bitwise operator: another bitwise operator inside it is bracketed, (b | c) ⊕ d."""
    if isinstance(arg, (BitXor, BitAnd, BitOr, DigitSum)) and type(arg) is not type(parent):
        text = printer._print(arg)
        return rf"\left({text}\right)" if isinstance(printer, LatexPrinter) else f"({text})"
    return printer._wrap(arg)


class _TextPrinter(StrPrinter):
    def _wrap(self, e):
        text = self._print(e)
        return text if e.is_Atom or isinstance(e, (sp.Function, sp.floor)) else f"({text})"

    def _print_Symbol(self, e):
        if e.name.startswith("sorted"):
            return f"sorted_{e.name[6:]}"
        return _SPECIAL_WORDS.get(e.name, e.name)

    def _print_GoldenRatio(self, e):
        return "φ"

    def _print_Function(self, e):
        if type(e) in _BIT_SYMBOLS:
            return f" {_BIT_SYMBOLS[type(e)]} ".join(_bit_operand(self, a, e) for a in e.args)
        if isinstance(e, DigitSum):  # the carry-less sum mod m: a ⊕₃ b ⊕₃ c
            sign = "⊕" + str(int(e.args[0])).translate(_SUBSCRIPTS)
            return f" {sign} ".join(_bit_operand(self, a, e) for a in e.args[1:])
        return super()._print_Function(e)

    def _print_Min(self, e):
        return "min(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Max(self, e):
        return "max(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_floor(self, e):
        return f"⌊{self._print(e.args[0])}⌋"

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


class _Latex(LatexPrinter):
    def _print_Function(self, e, exp=None):
        if type(e) in _BIT_LATEX:
            return f" {_BIT_LATEX[type(e)]} ".join(_bit_operand(self, a, e) for a in e.args)
        if isinstance(e, DigitSum):
            return f" \\oplus_{{{int(e.args[0])}}} ".join(_bit_operand(self, a, e) for a in e.args[1:])
        return super()._print_Function(e, exp)

    def _print_Symbol(self, e, style="plain"):
        if e.name.startswith("sorted"):
            return rf"s_{{({e.name[6:]})}}"
        if e.name in _SPECIAL_WORDS:
            return rf"\#\{{\text{{{_SPECIAL_WORDS[e.name][2:-1]}}}\}}"
        return super()._print_Symbol(e, style)

    def _wrap(self, e):
        text = self._print(e)
        return text if e.is_Atom or isinstance(e, (sp.Function, sp.floor)) else rf"\left({text}\right)"

    def _print_Mod(self, e, exp=None):
        return rf"{self._wrap(e.args[0])} \bmod {self._wrap(e.args[1])}"

    def _print_Contains(self, e):
        members = ", ".join(self._print(m) for m in sorted(e.args[1], key=lambda v: int(v)))
        return rf"{self._print(e.args[0])} \in \{{{members}\}}"


def rule_text(expr, coordinate_names, target: str = "P") -> str:
    """Plain text of a rule; a Grundy rule reads ``G = ...``."""
    body = _TextPrinter().doprint(expand_derived(expr, coordinate_names)).replace("**", "^").replace("*", "·")
    return body if target == "P" else f"G = {body}"


def rule_latex(expr, coordinate_names, target: str = "P") -> str:
    """LaTeX of a rule (the golden ratio as \\phi, xor as \\oplus)."""
    body = _Latex().doprint(expand_derived(expr, coordinate_names))
    return body if target == "P" else f"\\mathcal{{G}} = {body}"


class _WordsPrinter(_TextPrinter):
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
    body = _WordsPrinter().doprint(expr).replace("**", "^").replace("*", "·")
    return body if target == "P" else f"G = {body}"


def _is_short(sequence) -> bool:
    return sequence.period <= SHORT_PERIODIC and len(sequence.exceptions) <= SHORT_PERIODIC


def _exception_groups(sequence) -> list[tuple[int, list[int]]]:
    """(value, heaps) for the exceptions, in the order of their first heap."""
    groups: dict[int, list[int]] = {}
    for n, value in sequence.exceptions.tolist():
        groups.setdefault(value, []).append(n)
    return list(groups.items())


def periodic_text(sequence) -> str:
    """Plain text of a periodic Grundy sequence (``discover.periodic_values.PeriodicValues``).

    Examples
    --------
    >>> from discover.periodic_values import PeriodicValues
    >>> periodic_text(PeriodicValues(2, 3, [0, 1, 2], [[0, 5], [1, 5]]))
    'G(n) = v[n mod 3], v = (0, 1, 2), period 3 from n = 2; except G(n) = 5 for n ∈ {0, 1}'
    >>> periodic_text(PeriodicValues(105_351, 149_459, [0] * 149_459, []))
    'period 149,459 from n = 105,351 (values in the report)'
    """
    p, n0 = sequence.period, sequence.preperiod
    if not _is_short(sequence):
        return f"period {p:,} from n = {n0:,} (values in the report)"
    values = ", ".join(str(v) for v in sequence.values.tolist())
    text = f"G(n) = v[n mod {p}], v = ({values}), period {p} from n = {n0}"
    groups = [f"{value} for n {_in(heaps)}" for value, heaps in _exception_groups(sequence)]
    return text + (f"; except G(n) = {'; '.join(groups)}" if groups else "")


def _in(heaps: list[int]) -> str:
    return f"= {heaps[0]}" if len(heaps) == 1 else "∈ {" + ", ".join(map(str, heaps)) + "}"


def periodic_latex(sequence) -> str:
    """LaTeX of a periodic Grundy sequence: its cases when short, its period otherwise.

    Examples
    --------
    >>> from discover.periodic_values import PeriodicValues
    >>> print(periodic_latex(PeriodicValues(105_351, 149_459, [0] * 149_459, [])))
    \\mathcal{G}(n + 149459) = \\mathcal{G}(n) \\text{ for every } n \\ge 105351
    """
    p, n0 = sequence.period, sequence.preperiod
    if not _is_short(sequence):
        return rf"\mathcal{{G}}(n + {p}) = \mathcal{{G}}(n) \text{{ for every }} n \ge {n0}"
    rows = [rf"{value} & n \in \{{{', '.join(map(str, heaps))}\}}" for value, heaps in _exception_groups(sequence)]
    rows.append(rf"v_{{n \bmod {p}}} & \text{{otherwise}}")
    cases = r" \\ ".join(rows)
    values = ", ".join(str(v) for v in sequence.values.tolist())
    return (rf"\mathcal{{G}}(n) = \begin{{cases}} {cases} \end{{cases}},\quad v = ({values}),"
            rf"\ \text{{period {p} from }} n = {n0}")
