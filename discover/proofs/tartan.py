"""Turning Corners' Grundy rule proved by the Tartan theorem, its hypotheses checked by code.

Winning Ways (Berlekamp, Conway and Guy, ch. 14, "Tartan theorem"): in the product of two coin-turning games, whose
moves turn the coins of a product of a move of each, a coin (x, y) has the nim-product G1(x) ⊗ G2(y) of the
factors' Grundy values.  Turning Corners (``games.symbolic.CornerTurns``: a coin goes to the three other corners of a
rectangle below and left of it) is the product of two copies of Twins, whose move turns two coins x' < x (the coin
at x from heads), so G(x) = mex{x' : x' < x} = x; hence G(x, y) = x ⊗ y.  A Grundy rule is proved when the relation
is ``CornerTurns`` (an option the sum of three coins), the game's moves agree with it (``prove_rule`` checks them,
``discover.proofs.agreement``), play is normal and the rule states exactly the nim-product of the two coordinates;
as a guard against a mistake here, the values are also checked by the mex rule over the relation's options on a
small grid.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.expr.features import expand_features
from discover.expr.nimber import NimProduct, nim_product
from games.symbolic import CornerTurns

__all__ = ["tartan_hypotheses", "TARTAN_METHOD"]

TARTAN_METHOD = "theorem: the Tartan theorem (Turning Corners is Twins × Twins: G(x, y) = x ⊗ y)"
_GUARD = 16  # the grid of the mex guard: coins below (16, 16)


def tartan_hypotheses(rule, game) -> tuple[bool, list[str]]:
    """Whether the Tartan theorem proves the Grundy rule ``rule`` on ``game``, and each hypothesis in words.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> a, b = sp.symbols("a b")
    >>> tartan_hypotheses(Rule(NimProduct(a, b), ("a", "b"), target="grundy"), make_game("turning_corners"))[0]
    True
    """
    if not isinstance(game.move_relation(), CornerTurns) or (game.dims, game.parts) != (2, 3):
        return False, ["the moves are not Turning Corners' (a coin to the sum of the three other corners of a "
                       "rectangle)"]
    said = ["the moves are Turning Corners': a coin (x, y) goes to the coins (x', y), (x, y'), (x', y'), x' < x, "
            "y' < y"]
    if game.misere or rule.target != "grundy":
        return False, said + ["the theorem gives the Grundy values of normal play"]
    said.append("normal play, a rule for the Grundy values")
    x, y = (sp.Symbol(n) for n in rule.feature_names)
    if expand_features(rule.expr, rule.feature_names) not in (NimProduct(x, y), NimProduct(y, x)):
        return False, said + [f"the rule does not state G = {x} ⊗ {y}"]
    said.append(f"the rule states G = {x} ⊗ {y}: Twins' values (G(x) = x) multiplied (Tartan theorem)")
    if not _guard_holds():
        return False, said + [f"the mex rule disagrees with x ⊗ y below ({_GUARD}, {_GUARD}) (a fault here)"]
    said.append(f"the mex rule over the options gives x ⊗ y for every coin below ({_GUARD}, {_GUARD})")
    return True, said


def _guard_holds() -> bool:
    grundy = np.zeros((_GUARD, _GUARD), dtype=np.int64)
    for x in range(_GUARD):
        for y in range(_GUARD):
            seen = {int(grundy[u, y] ^ grundy[x, v] ^ grundy[u, v]) for u in range(x) for v in range(y)}
            grundy[x, y] = next(g for g in range(len(seen) + 1) if g not in seen)
    x, y = np.indices((_GUARD, _GUARD))
    return bool(np.array_equal(grundy, nim_product(x, y)))
