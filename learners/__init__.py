"""Learners and agents: play games, fill value tables over a game's universe.

The tabular and neural learners arrive with their issues; the agents and the play loop are
shared by every stage (discovery uses them to put a rule's hypothesis agent to the test).
"""

from learners.agents import Agent, HypothesisAgent, OptimalAgent, RandomAgent
from learners.play import match, play

__all__ = ["Agent", "RandomAgent", "OptimalAgent", "HypothesisAgent", "play", "match"]
