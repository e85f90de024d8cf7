"""How far a rule's general statement reaches: proved, verified on other numbers of heaps, or a conjecture.

A rule written only with derived features (``discover.expr.features``: the xor, the spread or the digit
sums of all coordinates) reads as a statement about any number of heaps ("[the xor of all
coordinates] = 0").  Found and verified on one number of heaps, that reading is a conjecture until
more is known.  ``general_claim`` says which it is:

- "proved": a theorem covers every number of heaps (Moore's theorem for Nim_k, Bouton's for Nim,
  when the proof of this game came from it);
- "verified": the same statement agrees with the solver on every other number of heaps tried
  (2 up to two more than the game's own, each on a small box), still a conjecture beyond them;
- "refuted": some other number of heaps has a position where the statement and the solver differ
  (``counterexample`` names it);
- "conjecture": no other number of heaps could be tried (the family takes no ``heaps`` parameter,
  a custom game): checked on the game's own number of heaps only.

A game of two coordinates whose family has no number of heaps (Wythoff, Euclid, two-row Chomp) gets no
such reading at all: its rule is about its two coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from discover.expr.features import DERIVED
from discover.expr.text import general_text
from discover.proofs.misere_nim import MISERE_NIM_METHOD
from discover.proofs.moore import MOORE_METHOD
from discover.verdicts import ClaimStatus, ProofStatus
from discover.verify import rule_values

__all__ = ["GeneralClaim", "general_claim"]

MORE_HEAPS = 2  # other numbers of heaps tried above the game's own (every number from 2 below it)
POSITIONS = 20_000  # largest universe solved for another number of heaps
LARGEST_BOUND = 30  # largest box side tried for another number of heaps


@dataclass
class GeneralClaim:
    """A rule stated for any number of heaps, and the evidence for that reading.

    ``text`` is the statement, ``status`` a ``ClaimStatus`` (proved, verified, refuted, conjecture),
    ``evidence`` what was proved or checked, ``counterexample`` the position that refutes it.
    """

    text: str
    status: ClaimStatus
    evidence: str
    counterexample: dict | None = None

    def __post_init__(self):
        try:
            self.status = ClaimStatus(self.status)
        except ValueError:
            raise ValueError(f"status must be one of {[s.value for s in ClaimStatus]}, got {self.status!r}") from None

    def line(self) -> str:
        """One line saying the statement and how far it is known to hold.

        Examples
        --------
        >>> GeneralClaim("[the xor of all coordinates] = 0", "conjecture", "checked on 3 heaps only").line()
        'conjecture for any number of heaps (checked on 3 heaps only): [the xor of all coordinates] = 0'
        """
        if self.status == ClaimStatus.PROVED:
            return f"for any number of heaps: {self.text} (proved: {self.evidence})"
        if self.status == ClaimStatus.VERIFIED:
            return f"for any number of heaps: {self.text} ({self.evidence})"
        if self.status == ClaimStatus.REFUTED:
            return f"not for any number of heaps: {self.text} ({self.evidence})"
        return f"conjecture for any number of heaps ({self.evidence}): {self.text}"

    def to_record(self) -> dict:
        return {"text": self.text, "status": self.status, "evidence": self.evidence,
                "counterexample": self.counterexample}


def _count_param(game) -> str | None:
    """The family parameter that sets the number of heaps (``heaps``), when it equals the game's coordinates."""
    spec = game.spec()
    if spec.get("custom"):
        return None
    return "heaps" if spec.get("params", {}).get("heaps") == game.dims else None


def _other_game(game, param: str, heaps: int):
    from games import make_game

    params = {k: tuple(v) if isinstance(v, list) else v for k, v in game.spec()["params"].items()}
    try:
        return make_game(game.spec()["name"], **{**params, param: heaps})
    except ValueError:  # the family refuses this number of heaps (Moore's Nim_k needs more than k)
        return None


