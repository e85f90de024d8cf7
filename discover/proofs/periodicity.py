"""Periodicity of one-heap games: the theorems that prove an eventual period for every heap size, and a rule
proved by them.

Two theorems turn a period checked on finitely many values (found by
``solvers.periods.sequences``) into a statement about every heap size, each with its hypothesis
checked by code on the computed values:

- the periodicity theorem of Guy and Smith for octal games, and its form for moves that leave up
  to three heaps (hexadecimal games): ``octal_periodicity_proof``, and ``take_and_break_proof``,
  which reads t and j from the game's code;
- for subtraction games, a repeated window of max(S) values (``subtraction_periodicity_proof``).

A game says which applies through its ``period_theorem`` and ``removal_limit`` (``periodicity_proof``).

``periodic_rule_proof`` proves a rule R (Grundy values, or P positions of a subtraction game) for every
heap size n of such a game when

1. the game's values (computed by search: the solver's, or the take-and-break engine's) repeat with period p
   from n0 over the range the theorem asks for, so by the theorem they repeat for every n >= n0;
2. R itself repeats with period p from n0 for every n (a periodic table by construction; an expression
   proved so by z3 in unbounded integers: no n >= n0 with R(n + p) != R(n));
3. R agrees with the game's values for every n < n0 + p (in fact on every computed value).

A disagreement in 3 disproves the rule, with the heap as counterexample.  ``prove_rule`` tries it first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from discover.expr.walker import Unsupported
from discover.verdicts import ProofStatus
from solvers import solve
from solvers.periods.sequences import find_periods, hypothesis_end
from solvers.take_and_break import take_and_break_rules

__all__ = ["PeriodicityProof", "periodicity_proof", "octal_periodicity_proof", "take_and_break_proof",
           "subtraction_periodicity_proof", "periodic_rule_proof", "PERIODIC_METHODS"]


@dataclass(frozen=True)
class PeriodicityProof:
    """Whether a checked period is proved for every heap size, and why."""

    proven: bool
    needed: int  # values y[0..needed-1] the theorem needs checked
    checked: int  # values available
    reason: str

    def __bool__(self) -> bool:
        return self.proven


def _repeats(values, start: int, period: int, stop: int) -> int | None:
    """First n in [start, stop) with values[n + period] != values[n], else None."""
    y = np.asarray(values).astype(np.int64)
    d = y[start + period : stop + period] - y[start:stop]
    bad = np.flatnonzero(d != 0)
    return int(start + bad[0]) if bad.size else None


def octal_periodicity_proof(t: int, n0: int, p: int, values, parts: int = 2) -> PeriodicityProof:
    """The periodicity theorem (Guy and Smith, 1956) applied to checked Grundy values.

    For an octal game 0.d1...dt (at most t tokens removed per move): if G(n + p) = G(n) for
    all n with n0 <= n < 2 n0 + p + t, then G(n + p) = G(n) for every n >= n0.  ``values`` are
    G(0), G(1), ...; the theorem needs them up to n = 2 n0 + 2p + t - 1 (n0 = 0 counts as 1).
    Moves that leave at most ``parts`` = j heaps need them up to j (n0 + p) + t - 1 (j = 3:
    hexadecimal games; j = 1: no move splits a heap).

    Examples
    --------
    >>> kayles_like = [0] * 200
    >>> octal_periodicity_proof(2, 0, 1, kayles_like).proven
    True
    >>> octal_periodicity_proof(2, 71, 12, kayles_like[:100]).proven
    False

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4 (the periodicity theorem).
    """
    t, n0, p, parts = int(t), int(n0), int(p), int(parts)
    if t < 0 or n0 < 0 or p < 1 or parts not in (1, 2, 3):
        raise ValueError(f"need t >= 0, n0 >= 0, p >= 1 and parts in 1, 2, 3; got t={t}, n0={n0}, p={p}, "
                         f"parts={parts}")
    needed = hypothesis_end(n0, p, t, parts) + 1  # n0 = 0 counts as 1 (0.04: G = 0 up to 3, G(4) = 1)
    stop = needed - p
    checked = len(values)
    if checked < needed:
        return PeriodicityProof(
            False, needed, checked,
            f"the theorem needs G(n) up to n = {needed - 1:,}; only {checked:,} values were checked",
        )
    first = _repeats(values, n0, p, stop)
    if first is not None:
        return PeriodicityProof(
            False, needed, checked, f"G({first + p}) != G({first}): the period {p} from n = {n0} does not hold"
        )
    bound = f"2·{max(n0, 1):,} + {p:,} + {t}" if parts == 2 else f"{parts}·({max(n0, 1):,} + {p:,}) + {t} - {p:,}"
    form = "" if parts == 2 else f", for moves leaving at most {parts} heap{'s' if parts > 1 else ''}"
    return PeriodicityProof(
        True, needed, checked,
        f"G(n + {p:,}) = G(n) checked for {n0:,} <= n < {stop:,} = {bound}, so by the periodicity "
        f"theorem (Guy and Smith{form}) it holds for every n >= {n0:,}",
    )


def take_and_break_proof(game, n0: int, p: int, values) -> PeriodicityProof | None:
    """The periodicity theorem for an octal or hexadecimal game, with t and j read from its code.

    t is the most tokens a move removes and j the most heaps a move leaves (the fewer, the fewer
    values the theorem needs; ``solvers.take_and_break`` stops at the same heap).  None for
    Grundy's game, which no periodicity theorem covers (equal splits are forbidden).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers.take_and_break import plain_grundy_values
    >>> kayles = make_game("octal", code="0.77")
    >>> take_and_break_proof(kayles, 71, 12, plain_grundy_values(kayles, 168)).proven
    True
    >>> take_and_break_proof(make_game("grundy_game"), 0, 1, [0] * 10) is None
    True
    """
    digits, unequal = take_and_break_rules(game)
    if unequal:
        return None
    bits = int(np.bitwise_or.reduce(digits))
    parts = 3 if bits & 8 else 2 if bits & 4 else 1
    return octal_periodicity_proof(digits.size - 1, n0, p, values, parts)


def subtraction_periodicity_proof(s_max: int, n0: int, p: int, values) -> PeriodicityProof:
    """Periodicity of a subtraction game's values (Grundy values or P/N outcomes).

    The value at n depends only on the s_max values before it, so if
    y(n + p) = y(n) for s_max consecutive n >= n0, it holds for every n >= n0.

    >>> subtraction_periodicity_proof(3, 0, 4, [1, 0, 0, 0] * 3).proven
    True
    """
    s_max, n0, p = int(s_max), int(n0), int(p)
    if s_max < 1 or n0 < 0 or p < 1:
        raise ValueError(f"need s_max >= 1, n0 >= 0, p >= 1; got s_max={s_max}, n0={n0}, p={p}")
    stop = n0 + s_max
    needed = stop + p
    checked = len(values)
    if checked < needed:
        return PeriodicityProof(
            False, needed, checked, f"the proof needs values up to n = {needed - 1}; only {checked} were checked"
        )
    first = _repeats(values, n0, p, stop)
    if first is not None:
        return PeriodicityProof(False, needed, checked, f"y({first + p}) != y({first})")
    return PeriodicityProof(
        True, needed, checked,
        f"y(n + {p}) = y(n) for the {s_max} consecutive n from {n0}, and each value depends only on the "
        f"{s_max} before it, so the period holds for every n >= {n0}",
    )


def periodicity_proof(game, start: int, period: int, values, grundy: bool = True) -> PeriodicityProof | None:
    """The theorem the game declares (``game.period_theorem``) applied to its values (Grundy values, or
    with ``grundy=False`` P/N outcomes); None when no theorem applies.

    The octal theorem speaks of Grundy values only; a subtraction game's P/N outcomes, like its Grundy
    values, depend only on the max(S) values before them.

    Examples
    --------
    >>> from games import make_game
    >>> periodicity_proof(make_game("subtraction", subtract=(1, 2, 3)), 0, 4, [0, 1, 2, 3] * 4).proven
    True
    >>> periodicity_proof(make_game("nim", heaps=1), 0, 1, [0] * 9) is None
    True
    """
    if game.period_theorem == "octal":
        return take_and_break_proof(game, start, period, values) if grundy else None
    if game.period_theorem == "subtraction":
        return subtraction_periodicity_proof(game.removal_limit, start, period, values)
    return None


# -- a rule proved by a theorem ----------------------------------------------------------------------------
PERIODIC_METHODS = {
    "octal": "theorem: periodicity of octal games (Guy and Smith)",
    "subtraction": "theorem: periodicity of subtraction games (each value depends on the max(S) before it)",
}
SAMPLE = 4096  # heaps on which an expression rule's own period is looked for
SOLVE_LIMIT = 20_000  # most heaps solved here when the caller gives no values
OWN_PERIOD_SECONDS = 5.0  # z3's budget for an expression rule's own period


def _rule_values(rule, count: int) -> np.ndarray:
    heaps = np.arange(count, dtype=np.int64)[:, None]
    return rule.evaluate(heaps) if rule.target == "grundy" else rule.predicate(heaps).astype(np.int64)


def _own_period(rule, start: int, period: int) -> str | None:
    """Why R(n + period) = R(n) for every n >= start, or None when that is not shown."""
    if rule.sequence is not None:
        return f"the rule is a table with period {period} from n = {start} by construction"
    import z3  # only an expression rule's own period needs it

    from discover.expr.smt import Arithmetic, SmtTranslator

    translator = SmtTranslator(Arithmetic())
    n = z3.Int("n")
    name = rule.feature_names[0]
    try:
        here = translator.term(rule.expr, {name: n})
        ahead = translator.term(rule.expr, {name: n + period})
    except Unsupported:
        return None
    solver = z3.Solver()
    solver.set("timeout", int(OWN_PERIOD_SECONDS * 1000))
    solver.add(n >= start, here != ahead, *translator.side)
    if solver.check() != z3.unsat:
        return None
    return f"z3 shows R(n + {period}) = R(n) for every n >= {start} (unbounded integers)"


def periodic_rule_proof(rule, game, values=None) -> tuple[str | None, list[str], dict | None]:
    """Whether a periodicity theorem proves ``rule`` for every heap size of ``game``.

    Parameters
    ----------
    rule : Rule
        A Grundy rule of one heap, or a P rule of a subtraction game.
    game : Game
        A one-heap game with a ``period_theorem``.
    values : array of int, optional
        G(0), G(1), ... (or 1 for P, 0 for N) computed by an exact search beyond the solver's reach (the
        take-and-break engine's); by default the solver computes the range the theorem needs.

    Returns
    -------
    (status, said, counterexample)
        status "proved", "disproved" (the rule disagrees with the computed values) or None (the theorem
        does not apply: ``said`` says why).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> n = sp.Symbol("n")
    >>> periodic_rule_proof(Rule(sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2)), ("n",)),
    ...                     make_game("subtraction", subtract=(1, 3, 4)))[0]
    'proved'
    >>> periodic_rule_proof(Rule(sp.Eq(sp.Mod(n, 5), 0), ("n",)), make_game("subtraction"))[:2]
    ('disproved', ['the rule disagrees with the solver at n = 4'])
    """
    theorem = game.period_theorem
    if game.dims != 1 or theorem is None:
        return None, ["not a one-heap game with a periodicity theorem"], None
    grundy = rule.target == "grundy"
    if not grundy and theorem != "subtraction":
        return None, ["the octal periodicity theorem speaks of Grundy values, not of a P rule"], None
    if rule.sequence is not None:
        periods = [(rule.preperiod, rule.period)]
    else:  # the rule's own periods, shortest first; a short one may only be its last few values (a run of N)
        periods = [(fit.start, fit.period) for fit in find_periods(_rule_values(rule, SAMPLE), arithmetic=False)]
        if not periods:
            return None, [f"the rule shows no period on heaps below {SAMPLE:,}"], None
    first = None
    for start, period in periods:
        status, said, counterexample = _periodic_proof(rule, game, values, grundy, start, period)
        if status is not None:
            return status, said, counterexample
        first = first or said
    return None, first, None


def _periodic_proof(rule, game, values, grundy: bool, start: int, period: int):
    """``periodic_rule_proof`` for the rule read as periodic with ``period`` from ``start``."""
    needed = periodicity_proof(game, start, period, [], grundy=grundy)
    if needed is None:
        return None, ["no periodicity theorem covers this game"], None
    truth, source = _truth(game, grundy, needed.needed, values)
    if truth is None:
        return None, [f"the theorem needs the values up to n = {needed.needed - 1:,}, beyond the solver's "
                      f"{SOLVE_LIMIT:,} heaps here: pass values computed by the take-and-break engine"], None
    said = _rule_values(rule, len(truth))
    wrong = np.flatnonzero(said != truth)
    if wrong.size:
        at = int(wrong[0])
        shown = (lambda v: int(v)) if grundy else (lambda v: "P" if v else "N")
        return ProofStatus.DISPROVED, [f"the rule disagrees with {source} at n = {at}"], {
            "position": (at,), "rule": shown(said[at]), "solver": shown(truth[at])}
    proof = periodicity_proof(game, start, period, truth, grundy=grundy)
    if not proof:
        return None, [proof.reason], None
    own = _own_period(rule, start, period)
    if own is None:
        return None, [proof.reason, f"the rule's own period {period} from n = {start} is not proved"], None
    return ProofStatus.PROVED, [proof.reason, own, f"the rule agrees with {source} for every n < {len(truth):,}"], None


def _truth(game, grundy: bool, needed: int, values) -> tuple[np.ndarray | None, str]:
    if values is not None and len(values) >= needed:
        return np.asarray(values, dtype=np.int64), "the take-and-break engine"
    if needed > SOLVE_LIMIT:
        return None, ""
    solution = solve(game, bound=needed - 1, grundy=grundy)
    truth = solution.grundy_table if grundy else (solution.outcome_table == -1)
    return np.asarray(truth, dtype=np.int64), "the solver"
