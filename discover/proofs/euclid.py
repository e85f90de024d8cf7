"""Euclid's game proved by Cole and Davie's theorem, its hypotheses checked by code.

Cole and Davie ("A game based on the Euclidean algorithm and a winning strategy for it", 1969): two
players alternately subtract a positive multiple of the smaller of two positive integers from the larger,
staying non-negative, and the player who makes a number zero wins.  With a, b > 0, the player to move
wins iff a = b or max(a, b)/min(a, b) > φ, φ = (1 + √5)/2.  A position with a zero coordinate has no move
(its player to move has lost), so the P positions are exactly: a zero coordinate, or a ≠ b with
max(a, b) < φ·min(a, b).  φ is irrational, so φ·m is not an integer for m ≥ 1 and, for integers,
max(a, b) < φ·min(a, b) iff max(a, b) ≤ ⌊φ·min(a, b)⌋.  A rule is proved for every position when the game's
relation is ``EuclidMultiples`` under normal play and the rule, as a decision list, states exactly that:
P when min(a, b) = 0, else N when a = b, else max(a, b) ≤ ⌊φ·min(a, b)⌋ (or max(a, b) < φ·min(a, b)).
The decision list is compared in its canonical form (``discover.proofs.decision_form``: an equation's sides
in either order, |a - b| = 0 as a = b, a final "if a ≠ b: X; otherwise False" as "if a = b: False; otherwise
X"), never by its text; the theorem itself is checked against an exact search on a small box as a guard
against a mistake in this module.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.expr.exact import exact_floor
from discover.expr.features import expand_features
from discover.expr.text import rule_text
from discover.expr.walker import Unsupported
from discover.proofs.decision_form import decision_form
from games.symbolic import EuclidMultiples

__all__ = ["euclid_hypotheses", "EUCLID_METHOD"]

EUCLID_METHOD = "theorem: Cole and Davie's theorem on Euclid's game"
_CHECKED_BOX = 60  # the exact search's box: every (a, b) with coordinates up to this


def euclid_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether Cole and Davie's theorem proves ``rule`` on ``game``, and each hypothesis in words (checked, or
    the first that failed).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> S = sp.Symbol
    >>> rule = Rule(sp.Piecewise((True, sp.Eq(S("min_all"), 0)), (False, sp.Eq(S("spread"), 0)),
    ...                          (S("max_all") <= sp.floor(sp.GoldenRatio * S("min_all")), True)), ("a", "b"))
    >>> euclid_hypotheses(rule, make_game("euclid"))[0]
    True
    >>> euclid_hypotheses(rule, make_game("wythoff"))[0]
    False
    """
    if not isinstance(game.move_relation(), EuclidMultiples):
        return False, ["the moves are not Euclid's (a positive multiple of the smaller coordinate from the larger)"]
    said = ["the moves are Euclid's: a positive multiple of the smaller coordinate from the larger"]
    if game.misere or game.terminal_outcome() != -1 or rule.target != "P":
        return False, said + ["the theorem is for normal play (a zero coordinate ends the game, its mover has "
                              "lost) and a P rule"]
    said.append("normal play: a position with a zero coordinate has no move")
    phi = sp.GoldenRatio
    if phi.is_rational is not False or sp.simplify(phi**2 - phi - 1) != 0:
        return False, said + ["φ is not an irrational root of x² = x + 1"]
    a, b = (sp.Symbol(n) for n in rule.feature_names)
    low, high = sp.Min(a, b), sp.Max(a, b)
    claimed = sp.Piecewise((True, sp.Eq(low, 0)), (False, sp.Eq(a, b)), (high <= sp.floor(phi * low), True))
    form = f"the rule is not of the form {rule_text(claimed, rule.feature_names)}"
    try:
        expr = expand_features(rule.expr, rule.feature_names)
    except Unsupported:
        return False, said + [form]
    strict = sp.Piecewise((True, sp.Eq(low, 0)), (False, sp.Eq(a, b)), (high < phi * low, True))
    if decision_form(expr) not in (decision_form(claimed), decision_form(strict)):
        return False, said + [form]
    said.append(f"the rule states exactly {rule_text(claimed, rule.feature_names)}; φ is irrational, so for "
                f"min(a, b) ≥ 1 that is max(a, b)/min(a, b) < φ")
    if not _search_agrees(_CHECKED_BOX):
        return False, said + [f"the theorem disagrees with an exact search on the box up to {_CHECKED_BOX}"]
    said.append(f"the theorem agrees with an exact search on every position up to {_CHECKED_BOX}")
    return True, said


def _search_agrees(box: int) -> bool:
    """Cole and Davie's P positions equal an exact retrograde search's on every (a, b) up to ``box``."""
    lost = np.zeros((box + 1, box + 1), dtype=bool)  # lost[a, b]: the player to move loses
    for total in range(2 * box + 1):
        for a in range(max(0, total - box), min(box, total) + 1):
            b = total - a
            if a == 0 or b == 0:
                lost[a, b] = True
                continue
            options = [(a - t * b, b) for t in range(1, a // b + 1)] + [(a, b - t * a) for t in range(1, b // a + 1)]
            lost[a, b] = not any(lost[x, y] for x, y in options)
    a, b = np.indices(lost.shape).reshape(2, -1)
    low, high = np.minimum(a, b), np.maximum(a, b)
    theorem = (low == 0) | ((a != b) & (high <= exact_floor(sp.GoldenRatio, low)))
    return bool(np.array_equal(theorem, lost.ravel()))
