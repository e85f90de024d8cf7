"""A rule's expression as an automaton (``discover.proofs.automata``): the graph y = F(n) of an integer rule.

Terms become linear forms over natural-number tracks; what is not linear gets fresh tracks defined by automata
and then quantified away: ``Mod(t, m)`` and ``floor(t / d)`` a quotient (an integer: the difference of two
naturals) and a remainder in [0, m); ``Piecewise``, ``Min``, ``Max`` and ``Abs`` an integer defined branch by
branch; ``BitXor``, ``BitAnd`` and ``BitOr`` a natural digit by digit, of arguments that are natural by their form
(coordinates, residues, constants, sums and bitwise operators of such: Python's operators on negative numbers
are not the automaton's).  Every term defined so is total and single-valued, so a condition's negation is the
complement of its automaton.  A node outside this fragment (a product of unknowns, an irrational constant, a
digit sum) raises ``Unsupported``.

Examples
--------
>>> import sympy as sp
>>> from discover.proofs.automata import exists, holds, linear, conj, neg
>>> n = sp.Symbol("n")
>>> graph = rule_graph(sp.Piecewise((n - 1, sp.Eq(sp.Mod(n, 4), 0) & (n > 0)), (n, True)), "n", "y")
>>> holds(exists(conj(graph, linear({"n": 1}, 8, True), linear({"y": 1}, 7, True)), "n", "y"))  # F(8) = 7
True
"""

from __future__ import annotations

import itertools

import sympy as sp
from discover.expr.nodes import BitAnd, BitOr, BitXor, is_condition
from discover.expr.walker import TypedWalker, Unsupported
from discover.proofs.automata import bitwise, conj, constant, disj, exists, linear, neg

__all__ = ["rule_graph", "condition_automaton"]

_OPS = {BitXor: "xor", BitAnd: "and", BitOr: "or"}


class _Term:
    """A linear form ``coefficients`` (track -> int, the constant under None) and the automata defining its
    fresh tracks."""

    def __init__(self, coefficients: dict, definitions: tuple = (), fresh: tuple = ()):
        self.coefficients, self.definitions, self.fresh = coefficients, definitions, fresh

    def plus(self, other: "_Term", scale: int = 1) -> "_Term":
        out = dict(self.coefficients)
        for k, v in other.coefficients.items():
            out[k] = out.get(k, 0) + scale * v
        return _Term(out, self.definitions + other.definitions, self.fresh + other.fresh)

    def times(self, c: int) -> "_Term":
        return _Term({k: c * v for k, v in self.coefficients.items()}, self.definitions, self.fresh)

    def relation(self, equal: bool, shift: int = 0) -> "tuple[dict, int]":
        """(coefficients, bound) of ``self + shift = 0`` or ``<= 0`` in ``linear``'s form."""
        coefficients = {k: v for k, v in self.coefficients.items() if k is not None}
        return coefficients, -(self.coefficients.get(None, 0) + shift)


