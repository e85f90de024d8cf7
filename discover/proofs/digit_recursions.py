"""Grundy formulas in the binary digits of n, proved for every heap by the recursion a theorem gives the game.

Where a theorem says that a one-heap game's Grundy values satisfy a recursion in n's last binary digit,
G(0) = g0, G(2n) = A(n, G(n)) and G(2n + 1) = B(n, G(n)) for every n >= 0, exactly one sequence satisfies it; a
formula F is that sequence, for every heap (by induction on n), once F(0) = g0 and F(2n) = A(n, F(n)),
F(2n + 1) = B(n, F(n)) hold for every n >= 0.  ``digit_recursion_holds`` proves the last two: F(2m + r) is
rewritten with the identities of the binary digits (``halved``: odd(2x) = odd(x), odd(2x + 1) = 2x + 1,
lowbit(2x) = 2·lowbit(x), lowbit(2x + 1) = 1, wt(2x + r) = wt(x) + r, ν₂(2x + 1) = 0, ...), then z3 shows the
identity over unbounded integers for every m >= 0, the digit functions left in it uninterpreted (an identity that
holds for every interpretation of them holds for theirs).

The theorems, each with the hypothesis code checks on the game's symbolic moves (``RECURSIONS``):

- taking at most half a heap (moves n -> n - t, 1 <= t <= n / 2): G(2n) = n, G(2n + 1) = G(n) (L. Levine,
  "Fractional takeaway games", 2006).  By induction: the options of 2n are the heaps n .. 2n - 1, whose values are
  n/2 .. n - 1 (the even ones) and those of the options of n or of n - 1 with G(n - 1) (the odd ones), so every
  value below n and not n; the options of 2n + 1 are those of 2n without n, with 2n: the same argument gives G(n).

References
----------
L. Levine, "Fractional takeaway games", Integers 6 (2006).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import sympy as sp
import z3

from discover.expr.nodes import BitCount, BitLength, LowBit, OddPart, Valuation2
from discover.expr.smt import Arithmetic, SmtTranslator
from discover.expr.walker import Unsupported
from games import Game
from games.symbolic import TakeUpTo

__all__ = ["DigitRecursion", "RECURSIONS", "halved", "digit_recursion_holds", "recursion_proof"]

M = sp.Symbol("m", integer=True, nonnegative=True)


@dataclass(frozen=True)
class DigitRecursion:
    """A theorem: the Grundy values of the games ``applies`` accepts satisfy G(0) = ``start``,
    G(2n) = ``even(n, G(n))``, G(2n + 1) = ``odd(n, G(n))`` for every n >= 0."""

    method: str
    applies: Callable[[Game], bool]
    start: int
    even: Callable
    odd: Callable

    def statement(self) -> str:
        g = sp.Symbol("G(n)")
        n = sp.Symbol("n")
        return f"G(0) = {self.start}, G(2n) = {self.even(n, g)}, G(2n + 1) = {self.odd(n, g)}"


def _takes_at_most_half(game: Game) -> bool:
    return game.dims == 1 and game.parts == 1 and not game.misere and game.move_relation() == TakeUpTo(((1,),), 1, 2)


#: the theorems giving a game's Grundy values a recursion in the last binary digit of n
RECURSIONS = (
    DigitRecursion("theorem: taking at most half a heap (Levine, Fractional takeaway games, 2006): G(2n) = n, "
                   "G(2n + 1) = G(n)", _takes_at_most_half, 0, lambda n, g: n, lambda n, g: g),
)


def _split(arg, m):
    """(x, r, positive) with ``arg`` = 2x + r, r in {0, 1}, x >= 0 for every m >= 0 and ``positive`` whether
    x >= 1 for every m >= 0, where ``arg`` is linear in m with integer coefficients; else None."""
    arg = sp.expand(arg)
    if not arg.is_polynomial(m):
        return None
    poly = sp.Poly(arg, m)
    if poly.degree() > 1 or not all(c.is_Integer for c in poly.all_coeffs()):
        return None
    k, d = (int(c) for c in poly.all_coeffs()) if poly.degree() == 1 else (0, int(poly.all_coeffs()[0]))
    if k < 0 or k % 2 or d < 0:
        return None
    r = d % 2
    return sp.expand((arg - r) / 2), r, (d - r) // 2 >= 1


def halved(expr, m=M):
    """``expr`` (over m >= 0) with every function of binary digits of 2x + r rewritten by its digit identity.

    Examples
    --------
    >>> halved(sp.floor(OddPart(2 * M + 1) / 2)), halved(LowBit(4 * M + 2)), halved(BitCount(2 * M + 3))
    (m, 2, BitCount(m + 1) + 1)
    """
    if expr.is_Atom:
        return expr
    expr = expr.func(*[halved(a, m) for a in expr.args])
    if not isinstance(expr, (LowBit, Valuation2, OddPart, BitCount, BitLength)):
        return expr
    split = _split(expr.args[0], m)
    if split is None:
        return expr
    x, r, positive = split
    rules = {LowBit: (lambda: 2 * LowBit(x), lambda: sp.Integer(1)),
             Valuation2: ((lambda: Valuation2(x) + 1) if positive else None, lambda: sp.Integer(0)),
             OddPart: (lambda: OddPart(x), lambda: 2 * x + 1),
             BitCount: (lambda: BitCount(x), lambda: BitCount(x) + 1),
             BitLength: ((lambda: BitLength(x) + 1) if positive else None, lambda: BitLength(x) + 1)}
    rule = rules[type(expr)][r]
    return expr if rule is None else halved(rule(), m)


class _Opaque(SmtTranslator):
    """Unbounded integers, the functions of binary digits as uninterpreted functions of which only their signs are
    stated (``side``): never negative, and at least 1 on a positive argument (all but ν₂)."""

    def __init__(self):
        super().__init__(Arithmetic())
        self.functions: dict = {}

    def _opaque(self, e):
        name = type(e).__name__
        f = self.functions.setdefault(name, z3.Function(name, z3.IntSort(), z3.IntSort()))
        x = self.value(e.args[0])
        self.side.append(f(x) >= 0)
        if not isinstance(e, Valuation2):
            self.side.append(z3.Implies(x >= 1, f(x) >= 1))
        return f(x)

    _walk_LowBit = _walk_Valuation2 = _walk_OddPart = _walk_BitCount = _walk_BitLength = _opaque


def digit_recursion_holds(formula, symbol, recursion: DigitRecursion, seconds: float = 10.0) -> tuple[bool, str]:
    """Whether F = ``formula`` (over ``symbol``) satisfies ``recursion``'s two steps for every n >= 0, proved by z3
    over unbounded integers on the rewritten F(2m) and F(2m + 1); and what was shown or why not.

    Examples
    --------
    >>> n = sp.Symbol("n")
    >>> digit_recursion_holds(sp.floor(OddPart(n + 1) / 2), n, RECURSIONS[0])[0]
    True
    >>> digit_recursion_holds(sp.floor(n / 2), n, RECURSIONS[0])[0]
    False
    """
    said = []
    for r, step in ((0, recursion.even), (1, recursion.odd)):
        lhs = halved(formula.xreplace({symbol: 2 * M + r}))
        rhs = halved(step(M, formula.xreplace({symbol: M})))
        translator = _Opaque()
        m = z3.Int("m")
        try:
            claim = translator.term(sp.Eq(lhs, rhs), {"m": m})
        except Unsupported as err:
            return False, f"F({('2n', '2n + 1')[r]}) cannot be stated over the integers ({err})"
        solver = z3.Solver()
        solver.set(timeout=int(1000 * seconds))
        solver.add(*translator.side, m >= 0, z3.Not(claim))
        answer = solver.check()
        if answer != z3.unsat:
            wanted = step(sp.Symbol("n"), sp.Symbol("F(n)"))
            return False, f"z3 does not show F({('2n', '2n + 1')[r]}) = {wanted} ({answer})"
        said.append(f"F({('2n', '2n + 1')[r]}) = {step(sp.Symbol('n'), sp.Symbol('F(n)'))}")
    return True, " and ".join(said) + " for every n >= 0 (z3, unbounded integers, from the binary digits' identities)"


def recursion_proof(rule, component: Game) -> tuple[str, str, str] | None:
    """(status, method, why) for a one-heap Grundy rule of a game a theorem of ``RECURSIONS`` covers, or None.

    "proved" when F(0) is the theorem's G(0) and F satisfies its recursion for every n >= 0; else "unknown" with
    the reason (the rule stays verified on its heaps).  The theorem's hypothesis is read from the game's move
    relation: a custom game's relation is the user's word, checked against its ``moves()`` by the caller
    (``discover.composition.component_proof``, which names the box).

    Examples
    --------
    >>> from discover.rule import Rule
    >>> from games.declared import declared_game
    >>> half = declared_game({"name": "half", "heaps": 1, "moves": [{"take": {"up_to": "half"}}]})
    >>> recursion_proof(Rule(sp.floor(OddPart(sp.Symbol("n") + 1) / 2), ("n",), "grundy"), half)[0]
    'proved'
    """
    recursion = next((r for r in RECURSIONS if r.applies(component)), None)
    if recursion is None or rule.sequence is not None or len(rule.feature_names) != 1:
        return None
    symbol = sp.Symbol(rule.feature_names[0])
    start = rule.expr.xreplace({symbol: sp.Integer(0)})
    if start != recursion.start:
        return "unknown", recursion.method, f"F(0) = {start}, where the theorem gives G(0) = {recursion.start}"
    holds, why = digit_recursion_holds(rule.expr, symbol, recursion)
    if not holds:
        return "unknown", recursion.method, why
    return "proved", recursion.method, (f"F(0) = {recursion.start}, {why}: F is the one sequence with "
                                        f"{recursion.statement()}, by induction on n")
