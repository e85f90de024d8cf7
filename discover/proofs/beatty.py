"""Wythoff-type rules proved by theorems: complementary mex pairs and Beatty's theorem.

Wythoff (1907): the P positions of Wythoff's game (take any amount from one heap, or the same
amount from both) are the pairs {A_k, B_k}, k >= 0, with A_k = mex{A_i, B_i : i < k} and
B_k = A_k + k.  Fraenkel ("How to beat your Wythoff games' opponent on three fronts", 1982): in the
a-Wythoff game (any amount from one heap, or s, t >= 1 from both with |s - t| < a) they are the pairs
with B_k = A_k + a·k.  Two increasing sequences that partition the positive integers with
B_k - A_k = a·k are unique, and Beatty's theorem gives such a pair: A_k = ⌊kα⌋, B_k = ⌊kβ⌋ with
α, β > 1 irrational and 1/α + 1/β = 1; β = α + a forces α = (2 - a + √(a² + 4))/2 (φ for a = 1).
So a rule is proved for every position when it states exactly "a divides |a - b| and
min(a, b) = ⌊(α/a)·|a - b|⌋" for that α.  Each hypothesis is checked here by code (the moves, normal
play, the rule's form, the constants exactly in Q(√(a² + 4))), and the mex recurrence is checked on
the first pairs as a guard against a mistake in this module.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines.pairs import complementary_pairs, pairs_expression
from discover.expr.exact import Surd, exact_floor
from discover.expr.features import expand_features
from discover.expr.text import rule_text
from games.symbolic import AnyOf, Steps, TakeBoth

__all__ = ["wythoff_hypotheses", "a_wythoff_hypotheses", "fraenkel_a", "WYTHOFF_METHOD", "A_WYTHOFF_METHOD"]

WYTHOFF_METHOD = "theorem: complementary mex pairs (Wythoff) and Beatty's theorem"
A_WYTHOFF_METHOD = "theorem: complementary mex pairs (Fraenkel's a-Wythoff) and Beatty's theorem"
_MOVES = {(1, 0), (0, 1), (1, 1)}
_CHECKED_PAIRS = 2000


def fraenkel_a(relation) -> int | None:
    """The a of Fraenkel's a-Wythoff moves when ``relation`` states exactly them (1: Wythoff's), else None.

    Examples
    --------
    >>> from games.symbolic import take_from_one
    >>> fraenkel_a(Steps(((1, 0), (0, 1), (1, 1)))), fraenkel_a(AnyOf((take_from_one(2), TakeBoth(3))))
    (1, 3)
    >>> fraenkel_a(take_from_one(2)) is None
    True
    """
    members = relation.members if isinstance(relation, AnyOf) else (relation,)
    vectors, bands = set(), []
    for member in members:
        if isinstance(member, Steps) and member.amounts is None:
            vectors |= set(member.vectors)
        elif isinstance(member, TakeBoth):
            bands.append(member.a)
        else:
            return None
    if len(bands) > 1 or not {(1, 0), (0, 1)} <= vectors <= _MOVES:
        return None
    if not bands:
        return 1 if vectors == _MOVES else None
    return bands[0]  # the diagonal, when listed too, is among the band's moves (s = t)


def wythoff_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether the theorem applies to ``rule`` on ``game`` (Wythoff's own moves), and each hypothesis in words
    (checked or the first that failed).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> rule = Rule(sp.Eq(sp.Symbol("min_all"), sp.floor(sp.GoldenRatio * sp.Symbol("spread"))), ("a", "b"))
    >>> wythoff_hypotheses(rule, make_game("wythoff"))[0]
    True
    """
    relation = game.move_relation()
    if not (isinstance(relation, Steps) and relation.amounts is None and set(relation.vectors) == _MOVES):
        return False, ["the moves are not Wythoff's (any amount from one heap, or the same from both)"]
    return _pairs_hypotheses(rule, game, 1, ["the moves are Wythoff's: any amount from one heap, or the same "
                                             "amount from both"])


