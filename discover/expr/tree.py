"""JSON trees of rule expressions: written by ``TreeWriter``, read back by ``TreeReader`` against the node table.

A tree is ``["Head", child, ...]``: ``["Symbol", "a"]``, ``["Integer", 3]``, ``["Rational", 1, 2]``,
``["GoldenRatio"]``, ``["true"]``, ``["Add", x, y]``, ``["BitXor", x, y]``, ``["Equality", x, y]``,
``["Contains", x, [0, 2]]``, ``["Piecewise", [value, condition], ...]`` (``Rule.to_json`` stores one).
Reading never evaluates anything: a head names a node type of ``discover.expr.nodes.NODES`` (or a
comparison of ``Relational``, or one of the aliases sympy's printers use: ``Eq``, ``Le``, ``sqrt``),
and sizes are bounded before anything is built: at most ``MAX_NODES`` nodes, integers of at most
``MAX_DIGITS`` digits, powers with an integer exponent of at most ``MAX_EXPONENT``.

Examples
--------
>>> import sympy as sp
>>> from discover.expr.nodes import BitXor
>>> a, b = sp.symbols("a b")
>>> tree = to_tree(sp.Eq(BitXor(a, b), 0))
>>> tree
['Equality', ['BitXor', ['Symbol', 'a'], ['Symbol', 'b']], ['Integer', 0]]
>>> from_tree(tree) == sp.Eq(BitXor(a, b), 0)
True
"""

from __future__ import annotations

import sympy as sp

from discover.expr.nodes import NODES, RELATIONS
from discover.expr.walker import Walker, resolve

__all__ = ["TreeWriter", "TreeReader", "to_tree", "from_tree", "OPERATORS", "ATOMS", "MAX_NODES", "MAX_DIGITS",
           "MAX_EXPONENT"]

MAX_NODES = 20_000
MAX_DIGITS = 100
MAX_EXPONENT = 64

#: the atoms without arguments, by every name they are written with
ATOMS = {"GoldenRatio": sp.GoldenRatio, "true": sp.true, "false": sp.false, "True": sp.true, "False": sp.false,
         "BooleanTrue": sp.true, "BooleanFalse": sp.false}
_SHAPED = (sp.Symbol, sp.Integer, sp.Rational, sp.Piecewise, sp.Contains, sp.core.relational.Relational)
#: the node types written [name, *children], each built by calling its class (comparisons by their own names)
OPERATORS = {cls.__name__: cls for cls in NODES if not (cls in _SHAPED or cls.__name__ in ATOMS)}
OPERATORS.update({cls.__name__: cls for cls in RELATIONS.values()})
#: names sympy's printers use for the same constructors
ALIASES = {"Eq": sp.Eq, "Ne": sp.Ne, "Lt": sp.Lt, "Le": sp.Le, "Gt": sp.Gt, "Ge": sp.Ge, "sqrt": sp.sqrt}


class TreeWriter(Walker):
    """A JSON-ready tree of each node.

    Examples
    --------
    >>> TreeWriter().walk(sp.Contains(sp.Symbol("n"), sp.FiniteSet(2, 0)))
    ['Contains', ['Symbol', 'n'], [0, 2]]
    """

    def refuse(self, e):
        raise ValueError(f"cannot write {e} (a {type(e).__name__}) as a tree; known: "
                         f"{', '.join(cls.__name__ for cls in NODES)}")

    def _walk_Symbol(self, e):
        return ["Symbol", e.name]

    def _walk_Integer(self, e):
        return ["Integer", int(e)]

    def _walk_Rational(self, e):
        return ["Rational", int(e.p), int(e.q)]

    def _walk_GoldenRatio(self, e):
        return ["GoldenRatio"]

    def _walk_BooleanTrue(self, e):
        return ["true"]

    def _walk_BooleanFalse(self, e):
        return ["false"]

    def _walk_Piecewise(self, e):
        return ["Piecewise"] + [[self.walk(value), self.walk(cond)] for value, cond in e.args]

    def _walk_Contains(self, e):
        return ["Contains", self.walk(e.args[0]), sorted(int(v) for v in e.args[1])]

    def _operator(self, e):
        return [type(e).__name__] + [self.walk(a) for a in e.args]

    _walk_Add = _walk_Mul = _walk_Pow = _walk_Mod = _walk_floor = _walk_ceiling = _operator
    _walk_Min = _walk_Max = _walk_Abs = _walk_BitXor = _walk_BitAnd = _walk_BitOr = _walk_DigitSum = _operator
    _walk_LowBit = _walk_Valuation2 = _walk_OddPart = _walk_BitCount = _walk_BitLength = _operator
    _walk_ZeckendorfLeast = _walk_NimProduct = _operator
    _walk_Relational = _walk_And = _walk_Or = _walk_Not = _operator


