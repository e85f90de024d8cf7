"""Tabular learners: Q-learning (constant or decaying exploration) and the quasi-Bayesian agent.

The games run in the compiled episode loop (``learners.episodes``); ``learner`` holds the contract and
training loop they share, ``checkpoint`` the files a fit resumes from.
"""

from learners.tabular.bayes import BayesLearner
from learners.tabular.learner import TabularLearner
from learners.tabular.q import QLearner

__all__ = ["TabularLearner", "QLearner", "BayesLearner"]
