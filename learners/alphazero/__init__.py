"""AlphaZero: PUCT search guided by a policy-value network, learned in self-play.

``learner`` (the estimator), ``run`` (one fit's iterations), ``play`` (self-play and matches of many games side by
side), ``mcts`` (batched PUCT in numba), ``network`` (the torch policy-value network, imported lazily),
``evaluation`` (scores against random, optimal and earlier players),
``agents`` (the fitted player and rollout MCTS as agents), ``checkpoint`` (exact resume).  The network inputs (``learners.encoders``) and
the options of a block of positions (``learners.options``) are shared with the Hex exploration learners.
"""

from learners.alphazero.agents import AlphaZeroAgent, RolloutAgent
from learners.alphazero.learner import AlphaZeroLearner

__all__ = ["AlphaZeroLearner", "AlphaZeroAgent", "RolloutAgent"]
