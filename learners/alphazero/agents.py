"""Search agents behind the common ``Agent`` interface: AlphaZero's player and plain MCTS with random rollouts.

``AlphaZeroAgent`` plays the most visited move of a PUCT search guided by a policy-value network
(``simulations=0``: the policy head's top move, no search); ``RolloutAgent`` is the baseline,
UCT with one uniformly random playout per simulation.  ``edge_weights(arena)`` states the same
policy over a whole arena: every live position searched (in batches of roots), weight 1 on the
chosen move (for the policy head, on every top-logit move).
"""

from __future__ import annotations

import numpy as np

from learners.agents import Agent
from learners.alphazero.evaluation import edge_lookup
from learners.alphazero.play import PolicyMover, SearchMover
from learners.alphazero.mcts import Forest, RolloutEvaluator
from learners.options import options_block

__all__ = ["AlphaZeroAgent", "RolloutAgent"]


class _SearchAgent(Agent):
    trees = 256

    width = None

    def _mover(self, game, trees: int, width: int):
        raise NotImplementedError

    def _forest(self, game, trees: int, width: int, rule: str, c: float):
        width = max(width, self.width or 1)
        forests = self.__dict__.setdefault("_forests", {})
        for (t, w), forest in forests.items():
            if t >= trees and w >= width and forest.game == game:
                return forest
        forests[(trees, width)] = Forest(game, trees, self.simulations, width, rule, c)
        return forests[(trees, width)]

    def move(self, game, position, rng):
        return tuple(int(x) for x in self.moves(game, np.asarray(position, dtype=np.int64).reshape(1, -1), rng)[0])

    def moves(self, game, positions, rng) -> np.ndarray:
        """The chosen option of each of an (m, dims) array of positions with a move."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, game.dims)
        width = int(options_block(game, positions)[0].max()) if len(positions) else 1
        return self._mover(game, min(self.trees, max(1, len(positions))), width).choose(positions, 1_000_000, rng)

    def edge_weights(self, arena, seed: int = 0):
        live = arena.live()
        weights = np.zeros(arena.edges)
        if live.size:
            chosen = self.moves(arena.game, arena.universe.positions(live), np.random.default_rng(seed))
            weights[edge_lookup(arena)(live, arena.universe.index(chosen))] = 1.0
        return weights


class AlphaZeroAgent(_SearchAgent):
    """AlphaZero's player: the most visited move of ``simulations`` PUCT simulations (ties at random).

    Parameters
    ----------
    policy_value : learners.alphazero.network.PolicyValue
    simulations : int
        0 plays the policy head's top move without searching.
    c_puct : float
    width : int
        Most options of a position of the game.
    name : str
    """

    def __init__(self, policy_value, simulations: int, c_puct: float, width: int, name: str = "alphazero"):
        self.policy_value, self.simulations, self.c_puct, self.width = policy_value, int(simulations), c_puct, width
        self.name = name

    def _mover(self, game, trees: int, width: int):
        if self.simulations == 0:
            return PolicyMover(game, self.policy_value)
        return SearchMover(self._forest(game, trees, width, "puct", self.c_puct), self.policy_value, self.simulations)

    def edge_weights(self, arena, seed: int = 0):
        if self.simulations:
            return super().edge_weights(arena, seed)
        logits = self.policy_value.outputs_chunked(arena.universe.positions())[1]
        return arena.best_edges(logits[arena.targets])


class RolloutAgent(_SearchAgent):
    """MCTS with random rollouts: UCT (every move once, then mean + c sqrt(ln N / n)), a playout per simulation.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("notakto", n=3)
    >>> move = RolloutAgent(simulations=200).move(game, (0b000000011,), np.random.default_rng(0))
    >>> move != (0b000000111,)  # it does not complete the top row (which would lose)
    True
    """

    def __init__(self, simulations: int, c: float = 1.0, width: int | None = None, seed: int = 0,
                 name: str = "mcts-rollout"):
        self.simulations, self.c, self.width, self.name = int(simulations), float(c), width, name
        self.rollouts = np.random.default_rng(seed)

    def _mover(self, game, trees: int, width: int):
        return SearchMover(self._forest(game, trees, width, "uct", self.c), RolloutEvaluator(game, self.rollouts),
                           self.simulations)
