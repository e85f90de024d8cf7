"""Plain forms: a verified rule restated in its simplest exactly-equal form before it is printed or proved.

A rule fitted to a learned (noisy) table may come out in an odd but equivalent form, such as
``(3·n) mod 11 ≤ 3`` for the P positions ``n mod 11 ∈ {0, 1, 4, 8}`` of the subtraction game {2, 5, 6}.
``plain_form`` refits engines on the rule's own labels over the training universe, adds the candidates
already ranked, and keeps the plainest one that agrees with the rule on every position of the verification
bound.  Plainer means, in order: fewer scaled terms (an integer multiple such as 3·n), then fewer nodes.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines import make_engine
from discover.rule import Rule
from discover.table import build_table

__all__ = ["plain_form", "plainness", "PLAIN_ENGINES"]

PLAIN_ENGINES = ("sequence", "decision_list")  # the cheap engines whose forms read plainest
CHUNK = 1 << 20


def plainness(rule: Rule) -> tuple[int, int]:
    """(scaled terms, nodes): the smaller, the plainer.

    Examples
    --------
    >>> n = sp.Symbol("n")
    >>> plainness(Rule(sp.Le(sp.Mod(3 * n, 11), 3), ("n",))), plainness(Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",)))
    ((1, 7), (0, 5))
    """
    scaled = sum(1 for e in sp.preorder_traversal(rule.expr) if isinstance(e, sp.Mul)
                 and any(f.is_Rational and abs(f) != 1 for f in e.args))
    return scaled, rule.complexity


def _same_everywhere(a: Rule, b: Rule, universe) -> bool:
    for lo in range(0, universe.size, CHUNK):
        positions = universe.positions(np.arange(lo, min(lo + CHUNK, universe.size)))
        if not np.array_equal(a.values(positions), b.values(positions)):
            return False
    return True


def plain_form(rule: Rule, game, bound: int, train_bound: int, seed: int = 0, engines=PLAIN_ENGINES,
               candidates=()) -> Rule:
    """The plainest rule equal to ``rule`` on every position of ``game.universe(bound)`` (``rule`` itself when
    none is plainer).

    Parameters
    ----------
    rule : Rule
        A verified rule (a periodic table is returned as it is).
    game : Game
    bound : int
        The verification bound: a plain form must agree with the rule on every position up to it.
    train_bound : int
        The universe whose labels (the rule's own) the engines are refitted on; one-heap games are refitted
        on the verification bound's, where a long period shows.
    engines : tuple of str
        Engines to refit (none: only ``candidates`` are considered).
    candidates : list of Rule
        Rules already fitted on the same labels (the search's ranked candidates).

    Examples
    --------
    >>> from games import make_game
    >>> n = sp.Symbol("n")
    >>> plain_form(Rule(sp.Le(sp.Mod(3 * n, 11), 3), ("n",)), make_game("subtraction", subtract=(2, 5, 6)),
    ...            300, 30).text()
    'n mod 11 ∈ {0, 1, 4, 8}'
    """
    if rule.sequence is not None:
        return rule
    pool = [c for c in candidates if c.target == rule.target and c.sequence is None]
    if engines:
        positions = game.universe(bound if game.dims == 1 else train_bound).positions()
        values = rule.values(positions)
        grundy = rule.target == "grundy"
        table = build_table(game, positions, values == 0 if grundy else values.astype(bool),
                            values.astype(np.int64) if grundy else None)
        for name in engines:
            engine = make_engine(name, seed).fit(table.X, table.y(rule.target), feature_names=table.feature_names,
                                                 target=rule.target)
            pool += [Rule(c.expr, rule.feature_names, rule.target, rule.train_accuracy,
                          {**rule.provenance, "engine": c.engine, "plain_form_of": rule.text()}, c.words)
                     for c in engine.candidates_ if c.accuracy >= 1.0]
    universe = game.universe(bound)
    for candidate in sorted(pool, key=plainness):
        if plainness(candidate) >= plainness(rule):
            break
        if _same_everywhere(candidate, rule, universe):
            return candidate
    return rule
