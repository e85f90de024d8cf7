"""Fibonacci Nim's rules proved by Whinihan's theorem, its hypotheses checked by code.

Whinihan ("Fibonacci Nim", Fibonacci Quarterly 1, 1963): in the game on positions (n, m), a heap n whose mover
may take 1 <= t <= m and leave the next player up to 2t, the player to move loses exactly when n = 0 or m is
below the smallest part of n's Zeckendorf representation, ``ZeckendorfLeast(n)``.  A rule is proved for every
position when the game's relation is ``GrowingTake(2)`` under normal play and the rule says the same as
"n = 0 or m < zeck(n)" for every position: z3 decides that over unbounded integers with zeck(n) replaced by an
unknown z that is 0 for n = 0 and between 1 and n otherwise (what every least part satisfies), so any spelling
the engines find (m mod zeck(n) = min(n, m), ⌊m/zeck(n)⌋ = 0, ...) is read by its meaning.  As a guard against a
mistake in this module, the statement is also checked against the outcomes the relation gives on small heaps.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.expr.features import expand_features
from discover.expr.numeric import evaluate
from discover.expr.walker import Unsupported
from discover.expr.zeckendorf import ZeckendorfLeast
from games.symbolic import GrowingTake

__all__ = ["fibonacci_nim_hypotheses", "WHINIHAN_METHOD", "whinihan_rule"]

WHINIHAN_METHOD = "theorem: Whinihan's Fibonacci Nim (P iff the amount allowed is below the heap's least " \
                  "Zeckendorf part)"
_GUARD_HEAPS = 60
_SAME_SECONDS = 10.0  # z3's budget to decide that the rule says what the theorem says (linear queries: milliseconds)


def whinihan_rule(names):
    """The theorem's P condition over the coordinates ``names`` (heap, amount allowed).

    Examples
    --------
    >>> whinihan_rule(("n", "m"))
    Eq(n, 0) | (m < ZeckendorfLeast(n))
    """
    n, m = (sp.Symbol(x) for x in names)
    return sp.Or(sp.Eq(n, 0), sp.Lt(m, ZeckendorfLeast(n)))


def fibonacci_nim_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether Whinihan's theorem proves ``rule`` on ``game``, and each hypothesis in words.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> n, m = sp.symbols("n m")
    >>> game = make_game("fibonacci_nim")
    >>> fibonacci_nim_hypotheses(Rule(sp.Eq(sp.floor(m / ZeckendorfLeast(n)), 0), ("n", "m")), game)[0]
    True
    >>> fibonacci_nim_hypotheses(Rule(sp.Lt(m, ZeckendorfLeast(n)), ("n", "m")), game)[1][-1][:45]
    'the rule differs from n = 0 or m < zeck(n) at'
    """
    relation = game.move_relation()
    if not (isinstance(relation, GrowingTake) and relation.ratio == 2):
        return False, ["the moves are not Fibonacci Nim's (take up to m, the next player up to twice that)"]
    said = ["the moves are Fibonacci Nim's: take 1 ≤ t ≤ m from the heap n, the next player may take up to 2t"]
    if game.misere or rule.target != "P":
        return False, said + ["the theorem is for normal play and a P rule"]
    said.append("normal play")
    names = tuple(rule.feature_names)
    claimed = whinihan_rule(names)
    differs = _differs(rule, names, claimed)
    if differs is not None:
        return False, said + [differs]
    said.append("the rule says n = 0 or m < zeck(n) at every position (z3, with zeck(n) any z that is 0 for n = 0 "
                "and from 1 to n otherwise)")
    if not _guard_holds(claimed, names):
        return False, said + [f"the theorem's statement fails on the heaps below {_GUARD_HEAPS} (a fault here)"]
    said.append(f"the statement agrees with the outcomes of every heap below {_GUARD_HEAPS}")
    return True, said


def _differs(rule, names, claimed) -> str | None:
    """None when z3 shows the rule equals ``claimed`` at every position, else why not (with a position where
    they differ when z3 finds one)."""
    import z3

    from discover.expr.smt import Arithmetic, SmtTranslator

    n, m = (sp.Symbol(x) for x in names)
    z = sp.Symbol("_zeck")  # no coordinate's name: they are identifiers of letters
    expr = expand_features(rule.expr, names).xreplace({ZeckendorfLeast(n): z})
    if expr.has(ZeckendorfLeast):
        return "the rule uses the least Zeckendorf part of something other than the heap"
    ar = Arithmetic()
    env = {names[0]: ar.var("n"), names[1]: ar.var("m"), z.name: ar.var("z")}
    translator = SmtTranslator(ar)
    try:
        said = translator.term(expr, env)
        theorem = translator.term(claimed.xreplace({ZeckendorfLeast(n): z}), env)
    except Unsupported as err:
        return f"the rule cannot be compared with the theorem's statement exactly: {err}"
    vn, vm, vz = env[names[0]], env[names[1]], env[z.name]
    solver = z3.Solver()
    solver.set("timeout", int(_SAME_SECONDS * 1000))
    solver.add(vn >= 0, vm >= 0, z3.If(vn == 0, vz == 0, z3.And(vz >= 1, vz <= vn)), *translator.side)
    solver.add(said != theorem)
    result = solver.check()
    if result == z3.unsat:
        return None
    text = "n = 0 or m < zeck(n)"
    if result == z3.sat:  # a witness (n, m, z); where z is not zeck(n), no position is named
        model = solver.model()
        heap, allowed = (model.eval(v, model_completion=True).as_long() for v in (vn, vm))
        where = np.array([[heap, allowed]])
        actual = evaluate(rule.expr, {names[0]: where[:, 0], names[1]: where[:, 1]}).astype(bool)[0]
        if actual != (heap == 0 or allowed < int(ZeckendorfLeast(heap))):
            return f"the rule differs from {text} at ({heap}, {allowed})"
        return f"z3 could not show that the rule says {text} (it leaves zeck(n) free)"
    return f"z3 did not decide within {_SAME_SECONDS:g} s whether the rule says {text}"


def _guard_holds(claimed, names) -> bool:
    """The statement against the outcomes ``GrowingTake(2)`` gives on every position of the heaps below
    ``_GUARD_HEAPS`` (the allowance capped at the heap, as the moves cap it)."""
    losing = np.zeros((_GUARD_HEAPS, _GUARD_HEAPS), dtype=bool)
    for n in range(_GUARD_HEAPS):
        for m in range(n + 1):
            losing[n, m] = not any(losing[n - t, min(2 * t, n - t)] for t in range(1, m + 1))
    heaps, allowed = np.nonzero(np.tri(_GUARD_HEAPS, dtype=bool))
    said = evaluate(claimed, {names[0]: heaps, names[1]: allowed}).astype(bool)
    return bool(np.array_equal(said, losing[heaps, allowed]))
