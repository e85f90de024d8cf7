"""Poker Nim's rule proved by the theorem of Winning Ways (reversible moves), its hypotheses checked by code.

Winning Ways (Berlekamp, Conway and Guy, ch. 2, "Poker Nim"): in Nim where a move may also put chips from the
mover's bank onto a heap (``games.symbolic.PokerMoves``: the chips taken go into the mover's bank), the player to
move loses exactly when the heaps' nim-sum is 0, whatever the banks hold.  From a nim-sum of 0 every move leaves a
non-zero one; the other player answers an addition by taking the same chips back and a removal by Nim's move, so
the nim-sum is 0 again, and each of these answers puts chips into the answering player's bank, which holds at most
every chip there is: the answers, so the play, end, and the player facing a nim-sum of 0 is the one left without a
move.  The game is loopy (an addition can be undone), so a closure certificate would not prove it; the theorem
does.  A rule is proved when the relation is ``PokerMoves`` under normal play and the rule states exactly "the xor
of every heap is 0" (x = y for two heaps).
"""

from __future__ import annotations

from discover.proofs.theorem_moves import xor_set
from games.symbolic import PokerMoves

__all__ = ["poker_nim_hypotheses", "POKER_NIM_METHOD"]

POKER_NIM_METHOD = "theorem: Poker Nim is Nim (Winning Ways: additions are reversible and the answers fill the bank)"


def poker_nim_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether the Poker Nim theorem proves ``rule`` on ``game``, and each hypothesis in words.

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> game = make_game("poker_nim", heaps=2)
    >>> poker_nim_hypotheses(Rule(sp.Eq(sp.Symbol("a"), sp.Symbol("b")), game.feature_names), game)[0]
    True
    """
    relation = game.move_relation()
    if not isinstance(relation, PokerMoves):
        return False, ["the moves are not Poker Nim's (a heap to or from the mover's bank, the banks trading places)"]
    said = ["the moves are Poker Nim's: chips from one heap into the mover's bank, or from the bank onto one heap; "
            "the banks then trade places"]
    if game.misere or rule.target != "P":
        return False, said + ["the theorem is for normal play and a P rule"]
    said.append("normal play")
    names = tuple(rule.feature_names)
    heaps = {str(x) for x in names[:relation.heaps]}
    found = xor_set(rule, names)
    if found is None or {str(x) for x in found} != heaps:
        return False, said + ["the rule does not state that the xor of every heap is 0"]
    said.append("the rule states that the xor of every heap is 0, the banks left out")
    return True, said
