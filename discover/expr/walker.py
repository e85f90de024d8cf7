"""One dispatching walker over the node table, in the manner of sympy's ``Printer._print``.

A backend is a class with one method per node type, named ``<prefix><NodeType>`` (``_walk_Add``,
``_print_floor``, ``_read_Contains``).  A node is dispatched along its class's method resolution
order to the first such method, exactly as sympy's printers dispatch to ``_print_<Class>``: so
``Eq`` reaches ``_walk_Relational`` and ``Zero`` reaches ``_walk_Integer``.  The walkers of this
package (numpy, z3, intervals, the JSON writer) derive from ``Walker``; the printers (text, LaTeX,
MathML) are sympy printers, dispatched by sympy with the same names.

``missing(backend)`` lists the node types of ``NODES`` a backend has no method for (a node type
resolved only to one of sympy's catch-alls such as ``_print_Function`` counts as missing);
``BACKENDS`` names every backend, and the coverage test asserts that none misses any.

Examples
--------
>>> import sympy as sp
>>> class Depth(Walker):
...     def _walk_Symbol(self, e):
...         return 0
...     def _walk_Add(self, e):
...         return 1 + max(self.walk(a) for a in e.args)
>>> Depth().walk(sp.Symbol("a") + sp.Symbol("b"))
1
>>> "Mul" in missing(Depth)
True
"""

from __future__ import annotations

import functools
import importlib

from discover.expr.nodes import NODES, is_condition

__all__ = ["Walker", "TypedWalker", "Unsupported", "resolve", "missing", "backend_classes", "BACKENDS"]

_NODE_SET = frozenset(NODES)

#: every backend of the language: its name and where it lives (imported only when asked for)
BACKENDS = {
    "numpy": "discover.expr.numeric:NumpyCompiler",
    "z3": "discover.expr.smt:SmtTranslator",
    "intervals": "discover.expr.intervals:IntervalAnalysis",
    "text": "discover.expr.text:TextPrinter",
    "latex": "discover.expr.latex:LatexRulePrinter",
    "mathml": "discover.expr.mathml:MathMLRulePrinter",
    "json writer": "discover.expr.tree:TreeWriter",
    "json reader": "discover.expr.tree:TreeReader",
}


class Unsupported(Exception):
    """The expression cannot be stated exactly in this arithmetic (the z3 and interval backends)."""


def _prefix(backend) -> str:
    """The method prefix of a backend class: its ``method_prefix``, or ``_print_`` for a sympy printer."""
    return getattr(backend, "method_prefix", "_print_")


@functools.lru_cache(maxsize=None)
def resolve(backend: type, node: type):
    """The first class along ``node``'s resolution order with a method in ``backend``: (class, method),
    or (None, None).

    Examples
    --------
    >>> import sympy as sp
    >>> from sympy.printing.latex import LatexPrinter
    >>> resolve(LatexPrinter, sp.Integer)[0].__name__
    'Rational'
    """
    prefix = _prefix(backend)
    for cls in node.__mro__:
        method = getattr(backend, prefix + cls.__name__, None)
        if method is not None:
            return cls, method
    return None, None


@functools.lru_cache(maxsize=None)
def _dispatch(backend: type, node: type):
    """The method a walker calls for a node of class ``node``; None outside the node table."""
    cls, method = resolve(backend, node)
    return method if cls in _NODE_SET else None


class Walker:
    """Base of the walking backends: ``walk(e)`` calls the method of ``e``'s node type.

    A node outside the table (or one a subclass left out) goes to ``refuse``, which raises the
    backend's error.
    """

    method_prefix = "_walk_"

    def walk(self, e):
        """The backend's result for the expression ``e`` (dispatched by node type)."""
        method = _dispatch(type(self), type(e))
        return self.refuse(e) if method is None else method(self, e)

    def refuse(self, e):
        """Raise the backend's error for a node it cannot handle."""
        raise ValueError(f"{e} (a {type(e).__name__}) is not a node type of the rule language")


class TypedWalker(Walker):
    """A walker that keeps integer values and conditions apart (the z3 translator, the interval analysis)."""

    def value(self, e):
        """The result for an integer-valued node (a condition is refused)."""
        return self.refuse(e) if is_condition(e) else self.walk(e)

    def condition(self, e):
        """The result for a condition (an integer-valued node is refused)."""
        if not is_condition(e):
            raise Unsupported(f"{e} (a {type(e).__name__}) is not a condition this prover reads")
        return self.walk(e)


def missing(backend: type) -> list[str]:
    """The node types of ``NODES`` that ``backend`` (a walker or a sympy printer class) has no method for.

    A node type counts as covered when dispatch reaches a method named after a node type of the
    table (``Integer`` may use ``_print_Rational``), or when the node prints itself for this
    printer (sympy calls ``GoldenRatio._latex`` before any method of a LaTeX printer).

    Examples
    --------
    >>> from sympy.printing.str import StrPrinter
    >>> missing(StrPrinter)[:3]
    ['Mod', 'floor', 'ceiling']
    """
    absent = []
    for node in NODES:
        cls, _ = resolve(backend, node)
        own = getattr(backend, "printmethod", None)
        if cls not in _NODE_SET and not (own and hasattr(node, own)):
            absent.append(node.__name__)
    return absent


def backend_classes() -> dict[str, type]:
    """Every backend class of ``BACKENDS`` by name (this imports them all: z3 and the printers).

    Examples
    --------
    >>> sorted(backend_classes())[:2]
    ['intervals', 'json reader']
    """
    out = {}
    for name, where in BACKENDS.items():
        module, _, attribute = where.partition(":")
        out[name] = getattr(importlib.import_module(module), attribute)
    return out
