"""The Nim study's quasi-Bayesian agent: a normal-gamma belief about the value of every move.

The value of a move is ``V ~ N(mu, 1/tau)`` with ``mu ~ N(m, 1/nu)`` and
``tau ~ Gamma(shape, rate)``; the agent samples ``V`` for each legal move and plays the
largest (on-policy, so exploration fades move by move as beliefs sharpen).  After a game
of ``T`` own moves ending in reward ``r = +-1``, the move ``k`` moves before the end is updated
with ``r' = d^k r`` by the conjugate rules (2)-(3) of the paper:
``m <- (m nu + r') / (nu + 1)``, ``nu <- nu + 1``, ``shape <- shape + 1/2``,
``rate <- rate + nu (r' - m)^2 / (2 (nu + 1))``.  (The paper prints the new variance of
``mu`` as "nu^-1 + 1" and adds 1/2 to the rate; read as the standard conjugate update, as
here, the precision grows with every update, which is what the paper says it does.)
"""

from __future__ import annotations

import numpy as np

from learners.episodes import BAYES, HYPER
from learners.tabular.learner import TabularLearner
from learners.value_table import MAX_EPISODES

__all__ = ["BayesLearner"]


class BayesLearner(TabularLearner):
    """The quasi-Bayesian agent.

    Parameters
    ----------
    discount : float
        ``d`` in (0, 1]: the reward ``k`` moves before the end counts ``d^k``.
    prior_mean, prior_precision : float
        ``mu ~ N(prior_mean, 1 / prior_precision)`` before any game (the paper: N(0, 1/2)).
    prior_shape, prior_rate : float
        ``tau ~ Gamma(prior_shape, prior_rate)`` before any game (the paper: Gamma(1/2, 1)).
    random_state : int

    Examples
    --------
    >>> from games import make_game
    >>> b = BayesLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=3000)
    >>> b.history_[-1]["deviations"]
    0
    """

    kind = BAYES
    rows = 5
    name = "bayes"

    def __init__(self, *, discount: float = 0.9, prior_mean: float = 0.0, prior_precision: float = 2.0,
                 prior_shape: float = 0.5, prior_rate: float = 1.0, random_state: int = 0):
        self.discount = discount
        self.prior_mean = prior_mean
        self.prior_precision = prior_precision
        self.prior_shape = prior_shape
        self.prior_rate = prior_rate
        self.random_state = random_state

    def _hyper(self) -> np.ndarray:
        if not 0 < self.discount <= 1:
            raise ValueError(f"discount must be in (0, 1], got {self.discount!r}")
        if min(self.prior_precision, self.prior_shape, self.prior_rate) <= 0:
            raise ValueError("prior_precision, prior_shape and prior_rate must be positive")
        row = dict.fromkeys(HYPER, 0.0)
        row.update(discount=float(self.discount))
        return np.array([row[k] for k in HYPER])

    def _prior(self, edges: int) -> np.ndarray:
        table = np.zeros((self.rows, edges))
        table[0], table[2], table[3], table[4] = self.prior_mean, self.prior_precision, self.prior_shape, self.prior_rate
        return table

    def _limits(self) -> list:
        """The mean lies between the prior's and the rewards' [-1, 1]; visits count; precision, shape, rate > 0."""
        positive = (np.finfo(float).tiny, np.inf)
        return [(min(-1.0, self.prior_mean), max(1.0, self.prior_mean)), (0.0, float(MAX_EPISODES)),
                positive, positive, positive]
