"""Agents: anything that picks a move from a position, behind one interface.

``agent.move(game, position, rng)`` returns the option it plays (a position tuple).  The
random agent, the optimal agent (from a ``Solution``) and the hypothesis agent (from any
predicate saying which positions are P, such as a discovered rule) are here; learners add
their greedy policies.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Agent", "RandomAgent", "OptimalAgent", "HypothesisAgent"]


class Agent:
    """Base class: ``move(game, position, rng)`` -> the chosen option."""

    name = "agent"

    def move(self, game, position, rng: np.random.Generator):
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def move(self, game, position, rng):
        options = game.moves(position)
        return options[rng.integers(len(options))]


class OptimalAgent(Agent):
    """Plays a move the solver marks optimal (a random one among equals)."""

    name = "optimal"

    def __init__(self, solution):
        self.solution = solution

    def move(self, game, position, rng):
        best = self.solution.optimal_moves(position)
        return best[rng.integers(len(best))]


class HypothesisAgent(Agent):
    """Moves into a position its predicate calls P when there is one, else at random.

    Examples
    --------
    >>> from games import make_game
    >>> agent = HypothesisAgent(lambda ps: ps[:, 0] % 3 == 0)
    >>> agent.move(make_game("subtraction", subtract=(1, 2)), (4,), np.random.default_rng(0))
    (3,)
    """

    name = "hypothesis"

    def __init__(self, is_p):
        self.is_p = is_p

    def move(self, game, position, rng):
        options = game.moves(position)
        chosen = np.flatnonzero(self.is_p(np.array(options, dtype=np.int64)))
        pick = chosen[0] if chosen.size else rng.integers(len(options))
        return options[pick]
