"""The Hex exploration paper's learners by name: presets of ``BoardQLearner``.

``minimax`` is plain one-step Q-learning, the paper's baseline; ``joint`` its joint-distribution
backup; ``variance`` variance-reduction exploration on the joint backup; ``pseudocount`` pseudo-count
exploration (the paper's beta = 0.0025, discount 0.95); ``solver`` the must-play region and proved
values together, as the paper ran them; ``mustplay`` and ``proofs`` each alone, the separate tests
its future work asks for.  The solver's budget is 1,000 expanded positions per move.
"""

from __future__ import annotations

from learners.exploration.learner import BoardQLearner

__all__ = ["VARIANTS", "make_variant"]

SOLVER_NODES = 1_000

VARIANTS = {
    "minimax": {},
    "joint": {"backup": "joint"},
    "variance": {"backup": "joint", "exploration": "variance"},
    "pseudocount": {"exploration": "pseudocount"},
    "solver": {"must_play": True, "solver_nodes": SOLVER_NODES},
    "mustplay": {"must_play": True},
    "proofs": {"solver_nodes": SOLVER_NODES},
}


def make_variant(name: str, random_state: int = 0, **params) -> BoardQLearner:
    """A fresh learner of the variant ``name``, with ``params`` overriding its preset.

    Examples
    --------
    >>> make_variant("variance", width=16).get_params()["exploration"]
    'variance'
    """
    if name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}: use one of {', '.join(VARIANTS)}")
    try:
        return BoardQLearner(**{**VARIANTS[name], **params, "random_state": random_state})
    except TypeError as err:
        raise ValueError(f"variant {name!r}: {err}") from None
