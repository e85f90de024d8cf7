"""Wythoff-type rules proved by theorems: complementary mex pairs and Beatty's theorem.

Wythoff (1907): the P positions of Wythoff's game (take any amount from one heap, or the same
amount from both) are the pairs {A_k, B_k}, k >= 0, with A_k = mex{A_i, B_i : i < k} and
B_k = A_k + k.  Two increasing sequences that partition the positive integers with B_k - A_k = k
are unique, and Beatty's theorem gives such a pair: A_k = ⌊kα⌋, B_k = ⌊kβ⌋ with α, β > 1
irrational and 1/α + 1/β = 1; β = α + 1 forces α = φ.  So a rule is proved for every position
when it states exactly "min(a, b) = ⌊α·|a - b|⌋" for that α.  Each hypothesis is checked here by
code (the moves, normal play, the rule's form, the constants exactly in Q(√5)), and the mex
recurrence is checked on the first pairs as a guard against a mistake in this module.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines.pairs import complementary_pairs, pairs_expression
from discover.expr.exact import Surd, exact_floor
from discover.expr.features import expand_features
from discover.expr.text import rule_text
from games.symbolic import Steps

__all__ = ["wythoff_hypotheses", "WYTHOFF_METHOD"]

WYTHOFF_METHOD = "theorem: complementary mex pairs (Wythoff) and Beatty's theorem"
_MOVES = {(1, 0), (0, 1), (1, 1)}
_CHECKED_PAIRS = 2000


def wythoff_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether the theorem applies to ``rule`` on ``game``, and each hypothesis in words (checked or
    the first that failed).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> rule = Rule(sp.Eq(sp.Symbol("min_all"), sp.floor(sp.GoldenRatio * sp.Symbol("spread"))), ("a", "b"))
    >>> wythoff_hypotheses(rule, make_game("wythoff"))[0]
    True
    """
    relation = game.move_relation()
    said = []
    if not (isinstance(relation, Steps) and relation.amounts is None and set(relation.vectors) == _MOVES):
        return False, ["the moves are not Wythoff's (any amount from one heap, or the same from both)"]
    said.append("the moves are Wythoff's: any amount from one heap, or the same amount from both")
    if game.misere or rule.target != "P":
        return False, said + ["the theorem is for normal play and a P rule"]
    said.append("normal play")
    alpha = (2 - 1 + sp.sqrt(1 + 4)) / 2  # the complementary constant for B_k - A_k = k
    a = Surd.of(alpha)  # α and β exactly, in Q(√5)
    b = a + 1
    if (1 / a + 1 / b - 1).sign() != 0 or a.rational or (a - 1).sign() <= 0:
        return False, said + ["1/α + 1/β = 1 with α, β > 1 irrational fails"]
    said.append("α = (1 + √5)/2 and β = α + 1 are irrational, > 1 and 1/α + 1/β = 1 (Beatty)")
    coords = [sp.Symbol(n) for n in rule.feature_names]
    claimed = pairs_expression(alpha, 1, sp.Min(*coords), sp.Abs(coords[0] - coords[1]))
    if not _same_condition(expand_features(rule.expr, rule.feature_names), claimed):
        return False, said + [f"the rule is not of the form {rule_text(claimed, rule.feature_names)}"]
    said.append(f"the rule states exactly {rule_text(claimed, rule.feature_names)}: {{min, max}} = {{⌊kα⌋, ⌊kβ⌋}} with k = |a - b|")
    if (b - a - 1).sign() != 0:
        return False, said + ["β - α = 1 fails"]
    if not _mex_recurrence_holds(alpha):
        return False, said + ["the mex recurrence fails on the first pairs"]
    said.append(f"β - α = 1, so ⌊kβ⌋ = ⌊kα⌋ + k; the mex recurrence holds on the first {_CHECKED_PAIRS} pairs")
    return True, said


def _same_condition(expr, claimed) -> bool:
    if expr == claimed:
        return True
    if isinstance(expr, sp.Eq) and isinstance(claimed, sp.Eq):
        return sp.Eq(expr.rhs, expr.lhs, evaluate=False) == claimed or \
            (expr.lhs == claimed.rhs and expr.rhs == claimed.lhs)
    return False


def _mex_recurrence_holds(alpha) -> bool:
    k = np.arange(_CHECKED_PAIRS, dtype=np.int64)
    a = exact_floor(alpha, k)
    b = a + k
    positions = np.concatenate([np.stack([a, b], 1), np.stack([b, a], 1)])
    fit = complementary_pairs(positions, np.ones(len(positions), dtype=bool))
    return fit is not None and fit.mex and fit.c == 1