def a_wythoff_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether Fraenkel's theorem applies to ``rule`` on ``game`` (the a-Wythoff moves, stated with ``TakeBoth``),
    and each hypothesis in words.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> alpha = (2 - 3 + sp.sqrt(13)) / 2
    >>> rule = Rule(pairs_expression(alpha, 3, sp.Symbol("min_all"), sp.Symbol("spread")), ("a", "b"))
    >>> a_wythoff_hypotheses(rule, make_game("a_wythoff", a=3))[0]
    True
    """
    relation = game.move_relation()
    a = None if relation is None or isinstance(relation, Steps) else fraenkel_a(relation)
    if a is None:
        return False, ["the moves are not Fraenkel's a-Wythoff moves (any amount from one heap, or s, t ≥ 1 from "
                       "both with |s - t| < a)"]
    return _pairs_hypotheses(rule, game, a, [f"the moves are Fraenkel's {a}-Wythoff moves: any amount from one "
                                             f"heap, or s, t ≥ 1 from both with |s - t| < {a}"])


def _pairs_hypotheses(rule, game, c: int, said: list[str]) -> tuple[bool, list[str]]:
    """The hypotheses after the moves': normal play, the constants, the rule's form and the mex guard, for pairs
    with B_k - A_k = c·k."""
    if game.misere or rule.target != "P":
        return False, said + ["the theorem is for normal play and a P rule"]
    said.append("normal play")
    alpha = (2 - c + sp.sqrt(c * c + 4)) / 2  # the complementary constant for B_k - A_k = c·k
    a = Surd.of(alpha)  # α and β exactly, in Q(√(c² + 4))
    b = a + c
    if (1 / a + 1 / b - 1).sign() != 0 or a.rational or (a - 1).sign() <= 0:
        return False, said + ["1/α + 1/β = 1 with α, β > 1 irrational fails"]
    root = f"√{c * c + 4}"
    said.append(f"α = (2 - {c} + {root})/2 and β = α + {c} are irrational, > 1 and 1/α + 1/β = 1 (Beatty)"
                if c > 1 else "α = (1 + √5)/2 and β = α + 1 are irrational, > 1 and 1/α + 1/β = 1 (Beatty)")
    coords = [sp.Symbol(n) for n in rule.feature_names]
    claimed = pairs_expression(alpha, c, sp.Min(*coords), sp.Abs(coords[0] - coords[1]))
    if not _same_condition(expand_features(rule.expr, rule.feature_names), claimed):
        return False, said + [f"the rule is not of the form {rule_text(claimed, rule.feature_names)}"]
    k = "|a - b|" if c == 1 else f"|a - b|/{c}"
    said.append(f"the rule states exactly {rule_text(claimed, rule.feature_names)}: {{min, max}} = {{⌊kα⌋, ⌊kβ⌋}} "
                f"with k = {k}")
    if (b - a - c).sign() != 0:
        return False, said + [f"β - α = {c} fails"]
    if not _mex_recurrence_holds(alpha, c):
        return False, said + ["the mex recurrence fails on the first pairs"]
    step = "k" if c == 1 else f"{c}k"
    said.append(f"β - α = {c}, so ⌊kβ⌋ = ⌊kα⌋ + {step}; the mex recurrence holds on the first {_CHECKED_PAIRS} pairs")
    return True, said


def _same_condition(expr, claimed) -> bool:
    """The same expression, or the same equation with its sides swapped."""
    if expr == claimed:
        return True
    return isinstance(expr, sp.Eq) and isinstance(claimed, sp.Eq) and (expr.lhs, expr.rhs) == (claimed.rhs,
                                                                                               claimed.lhs)


def _mex_recurrence_holds(alpha, c: int) -> bool:
    k = np.arange(_CHECKED_PAIRS, dtype=np.int64)
    a = exact_floor(alpha, k)
    b = a + c * k
    positions = np.concatenate([np.stack([a, b], 1), np.stack([b, a], 1)])
    fit = complementary_pairs(positions, np.ones(len(positions), dtype=bool))
    return fit is not None and fit.mex and fit.c == c
