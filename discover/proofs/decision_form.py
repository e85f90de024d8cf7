"""A rule's decision list in a canonical form, so that a theorem's statement is recognised in the rule's expression
(structurally, never by its text).

A ``Piecewise`` becomes a tuple of (value, guard) pairs whose atoms are canonical: an equation or inequation as
the pair {u, -u} with u = lhs - rhs (its sides in either order; |u| = 0 read as u = 0), any other relation in
sympy's canonical form; a final "if c: X; otherwise False" with c an inequation is read as "if not c: False;
otherwise X".  Two decision lists with equal forms state the same condition.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["decision_form"]


def decision_form(expr) -> tuple | None:
    """The canonical form of a decision list (a ``Piecewise``), or None for any other expression.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> one = sp.Piecewise((True, sp.Eq(sp.Min(a, b), 0)), (False, sp.Eq(sp.Abs(a - b), 0)), (a <= 2 * b, True))
    >>> two = sp.Piecewise((True, sp.Eq(0, sp.Min(a, b))), (a <= 2 * b, sp.Ne(b, a)), (False, True))
    >>> decision_form(one) == decision_form(two), decision_form(a <= b)
    (True, None)
    """
    if not isinstance(expr, sp.Piecewise):
        return None
    pairs = [(value, cond) for value, cond in expr.args]
    if len(pairs) >= 2 and pairs[-1] == (sp.false, sp.true) and isinstance(pairs[-2][1], sp.Ne):
        value, cond = pairs[-2]
        pairs[-2:] = [(sp.false, sp.Eq(cond.lhs, cond.rhs)), (value, sp.true)]
    return tuple((_atom(value), _atom(cond)) for value, cond in pairs)


def _atom(expr):
    """An equation or inequation as (kind, {u, -u}) for u = lhs - rhs (|u| = 0 as u = 0); other relations in
    sympy's canonical form; anything else as it is."""
    if isinstance(expr, (sp.Eq, sp.Ne)):
        lhs, rhs = expr.lhs, expr.rhs
        if lhs == 0:
            lhs, rhs = rhs, lhs
        if rhs == 0 and isinstance(lhs, sp.Abs):
            lhs = lhs.args[0]
        u = sp.expand(lhs - rhs)
        return type(expr).__name__, frozenset((u, sp.expand(-u)))
    if isinstance(expr, sp.core.relational.Relational):
        return expr.canonical
    return expr
