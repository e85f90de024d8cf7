"""Text and LaTeX of a periodic Grundy sequence, the other form a rule takes besides an expression.

A periodic sequence (``discover.periodic_values.PeriodicValues``) is written out when it is short
(Kayles: twelve values by n mod 12 and fourteen exceptions) and named by its period otherwise
("period 149,459 from n = 105,351 (values in the report)").
"""

from __future__ import annotations

__all__ = ["periodic_text", "periodic_latex", "SHORT_PERIODIC"]

SHORT_PERIODIC = 36  # a period and an exception list of at most this many values are written out


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