def _box_bound(game) -> int:
    bound = LARGEST_BOUND
    while bound > 1 and game.universe(bound).size > POSITIONS:
        bound -= 1
    return bound


def _heaps(counts: list[int]) -> str:
    words = [str(c) for c in counts]
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
    return f"{listed} heap" + ("" if counts == [1] else "s")


def general_claim(rule, game, proof=None) -> GeneralClaim | None:
    """The rule read for any number of heaps, with its evidence; None when the rule has no such reading.

    Parameters
    ----------
    rule : Rule
        A verified rule of ``game``.
    game : Game
    proof : Proof, optional
        The rule's proof on ``game`` (``discover.proofs.prove.prove_rule``): Moore's theorem and Bouton's theorem for
        misère Nim cover every number of heaps.

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> game = make_game("moore", heaps=3, k=2)
    >>> claim = general_claim(Rule(sp.Eq(sp.Symbol("spread"), 0), game.feature_names), game)
    >>> claim.status, claim.counterexample["heaps"], claim.counterexample["position"]
    ('refuted', 2, (1, 1))
    """
    text = general_text(rule.expr, rule.target) if rule.expr is not None else None
    if text is None or game.dims < 2:
        return None
    theorem = proof is not None and proof.status == ProofStatus.PROVED and not proof.rests_on  # not a relation's
    if theorem and proof.method == MOORE_METHOD:
        return GeneralClaim(text, ClaimStatus.PROVED, "Moore's theorem (Bouton's for Nim) holds for every number of heaps")
    if theorem and proof.method == MISERE_NIM_METHOD:
        return GeneralClaim(text, ClaimStatus.PROVED, "Bouton's theorem for misère Nim holds for every number of heaps")
    own = f"checked on {game.dims} heaps only"
    param = _count_param(game)
    if param is None and game.dims == 2:  # Wythoff, Euclid, 2-row Chomp: a game of two coordinates, no more
        return None
    if param is None:
        return GeneralClaim(text, ClaimStatus.CONJECTURE, f"{own}: {game!r} has no number-of-heaps parameter to vary")
    needed = max(DERIVED[s.name].min_dims for s in rule.expr.free_symbols)
    checked = []
    for heaps in range(max(2, needed), game.dims + MORE_HEAPS + 1):
        other = _other_game(game, param, heaps) if heaps != game.dims else None
        if other is None:
            continue
        bound = _box_bound(other)
        wrong = _first_disagreement(rule, other, bound)
        if wrong is not None:
            position, said, true = wrong
            return GeneralClaim(text, ClaimStatus.REFUTED, f"on {heaps} heaps, {position} is {true} but the statement says "
                                                 f"{said}", {"heaps": heaps, "position": position,
                                                            "rule": said, "solver": true})
        checked.append((heaps, bound))
    if not checked:
        return GeneralClaim(text, ClaimStatus.CONJECTURE, f"{own}: {game.spec()['name']} takes no other number of heaps here")
    bounds = sorted({b for _, b in checked})
    up_to = f"up to bound {bounds[0]}" if len(bounds) == 1 else f"up to bounds {bounds[0]} to {bounds[-1]}"
    return GeneralClaim(text, ClaimStatus.VERIFIED, f"verified on {_heaps([h for h, _ in checked])} {up_to} besides "
                                          f"{game.dims}, not proved")


def _first_disagreement(rule, game, bound: int):
    """The first position of ``game.universe(bound)`` where the rule and the solver differ, or None."""
    from solvers import solve

    grundy = rule.target == "grundy"
    solution = solve(game, bound=bound, grundy=grundy)
    values = rule_values(rule, solution.universe)
    truth = solution.grundy_table if grundy else solution.outcome_table == -1
    wrong = np.flatnonzero(values != truth)
    if wrong.size == 0:
        return None
    i = int(wrong[0])
    position = tuple(int(x) for x in solution.universe.positions([i])[0])
    if grundy:
        return position, int(values[i]), int(truth[i])
    return position, "P" if values[i] else "N", "P" if truth[i] else "N"
