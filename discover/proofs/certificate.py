"""The closure certificate for every position, one z3 formula per part.

A P/N labelling is the game's own iff (i) every move decreases a non-negative measure (so every
play ends and induction applies), (ii) terminal positions follow the terminal rule, (iii) no move
leads from P to P and (iv) every other N position has a move into P.  Each part is asked as "is
there a position breaking it?": ``unsat`` proves the part.  With a strategy, (iv) is
quantifier-free: one of the strategy's candidate moves is legal and lands in P.  Without one,
(iv) keeps a quantifier over the move, unless the relation has finitely many options.  Parts (i) and (iii) speak
of every move (``MovesSmt.is_move``: a superset of the moves where they are not stated exactly), (iv) of a move
that exists (``MovesSmt.sure_move``: a subset), so that an unsatisfiable query proves its part either way.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sympy as sp
import z3

from discover.expr.features import expand_features
from discover.expr.smt import Arithmetic, SmtTranslator
from discover.proofs.moves_smt import MovesSmt
from discover.verdicts import CertificatePart, PartResult

__all__ = ["Part", "CertificateQueries", "arithmetic_for"]


@dataclass
class Part:
    """One part of the certificate, by its key: ``result`` holds, fails or unknown."""

    key: CertificatePart
    result: PartResult
    seconds: float
    witness: dict | None = None
    detail: str = ""

    @property
    def name(self) -> str:
        """The part in words (``CertificatePart.text``)."""
        return self.key.text


class CertificateQueries:
    """The certificate's parts for a P rule (and optionally a strategy) over a move relation.

    Parameters
    ----------
    rule_expr : sympy condition over coordinates and derived features (true on P positions)
    coordinates : coordinate names
    moves : MovesSmt
    terminal_is_p : bool
        Normal play (a position with no move is P) or misere (it is N).
    candidates : list of tuples of sympy expressions, optional
        The strategy's candidate new positions (``Branch.instances``).
    """

    def __init__(self, rule_expr, coordinates, moves: MovesSmt, terminal_is_p: bool, candidates=None):
        self.coordinates = list(coordinates)
        self.moves, self.ar = moves, moves.ar
        self.rule_expr = expand_features(rule_expr, coordinates)
        self.terminal_is_p = terminal_is_p
        self.translator = SmtTranslator(self.ar)
        self.p = [self.ar.var(f"p_{n}") for n in coordinates]
        self.q = [self.ar.var(f"q_{n}") for n in coordinates]
        self.rule_p = self.rule(self.p)
        self.rule_q = self.rule(self.q)
        self.candidates = None if candidates is None else [
            [self.translator.term(expand_features(sp.sympify(v), coordinates), self.env(self.p)) for v in c]
            for c in candidates]

    @property
    def nonlinear(self) -> bool:
        return self.translator.nonlinear

    def env(self, position) -> dict:
        return dict(zip(self.coordinates, position))

    def rule(self, position):
        return self.translator.term(self.rule_expr, self.env(position))

    # -- the parts ---------------------------------------------------------------------
    def queries(self):
        """(key, formula whose models break the part) for each part, in order."""
        m, p, q = self.moves, self.p, self.q
        # the relation alone, in integers (sums of bit-vectors are slow to reason about), over the same set
        ints = MovesSmt(m.relation, m.dims, Arithmetic(), bound_bits=m.bound_bits, modulus=m.modulus)
        a, b = [z3.Int(f"m_{n}") for n in self.coordinates], [z3.Int(f"n_{n}") for n in self.coordinates]
        yield CertificatePart.MEASURE, z3.And(ints.domain(a), ints.is_move(a, b),
                                                         z3.Not(ints.measure(b) < ints.measure(a)))
        if self.ar.is_bits:
            yield CertificatePart.BOUNDED, z3.And(ints.domain(a), ints.is_move(a, b), z3.Not(ints.domain(b)))
        dom = m.domain(p)
        expected = self.rule_p if self.terminal_is_p else z3.Not(self.rule_p)
        yield CertificatePart.TERMINAL, z3.And(dom, m.terminal(p), z3.Not(expected))
        yield CertificatePart.NO_P_TO_P, z3.And(dom, self.rule_p, m.is_move(p, q), self.rule_q)
        yield CertificatePart.MOVE_INTO_P, z3.And(dom, z3.Not(m.terminal(p)), z3.Not(self.rule_p),
                                                            z3.Not(self.into_p(p)))

    def into_p(self, p):
        """Some move from p leads to a P position: by the strategy, or over finitely many options,
        or (last resort) with a quantifier over the move."""
        m = self.moves
        targets = self.candidates if self.candidates is not None else m.options(p)
        if targets is not None:
            return z3.Or(*[z3.And(m.sure_move(p, t), self.rule(t)) for t in targets])
        inner = SmtTranslator(self.ar)
        q = [self.ar.var(f"any_{n}") for n in self.coordinates]
        body = z3.And(m.sure_move(p, q), inner.term(self.rule_expr, self.env(q)), *inner.side)
        return z3.Exists(q + inner.fresh, body)

    def check(self, formula, seconds: float) -> tuple[PartResult, dict | None]:
        """Holds (no model), fails with the position (and move) of a model, or unknown."""
        solver = z3.Solver()
        solver.set("timeout", max(1, int(seconds * 1000)))
        solver.add(formula, *self.translator.side)
        answer = solver.check()
        if answer == z3.unsat:
            return PartResult.HOLDS, None
        if answer == z3.unknown:
            return PartResult.UNKNOWN, {"reason": solver.reason_unknown()}
        model = solver.model()
        witness = {"position": self._read(model, self.p)}
        if z3.is_true(model.eval(self.moves.is_move(self.p, self.q), model_completion=True)):
            witness["move_to"] = self._read(model, self.q)
        return PartResult.FAILS, witness

    def _read(self, model, position) -> tuple[int, ...]:
        values = [model.eval(x, model_completion=True) for x in position]
        return tuple(v.as_signed_long() if self.ar.is_bits else v.as_long() for v in values)

    def has_move_into_p(self, position, seconds: float) -> PartResult:
        """Does this concrete position have a move into P by the rule: holds (yes), fails (no) or unknown?"""
        p = [self.ar.const(x) for x in position]
        solver = z3.Solver()
        solver.set("timeout", max(1, int(seconds * 1000)))
        solver.add(self.moves.sure_move(p, self.q), self.rule_q, *self.translator.side)
        answer = solver.check()
        return PartResult.HOLDS if answer == z3.sat else PartResult.FAILS if answer == z3.unsat else PartResult.UNKNOWN

    def run(self, budget: float) -> list[Part]:
        """Every part in order, stopping at the first that fails or stays unknown."""
        parts, deadline = [], time.perf_counter() + budget
        for key, formula in self.queries():
            clock = time.perf_counter()
            result, witness = self.check(formula, max(0.001, deadline - clock))
            parts.append(Part(key, result, time.perf_counter() - clock, witness))
            if result != PartResult.HOLDS:
                break
        return parts


def arithmetic_for(bits: int | None, peak: int, dims: int) -> Arithmetic:
    """Unbounded integers, or bit-vectors wide enough for ``peak`` and for sums of ``dims`` coordinates
    (a staircase move adds to a coordinate; the measure part is asked in integers)."""
    if bits is None:
        return Arithmetic()
    width = max(bits + 2 + dims.bit_length(), int(peak).bit_length() + 2)
    return Arithmetic(bits=bits, width=width)
