"""Learners by name, as the command line and the studies ask for them.

``q`` is Q-learning with a constant exploration rate (seed 001's Q agent, seed 002's
learning rate 0.45), ``qt`` the same with exploration decaying as ``0.5 exp(-1e-4 t)``
(seed 001's Q_t), ``bayes`` seed 001's quasi-Bayesian agent with discount 0.9.
"""

from __future__ import annotations

from learners.tabular.bayes import BayesLearner
from learners.tabular.q import QLearner

__all__ = ["LEARNERS", "make_learner"]

LEARNERS = {
    "q": (QLearner, {}),
    "qt": (QLearner, {"epsilon": 0.5, "eta": 1e-4}),
    "bayes": (BayesLearner, {}),
}


def make_learner(name: str, random_state: int = 0, **params):
    """A fresh learner by name, with ``params`` overriding its defaults.

    Examples
    --------
    >>> make_learner("qt", random_state=3)
    QLearner(alpha=0.45, gamma=1.0, backup='negamax', exploration='epsilon', epsilon=0.5, eta=0.0001, temperature=0.2, random_state=3)
    """
    if name not in LEARNERS:
        raise ValueError(f"unknown learner {name!r}: use one of {', '.join(LEARNERS)}")
    cls, preset = LEARNERS[name]
    try:
        return cls(**{**preset, **params, "random_state": random_state})
    except TypeError as err:
        raise ValueError(f"learner {name!r}: {err}") from None
