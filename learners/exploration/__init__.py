"""The learners of the Hex exploration paper: Q-learning of win probabilities with guided exploration.

``BoardQLearner`` (``learners.exploration.learner``) combines the paper's parts: one-step minimax or
joint-distribution backups, epsilon-greedy, variance-reduction or pseudo-count exploration, and the
solver's guidance (the must-play region, proved values as targets).  ``VARIANTS`` names the paper's
combinations and ``make_variant`` builds one; ``learners.exploration.accuracy`` measures a learner
exactly against the solver.
"""

from learners.exploration.accuracy import ExactMeasure, OpeningMeasure
from learners.exploration.agent import QAgent
from learners.exploration.learner import BoardQLearner
from learners.exploration.variants import VARIANTS, make_variant

__all__ = ["BoardQLearner", "QAgent", "ExactMeasure", "OpeningMeasure", "VARIANTS", "make_variant"]
