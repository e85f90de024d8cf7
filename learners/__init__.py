"""Learners and agents: play games, fill value tables over a game's universe.

Every learner follows one contract (``learners.base.Learner``, scikit-learn's: ``fit(game, ...)``
returns the learner; ``value_table_`` and ``history_`` hold what it learned; ``learners.registry``
names them all); every agent picks moves behind one interface, so ``play``, ``duel`` and
``round_robin`` pit any two.
"""

from learners.agents import Agent, GreedyAgent, HypothesisAgent, OptimalAgent, RandomAgent
from learners.alphazero import AlphaZeroAgent, AlphaZeroLearner, RolloutAgent
from learners.arena import Arena
from learners.base import Learner
from learners.hqn import HQN, QNetworkLearner
from learners.play import duel, match, play
from learners.tabular import BayesLearner, QLearner, TabularLearner
from learners.value_table import ValueTable

__all__ = ["Agent", "RandomAgent", "OptimalAgent", "HypothesisAgent", "GreedyAgent", "Arena", "Learner",
           "TabularLearner", "QLearner", "BayesLearner", "QNetworkLearner", "HQN", "AlphaZeroLearner", "AlphaZeroAgent",
           "RolloutAgent", "ValueTable", "play", "match", "duel"]
