"""Rule expressions in and out of text and JSON, read against a whitelist: never evaluated as Python.

Two forms are read:

- JSON trees ``["Head", child, ...]``: ``["Symbol", "a"]``, ``["Integer", 3]``, ``["Rational", 1, 2]``,
  ``["GoldenRatio"]``, ``["Add", x, y]``, ``["BitXor", x, y]``, ``["Contains", x, [0, 2]]`` ...
  (``to_tree`` writes them; ``Rule.to_json`` stores one);
- text, as sympy prints an expression (``Eq(Mod(n, 7), 0)``, ``a + 2*b``, ``floor(n/2)``) or writes it
  with ``srepr`` (``Eq(Symbol('n'), Integer(0))``): the text is parsed by Python's ``ast`` into a
  syntax tree, and only the nodes of the rule grammar are turned into sympy objects.

Anything else is a ``ValueError``: other names or calls, attributes, subscripts, lambdas, keyword
arguments, strings where numbers belong. Sizes are bounded before anything is built: at most
``MAX_NODES`` nodes, integers of at most ``MAX_DIGITS`` digits, powers with an integer exponent of
at most ``MAX_EXPONENT`` (so ``10**10**7`` is refused, not computed).

Examples
--------
>>> import sympy as sp
>>> from discover.expressions import BitXor
>>> a, b = sp.symbols("a b")
>>> tree = to_tree(sp.Eq(BitXor(a, b), 0))
>>> tree
['Equality', ['BitXor', ['Symbol', 'a'], ['Symbol', 'b']], ['Integer', 0]]
>>> from_tree(tree) == sp.Eq(BitXor(a, b), 0)
True
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

from discover.expressions import BitAnd, BitOr, BitXor, DigitSum

__all__ = ["to_tree", "from_tree", "parse_text", "as_expression", "MAX_NODES", "MAX_DIGITS", "MAX_EXPONENT"]

MAX_NODES = 20_000
MAX_DIGITS = 100
MAX_EXPONENT = 64

_OPERATORS = {
    cls.__name__: cls
    for cls in (sp.Add, sp.Mul, sp.Pow, sp.Mod, sp.floor, sp.ceiling, sp.Min, sp.Max, sp.Abs, BitXor, BitAnd, BitOr,
                DigitSum, sp.Eq, sp.Ne, sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan, sp.And, sp.Or,
                sp.Not)
}
#: names the printers use for the same operators
_ALIASES = {"Eq": sp.Eq, "Ne": sp.Ne, "Equality": sp.Eq, "Unequality": sp.Ne, "Lt": sp.Lt, "Le": sp.Le, "Gt": sp.Gt, "Ge": sp.Ge, "sqrt": sp.sqrt}
_ATOMS = {"GoldenRatio": sp.GoldenRatio, "true": sp.true, "false": sp.false, "True": sp.true, "False": sp.false,
          "BooleanTrue": sp.true, "BooleanFalse": sp.false}
_BINARY = {ast.Add: sp.Add, ast.Mult: sp.Mul, ast.BitXor: BitXor, ast.BitAnd: sp.And, ast.BitOr: sp.Or}
_COMPARE = {ast.Eq: sp.Eq, ast.NotEq: sp.Ne, ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge}


def to_tree(expr) -> list:
    """A JSON-ready tree of a sympy expression built from the rule grammar."""
    if isinstance(expr, sp.Symbol):
        return ["Symbol", expr.name]
    if isinstance(expr, sp.Integer):
        return ["Integer", int(expr)]
    if isinstance(expr, sp.Rational):
        return ["Rational", int(expr.p), int(expr.q)]
    for name in ("GoldenRatio", "true", "false"):
        if expr is _ATOMS[name] or expr == _ATOMS[name]:
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
    _count(tree)
    try:
        return _from_tree(tree)
    except RecursionError:
        raise ValueError("not an expression tree: nested too deeply") from None
    except (TypeError, AttributeError, sp.SympifyError) as err:
        raise ValueError(f"not an expression tree: {err}") from None


def _count(tree) -> None:
    stack, nodes = [tree], 0
    while stack:
        node = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ValueError(f"not a rule expression: more than {MAX_NODES:,} nodes")
        if isinstance(node, list):
            stack.extend(node)


def _from_tree(tree) -> sp.Basic:
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise ValueError(f"not an expression tree: {_short(tree)}")
    head, rest = tree[0], tree[1:]
    if head == "Symbol" and len(rest) == 1 and isinstance(rest[0], str) and rest[0].isidentifier():
        return sp.Symbol(rest[0])
    if head == "Integer" and len(rest) == 1 and _is_int(rest[0]):
        return _integer(rest[0])
    if head == "Rational" and len(rest) == 2 and all(map(_is_int, rest)) and rest[1] != 0:
        return sp.Rational(_integer(rest[0]), _integer(rest[1]))
    if head in _ATOMS and not rest:
        return _ATOMS[head]
    if head == "Piecewise" and rest and all(isinstance(b, list) and len(b) == 2 for b in rest):
        return sp.Piecewise(*[(_from_tree(v), _from_tree(c)) for v, c in rest])
    if head == "Contains" and len(rest) == 2 and isinstance(rest[1], list) and all(map(_is_int, rest[1])):
        return sp.Contains(_from_tree(rest[0]), sp.FiniteSet(*[_integer(v) for v in rest[1]]))
    build = _OPERATORS.get(head) or _ALIASES.get(head)
    if build is not None and rest:
        return _apply(build, [_from_tree(a) for a in rest])
    raise ValueError(f"not an expression tree: {_short(tree)}; heads: Symbol, Integer, Rational, Piecewise, "
                     f"Contains, {', '.join(list(_ATOMS) + list(_OPERATORS))}")


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
        return _integer(value)
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
        if _is_int(node.value):
            return _integer(node.value)
        if isinstance(node.value, bool):
            return sp.true if node.value else sp.false
        raise ValueError(f"not a rule expression: {node.value!r} is not an integer")
    if isinstance(node, ast.Name):
        if node.id in _ATOMS:
            return _ATOMS[node.id]
        if node.id in _OPERATORS or node.id in _ALIASES or node.id.startswith("__"):
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
            return _apply(sp.Pow, [left, right])
        if type(node.op) in _BINARY:
            return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.BoolOp):
        return (sp.And if isinstance(node.op, ast.And) else sp.Or)(*[_from_ast(v) for v in node.values])
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        return _COMPARE[type(node.ops[0])](_from_ast(node.left), _from_ast(node.comparators[0]))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        return _call(node.func.id, node.args)
    raise ValueError(f"not a rule expression: {type(node).__name__} ({_short(ast.unparse(node))}) is not part of "
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
    if name in _ATOMS and not args:
        return _ATOMS[name]
    if name == "Contains" and len(args) == 2:
        return sp.Contains(_from_ast(args[0]), _finite_set(args[1]))
    if name == "Piecewise" and args:
        return sp.Piecewise(*[_pair(a) for a in args])
    build = _OPERATORS.get(name) or _ALIASES.get(name)
    if build is None:
        raise ValueError(f"not a rule expression: {name!r} is not a name of the rule grammar")
    return _apply(build, [_from_ast(a) for a in args])


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


def _apply(build, args) -> sp.Basic:
    if build is sp.Pow and len(args) == 2 and args[1].is_Number:
        base, exponent = args
        if not exponent.is_Integer or abs(int(exponent)) > MAX_EXPONENT:
            raise ValueError(f"not a rule expression: the power {base}**{exponent} is too large "
                             f"(exponent above {MAX_EXPONENT})")
        if base.is_Rational and (len(str(abs(base.p))) + len(str(base.q))) * abs(int(exponent)) > 10 * MAX_DIGITS:
            raise ValueError(f"not a rule expression: the power {base}**{exponent} has too many digits")
    try:
        return build(*args)
    except (TypeError, ValueError, AttributeError) as err:
        raise ValueError(f"not a rule expression: {getattr(build, '__name__', build)} of {len(args)} arguments "
                         f"({err})") from None


def _integer(value: int) -> sp.Integer:
    if abs(value) >= 10**MAX_DIGITS:
        raise ValueError(f"not a rule expression: an integer of more than {MAX_DIGITS} digits")
    return sp.Integer(value)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."
