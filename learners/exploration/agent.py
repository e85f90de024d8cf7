"""The greedy player of an exploration learner, behind the common ``Agent`` interface."""

from __future__ import annotations

import numpy as np

from learners.agents import Agent

__all__ = ["QAgent"]


class QAgent(Agent):
    """Plays a move of largest learned win probability (ties at random).

    Parameters
    ----------
    scores : callable
        From an (m, dims) array of positions to their (m, size) Q logits.
    board : learners.exploration.boards.BoardActions
    name : str

    Examples
    --------
    >>> from games import make_game
    >>> from learners.exploration.boards import BoardActions
    >>> game = make_game("hex", n=2)
    >>> agent = QAgent(lambda P: np.tile([0.0, 0.0, 1.0, 0.0], (len(P), 1)), BoardActions(game))
    >>> agent.move(game, (0, 0), np.random.default_rng(0))  # output 2 is cell (1, 0)
    (4, 0)
    """

    def __init__(self, scores, board, name: str = "greedy-q"):
        self.scores, self.board, self.name = scores, board, name

    def move(self, game, position, rng):
        p = np.asarray(position, dtype=np.int64).reshape(1, -1)
        counts, options, actions = self.board.expand(p)
        if counts[0] == 0:
            raise ValueError(f"{tuple(p[0].tolist())} has no move: the game is over")
        score = np.asarray(self.scores(p), dtype=float)[0, actions]
        best = np.flatnonzero(score == score.max())
        return tuple(int(x) for x in options[best[rng.integers(best.size)]])

    def edge_weights(self, arena) -> np.ndarray:
        """Weight 1 on the moves of largest score at each position of ``arena`` (all of them scored at once)."""
        positions = arena.universe.positions()
        actions = self.board.actions(positions[arena.sources], positions[arena.targets])
        return arena.best_edges(np.asarray(self.scores(positions), dtype=float)[arena.sources, actions])
