"""A one-heap rule proved for every heap size by a periodicity theorem, each step checked by code.

For a game that declares a periodicity theorem (``game.period_theorem``: octal and hexadecimal games, Guy and
Smith; subtraction games, a repeated window of max(S) values), a rule R (Grundy values, or P positions of a
subtraction game) holds for every heap size n when

1. the game's values (computed by search: the solver's, or the take-and-break engine's) repeat with period p
   from n0 over the range the theorem asks for, so by the theorem they repeat for every n >= n0;
2. R itself repeats with period p from n0 for every n (a periodic table by construction; an expression
   proved so by z3 in unbounded integers: no n >= n0 with R(n + p) != R(n));
3. R agrees with the game's values for every n < n0 + p (in fact on every computed value).

A disagreement in 3 disproves the rule, with the heap as counterexample.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
import z3

from discover.engines.periodic import find_periods
from discover.proofs.periodicity import periodicity_proof
from discover.proofs.smt import Arithmetic, SmtTranslator, Unsupported
from solvers import solve

__all__ = ["periodic_rule_proof", "PERIODIC_METHODS"]

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
        start, period = rule.preperiod, rule.period
    else:
        fits = find_periods(_rule_values(rule, SAMPLE), arithmetic=False)
        if not fits:
            return None, [f"the rule shows no period on heaps below {SAMPLE:,}"], None
        start, period = fits[0].start, fits[0].period
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
        return "disproved", [f"the rule disagrees with {source} at n = {at}"], {
            "position": (at,), "rule": shown(said[at]), "solver": shown(truth[at])}
    proof = periodicity_proof(game, start, period, truth, grundy=grundy)
    if not proof:
        return None, [proof.reason], None
    own = _own_period(rule, start, period)
    if own is None:
        return None, [proof.reason, f"the rule's own period {period} from n = {start} is not proved"], None
    return "proved", [proof.reason, own, f"the rule agrees with {source} for every n < {len(truth):,}"], None


def _truth(game, grundy: bool, needed: int, values) -> tuple[np.ndarray | None, str]:
    if values is not None and len(values) >= needed:
        return np.asarray(values, dtype=np.int64), "the take-and-break engine"
    if needed > SOLVE_LIMIT:
        return None, ""
    solution = solve(game, bound=needed - 1, grundy=grundy)
    truth = solution.grundy_table if grundy else (solution.outcome_table == -1)
    return np.asarray(truth, dtype=np.int64), "the solver"
