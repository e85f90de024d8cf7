"""The hypothesis agent of a winning-move function: plays a strategy's move, at random where it has none.

A strategy is anything with ``moves(positions) -> (n, dims) array`` giving one move per position
and -1 rows where it has none (``discover.strategy.Strategy`` is one); the agent needs no rule and
no search over the options, so it plays positions far too large to list their moves.
"""

from __future__ import annotations

import numpy as np

from learners.agents import Agent

__all__ = ["StrategyAgent"]


class StrategyAgent(Agent):
    """Plays ``strategy``'s move; a uniformly random legal move where the strategy has none.

    Examples
    --------
    >>> from games import make_game
    >>> class TakeToFour:  # subtraction {1, 2, 3}: leave a multiple of 4
    ...     def moves(self, positions):
    ...         left = positions - positions % 4
    ...         return np.where(positions % 4 > 0, left, -1)
    >>> StrategyAgent(TakeToFour()).move(make_game("subtraction"), (7,), np.random.default_rng(0))
    (4,)
    """

    name = "strategy"

    def __init__(self, strategy):
        if not hasattr(strategy, "moves"):
            raise TypeError(f"a strategy needs a moves(positions) method, got {strategy!r}")
        self.strategy = strategy

    def move(self, game, position, rng):
        moved = np.asarray(self.strategy.moves(np.asarray([position], dtype=np.int64)))[0]
        if (moved >= 0).all():
            return tuple(int(x) for x in moved)
        options = game.moves(position)
        return options[rng.integers(len(options))]

    def edge_weights(self, arena):
        """The move the strategy plays from each position; every move where it has none (or an illegal one)."""
        moved = np.asarray(self.strategy.moves(arena.universe.positions()))
        chosen = arena.universe.index(moved, strict=False)
        weights = (arena.targets == chosen[arena.sources]).astype(float)
        found = np.zeros(arena.size)
        np.add.at(found, arena.sources, weights)
        return np.where(found[arena.sources] > 0, weights, 1.0)
