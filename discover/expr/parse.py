"""The text reader: a rule expression from the text sympy prints, read against a whitelist, never evaluated.

Text as sympy prints an expression (``Eq(Mod(n, 7), 0)``, ``a + 2*b``, ``floor(n/2)``) or writes it with
``srepr`` (``Eq(Symbol('n'), Integer(0))``) is parsed by Python's ``ast`` into a syntax tree, and only the
names of the node table (``discover.expr.tree.OPERATORS``, ``ATOMS``, ``ALIASES``) are turned into sympy
objects.  Anything else is a ``ValueError``: other names or calls, attributes, subscripts, lambdas, keyword
arguments, strings where numbers belong; sizes are bounded as for trees (``10**10**7`` is refused, not
computed).

Examples
--------
>>> parse_text("Eq(Mod(n, 7), 0)")
Eq(Mod(n, 7), 0)
>>> parse_text("__import__('os').system('true')")
Traceback (most recent call last):
...
ValueError: not a rule expression: Call (__import__('os').system('true')) is not part of the rule grammar
"""

from __future__ import annotations

import ast

import sympy as sp

from discover.expr.nodes import BitXor
from discover.expr.tree import ALIASES, ATOMS, MAX_NODES, OPERATORS, apply, from_tree, integer, is_int, short

__all__ = ["parse_text", "as_expression"]

_BINARY = {ast.Add: sp.Add, ast.Mult: sp.Mul, ast.BitXor: BitXor, ast.BitAnd: sp.And, ast.BitOr: sp.Or}
_COMPARE = {ast.Eq: sp.Eq, ast.NotEq: sp.Ne, ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge}


def as_expression(value) -> sp.Basic:
    """A sympy expression from a sympy object, a JSON tree, text (parsed, never evaluated), an int or a bool.

    Examples
    --------
    >>> as_expression(3), as_expression(True), as_expression("n + 1"), as_expression(["Symbol", "n"])
    (3, True, n + 1, n)
    """
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, bool):
        return sp.true if value else sp.false
    if isinstance(value, int):
        return integer(value)
    if isinstance(value, str):
        return parse_text(value)
    if isinstance(value, list):
        return from_tree(value)
    raise TypeError(f"an expression is a sympy expression, its text or its tree, got {type(value).__name__}")


def parse_text(text: str) -> sp.Basic:
    """The sympy expression a rule's text (sympy's printed or ``srepr`` form) stands for.

    Examples
    --------
    >>> parse_text("Symbol('a') + 2*floor(n/2)")
    a + 2*floor(n/2)
    >>> parse_text("10**10**7")
    Traceback (most recent call last):
    ...
    ValueError: not a rule expression: the power 10**10000000 is too large (exponent above 64)
    """
    if not isinstance(text, str):
        raise ValueError(f"a rule expression is text, got {type(text).__name__}")
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        raise ValueError(f"not a rule expression: {err}") from None
    if sum(1 for _ in ast.walk(node)) > MAX_NODES:
        raise ValueError(f"not a rule expression: more than {MAX_NODES:,} nodes")
    try:
        return _from_ast(node)
    except RecursionError:
        raise ValueError("not a rule expression: nested too deeply") from None
    except (TypeError, AttributeError, sp.SympifyError) as err:
        raise ValueError(f"not a rule expression: {err}") from None


def _from_ast(node) -> sp.Basic:
    if isinstance(node, ast.Constant):
        if is_int(node.value):
            return integer(node.value)
        if isinstance(node.value, bool):
            return sp.true if node.value else sp.false
        raise ValueError(f"not a rule expression: {node.value!r} is not an integer")
    if isinstance(node, ast.Name):
        if node.id in ATOMS:
            return ATOMS[node.id]
        if node.id in OPERATORS or node.id in ALIASES or node.id.startswith("__"):
            raise ValueError(f"not a rule expression: {node.id!r} is not a name of the rule grammar")
        return sp.Symbol(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert, ast.Not)):
        operand = _from_ast(node.operand)
        if isinstance(node.op, ast.USub):
            return -operand
        return sp.Not(operand) if isinstance(node.op, (ast.Invert, ast.Not)) else operand
    if isinstance(node, ast.BinOp):
        left, right = _from_ast(node.left), _from_ast(node.right)
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Div):
            return left / right
        if isinstance(node.op, ast.FloorDiv):
            return sp.floor(left / right)
        if isinstance(node.op, ast.Mod):
            return sp.Mod(left, right)
        if isinstance(node.op, ast.Pow):
            return apply(sp.Pow, [left, right])
        if type(node.op) in _BINARY:
            return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.BoolOp):
        return (sp.And if isinstance(node.op, ast.And) else sp.Or)(*[_from_ast(v) for v in node.values])
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        return _COMPARE[type(node.ops[0])](_from_ast(node.left), _from_ast(node.comparators[0]))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        return _call(node.func.id, node.args)
    raise ValueError(f"not a rule expression: {type(node).__name__} ({short(ast.unparse(node))}) is not part of "
                     "the rule grammar")


def _call(name: str, args) -> sp.Basic:
    if name == "Symbol" and len(args) == 1 and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str) \
            and args[0].value.isidentifier():
        return sp.Symbol(args[0].value)
    if name in ("Integer", "Rational") and len(args) == (1 if name == "Integer" else 2):
        values = [_from_ast(a) for a in args]
        if not all(v.is_Integer for v in values) or (name == "Rational" and values[1] == 0):
            raise ValueError(f"not a rule expression: {name} takes integers")
        return values[0] if name == "Integer" else sp.Rational(*values)
    if name in ATOMS and not args:
        return ATOMS[name]
    if name == "Contains" and len(args) == 2:
        return sp.Contains(_from_ast(args[0]), _finite_set(args[1]))
    if name == "Piecewise" and args:
        return sp.Piecewise(*[_pair(a) for a in args])
    build = OPERATORS.get(name) or ALIASES.get(name)
    if build is None:
        raise ValueError(f"not a rule expression: {name!r} is not a name of the rule grammar")
    return apply(build, [_from_ast(a) for a in args])


def _finite_set(node) -> sp.FiniteSet:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "FiniteSet":
        items = node.args
    elif isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        items = node.elts
    else:
        raise ValueError("not a rule expression: Contains takes a set of integers")
    return sp.FiniteSet(*[_from_ast(item) for item in items])


def _pair(node) -> tuple:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ExprCondPair":
        items = node.args
    elif isinstance(node, ast.Tuple):
        items = node.elts
    else:
        raise ValueError("not a rule expression: a Piecewise branch is (value, condition)")
    if len(items) != 2:
        raise ValueError("not a rule expression: a Piecewise branch is (value, condition)")
    return _from_ast(items[0]), _from_ast(items[1])
