"""Move relations (``games.symbolic``) as z3 formulas, quantifier-free.

``MovesSmt(relation, dims, arithmetic)`` gives, for positions p and q (lists of z3 terms):
``domain(p)`` (p is a position: non-negative, Chomp rows non-increasing, and under bit-vectors the
bounded set the statement is about), ``is_move(p, q)`` (q is an option of p, without
quantifiers: the amount of a step is read off q), ``terminal(p)`` (p has no option, stated in
closed form), ``measure(p)`` (a non-negative linear measure every move decreases) and, for
relations with finitely many options per position, ``options(p)``.  The tests check each formula
against the family's move kernel on small boxes.

Every relation has an exact form but one: the powers of a number (``PowerSteps``) over unbounded integers, which
no quantifier-free formula of linear arithmetic states.  They get two forms that bracket them.  ``is_move`` holds
for every move (a superset, for the parts that speak of every move: the measure, no move from P to P): the powers
up to 2^62 listed, and larger amounts by the residues the powers take modulo ``modulus`` (the rule's moduli: every
power b^k with b^k > 2^62 has b^k mod M in the set the orbit of multiplication by b mod M reaches, computed
exactly).  ``sure_move`` holds only for moves (a subset, for the part that needs a move to exist: into P): the
powers up to 2^62.  ``exact`` says whether the two agree; the prover then never reads a model of the superset as a
counterexample without checking it.  Under bit-vectors (positions below 2^bits) the powers below 2^bits are
finitely many: both forms list them, exactly.
"""

from __future__ import annotations

import math

import sympy as sp
import z3

from discover.expr.smt import Arithmetic
from discover.expr.walker import Unsupported
from games.symbolic import (AnyOf, ChompBite, CoinSlides, EuclidMultiples, GrowingTake, MoveRelation, PowerSteps,
                             ProgressionSteps, Steps, TakeBoth, TakeFromSome, TakeUpTo)

__all__ = ["MovesSmt", "residue_modulus", "power_residues"]

_STEPPED = (Steps, ProgressionSteps, PowerSteps, TakeUpTo)  # moves p -> p - t·v along listed vectors
_SUPPORTED = _STEPPED + (TakeFromSome, ChompBite, EuclidMultiples, TakeBoth, GrowingTake, CoinSlides, AnyOf)
LISTED_POWERS = 2**62  # powers of a base listed one by one in unbounded integers (larger ones: by their residues)
MODULUS_LIMIT = 1 << 12  # the largest modulus whose residues a power's amount is stated by (else none)


def residue_modulus(*exprs) -> int:
    """The least common multiple of the constant moduli (``Mod(x, m)``, ``floor(x / m)``) in sympy expressions: the
    modulus whose residues ``MovesSmt`` states large powers by (1 when there are none, or past ``MODULUS_LIMIT``).

    Examples
    --------
    >>> import sympy as sp
    >>> a, b = sp.symbols("a b")
    >>> residue_modulus(sp.Eq(sp.Mod(a + b, 3), 0), sp.floor(a / 4)), residue_modulus(sp.Eq(a, b))
    (12, 1)
    """
    moduli = [int(m.args[1]) for e in exprs for m in e.atoms(sp.Mod) if m.args[1].is_Integer]
    moduli += [int(d) for e in exprs for f in e.atoms(sp.floor) for d in [sp.fraction(f.args[0])[1]] if d.is_Integer]
    modulus = math.lcm(1, *(abs(m) for m in moduli if m))
    return modulus if modulus <= MODULUS_LIMIT else 1


def power_residues(base: int, above: int, modulus: int) -> list[int]:
    """The residues modulo ``modulus`` of every power of ``base`` larger than ``above``: the orbit of the first
    such power's residue under multiplication by ``base`` (a finite map: followed until a residue repeats).

    Examples
    --------
    >>> power_residues(2, 4, 3), power_residues(2, 4, 8), power_residues(10, 1, 6)
    ([1, 2], [0], [4])
    """
    power = 1
    while power <= above:
        power *= base
    residue, seen = power % modulus, []
    while residue not in seen:
        seen.append(residue)
        residue = residue * base % modulus
    return sorted(seen)


