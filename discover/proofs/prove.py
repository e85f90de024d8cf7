"""``prove_rule``: a proof for every position, a counterexample, or "unknown" with the reason.

Methods, in order: a theorem whose hypotheses code can check (the periodicity theorems of octal and subtraction
games, the latter also for a custom game whose relation takes finitely many amounts from its one heap,
complementary mex pairs and Beatty's theorem for Wythoff-type rules (Wythoff's game and Fraenkel's a-Wythoff
games), Moore's theorem for Nim_k, Bouton's theorem for misère Nim, Cole and Davie's theorem for Euclid's game,
Whinihan's theorem for Fibonacci Nim, Poker Nim's reduction to Nim; the Tartan theorem for Turning Corners' Grundy
values), then, for one heap, mex induction (``discover.proofs.mex_induction``: the rule's step from a heap's
options decided for every heap by automata, Grundy rules and P rules alike, bitwise operators included), then the
closure certificate in z3 (unbounded integers for rules without bitwise operators, else bit-vectors for
coordinates below 2^bits; the powers of a number in unbounded integers bracketed by their residues,
``discover.proofs.moves_smt``).  Nothing else is ever "proved": a Grundy rule none of these covers, a game without
a symbolic move relation, a rule or strategy the translation cannot state exactly, or a part z3 or the automata
leave open (their budgets) gives "unknown".
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from discover import defaults
from discover.expr.features import expand_features
from discover.expr.intervals import value_range
from discover.expr.walker import Unsupported
from discover.proofs.agreement import relation_agrees, relation_basis, resting_on
from discover.proofs.beatty import A_WYTHOFF_METHOD, WYTHOFF_METHOD, a_wythoff_hypotheses, wythoff_hypotheses
from discover.proofs.euclid import EUCLID_METHOD, euclid_hypotheses
from discover.proofs.fibonacci import WHINIHAN_METHOD, fibonacci_nim_hypotheses
from discover.proofs.mex_induction import MEX_METHOD, heap_rule_proof
from discover.proofs.mex_induction import SECONDS as MEX_SECONDS
from discover.proofs.misere_nim import MISERE_NIM_METHOD, misere_nim_hypotheses
from discover.proofs.moore import MOORE_METHOD, moore_hypotheses
from discover.proofs.periodicity import PERIODIC_METHODS, periodic_rule_proof
from discover.proofs.poker import POKER_NIM_METHOD, poker_nim_hypotheses
from discover.proofs.tartan import TARTAN_METHOD, tartan_hypotheses
from discover.rule import Rule
from discover.verdicts import CertificatePart, PartResult, ProofStatus
from games import Game, make_game
from games.symbolic import EuclidMultiples, Steps

if TYPE_CHECKING:
    from discover.proofs.certificate import Part

__all__ = ["Proof", "prove_rule", "relation_agrees"]

@dataclass
class Proof:
    """The outcome of ``prove_rule``.

    ``status`` is a ``ProofStatus``; ``statement`` says what was proved ("for every position ..."); ``counterexample``
    is a position (and move) breaking the certificate when ``status`` is disproved (or, when unknown, where the
    strategy fails); ``reason`` says why a proof is unknown; ``parts`` lists the certificate's parts with their
    results and seconds; ``rests_on`` names what a proof assumes beyond the game's own moves (a move relation and
    the box on which it agrees with ``moves()``), empty when nothing; ``bits`` is set when the proof covers only
    the positions below 2^bits (a bit-vector certificate: every coordinate, or the total where a move adds to a
    heap; its statement says so), None when it covers every position.
    """

    status: ProofStatus
    method: str
    statement: str
    counterexample: dict | None = None
    seconds: float = 0.0
    reason: str = ""
    parts: list = field(default_factory=list)
    rests_on: dict = field(default_factory=dict)
    bits: int | None = None

    def __post_init__(self):
        try:
            self.status = ProofStatus(self.status)
        except ValueError:
            raise ValueError(f"status must be one of {[s.value for s in ProofStatus]}, got {self.status!r}") from None

    def line(self) -> str:
        """One line: ✓ proof for every position ..., ✗ disproved: counterexample ..., or proof: unknown (...)."""
        if self.status == ProofStatus.PROVED:
            return f"✓ proof {self.statement} ({self.method}, {self.seconds:.2f} s)"
        if self.status == ProofStatus.DISPROVED:
            return f"✗ disproved: counterexample {self.counterexample} ({self.method}, {self.seconds:.2f} s)"
        return f"proof: unknown ({self.reason})"

    def to_record(self) -> dict:
        return {"status": self.status, "method": self.method, "statement": self.statement,
                "counterexample": self.counterexample, "seconds": round(self.seconds, 4), "reason": self.reason,
                "parts": [{"name": p.name, "key": p.key, "result": p.result, "seconds": round(p.seconds, 4)}
                          for p in self.parts],
                "rests_on": dict(self.rests_on), "bits": self.bits}

    def to_json(self) -> str:
        return json.dumps(self.to_record())

    @classmethod
    def from_record(cls, record: dict) -> Proof:
        """Read back ``to_record``'s record (statuses and the certificate's parts by their enum values).

        Examples
        --------
        >>> proof = Proof("unknown", "z3", "for every position", reason="z3 timed out")
        >>> Proof.from_record(proof.to_record()) == proof
        True
        """
        from discover.proofs.certificate import Part
        from discover.verdicts import CertificatePart, PartResult

        try:
            parts = [Part(CertificatePart(p["key"]), PartResult(p["result"]), float(p["seconds"]))
                     for p in record["parts"]]
            counterexample, rests_on = record["counterexample"], record.get("rests_on", {})
            bits = record.get("bits")
            if not isinstance(counterexample, (dict, type(None))) or not isinstance(rests_on, dict):
                raise ValueError("a proof's counterexample and rests_on are objects")
            if bits is not None and (isinstance(bits, bool) or not isinstance(bits, int) or bits < 1):
                raise ValueError(f"a proof's bits are a positive integer or null, got {bits!r}")
            return cls(record["status"], str(record["method"]), str(record["statement"]), counterexample,
                       float(record["seconds"]), str(record["reason"]), parts, dict(rests_on), bits)
        except (KeyError, TypeError) as err:
            raise ValueError(f"not a proof record: {type(err).__name__} {err}") from None


def _unknown(reason: str, start: float, method: str = "", statement: str = "", **kw) -> Proof:
    return Proof(ProofStatus.UNKNOWN, method, statement, seconds=time.perf_counter() - start, reason=reason, **kw)


def prove_rule(rule, game: Game, strategy=None, *, time_budget: float | None = None, bits: int = 64,
               methods=("theorem", "z3"), values=None, relation_bound: int | None = None) -> Proof:
    """Prove a P rule for every position of ``game``, disprove it, or say why neither.

    Parameters
    ----------
    rule : Rule
        A P rule (target "P").
    game : Game
        A game whose ``move_relation()`` states its moves.
    strategy : Strategy, optional
        A winning-move function for the rule: the "move into P" part becomes quantifier-free.
    time_budget : float, optional
        z3's seconds for the whole proof (default ``discover.defaults.ENGINES.proof_seconds``; each part gets what
        is left); checking a custom game's relation against its ``moves()`` (``relation_bound``) takes none of them.
    bits : int
        Bit-vector proofs cover coordinates below 2^bits (at least 64).
    methods : tuple of str
        "theorem" (periodicity, the pairs theorem, Moore's theorem, Bouton's misère theorem, Cole and Davie's
        theorem, Whinihan's theorem, Poker Nim's, the Tartan theorem; mex induction for one heap) and "z3" (the
        closure certificate), tried in order.
    values : array of int, optional
        A one-heap game's Grundy values G(0), G(1), ... computed by an exact search (the take-and-break
        engine's), which the periodicity theorem reads when the solver's range is too short.
    relation_bound : int, optional
        A custom game's relation (``custom_game(..., relation=...)``) is checked against its ``moves()`` up to
        this bound (the verification bound; default: a box of about 300 positions; see
        ``discover.proofs.agreement.relation_agreement``), and the proof's statement says that it is a proof for
        the moves the relation states, naming the bound on which they agree; a counterexample of the relation's
        moves outside that box refutes nothing of the game (the proof is then unknown).  A declared game's relation and
        move kernel are compiled from one declaration (``games.declared``), as a built-in family's are written
        together: both are checked on the largest box of at most 300 positions (bound 1's when its pairs fit
        ``discover.proofs.agreement.PAIRS``, bound 0's when they do not: 2^heaps positions for many heaps) and
        the proof is for every position.

    Returns
    -------
    Proof
        ``status`` "proved" (for every position, or every heap size of a Grundy rule), "disproved" (with a
        counterexample) or "unknown" (with the reason); ``method`` names the theorem or the certificate.

    Raises
    ------
    TypeError
        If ``rule`` is not a ``Rule`` or ``game`` not a ``Game``.
    ValueError
        If ``bits`` is below 64, ``methods`` names something other than "theorem" and "z3", or ``strategy``
        is for other moves than ``game``'s.

    Notes
    -----
    The theorems, tried first, each with its hypotheses checked by code: the periodicity theorem of
    octal games [1]_ and of subtraction games [2]_ [3]_ (``discover.proofs.periodicity``), complementary
    mex pairs with Beatty's theorem for Wythoff-type rules [4]_ [5]_ (``discover.proofs.beatty``),
    Fraenkel's a-Wythoff pairs [10]_, Moore's theorem for Nim_k [6]_ (``discover.proofs.moore``), Bouton's theorem
    for misère Nim [9]_ (``discover.proofs.misere_nim``), Cole and Davie's theorem for Euclid's game [8]_
    (``discover.proofs.euclid``), Whinihan's theorem for Fibonacci Nim [11]_ (``discover.proofs.fibonacci``),
    Poker Nim's reduction to Nim and the Tartan theorem for Turning Corners [3]_ (``discover.proofs.poker``,
    ``discover.proofs.tartan``).  Every theorem is about the moves of the game's relation, checked against its
    ``moves()`` first.  Otherwise the closure certificate (terminal positions are P, no move from P to P, a move
    from every N position into P) is put to z3 [7]_.

    References
    ----------
    .. [1] R. K. Guy and C. A. B. Smith, "The G-values of various games", Proceedings of the
       Cambridge Philosophical Society 52 (1956), 514-526 (octal games; the periodicity theorem).
    .. [2] S. W. Golomb, "A mathematical investigation of games of take-away", Journal of Combinatorial
       Theory 1 (1966), 443-458 (subtraction games with a finite set are eventually periodic).
    .. [3] E. R. Berlekamp, J. H. Conway and R. K. Guy, *Winning Ways for your Mathematical Plays*,
       2nd ed., A K Peters, 2001, chapters 2-4.
    .. [4] W. A. Wythoff, "A modification of the game of Nim", Nieuw Archief voor Wiskunde 7 (1907),
       199-202.
    .. [5] S. Beatty, "Problem 3173", American Mathematical Monthly 33 (1926), 159; solutions 34 (1927),
       159-160 (Beatty's theorem: complementary sequences floor(n a), floor(n b) with 1/a + 1/b = 1).
    .. [6] E. H. Moore, "A generalization of the game called Nim", Annals of Mathematics 11 (1910), 93-94.
    .. [7] L. de Moura and N. Bjørner, "Z3: an efficient SMT solver", TACAS 2008, Lecture Notes in
       Computer Science 4963, 337-340.
    .. [8] A. J. Cole and A. J. T. Davie, "A game based on the Euclidean algorithm and a winning strategy for
       it", The Mathematical Gazette 53 (1969), 354-357.
    .. [9] C. L. Bouton, "Nim, a game with a complete mathematical theory", Annals of Mathematics 3 (1901-1902),
       35-39 (the misère game at the end).
    .. [10] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three fronts", American Mathematical
       Monthly 89 (1982), 353-361.
    .. [11] M. J. Whinihan, "Fibonacci Nim", The Fibonacci Quarterly 1 (1963), 9-13.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",))
    >>> proof = prove_rule(rule, make_game("subtraction", subtract=(1, 2, 3)))
    >>> proof.status, proof.statement
    ('proved', 'for every position')
    """
    start = time.perf_counter()
    if not isinstance(rule, Rule):
        raise TypeError(f"prove_rule() takes a Rule (discover.rule.Rule) as rule, got {type(rule).__name__}")
    if not isinstance(game, Game):
        raise TypeError(f"prove_rule() takes a Game, got {type(game).__name__}")
    time_budget = defaults.ENGINES.proof_seconds if time_budget is None else time_budget
    if bits < 64:
        raise ValueError(f"bits must be at least 64, got {bits}")
    if len(rule.feature_names) != game.dims:
        raise ValueError(f"the rule names {len(rule.feature_names)} coordinates ({', '.join(rule.feature_names)}) "
                         f"and {game!r} has {game.dims}: prove it on a game of {len(rule.feature_names)}, or give "
                         f"the rule {game.dims} names")
    unknown = set(methods) - {"theorem", "z3"}
    if unknown or not methods:
        raise ValueError(f"methods are 'theorem' and 'z3', got {methods!r}")
    if "theorem" in methods and game.dims == 1 and game.period_theorem is not None:
        status, said, counterexample = periodic_rule_proof(rule, game, values)
        if status is not None:
            statement = "for every position" if rule.target == "P" else "for every heap size"
            return Proof(status, PERIODIC_METHODS[game.period_theorem], statement, counterexample,
                         time.perf_counter() - start, reason="; ".join(said))
    if rule.target != "P":
        said = ["the periodicity theorem does not apply"]
        if "theorem" in methods:
            applies, tartan = tartan_hypotheses(rule, game)
            if applies:  # a theorem about the relation's moves: they must be the game's
                differs, rests_on = relation_basis(game, relation_bound)
                if differs is not None:
                    return _unknown(f"the game's symbolic move relation disagrees with its moves(): "
                                    f"{differs['reason']}", start, counterexample=differs)
                return Proof(ProofStatus.PROVED, TARTAN_METHOD, resting_on("for every position", rests_on),
                             seconds=time.perf_counter() - start, reason="; ".join(tartan), rests_on=rests_on)
        if "theorem" in methods and game.dims == 1:
            status, said, counterexample, rests_on = heap_rule_proof(rule, game, relation_bound,
                                                                       min(time_budget, MEX_SECONDS))
            if status is not None:
                return Proof(status, MEX_METHOD, resting_on("for every heap size", rests_on), counterexample,
                             time.perf_counter() - start, reason="; ".join(said), rests_on=rests_on)
        return _unknown("a Grundy rule is proved by the periodicity theorem, the Tartan theorem or mex induction, and "
                        f"none does here ({'; '.join(said)})", start)
    relation = game.move_relation()
    if relation is None:
        return _unknown(f"{game!r} states no symbolic move relation: the rule stays verified on a bound", start)
    if strategy is not None and strategy.relation != relation:
        raise ValueError(f"the strategy is for the moves {strategy.relation.words()!r}, not {game!r}'s")
    clock = time.perf_counter()
    differs, rests_on = relation_basis(game, relation_bound)
    time_budget += time.perf_counter() - clock  # the budget is z3's: checking the relation on a bound takes none of it
    if differs is not None:
        return _unknown(f"the game's symbolic move relation disagrees with its moves(): {differs['reason']}", start,
                        counterexample=differs)
    proof = _by_subtraction_theorem(rule, game, relation, start) if "theorem" in methods else None
    if proof is None and "theorem" in methods and game.dims == 1 and game.parts == 1 and not game.misere:
        proof = _by_mex_induction(rule, game, relation_bound, min(time_budget, MEX_SECONDS), start)
    if proof is None:
        proof = _prove_stated(rule, game, relation, strategy, start, time_budget, bits, methods)
    statement = resting_on(proof.statement, rests_on)
    if proof.status == ProofStatus.DISPROVED and rests_on and not _in_box(game, proof.counterexample, rests_on):
        box = rests_on["agrees_with_moves_up_to"]
        return _unknown(f"the relation's moves refute the rule at {proof.counterexample['position']}, beyond the box "
                        f"where the relation agrees with moves() (up to {box:,}): the game itself is not refuted "
                        f"there", start, proof.method, statement, counterexample=proof.counterexample,
                        parts=proof.parts, rests_on=rests_on)
    proof.statement, proof.rests_on = statement, rests_on
    return proof


def _in_box(game, counterexample: dict, rests_on: dict) -> bool:
    """Whether a counterexample's positions (and move) lie in the box on which the relation agrees with ``moves()``:
    only there is a counterexample of the relation's moves one of the game's."""
    points = [tuple(counterexample[k]) for k in ("position", "move_to") if counterexample.get(k) is not None]
    if any(x < 0 or x >= 2**62 for p in points for x in p):
        return False
    box = game.universe(rests_on["agrees_with_moves_up_to"])
    return bool(box.contains(np.array(points, dtype=np.int64).reshape(-1, game.dims)).all())


def _by_subtraction_theorem(rule, game, relation, start) -> Proof | None:
    """The periodicity theorem of subtraction games for a game that declares no theorem but whose relation takes one
    of finitely many amounts from its one heap (a custom game's, inferred or given: the proof is for the moves of
    the relation, which is that subtraction game); None when it does not apply or does not decide."""
    if game.dims != 1 or game.period_theorem is not None or not isinstance(relation, Steps) \
            or relation.amounts is None or relation.vectors != ((1,),):
        return None
    status, said, counterexample = periodic_rule_proof(rule, make_game("subtraction", subtract=relation.amounts,
                                                                       misere=game.misere))
    if status is None:
        return None
    return Proof(status, PERIODIC_METHODS["subtraction"], "for every position", counterexample,
                 time.perf_counter() - start, reason="; ".join(said))


def _by_mex_induction(rule, game, relation_bound, seconds, start) -> Proof | None:
    """A one-heap P rule proved for every position by mex induction (unbounded, with no z3), or disproved; None
    when the automata do not decide."""
    status, said, counterexample, _ = heap_rule_proof(rule, game, relation_bound, seconds)
    if status is None:
        return None
    return Proof(status, MEX_METHOD, "for every position", counterexample, time.perf_counter() - start,
                 reason="; ".join(said))


def _prove_stated(rule, game, relation, strategy, start, time_budget, bits, methods) -> Proof:
    """The theorems, then the z3 certificate, for the moves ``relation`` states."""
    if "theorem" in methods:
        for hypotheses, method in ((wythoff_hypotheses, WYTHOFF_METHOD), (a_wythoff_hypotheses, A_WYTHOFF_METHOD),
                                   (moore_hypotheses, MOORE_METHOD),
                                   (misere_nim_hypotheses, MISERE_NIM_METHOD),
                                   (euclid_hypotheses, EUCLID_METHOD), (fibonacci_nim_hypotheses, WHINIHAN_METHOD),
                                   (poker_nim_hypotheses, POKER_NIM_METHOD)):
            applies, said = hypotheses(rule, game)
            if applies:
                return Proof(ProofStatus.PROVED, method, "for every position",
                             seconds=time.perf_counter() - start, reason="; ".join(said))
    if "z3" not in methods:
        return _unknown("no theorem applies and the z3 certificate was not asked for", start)
    return _by_certificate(rule, game, relation, strategy, start, time_budget, bits)


def _by_certificate(rule, game, relation, strategy, start, time_budget, bits) -> Proof:
    from discover.expr.smt import needs_bits  # z3: only a proof no theorem gives imports it
    from discover.proofs.certificate import CertificateQueries, arithmetic_for
    from discover.proofs.moves_smt import MovesSmt, residue_modulus

    names = rule.feature_names
    candidates = None if strategy is None else [c for b in strategy.branches for c in b.instances(names)]
    try:
        exprs = [expand_features(rule.expr, names)]
        moves_of = [expand_features(sp.sympify(v), names) for c in candidates or [] for v in c]
        finite = isinstance(relation, Steps) and relation.amounts is not None
        if finite and needs_bits(*moves_of) and not needs_bits(*exprs):
            candidates, moves_of = None, []  # finitely many options: quantifier-free in integers without it
        exprs += moves_of
        use_bits = needs_bits(*exprs)
        ranges = {n: (0, (1 << bits) - 1) for n in names}
        peak = max(value_range(e, ranges)[1] for e in exprs) if use_bits else 0
        arithmetic = arithmetic_for(bits if use_bits else None, peak, game.dims)
        moves = MovesSmt(relation, game.dims, arithmetic, modulus=residue_modulus(exprs[0]))
        queries = CertificateQueries(rule.expr, names, moves, game.terminal_outcome() == -1, candidates)
    except Unsupported as err:
        return _unknown(f"the rule or strategy cannot be stated exactly: {err}", start)
    nonlinear = queries.nonlinear or isinstance(relation, EuclidMultiples)
    kind = "nonlinear integer arithmetic" if nonlinear else "linear integer arithmetic"
    method = f"z3 closure certificate, {arithmetic.width}-bit bit-vectors" if arithmetic.is_bits else \
        f"z3 closure certificate, {kind}"
    if candidates is not None:
        method += ", with the strategy"
    if not moves.exact:
        method += f"; {moves.approximation()}"
    statement = moves.statement()
    parts = queries.run(max(0.0, time_budget - (time.perf_counter() - start)))
    last = parts[-1]
    seconds = time.perf_counter() - start
    if last.result == PartResult.HOLDS:
        return Proof(ProofStatus.PROVED, method, statement, seconds=seconds, parts=parts, bits=moves.bound_bits)
    if last.result == PartResult.UNKNOWN:
        why = (last.witness or {}).get("reason", "")
        return Proof(ProofStatus.UNKNOWN, method, statement, seconds=seconds, parts=parts,
                     reason=f"z3 did not decide '{last.name}' within the budget ({why})")
    return _failure(queries, last, parts, method, statement, start, time_budget, strategy, relation)


def _real_move(relation, witness: dict) -> bool:
    """Whether a model's move (``position`` -> ``move_to``) is a move of ``relation``, checked in numpy (False for
    a model too large for int64)."""
    p, q = witness.get("position"), witness.get("move_to")
    if p is None or q is None or max(map(abs, (*p, *q))) >= 2**62:
        return False
    return bool(relation.allows(np.array([p], dtype=np.int64), np.array([q], dtype=np.int64))[0])


def _failure(queries, last: Part, parts, method, statement, start, time_budget, strategy, relation) -> Proof:
    """A model breaking a part: a disproof of the rule, or (strategy, measure, moves not stated exactly) an open
    question."""
    witness = dict(last.witness)
    witness["reason"] = f"breaks '{last.name}'"
    exact = queries.moves.exact
    if last.key == CertificatePart.TERMINAL or (last.key == CertificatePart.NO_P_TO_P
                                                and (exact or _real_move(relation, witness))):
        return Proof(ProofStatus.DISPROVED, method, statement, witness, time.perf_counter() - start, parts=parts)
    if not exact and last.key in (CertificatePart.NO_P_TO_P, CertificatePart.MOVE_INTO_P):
        return Proof(ProofStatus.UNKNOWN, method, statement, witness, time.perf_counter() - start, parts=parts,
                     reason=f"z3 breaks '{last.name}' at {witness['position']} with the moves stated as "
                            f"{queries.moves.approximation()}, not exactly (the rule itself is not refuted there)")
    if last.key == CertificatePart.MOVE_INTO_P:
        if strategy is None:
            return Proof(ProofStatus.DISPROVED, method, statement, witness, time.perf_counter() - start, parts=parts)
        left = max(1.0, time_budget - (time.perf_counter() - start))
        if queries.has_move_into_p(witness["position"], left) == PartResult.FAILS:
            witness["reason"] = "an N position by the rule with no move into a P position"
            return Proof(ProofStatus.DISPROVED, method, statement, witness, time.perf_counter() - start, parts=parts)
        witness["reason"] = "the strategy's moves from here are illegal or do not lead to P"
        return Proof(ProofStatus.UNKNOWN, method, statement, witness, time.perf_counter() - start,
                     reason=f"the strategy fails at {witness['position']} (the rule itself is not refuted there)",
                     parts=parts)
    return Proof(ProofStatus.UNKNOWN, method, statement, witness, time.perf_counter() - start,
                 reason=f"the move relation's formulas break '{last.name}' (a fault of the encoding)", parts=parts)
