"""Solver guidance of the Hex exploration paper: the must-play region, and proved values as targets.

The paper asked Benzene's solver for the must-play region before each move and chose the best move
inside it whenever it was not empty (a random move could still leave it, so that positions outside
are tested too), and replaced the one-step target of a move by its true value whenever the solver
proved the position it leads to within half a second.  Here the region is the one the toolkit's
proof-number search prunes to (``solvers.search_rules.hex_must_play``): the cell that blocks an
opponent's connection, or the intersection of the carriers of the opponent's double threats; and
the budget is a number of expanded positions per move (``solvers.search.Prover`` up to Hex 5 x 5,
the solver with virtual connections ``solvers.hex_solver.HexSolver`` on Hex 6 x 6 and 7 x 7; one
transposition table for the whole fit), so that the same seed gives the same proofs on any machine.

Examples
--------
>>> from games import make_game
>>> game = make_game("hex", n=3)
>>> # the second player to move; the first threatens to connect at cell 6 only: it is the must-play region
>>> MustPlay(game).allowed(np.array([[1 | 8, 2]] * 2), np.array([[1 | 8, 2 | 64], [1 | 8, 2 | 4]])).tolist()
[True, False]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from solvers.search import Prover
from solvers.search_rules import hex_must_play, hex_params

__all__ = ["MustPlay", "ProvedTargets"]


@nb.njit(cache=True, nogil=True)
def _regions(params, positions, out):
    full = params[1]
    for i in range(positions.shape[0]):
        a, b = positions[i, 0], positions[i, 1]
        status, must = hex_must_play(params, a, b)
        out[i] = must if status == 0 else full & ~(a | b)


class MustPlay:
    """The must-play region of Hex positions (every empty cell where the search does not restrict the moves).

    Parameters
    ----------
    game : hex_game
    """

    def __init__(self, game):
        if getattr(game, "search_rules", None) != "hex":
            raise ValueError(f"the must-play region is known for Hex, not {game!r}: leave must_play off")
        self.params = hex_params(game.kernel_params())

    def regions(self, positions) -> np.ndarray:
        """A bitboard of the cells worth playing for each of an (m, 2) array of live positions."""
        positions = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, 2)
        out = np.zeros(positions.shape[0], dtype=np.int64)
        _regions(self.params, positions, out)
        return out

    def allowed(self, positions, options) -> np.ndarray:
        """Whether each move from ``positions[i]`` to ``options[i]`` (two (k, 2) arrays) stays in the region."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
        added = (np.asarray(options, dtype=np.int64) ^ positions).sum(axis=1)
        return (added & self.regions(positions)) != 0


class ProvedTargets:
    """Win values of moves whose resulting position the search proves within a budget (NaN where it does not).

    Parameters
    ----------
    game : Game
        Hex up to 5 x 5, or Notakto (``solvers.search``); Hex 6 x 6 and 7 x 7 (``solvers.hex_solver``).
    nodes : int
        Positions the search may expand (or evaluate, on 6 x 6 and 7 x 7) per move (the work is kept for
        later moves).
    table_bits : int
        The transposition table has ``2**table_bits`` entries of 24 bytes (up to 5 x 5; the solver with
        virtual connections keeps every position it met).

    Examples
    --------
    >>> from games import make_game
    >>> ProvedTargets(make_game("hex", n=3), nodes=1000).targets(np.array([[16, 0], [1, 0]])).tolist()
    [1.0, 0.0]
    """

    def __init__(self, game, nodes: int, table_bits: int = 20):
        if game.name == "hex" and 6 <= getattr(game, "n", 0) <= 7:
            from solvers.hex_solver import HexSolver

            solver = HexSolver(game.n)
            self.value = lambda p: solver.value(int(p[0]), int(p[1]), max_nodes=self.nodes)
        else:
            prover = Prover(game, table_bits)
            self.value = lambda p: prover.value(p, self.nodes)
        self.nodes = int(nodes)

    def targets(self, positions) -> np.ndarray:
        """For each of an (m, dims) array of positions reached by a move: 1 when the search proves it lost for
        the player to move there (the move won), 0 when proved won, NaN when not settled within the budget."""
        values = np.array([self.value(p) for p in np.asarray(positions, dtype=np.int64)])
        return np.where(values == 0, np.nan, (1.0 - values) / 2.0)
