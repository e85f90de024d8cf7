"""Rule and strategy expressions as JSON trees, read back against a whitelist (never evaluated).

A tree is ``["Head", child, ...]``: ``["Symbol", "a"]``, ``["Integer", 3]``, ``["Rational", 1, 2]``,
``["GoldenRatio"]``, and operators such as ``["Add", x, y]`` or ``["BitXor", x, y]``.  Only the
heads of the rule grammar are accepted; anything else is a ``ValueError``.

Examples
--------
>>> import sympy as sp
>>> from discover.expressions import BitXor
>>> a, h = sp.symbols("a h")
>>> tree = to_tree(sp.Lt(BitXor(h, a), h))
>>> tree
['StrictLessThan', ['BitXor', ['Symbol', 'h'], ['Symbol', 'a']], ['Symbol', 'h']]
>>> from_tree(tree) == sp.Lt(BitXor(h, a), h)
True
"""

from __future__ import annotations

import sympy as sp

from discover.expressions import BitAnd, BitOr, BitXor, DigitSum

__all__ = ["to_tree", "from_tree"]

_OPERATORS = {
    cls.__name__: cls
    for cls in (sp.Add, sp.Mul, sp.Pow, sp.Mod, sp.floor, sp.Min, sp.Max, sp.Abs, BitXor, BitAnd, BitOr, DigitSum,
                sp.Eq, sp.Ne, sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan, sp.And, sp.Or,
                sp.Not)
}
_ATOMS = {"GoldenRatio": sp.GoldenRatio, "true": sp.true, "false": sp.false}


def to_tree(expr) -> list:
    """A JSON-ready tree of a sympy expression built from the rule grammar."""
    if isinstance(expr, sp.Symbol):
        return ["Symbol", expr.name]
    if isinstance(expr, sp.Integer):
        return ["Integer", int(expr)]
    if isinstance(expr, sp.Rational):
        return ["Rational", int(expr.p), int(expr.q)]
    for name, atom in _ATOMS.items():
        if expr is atom or expr == atom:
            return [name]
    if isinstance(expr, sp.Piecewise):
        return ["Piecewise"] + [[to_tree(value), to_tree(cond)] for value, cond in expr.args]
    if isinstance(expr, sp.Contains):
        return ["Contains", to_tree(expr.args[0]), sorted(int(v) for v in expr.args[1])]
    name = type(expr).__name__
    if name not in _OPERATORS:
        raise ValueError(f"cannot write {expr} (a {name}) as a tree; known: {', '.join(_OPERATORS)}")
    return [name] + [to_tree(a) for a in expr.args]


def from_tree(tree) -> sp.Basic:
    """The sympy expression of a tree written by ``to_tree``; ``ValueError`` for anything else."""
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise ValueError(f"not an expression tree: {tree!r}")
    head, rest = tree[0], tree[1:]
    if head == "Symbol" and len(rest) == 1 and isinstance(rest[0], str) and rest[0].isidentifier():
        return sp.Symbol(rest[0])
    if head == "Integer" and len(rest) == 1 and _is_int(rest[0]):
        return sp.Integer(rest[0])
    if head == "Rational" and len(rest) == 2 and all(map(_is_int, rest)) and rest[1] != 0:
        return sp.Rational(rest[0], rest[1])
    if head in _ATOMS and not rest:
        return _ATOMS[head]
    if head == "Piecewise" and rest and all(isinstance(b, list) and len(b) == 2 for b in rest):
        return sp.Piecewise(*[(from_tree(v), from_tree(c)) for v, c in rest])
    if head == "Contains" and len(rest) == 2 and isinstance(rest[1], list) and all(map(_is_int, rest[1])):
        return sp.Contains(from_tree(rest[0]), sp.FiniteSet(*[sp.Integer(v) for v in rest[1]]))
    if head in _OPERATORS and rest:
        return _OPERATORS[head](*[from_tree(a) for a in rest])
    raise ValueError(f"not an expression tree: {tree!r}; heads: Symbol, Integer, Rational, Piecewise, Contains, "
                     f"{', '.join(list(_ATOMS) + list(_OPERATORS))}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
