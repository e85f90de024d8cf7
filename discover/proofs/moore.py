"""Moore's Nim_k rules proved by Moore's theorem, its hypotheses checked by code.

Moore ("A generalization of the game called Nim", 1910): when a move removes a positive amount
from each of 1 to k heaps, a position is P iff, in every binary digit, the number of heaps with
a 1 there is divisible by k + 1.  That is ``DigitSum(k + 1, heaps) = 0`` (for k = 1, the nim-sum
``a ⊕ b ⊕ ... = 0``).  A rule is proved for every position when the game's relation is
``TakeFromSome(k)`` under normal play and the rule states exactly that condition over all the
coordinates; the z3 bit-vector certificate with a strategy proves the same for heaps below 2^64,
more slowly (minutes for 4 heaps and k = 2).
"""

from __future__ import annotations

import sympy as sp

from discover.expr.features import expand_features
from discover.expr.text import rule_text
from discover.expr.nodes import BitXor, DigitSum
from discover.expr.walker import Unsupported
from games.symbolic import Steps, TakeFromSome

__all__ = ["moore_hypotheses", "MOORE_METHOD", "is_nim"]

MOORE_METHOD = "theorem: Moore's Nim_k (every binary digit's count of ones divisible by k + 1)"


def moore_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether Moore's theorem proves ``rule`` on ``game``, and each hypothesis in words.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> game = make_game("moore", heaps=4, k=2)
    >>> moore_hypotheses(Rule(sp.Eq(sp.Symbol("dsum3_all"), 0), game.feature_names), game)[0]
    True
    >>> nim = make_game("nim", heaps=3)
    >>> moore_hypotheses(Rule(sp.Eq(sp.Symbol("xor_all"), 0), nim.feature_names), nim)[0]
    True
    """
    relation = game.move_relation()
    if is_nim(relation, game.dims):
        k, said = 1, ["the moves are Nim's, Moore's Nim_1: a positive amount from one heap (Bouton's theorem)"]
    elif isinstance(relation, TakeFromSome):
        k = relation.k
        said = [f"the moves are Moore's Nim_{k}: a positive amount from each of 1 to {k} heaps"]
    else:
        return False, ["the moves are not Moore's (a positive amount from each of 1 to k heaps)"]
    if game.misere or rule.target != "P":
        return False, said + ["the theorem is for normal play and a P rule"]
    said.append("normal play")
    coords = [sp.Symbol(n) for n in rule.feature_names]
    claimed = sp.Eq(BitXor(*coords) if k == 1 else DigitSum(k + 1, *coords), 0)
    try:
        expr = expand_features(rule.expr, rule.feature_names)
    except Unsupported:  # an order statistic: not of the theorem's form
        return False, said + [f"the rule is not of the form {rule_text(claimed, rule.feature_names)}"]
    if expr != claimed and not (isinstance(expr, sp.Eq) and sp.Eq(expr.rhs, expr.lhs, evaluate=False) == claimed):
        return False, said + [f"the rule is not of the form {rule_text(claimed, rule.feature_names)}"]
    said.append(f"the rule states exactly {rule_text(claimed, rule.feature_names)}: every binary column's count of "
                f"ones divisible by {k + 1}")
    return True, said


def is_nim(relation, dims: int) -> bool:
    """Nim's moves as steps: any amount t >= 1 along each unit vector, nothing else.

    Examples
    --------
    >>> from games import make_game
    >>> is_nim(make_game("nim", heaps=3).move_relation(), 3), is_nim(make_game("wythoff").move_relation(), 2)
    (True, False)
    """
    units = {tuple(int(i == j) for j in range(dims)) for i in range(dims)}
    return isinstance(relation, Steps) and relation.amounts is None and set(relation.vectors) == units
