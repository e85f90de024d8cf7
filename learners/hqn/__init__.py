"""The Hierarchical Q-Network of the HQN paper, its neural model network and its Q-network baseline."""

from learners.hqn.learner import HQN
from learners.hqn.qnetwork import QNetworkLearner

__all__ = ["HQN", "QNetworkLearner"]
