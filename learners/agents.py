"""Agents: anything that picks a move from a position, behind one interface.

``agent.move(game, position, rng)`` returns the option it plays (a position tuple), and
``agent.edge_weights(arena)`` states the same policy over a whole arena at once (a weight
per move, moves drawn in proportion), which is how compiled matches and learners play it.
The random agent, the optimal agent (from a ``Solution``), the hypothesis agent (from any
predicate saying which positions are P, such as a discovered rule) and the greedy agent
(from a learned ``ValueTable``: a learner's policy) are here.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Agent", "RandomAgent", "OptimalAgent", "HypothesisAgent", "GreedyAgent"]


class Agent:
    """Base class: ``move(game, position, rng)`` -> the chosen option."""

    name = "agent"

    def move(self, game, position, rng: np.random.Generator):
        raise NotImplementedError

    def edge_weights(self, arena) -> np.ndarray:
        """A weight per move of ``arena``; at each position a move is drawn in proportion."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def move(self, game, position, rng):
        options = game.moves(position)
        return options[rng.integers(len(options))]

    def edge_weights(self, arena):
        return np.ones(arena.edges)


class OptimalAgent(Agent):
    """Plays a move the solver marks optimal (a random one among equals)."""

    name = "optimal"

    def __init__(self, solution):
        self.solution = solution

    def move(self, game, position, rng):
        best = self.solution.optimal_moves(position)
        return best[rng.integers(len(best))]

    def edge_weights(self, arena):
        """Into P positions when winning, towards draws when drawn, anywhere when lost."""
        after = self.solution.outcome(arena.universe.positions(arena.targets)) if arena.edges else np.zeros(0)
        mine = self.solution.outcome(arena.universe.positions())[arena.sources]
        return (after == -mine).astype(float)


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
        """``is_p``: a function of an (n, dims) array of positions, or a rule with a ``predicate``."""
        self.is_p = getattr(is_p, "predicate", is_p)

    def move(self, game, position, rng):
        options = game.moves(position)
        chosen = np.flatnonzero(self.is_p(np.array(options, dtype=np.int64)))
        pick = chosen[0] if chosen.size else rng.integers(len(options))
        return options[pick]

    def edge_weights(self, arena):
        """Moves into positions the predicate calls P; every move where there is none."""
        into_p = np.asarray(self.is_p(arena.universe.positions(arena.targets)), dtype=float)
        has_p = np.zeros(arena.size)
        np.maximum.at(has_p, arena.sources, into_p)
        return np.where(has_p[arena.sources] > 0, into_p, 1.0)


class GreedyAgent(Agent):
    """Plays a move of largest learned value (ties at random): the policy of a ``ValueTable``.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> table = QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=3000).value_table_
    >>> GreedyAgent(table).move(table.game, (3, 1), np.random.default_rng(0))
    (1, 1)
    """

    name = "greedy"

    def __init__(self, table, name: str | None = None):
        self.table = table
        if name:
            self.name = name

    def move(self, game, position, rng):
        s = int(self.table.universe.index(np.asarray(position, dtype=np.int64).reshape(1, -1))[0])
        lo, hi = self.table.indptr[s], self.table.indptr[s + 1]
        q = self.table.q[lo:hi]
        best = lo + np.flatnonzero(q == q.max())
        target = self.table.targets[best[rng.integers(best.size)]]
        return tuple(int(x) for x in self.table.universe.positions(np.array([target]))[0])

    def edge_weights(self, arena):
        if arena.universe != self.table.universe or not np.array_equal(arena.targets, self.table.targets):
            raise ValueError(f"this value table covers {self.table.universe!r}, not the arena's {arena.universe!r}")
        return arena.best_edges(self.table.q)