class _Translator(TypedWalker):
    """Rule expressions to ``_Term`` (values) and automata over their free tracks (conditions)."""

    def __init__(self):
        self.count = itertools.count()

    def refuse(self, e):
        raise Unsupported(f"{e} (a {type(e).__name__}) is outside the automata's arithmetic")

    def _fresh(self, stem: str) -> str:
        return f"{stem}#{next(self.count)}"

    def _integer(self, stem: str) -> "tuple[_Term, tuple[str, str]]":
        """A fresh integer: the difference of two fresh naturals."""
        up, down = self._fresh(stem + "+"), self._fresh(stem + "-")
        return _Term({up: 1, down: -1}), (up, down)

    def _close(self, automaton, term: _Term):
        """``automaton`` with ``term``'s definitions, its fresh tracks quantified away."""
        return exists(conj(automaton, *term.definitions), *term.fresh) if term.fresh else automaton

    # -- values
    def _walk_Symbol(self, e):
        return _Term({e.name: 1})

    def _walk_Integer(self, e):
        return _Term({None: int(e)})

    def _walk_Add(self, e):
        out = _Term({})
        for a in e.args:
            out = out.plus(self.value(a))
        return out

    def _walk_Mul(self, e):
        coeff, rest = e.as_coeff_Mul()
        if not coeff.is_Integer or rest.is_Mul:
            raise Unsupported(f"{e}: not an integer multiple of one term")
        return self.value(rest).times(int(coeff))

    def _divided(self, numerator: _Term, m: int, quotient: bool) -> _Term:
        """floor(t / m) (``quotient``) or t mod m, m >= 1: t = m q + r with 0 <= r < m."""
        q, parts = self._integer("q")
        r = self._fresh("r")
        rest = numerator.plus(q.times(m), -1).plus(_Term({r: 1}), -1)  # t - m q - r = 0
        definitions = (linear(*rest.relation(True), equal=True), linear({r: 1}, m - 1, equal=False))
        out = q if quotient else _Term({r: 1})
        return _Term(out.coefficients, numerator.definitions + definitions, numerator.fresh + parts + (r,))

    def _walk_Mod(self, e):
        m = e.args[1]
        if not (m.is_Integer and m > 0):
            raise Unsupported(f"{e}: a modulus other than a positive integer")
        return self._divided(self.value(e.args[0]), int(m), quotient=False)

    def _walk_floor(self, e):
        num, den = sp.fraction(sp.together(e.args[0]))
        if not (den.is_Integer and den > 0):
            raise Unsupported(f"{e}: a floor of other than a term over a positive integer")
        return self._divided(self.value(sp.expand(num)), int(den), quotient=True)

    def _walk_ceiling(self, e):
        return self.value(-sp.floor(-e.args[0]))

    def _walk_Min(self, e):
        return self._walk_Piecewise(sp.Piecewise(*[(a, sp.And(*[a <= b for b in e.args if b is not a]))
                                                   for a in e.args[:-1]], (e.args[-1], True)))

    def _walk_Max(self, e):
        return self._walk_Piecewise(sp.Piecewise(*[(a, sp.And(*[a >= b for b in e.args if b is not a]))
                                                   for a in e.args[:-1]], (e.args[-1], True)))

    def _walk_Abs(self, e):
        x = e.args[0]
        return self._walk_Piecewise(sp.Piecewise((x, x >= 0), (-x, True)))

    def _walk_Piecewise(self, e):
        if is_condition(e):
            return self.refuse(e)
        if e.args[-1][1] is not sp.true:
            raise Unsupported(f"{e}: a Piecewise without a last branch for every other case")
        z, parts = self._integer("z")
        branches, before = [], constant(False)
        for value, cond in e.args:
            here = self.condition(cond)
            term = z.plus(self.value(value), -1)
            branches.append(conj(here, neg(before), self._close(linear(*term.relation(True), equal=True), term)))
            before = disj(before, here)
        return _Term(z.coefficients, (disj(*branches),), parts)

    def _bitwise(self, e):
        for a in e.args:
            if not _natural(a):
                raise Unsupported(f"{e}: a bitwise operator of {a}, which may be negative")
        terms = [self.value(a) for a in e.args]
        names, definitions, fresh = [], [], []
        for t in terms:
            u = self._fresh("u")
            rest = t.plus(_Term({u: 1}), -1)
            names.append(u)
            definitions += [*t.definitions, linear(*rest.relation(True), equal=True)]
            fresh += [*t.fresh, u]
        out = names[0]
        for other in names[1:]:
            w = self._fresh("w")
            definitions.append(bitwise(_OPS[type(e)], out, other, w))
            fresh.append(w)
            out = w
        return _Term({out: 1}, tuple(definitions), tuple(fresh))

    _walk_BitXor = _walk_BitAnd = _walk_BitOr = _bitwise

    # -- conditions
    def _walk_BooleanTrue(self, e):
        return constant(True)

    def _walk_BooleanFalse(self, e):
        return constant(False)

    def _walk_Relational(self, e):
        op = e.rel_op
        if op in (">", ">="):
            return self.walk({">": sp.Lt, ">=": sp.Le}[op](e.rhs, e.lhs, evaluate=False))
        diff = self.value(e.lhs).plus(self.value(e.rhs), -1)
        if op in ("==", "!="):
            equal = self._close(linear(*diff.relation(True), equal=True), diff)
            return equal if op == "==" else neg(equal)
        return self._close(linear(*diff.relation(False, 1 if op == "<" else 0), equal=False), diff)

    def _walk_And(self, e):
        return conj(*[self.condition(a) for a in e.args])

    def _walk_Or(self, e):
        return disj(*[self.condition(a) for a in e.args])

    def _walk_Not(self, e):
        return neg(self.condition(e.args[0]))

    def _walk_Contains(self, e):
        if not isinstance(e.args[1], sp.FiniteSet) or not all(v.is_Integer for v in e.args[1]):
            raise Unsupported(f"{e}: membership in other than a finite set of integers")
        x = self.value(e.args[0])  # its fresh tracks defined once, for every listed value
        equal = [linear(*x.plus(_Term({None: int(v)}), -1).relation(True), equal=True) for v in e.args[1]]
        return self._close(disj(constant(False), *equal), x)


def _natural(e) -> bool:
    """Whether ``e`` is a natural number by its form alone."""
    if e.is_Symbol or (e.is_Integer and e >= 0) or isinstance(e, (BitXor, BitAnd, BitOr)):
        return e.is_Symbol or e.is_Integer or all(_natural(a) for a in e.args)
    if isinstance(e, sp.Mod):
        return e.args[1].is_Integer and e.args[1] > 0
    if isinstance(e, sp.Add):
        return all(_natural(a) for a in e.args)
    if isinstance(e, sp.Mul):
        coeff, rest = e.as_coeff_Mul()
        return coeff.is_Integer and coeff > 0 and not rest.is_Mul and _natural(rest)  # a product: not linear
    if isinstance(e, sp.floor):
        num, den = sp.fraction(sp.together(e.args[0]))
        return den.is_Integer and den > 0 and _natural(sp.expand(num))
    return False


def rule_graph(expr, feature: str, value: str):
    """The automaton over tracks (``feature``, ``value``) of value = expr(feature), the feature a natural number.

    Raises ``Unsupported`` for an expression outside the automata's arithmetic (see the module docstring).

    Examples
    --------
    >>> import sympy as sp
    >>> from discover.proofs.automata import exists, holds, neg
    >>> n = sp.Symbol("n")
    >>> graph = rule_graph(BitXor(n, sp.Mod(n, 3)), "n", "y")
    >>> sorted(graph.tracks), holds(neg(exists(neg(exists(graph, "y")), "n")))  # a value for every n
    (['n', 'y'], True)
    """
    expr = sp.sympify(expr)
    if feature == value or {s.name for s in expr.free_symbols} - {feature}:
        raise Unsupported(f"{expr} reads other symbols than {feature} (or {value!r} is the feature's name)")
    translator = _Translator()
    rest = _Term({value: 1}).plus(translator.value(expr), -1)
    return translator._close(linear(*rest.relation(True), equal=True), rest)


def condition_automaton(expr):
    """The automaton of a condition over its symbols' tracks (``Unsupported`` outside the fragment)."""
    return _Translator().condition(sp.sympify(expr))
