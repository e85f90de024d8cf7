"""The exact measure where no table holds the game: positions met in play, each solved within a node budget.

On Hex 6 x 6 and 7 x 7 no solver values every position, so the measure is taken where the learners
go: ``played_positions`` gathers the live positions of self-play games of fitted learners (greedy on
their Q, a uniformly random move with probability ``epsilon``), ``stratified_sample`` draws about the
same number of them at every move number, and ``SolvedMeasure`` asks the solver with virtual
connections (``solvers.hex_solver.HexSolver``) for the value of each, then, called on a learner's
scores, for the value of the learner's greedy move.  Every call gets at most ``nodes`` evaluated
positions: what the solver does not settle within it is counted (``unsettled`` positions, and per
learner ``unsettled_moves``) and left out of the share, never guessed.

Examples
--------
>>> from games import make_game
>>> game = make_game("hex", n=3)
>>> centre_first = lambda P: np.tile(np.array([0, 0, 0, 0, 1.0, 0, 0, 0, 0]), (len(P), 1))
>>> P = played_positions(game, [centre_first], games=4, epsilon=0.5, seed=0)
>>> measure = SolvedMeasure(game, stratified_sample(P, 12, seed=0), nodes=1000)
>>> result = measure(centre_first)
>>> result["settled"] == len(measure), measure.unsettled
(True, 0)
"""

from __future__ import annotations

import numpy as np

from learners.exploration.boards import BoardActions, segment_argmax
from learners.options import option_offsets

__all__ = ["played_positions", "stratified_sample", "SolvedMeasure"]


def played_positions(game, scorers, games: int, epsilon: float, seed: int = 0) -> np.ndarray:
    """The distinct live positions of ``games`` self-play games of each scorer (a function from an (m, dims)
    array of positions to (m, size) scores), greedy with a uniformly random move with probability ``epsilon``,
    seeded; sorted."""
    board, rng, met = BoardActions(game), np.random.default_rng([seed, 18]), []
    for scores in scorers:
        P = np.repeat(np.asarray(game.start, dtype=np.int64)[None, :], games, axis=0)
        while len(P):
            met.append(P)
            counts, options, actions = board.expand(P)
            sources = np.repeat(np.arange(len(P)), counts)
            greedy = segment_argmax(np.asarray(scores(P), dtype=float)[sources, actions], counts)
            random = option_offsets(counts) + (rng.random(len(P)) * counts).astype(np.int64)
            after = options[np.where(rng.random(len(P)) < epsilon, random, greedy)]
            P = after[board.expand(after)[0] > 0]
    return np.unique(np.concatenate(met), axis=0) if met else np.zeros((0, game.dims), dtype=np.int64)


def stratified_sample(positions, size: int, seed: int = 0) -> np.ndarray:
    """About ``size`` of ``positions``, the same number (``ceil(size / strata)``, or all there are) at every move
    number (stones on the board), drawn without replacement, seeded.

    Examples
    --------
    >>> P = np.array([[0, 0], [1, 0], [2, 0], [4, 0], [1, 2], [1, 4]])
    >>> np.bitwise_count(stratified_sample(P, 3, seed=1)).sum(axis=1).tolist()  # one of each move number
    [0, 1, 2]
    """
    positions = np.asarray(positions, dtype=np.int64)
    stones = np.bitwise_count(positions).sum(axis=1)
    strata = np.unique(stones)
    per = -(-int(size) // max(1, strata.size))
    rng, keep = np.random.default_rng([seed, 19]), []
    for s in strata:
        ids = np.flatnonzero(stones == s)
        keep.append(np.sort(rng.choice(ids, size=min(per, ids.size), replace=False)))
    return positions[np.concatenate(keep)] if keep else positions[:0]


class SolvedMeasure:
    """Positions solved by the solver with virtual connections; called on scores, whether the greedy move wins
    where the player to move has a winning move (see the module).

    Parameters
    ----------
    game : hex_game
        Hex, n x n with n <= 7.
    positions : (m, 2) array
        Live positions (the sample).
    nodes : int
        Evaluated positions allowed to each call of the solver (a position's value, a greedy move's value).

    Attributes
    ----------
    positions : the sampled positions the player to move wins (N positions), those measured
    lost, unsettled : how many sampled positions the player to move loses, and how many the budget left open
    """

    def __init__(self, game, positions, nodes: int):
        from solvers.hex_solver import HexSolver

        if game.name != "hex" or not 1 <= getattr(game, "n", 0) <= 7:
            raise ValueError(f"the solved measure needs Hex up to 7 x 7, got {game!r}: use the retrograde or the "
                             "search")
        if isinstance(nodes, bool) or not isinstance(nodes, (int, np.integer)) or nodes < 1:
            raise ValueError(f"nodes must be a positive integer (the solver's budget per position), got {nodes!r}")
        self.game, self.nodes, self.board = game, int(nodes), BoardActions(game)
        self.solver = HexSolver(game.n)
        sample = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
        values = np.array([self._value(p) for p in sample], dtype=np.int64)
        self.sampled, self.lost, self.unsettled = len(sample), int((values == -1).sum()), int((values == 0).sum())
        self.positions = sample[values == 1]
        self.stones = np.bitwise_count(self.positions).sum(axis=1)

    def _value(self, p) -> int:
        return self.solver.value(int(p[0]), int(p[1]), max_nodes=self.nodes)

    def __len__(self) -> int:
        return len(self.positions)

    def greedy_values(self, scores) -> np.ndarray:
        """The value of each greedy move for the player who makes it: +1 wins, -1 loses, 0 unsettled."""
        counts, options, actions = self.board.expand(self.positions)
        sources = np.repeat(np.arange(len(self.positions)), counts)
        block = np.asarray(scores(self.positions), dtype=float) if len(self.positions) else np.zeros((0, 0))
        best = segment_argmax(block[sources, actions], counts)
        return np.array([-self._value(p) for p in options[best]], dtype=np.int64)

    def __call__(self, scores) -> dict:
        """``accuracy`` (the share of settled greedy moves that win), ``won``, ``settled`` and ``unsettled_moves``."""
        values = self.greedy_values(scores)
        settled = int((values != 0).sum())
        won = int((values == 1).sum())
        return {"accuracy": won / settled if settled else float("nan"), "won": won, "settled": settled,
                "unsettled_moves": int((values == 0).sum())}
