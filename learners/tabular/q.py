"""Tabular Q-learning (seeds 000, 001, 002): one value per move of the game's universe.

Exploration is epsilon-greedy with ``epsilon_t = epsilon * exp(-eta t)`` over episodes ``t``
(``eta = 0``: the Nim study's Q agent; ``eta > 0``: its Q_t agent) or Boltzmann with a temperature
(the HQN paper).  The learning rate is a constant or ``"visits"`` (1 / times the move was learned
from, the Nim thesis's alpha(N_sa)).  The table holds values for the player to move, so by default
every move of a game, the opponent's too, is backed up negamax,
``Q(s, a) <- Q + alpha (r - gamma max_a' Q(s', a') - Q)``, and the table converges to the
game's values whoever the opponent is; ``backup="reply"`` is the papers' formulation, from
the learner's own moves and the position after the reply, which against a random opponent
learns the best reply to random play (its gaps to the optimal move can be 1e-2 and below).
"""

from __future__ import annotations

import math

import numpy as np

from learners.episodes import HYPER, NEGAMAX, Q, REPLY
from learners.tabular.learner import TabularLearner
from learners.value_table import MAX_EPISODES

__all__ = ["QLearner"]

EXPLORATIONS = ("epsilon", "boltzmann")
BACKUPS = {"negamax": NEGAMAX, "reply": REPLY}


class QLearner(TabularLearner):
    """Tabular Q-learning.

    Parameters
    ----------
    alpha : float or "visits"
        Learning rate in (0, 1], or 1 / visit count of the move.
    gamma : float
        Discount in [0, 1] (1: rewards come only at the end, the Nim thesis's best).
    backup : {"negamax", "reply"}
        Back up every move negamax, or only the learner's own from the position after the reply.
    exploration : {"epsilon", "boltzmann"}
    epsilon, eta : float
        Exploration rate and its decay per episode (epsilon-greedy).
    temperature : float
        Boltzmann temperature: a move is drawn with probability proportional to exp(Q / temperature).
    random_state : int

    Examples
    --------
    >>> from games import make_game
    >>> q = QLearner(random_state=0).fit(make_game("nim", heaps=3), bound=3, episodes=5000)
    >>> q.history_[-1]["deviations"], q.value_table_.values([[1, 2, 3], [1, 2, 2]]).round(2).tolist()
    (0, [-1.0, 1.0])
    """

    kind = Q
    rows = 2

    def __init__(self, *, alpha=0.45, gamma: float = 1.0, backup: str = "negamax", exploration: str = "epsilon",
                 epsilon: float = 0.1, eta: float = 0.0, temperature: float = 0.2, random_state: int = 0):
        self.alpha = alpha
        self.gamma = gamma
        self.backup = backup
        self.exploration = exploration
        self.epsilon = epsilon
        self.eta = eta
        self.temperature = temperature
        self.random_state = random_state

    @property
    def backup_code(self) -> int:
        if self.backup not in BACKUPS:
            raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, got {self.backup!r}")
        return BACKUPS[self.backup]

    @property
    def name(self) -> str:
        return "qt" if self.eta > 0 else "q"

    def _hyper(self) -> np.ndarray:
        if self.alpha != "visits" and not (isinstance(self.alpha, (int, float)) and 0 < self.alpha <= 1):
            raise ValueError(f"alpha must be in (0, 1] or 'visits', got {self.alpha!r}")
        if not 0 <= self.gamma <= 1:
            raise ValueError(f"gamma must be in [0, 1], got {self.gamma!r}")
        if self.exploration not in EXPLORATIONS:
            raise ValueError(f"exploration must be one of {', '.join(EXPLORATIONS)}, got {self.exploration!r}")
        if not 0 <= self.epsilon <= 1 or self.eta < 0:
            raise ValueError(f"need 0 <= epsilon <= 1 and eta >= 0, got epsilon={self.epsilon!r}, eta={self.eta!r}")
        if self.exploration == "boltzmann" and not self.temperature > 0:
            raise ValueError(f"temperature must be positive, got {self.temperature!r}")
        row = dict.fromkeys(HYPER, 0.0)
        row.update(alpha=-1.0 if self.alpha == "visits" else float(self.alpha), gamma=float(self.gamma),
                   epsilon=float(self.epsilon), eta=float(self.eta),
                   temperature=float(self.temperature) if self.exploration == "boltzmann" else 0.0)
        return np.array([row[k] for k in HYPER])

    def _prior(self, edges: int) -> np.ndarray:
        return np.zeros((self.rows, edges))

    def _limits(self) -> list:
        return [(-1.0, 1.0), (0.0, float(MAX_EPISODES))]  # Q of rewards in [-1, 1], times each move was learned

    def _extra_record(self, done) -> dict:
        if self.exploration == "epsilon" and self.eta > 0:
            return {"epsilon": self.epsilon * math.exp(-self.eta * done)}
        return {}
