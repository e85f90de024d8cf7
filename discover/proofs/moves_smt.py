"""Move relations (``games.symbolic``) as z3 formulas, quantifier-free.

``MovesSmt(relation, dims, arithmetic)`` gives, for positions p and q (lists of z3 terms):
``domain(p)`` (p is a position: non-negative, Chomp rows non-increasing, and under bit-vectors the
bounded set the statement is about), ``is_move(p, q)`` (q is an option of p, without
quantifiers: the amount of a step is read off q), ``terminal(p)`` (p has no option, stated in
closed form), ``measure(p)`` (a non-negative linear measure every move decreases) and, for
relations with finitely many options per position, ``options(p)``.  The tests check each formula
against the family's move kernel on small boxes.
"""

from __future__ import annotations

import z3

from discover.expr.smt import Arithmetic
from discover.expr.walker import Unsupported
from games.symbolic import (AnyOf, ChompBite, CoinSlides, EuclidMultiples, GrowingTake, MoveRelation, ProgressionSteps,
                             Steps, TakeBoth, TakeFromSome, TakeUpTo)

__all__ = ["MovesSmt"]

_SUPPORTED = (Steps, ProgressionSteps, TakeFromSome, ChompBite, EuclidMultiples, TakeUpTo, TakeBoth, GrowingTake,
              CoinSlides, AnyOf)


