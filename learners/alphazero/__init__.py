"""AlphaZero: PUCT search guided by a policy-value network, learned in self-play.

``learner`` (the estimator), ``run`` (one fit's iterations), ``play`` (self-play and matches of many games side by
side), ``mcts`` (batched PUCT in numba), ``network`` (the torch policy-value network, imported lazily),
``encoders`` (positions as network inputs), ``evaluation`` (scores against random, optimal and earlier players),
``agents`` (the fitted player and rollout MCTS as agents), ``checkpoint`` (exact resume).
"""

from learners.alphazero.agents import AlphaZeroAgent, RolloutAgent
from learners.alphazero.learner import AlphaZeroLearner

__all__ = ["AlphaZeroLearner", "AlphaZeroAgent", "RolloutAgent"]