class TreeReader:
    """The sympy expression of a tree: its head names the node type, whose ``_read_`` method builds it
    from the arguments (None when they do not fit: a ValueError follows).

    Examples
    --------
    >>> TreeReader().read(["Mod", ["Symbol", "n"], ["Integer", 7]])
    Mod(n, 7)
    """

    method_prefix = "_read_"

    def read(self, tree) -> sp.Basic:
        """The expression of one tree (sizes unchecked: ``from_tree`` counts the nodes first)."""
        if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
            raise ValueError(f"not an expression tree: {short(tree)}")
        head, rest = tree[0], tree[1:]
        _, method = resolve(TreeReader, _KINDS.get(head, object))
        result = None if method is None else method(self, head, rest)
        if result is None:
            raise ValueError(f"not an expression tree: {short(tree)}; heads: Symbol, Integer, Rational, Piecewise, "
                             f"Contains, {', '.join(list(ATOMS) + list(OPERATORS))}")
        return result

    def _read_Symbol(self, head, rest):
        if len(rest) == 1 and isinstance(rest[0], str) and rest[0].isidentifier():
            return sp.Symbol(rest[0])
        return None

    def _read_Integer(self, head, rest):
        return integer(rest[0]) if len(rest) == 1 and is_int(rest[0]) else None

    def _read_Rational(self, head, rest):
        if len(rest) == 2 and all(map(is_int, rest)) and rest[1] != 0:
            return sp.Rational(integer(rest[0]), integer(rest[1]))
        return None

    def _atom(self, head, rest):
        return None if rest else ATOMS[head]

    _read_GoldenRatio = _read_BooleanTrue = _read_BooleanFalse = _atom

    def _read_Piecewise(self, head, rest):
        if rest and all(isinstance(b, list) and len(b) == 2 for b in rest):
            return sp.Piecewise(*[(self.read(v), self.read(c)) for v, c in rest])
        return None

    def _read_Contains(self, head, rest):
        if len(rest) == 2 and isinstance(rest[1], list) and all(map(is_int, rest[1])):
            return sp.Contains(self.read(rest[0]), sp.FiniteSet(*[integer(v) for v in rest[1]]))
        return None

    def _operator(self, head, rest):
        return apply(_BUILD[head], [self.read(a) for a in rest]) if rest else None

    _read_Add = _read_Mul = _read_Pow = _read_Mod = _read_floor = _read_ceiling = _operator
    _read_Min = _read_Max = _read_Abs = _read_BitXor = _read_BitAnd = _read_BitOr = _read_DigitSum = _operator
    _read_LowBit = _read_Valuation2 = _read_OddPart = _read_BitCount = _read_BitLength = _operator
    _read_ZeckendorfLeast = _read_NimProduct = _operator
    _read_Relational = _read_And = _read_Or = _read_Not = _operator


#: every head a tree may start with: the node class that reads it
_KINDS = {**{cls.__name__: cls for cls in _SHAPED if cls is not sp.core.relational.Relational},
          **{name: type(atom) for name, atom in ATOMS.items()}, **OPERATORS, **ALIASES, "sqrt": sp.Pow}
_BUILD = {**OPERATORS, **ALIASES}


def to_tree(expr) -> list:
    """A JSON-ready tree of a sympy expression built from the rule grammar.

    Examples
    --------
    >>> to_tree(sp.floor(sp.Symbol("n") / 2))
    ['floor', ['Mul', ['Rational', 1, 2], ['Symbol', 'n']]]
    """
    return TreeWriter().walk(expr)


def from_tree(tree) -> sp.Basic:
    """The sympy expression of a tree written by ``to_tree``; ``ValueError`` for anything else.

    Examples
    --------
    >>> from_tree(["Piecewise", [["Integer", 1], ["Equality", ["Symbol", "n"], ["Integer", 0]]], [["Integer", 0], ["true"]]])
    Piecewise((1, Eq(n, 0)), (0, True))
    """
    _count(tree)
    try:
        return TreeReader().read(tree)
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


#: the exponents of a square root and its inverse, read for constants of a real quadratic field (sqrt(13))
_ROOTS = (sp.Rational(1, 2), sp.Rational(-1, 2))


def apply(build, args) -> sp.Basic:
    """``build(*args)`` for a whitelisted constructor, refusing powers too large to compute (square roots of
    positive rationals are read: the constants of a real quadratic field)."""
    if build is sp.Pow and len(args) == 2 and args[1].is_Number:
        base, exponent = args
        if exponent in _ROOTS and base.is_Rational and base > 0:
            return build(*args)  # sqrt(m) of a quadratic field (bounded: base has at most MAX_DIGITS digits)
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


def integer(value: int) -> sp.Integer:
    """A sympy integer of at most ``MAX_DIGITS`` digits."""
    if abs(value) >= 10**MAX_DIGITS:
        raise ValueError(f"not a rule expression: an integer of more than {MAX_DIGITS} digits")
    return sp.Integer(value)


def is_int(value) -> bool:
    """True for an int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def short(value) -> str:
    """At most 80 characters of a value, for an error message."""
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."