class MovesSmt:
    """The z3 form of a move relation over ``dims`` coordinates in an ``Arithmetic``."""

    def __init__(self, relation: MoveRelation, dims: int, arithmetic: Arithmetic, bound_bits: int | None = None):
        if not isinstance(relation, _SUPPORTED):
            raise Unsupported(f"the move relation {type(relation).__name__} has no z3 form here")
        if isinstance(relation, (Steps, ProgressionSteps, TakeUpTo)) and any(len(v) != dims for v in relation.vectors):
            raise ValueError(f"the relation's vectors have {len(relation.vectors[0])} coordinates, the game {dims}")
        if isinstance(relation, (EuclidMultiples, TakeBoth, GrowingTake)) and dims != 2:
            raise ValueError(f"{type(relation).__name__} moves need 2 coordinates, got {dims}")
        self.relation, self.dims, self.ar = relation, dims, arithmetic
        self.bound_bits = arithmetic.bits if bound_bits is None else bound_bits  # the bounded set, if any
        self.members = [MovesSmt(m, dims, arithmetic, self.bound_bits) for m in relation.members] \
            if isinstance(relation, AnyOf) else []

    def _has(self, kind) -> bool:
        return isinstance(self.relation, kind) or any(isinstance(m.relation, kind) for m in self.members)

    # -- the set of positions ---------------------------------------------------------------
    @property
    def grows(self) -> bool:
        """Some move adds to a coordinate (staircase Nim): bounded sets are stated by the total."""
        return (isinstance(self.relation, (Steps, ProgressionSteps)) and any(min(v) < 0 for v in self.relation.vectors)) or \
            any(m.grows for m in self.members)

    def domain(self, p):
        ar, zero = self.ar, self.ar.const(0)
        parts = [x >= zero for x in p]
        if self._has(ChompBite):
            parts += [p[0] >= ar.const(1)] + [p[i] >= p[i + 1] for i in range(self.dims - 1)]
        if self._has(CoinSlides):
            parts += [p[i] > p[i + 1] for i in range(self.dims - 1)]
        if self.bound_bits is not None:
            top = ar.const(1 << self.bound_bits)
            parts += [sum(p[1:], p[0]) < top] if self.grows else [x < top for x in p]
        return z3.And(*parts)

    def statement(self) -> str:
        """The positions a proof in this arithmetic covers, in words."""
        shape = " (row lengths non-increasing, the first ≥ 1)" if self._has(ChompBite) else \
            " (squares in decreasing order)" if self._has(CoinSlides) else ""
        if self.bound_bits is None:
            return f"for every position{shape}"
        what = "fewer than 2^{} tokens in all" if self.grows else "every coordinate < 2^{}"
        return f"for every position{shape} with {what.format(self.bound_bits)}"

    def measure(self, p):
        weights = self.relation.measure(self.dims)
        return sum((self.ar.const(w) * x for w, x in zip(weights[1:], p[1:])), self.ar.const(weights[0]) * p[0])

    # -- moves -----------------------------------------------------------------------------
    def is_move(self, p, q):
        rel, ar, zero = self.relation, self.ar, self.ar.const(0)
        if isinstance(rel, AnyOf):
            return z3.Or(*[m.is_move(p, q) for m in self.members])
        if isinstance(rel, (Steps, ProgressionSteps, TakeUpTo)):
            cases = []
            for v in rel.vectors:
                t, exact = self._amount(v, p, q)
                same = [q[i] == p[i] - ar.const(v[i]) * t for i in range(self.dims)]
                if isinstance(rel, TakeUpTo):
                    amount = [t >= ar.const(1)] + [ar.const(rel.den) * t <= ar.const(rel.num) * p[i]
                                                   for i in range(self.dims) if v[i] > 0]
                elif isinstance(rel, ProgressionSteps):
                    amount = [t >= ar.const(rel.first), ar.mod(t - ar.const(rel.first), ar.const(rel.step)) == zero]
                elif rel.amounts is None:
                    amount = [t >= ar.const(1)]
                else:
                    amount = [z3.Or(*[t == ar.const(s) for s in rel.amounts])]
                cases.append(z3.And(*(exact + same + amount)))
            return z3.And(z3.Or(*cases), *[x >= zero for x in q])
        if isinstance(rel, TakeFromSome):
            lower = [q[i] < p[i] for i in range(self.dims)]  # counted as booleans, never with adders
            return z3.And(*[z3.And(q[i] <= p[i], q[i] >= zero) for i in range(self.dims)],
                          z3.Or(*lower), z3.AtMost(*lower, rel.k))
        if isinstance(rel, TakeBoth):
            s, t, width = p[0] - q[0], p[1] - q[1], ar.const(rel.a)
            one = ar.const(1)
            return z3.And(s >= one, t >= one, s - t < width, t - s < width, q[0] >= zero, q[1] >= zero)
        if isinstance(rel, CoinSlides):  # ordered, one new square, every other coin kept, the total down
            kept = [z3.Or(*[x == y for y in p]) for x in q]
            ordered = [q[i] > q[i + 1] for i in range(self.dims - 1)] + [q[-1] >= zero]
            return z3.And(*ordered, sum(q[1:], q[0]) < sum(p[1:], p[0]), z3.AtLeast(*kept, self.dims - 1),
                          z3.AtMost(*kept, self.dims - 1))
        if isinstance(rel, GrowingTake):
            t, allowed = p[0] - q[0], ar.const(rel.ratio) * (p[0] - q[0])
            return z3.And(t >= ar.const(1), t <= p[1], q[0] >= zero, q[1] == z3.If(allowed < q[0], allowed, q[0]))
        if isinstance(rel, ChompBite):
            cases = []
            for i in range(self.dims):
                j = q[i]
                cut = [q[m] == z3.If(p[m] < j, p[m], j) for m in range(i, self.dims)]
                kept = [q[m] == p[m] for m in range(i)]
                bite = [j < p[i], j >= zero] + ([j >= ar.const(1)] if i == 0 else [])
                cases.append(z3.And(*(bite + kept + cut)))
            return z3.Or(*cases)
        a, b = p
        cases = []
        for mover, other, side in ((a, b, 0), (b, a, 1)):
            taken = mover - q[side]
            cases.append(z3.And(other > zero, mover >= other, q[1 - side] == other, taken > zero,
                                self.ar.mod(taken, other) == zero, q[side] >= zero))
        return z3.Or(*cases)

    def _amount(self, v, p, q):
        """The amount t of a step along v read off q, and the condition that it is a whole number."""
        lead = next(i for i, x in enumerate(v) if x)
        step, taken = abs(v[lead]), (p[lead] - q[lead]) if v[lead] > 0 else (q[lead] - p[lead])
        if step == 1:
            return taken, []
        return taken / self.ar.const(step), [self.ar.mod(taken, self.ar.const(step)) == self.ar.const(0)]

    def terminal(self, p):
        rel, ar, zero = self.relation, self.ar, self.ar.const(0)
        if isinstance(rel, AnyOf):
            return z3.And(*[m.terminal(p) for m in self.members])
        if isinstance(rel, (Steps, ProgressionSteps)):  # no step of the least amount fits (-1 entries always fit)
            least = rel.first if isinstance(rel, ProgressionSteps) else 1 if rel.amounts is None else rel.amounts[0]
            return z3.And(*[z3.Or(*[p[i] < ar.const(least * x) for i, x in enumerate(v) if x > 0])
                            for v in rel.vectors])
        if isinstance(rel, TakeUpTo):  # t = 1 fits nowhere
            return z3.And(*[z3.Or(*[z3.Or(p[i] < ar.const(x), ar.const(rel.num) * p[i] < ar.const(rel.den))
                                    for i, x in enumerate(v) if x > 0]) for v in rel.vectors])
        if isinstance(rel, TakeFromSome):
            return z3.And(*[x == zero for x in p])
        if isinstance(rel, (TakeBoth, GrowingTake)):
            return z3.Or(p[0] == zero, p[1] == zero)
        if isinstance(rel, CoinSlides):  # the coins fill the lowest squares
            return z3.And(*[x == ar.const(self.dims - 1 - i) for i, x in enumerate(p)])
        if isinstance(rel, ChompBite):
            return z3.And(p[0] == ar.const(1), *[x == zero for x in p[1:]])
        return z3.Or(p[0] == zero, p[1] == zero)

    def options(self, p) -> list | None:
        """Every candidate option of p (legal where ``is_move`` holds) when there are finitely many
        independent of p's size (a finite subtraction set), else None."""
        rel, ar = self.relation, self.ar
        if isinstance(rel, AnyOf):
            each = [m.options(p) for m in self.members]
            return None if any(o is None for o in each) else [q for o in each for q in o]
        if not isinstance(rel, Steps) or rel.amounts is None:
            return None
        return [[p[i] - ar.const(v[i] * s) for i in range(self.dims)] for v in rel.vectors for s in rel.amounts]
