"""Learners and agents: play games, fill value tables over a game's universe.

Every learner follows one contract (``fit(game, *, bound, episodes, opponent, start)``
returns the learner; ``value_table_`` and ``history_`` hold what it learned); every agent
picks moves behind one interface, so ``play``, ``duel`` and ``round_robin`` pit any two.
"""

from learners.agents import Agent, GreedyAgent, HypothesisAgent, OptimalAgent, RandomAgent
from learners.alphazero.learner import AlphaZeroLearner
from learners.alphazero.agents import AlphaZeroAgent, RolloutAgent
from learners.arena import Arena
from learners.tabular.bayes import BayesLearner
from learners.play import duel, match, play
from learners.tabular.q import QLearner
from learners.hqn.qnetwork import QNetworkLearner
from learners.tabular.learner import TabularLearner
from learners.value_table import ValueTable

__all__ = ["Agent", "RandomAgent", "OptimalAgent", "HypothesisAgent", "GreedyAgent", "Arena", "TabularLearner",
           "QLearner", "BayesLearner", "QNetworkLearner", "AlphaZeroLearner", "AlphaZeroAgent", "RolloutAgent",
           "ValueTable", "play", "match", "duel"]