class MovesSmt:
    """The z3 form of a move relation over ``dims`` coordinates in an ``Arithmetic``."""

    def __init__(self, relation: MoveRelation, dims: int, arithmetic: Arithmetic, bound_bits: int | None = None,
                 modulus: int = 1):
        if not isinstance(relation, _SUPPORTED):
            raise Unsupported(f"the move relation {type(relation).__name__} has no z3 form here")
        if isinstance(modulus, bool) or not isinstance(modulus, int) or modulus < 1:
            raise ValueError(f"modulus must be a positive integer, got {modulus!r}")
        if isinstance(relation, _STEPPED) and any(len(v) != dims for v in relation.vectors):
            raise ValueError(f"the relation's vectors have {len(relation.vectors[0])} coordinates, the game {dims}")
        if isinstance(relation, (EuclidMultiples, TakeBoth, GrowingTake)) and dims != 2:
            raise ValueError(f"{type(relation).__name__} moves need 2 coordinates, got {dims}")
        self.relation, self.dims, self.ar, self.modulus = relation, dims, arithmetic, modulus
        self.bound_bits = arithmetic.bits if bound_bits is None else bound_bits  # the bounded set, if any
        self.members = [MovesSmt(m, dims, arithmetic, self.bound_bits, modulus) for m in relation.members] \
            if isinstance(relation, AnyOf) else []

    @property
    def exact(self) -> bool:
        """``is_move`` and ``sure_move`` state exactly the relation's moves (not so for powers in unbounded
        integers: see the module's text)."""
        return self.bound_bits is not None or not self._has(PowerSteps)

    def approximation(self) -> str:
        """How the moves are stated when not exactly, in words ("" when exactly)."""
        if self.exact:
            return ""
        bases = sorted({m.base for m in [self.relation, *(x.relation for x in self.members)]
                        if isinstance(m, PowerSteps)})
        named = " and ".join(map(str, bases))
        return (f"the powers of {named} listed up to 2^62, larger ones stated by their residues modulo "
                f"{self.modulus} in the moves out of P")

    def _has(self, kind) -> bool:
        return isinstance(self.relation, kind) or any(isinstance(m.relation, kind) for m in self.members)

    # -- the set of positions ---------------------------------------------------------------
    @property
    def grows(self) -> bool:
        """Some move adds to a coordinate (staircase Nim): bounded sets are stated by the total."""
        return (isinstance(self.relation, _STEPPED) and any(min(v) < 0 for v in self.relation.vectors)) or \
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
        """Holds for every move p -> q (exactly the moves, unless ``exact`` is False: then a superset)."""
        return self._move(p, q, sure=False)

    def sure_move(self, p, q):
        """Holds only for moves p -> q (exactly the moves, unless ``exact`` is False: then a subset)."""
        return self._move(p, q, sure=True)

    def _move(self, p, q, sure: bool):
        rel, ar, zero = self.relation, self.ar, self.ar.const(0)
        if isinstance(rel, AnyOf):
            return z3.Or(*[m._move(p, q, sure) for m in self.members])
        if isinstance(rel, _STEPPED):
            cases = []
            for v in rel.vectors:
                t, exact = self._amount(v, p, q)
                same = [q[i] == p[i] - ar.const(v[i]) * t for i in range(self.dims)]
                if isinstance(rel, TakeUpTo):
                    amount = [t >= ar.const(1)] + [ar.const(rel.den) * t <= ar.const(rel.num) * p[i]
                                                   for i in range(self.dims) if v[i] > 0]
                elif isinstance(rel, ProgressionSteps):
                    amount = [t >= ar.const(rel.first), ar.mod(t - ar.const(rel.first), ar.const(rel.step)) == zero]
                elif isinstance(rel, PowerSteps):
                    amount = [self._power(rel.base, t, sure)]
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

    def _power(self, base: int, t, sure: bool):
        """t is a power of ``base``: the powers below 2^bits under a bounded set (exact), else those up to
        ``LISTED_POWERS`` and, unless ``sure``, any larger t with a residue modulo ``modulus`` a power can have."""
        powers = self._powers(base)
        listed = z3.Or(*[t == self.ar.const(x) for x in powers])
        if sure or self.bound_bits is not None:
            return listed
        residues = power_residues(base, powers[-1], self.modulus)
        residue = self.ar.mod(t, self.ar.const(self.modulus))
        large = z3.And(t > self.ar.const(powers[-1]), z3.Or(*[residue == self.ar.const(r) for r in residues]))
        return z3.Or(listed, large)

    def _powers(self, base: int) -> list[int]:
        """The powers of ``base`` stated one by one: below 2^bits under a bounded set, else up to ``LISTED_POWERS``."""
        top = LISTED_POWERS if self.bound_bits is None else (1 << self.bound_bits) - 1
        powers = [1]
        while powers[-1] * base <= top:
            powers.append(powers[-1] * base)
        return powers

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
        if isinstance(rel, (Steps, ProgressionSteps, PowerSteps)):  # no step of the least amount fits (-1: always)
            least = rel.first if isinstance(rel, ProgressionSteps) else \
                rel.amounts[0] if isinstance(rel, Steps) and rel.amounts is not None else 1
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
        """Every candidate option of p (legal where ``sure_move`` holds) when there are finitely many
        independent of p's size (a finite subtraction set; the powers ``sure_move`` lists), else None."""
        rel, ar = self.relation, self.ar
        if isinstance(rel, AnyOf):
            each = [m.options(p) for m in self.members]
            return None if any(o is None for o in each) else [q for o in each for q in o]
        if isinstance(rel, PowerSteps):
            amounts = self._powers(rel.base)
        elif isinstance(rel, Steps) and rel.amounts is not None:
            amounts = rel.amounts
        else:
            return None
        return [[p[i] - ar.const(v[i] * s) for i in range(self.dims)] for v in rel.vectors for s in amounts]
