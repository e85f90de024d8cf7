"""The perfect player of Nim where the solver cannot enumerate the board: Bouton's theorem, proved for the game.

Bouton ("Nim, a game with a complete mathematical theory") proved that a Nim position is lost for the player to
move exactly when the xor of its heaps (the nim-sum) is 0. ``BoutonReferee`` states that rule over the game's own
derived feature (``xor_all``, ``discover.expr.features``) and has the prover prove it for every position of the
game (``discover.proofs.prove.prove_rule``: Moore's theorem for Nim_1, its hypotheses checked on the game's moves)
before it judges anything; a game it does not prove is refused. Its ``outcome`` then plays the part of a
solver's (``learners.alphazero.sampled``, ``learners.alphazero.play.OptimalMover``). It is the scorer's truth
only: the rule that guides the learner is discovered from the learner's own table (``discover.app.experiments.parity``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BoutonReferee"]


class BoutonReferee:
    """Nim's outcome by Bouton's theorem, once proved for ``game`` (a ValueError when it is not).

    Examples
    --------
    >>> from games import make_game
    >>> referee = BoutonReferee(make_game("nim", heaps=8))
    >>> referee.outcome([[1, 2, 3, 0, 0, 0, 0, 0], [1, 2, 4, 0, 0, 0, 0, 0]]).tolist(), referee.proof.status
    ([-1, 1], 'proved')
    """

    name = "Bouton's theorem (a position is lost for the player to move exactly when its nim-sum is 0)"

    def __init__(self, game):
        import sympy as sp

        from discover.proofs.prove import prove_rule
        from discover.rule import Rule

        spec = game.spec()
        if spec["name"] != "nim" or spec["params"].get("misere"):
            raise ValueError(f"Bouton's theorem judges Nim in normal play, not {game!r}: use nim heaps=N")
        self.game = game
        self.rule = Rule(sp.Eq(sp.Symbol("xor_all"), 0), game.feature_names)
        self.proof = prove_rule(self.rule, game, methods=("theorem",))
        if self.proof.status != "proved":
            raise ValueError(f"the prover did not prove {self.rule.text()} on {game!r} ({self.proof.line()}): "
                             "it cannot referee this game")

    def outcome(self, positions) -> np.ndarray:
        """1 where the player to move wins (nim-sum not 0), -1 where it loses, per row of ``positions``."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        return np.where(np.bitwise_xor.reduce(positions, axis=1) != 0, 1, -1).astype(np.int8)

    def __repr__(self) -> str:
        return f"BoutonReferee({self.game!r})"
