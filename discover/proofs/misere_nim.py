"""Misère Nim's rule proved by Bouton's theorem for misère play, its hypotheses checked by code.

Bouton ("Nim, a game with a complete mathematical theory", 1901), in misère play (the player who takes the last
token loses, so a position with no move is a win for its player to move): the player to move loses iff either
every heap has at most one token and the nim-sum is 1 (an odd number of heaps of one), or some heap has at least
two tokens and the nim-sum is 0.  A rule is proved for every position, on any number of heaps, when the game's
relation is Nim's (``discover.proofs.moore.is_nim``) in misère play and the rule, as a decision list, states
exactly that: "if max ≤ 1: a ⊕ b ⊕ ... = 1; otherwise a ⊕ b ⊕ ... = 0", compared in its canonical form
(``discover.proofs.decision_form``), never by its text.  The theorem itself is checked against an exact search
on a small box as a guard against a mistake in this module.
"""

from __future__ import annotations

import itertools

import sympy as sp

from discover.expr.features import expand_features
from discover.expr.nodes import BitXor
from discover.expr.text import rule_text
from discover.expr.walker import Unsupported
from discover.proofs.decision_form import decision_form
from discover.proofs.moore import is_nim

__all__ = ["misere_nim_hypotheses", "MISERE_NIM_METHOD"]

MISERE_NIM_METHOD = "theorem: Bouton's theorem for misère Nim"
_CHECKED_POSITIONS = 5000  # the exact search's box: the largest bound whose box has at most this many positions


def misere_nim_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether Bouton's theorem for misère Nim proves ``rule`` on ``game``, and each hypothesis in words (checked,
    or the first that failed).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> S = sp.Symbol
    >>> rule = Rule(sp.Piecewise((sp.Eq(S("xor_all"), 1), S("max_all") <= 1), (sp.Eq(S("xor_all"), 0), True)),
    ...             ("a", "b", "c"))
    >>> misere_nim_hypotheses(rule, make_game("nim", heaps=3, misere=True))[0]
    True
    >>> misere_nim_hypotheses(rule, make_game("nim", heaps=3))[0]
    False
    """
    if not is_nim(game.move_relation(), game.dims):
        return False, ["the moves are not Nim's (a positive amount from one heap)"]
    said = ["the moves are Nim's: a positive amount from one heap"]
    if not game.misere or game.terminal_outcome() != 1 or rule.target != "P":
        return False, said + ["the theorem is for misère play (a position with no move is a win) and a P rule"]
    said.append("misère play: a position with no move is a win for its player to move")
    heaps = [sp.Symbol(n) for n in rule.feature_names]
    nim_sum = BitXor(*heaps)
    claimed = sp.Piecewise((sp.Eq(nim_sum, 1), sp.Max(*heaps) <= 1), (sp.Eq(nim_sum, 0), True))
    try:
        expr = expand_features(rule.expr, rule.feature_names)
    except Unsupported:
        expr = None
    if len(heaps) < 2 or decision_form(expr) != decision_form(claimed):
        return False, said + [f"the rule is not of the form {rule_text(claimed, rule.feature_names)}"]
    said.append(f"the rule states exactly {rule_text(claimed, rule.feature_names)}: every heap at most 1 and an odd "
                "number of heaps of one, or a heap of at least 2 and nim-sum 0")
    bound = 1
    while (bound + 2) ** len(heaps) <= _CHECKED_POSITIONS:
        bound += 1
    if not _search_agrees(len(heaps), bound):
        return False, said + [f"the theorem disagrees with an exact search on {len(heaps)} heaps up to {bound}"]
    said.append(f"the theorem agrees with an exact search on every position of {len(heaps)} heaps up to {bound}")
    return True, said


def _search_agrees(heaps: int, bound: int) -> bool:
    """Bouton's misère P positions equal an exact search's on every position of ``heaps`` heaps up to ``bound``."""
    lost = {}  # position -> whether its player to move loses
    for position in sorted(itertools.product(range(bound + 1), repeat=heaps), key=sum):
        options = [position[:i] + (x,) + position[i + 1:] for i, h in enumerate(position) for x in range(h)]
        lost[position] = bool(options) and not any(lost[o] for o in options)
    for position, loses in lost.items():
        nim_sum = 0
        for h in position:
            nim_sum ^= h
        if loses != (nim_sum == 1 if max(position) <= 1 else nim_sum == 0):
            return False
    return True
