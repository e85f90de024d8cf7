"""How a board game's moves meet a network's output map: one output cell per move, seen by the mover.

The networks of the Hex exploration paper read a position as board planes seen by the player to move
(``learners.encoders``) and output one number per cell of one or more boards: ``channels x n x n``,
flattened in that order.  A move is the stone it adds, so its output index is the cell of that stone in
the plane of the board it goes on: a partizan game's coordinates are the two players' stones (one output
plane: the mover's is implied), an impartial game's are boards (Notakto: one output plane per board).
Where the encoder reflects the board for the second player (Hex, so that the mover always joins top and
bottom), the cell is reflected too: cell ``(r, c)`` is output ``(c, r)``.

Examples
--------
>>> from games import make_game
>>> board = BoardActions(make_game("hex", n=2))
>>> counts, options, actions = board.expand(np.array([[0, 0], [1, 0]]))
>>> counts.tolist(), actions.tolist()  # the second player's moves are reflected: cell 1 is output 2
([4, 3], [0, 1, 2, 3, 2, 1, 3])
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games import BoardGame
from learners.encoders import make_encoder
from learners.options import options_block

__all__ = ["BoardActions", "segment_argmax"]


class BoardActions:
    """A board game's encoder and the output index of each of its moves (see the module).

    Parameters
    ----------
    game : BoardGame
        Hex, tic-tac-toe or Notakto: a board game with a plane encoding.

    Attributes
    ----------
    encoder : learners.encoders.Encoder
    channels, size : int
        Output planes, and output numbers per position (``channels * n * n``).
    hexagonal : bool
        Whether cells touch as on a Hex rhombus (the network then uses hexagonal filters).
    """

    def __init__(self, game):
        if not isinstance(game, BoardGame):
            raise ValueError(f"the Hex exploration learners play board games (hex, tictactoe, notakto), not {game!r}")
        self.game = game
        self.encoder = make_encoder(game)
        self.n, self.cells = game.n, game.n * game.n
        self.channels = game.dims if game.impartial else 1
        self.size = self.channels * self.cells
        self.reflect = game.reflects_second_player
        self.hexagonal = game.layout == "rhombus"

    def expand(self, positions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(counts, options, actions)`` of an (m, dims) array: the options one position after another, and
        the output index of each."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        counts, options = options_block(self.game, positions)
        return counts, options, self.actions(np.repeat(positions, counts, axis=0), options)

    def actions(self, positions, options) -> np.ndarray:
        """The output index of each move from ``positions[i]`` to ``options[i]`` (two (k, dims) arrays)."""
        added = np.asarray(options, dtype=np.int64) ^ np.asarray(positions, dtype=np.int64)
        coordinate = np.argmax(added != 0, axis=1)
        cell = np.bitwise_count(added[np.arange(len(added)), coordinate] - 1).astype(np.int64)
        if self.reflect:
            second = np.bitwise_count(positions[:, 0]) != np.bitwise_count(positions[:, 1])
            cell = np.where(second, (cell % self.n) * self.n + cell // self.n, cell)
        return (coordinate if self.channels > 1 else 0) * self.cells + cell

    def masks(self, counts, actions) -> np.ndarray:
        """An (m, size) boolean array: True at the output index of each legal move."""
        out = np.zeros((len(counts), self.size), dtype=bool)
        out[np.repeat(np.arange(len(counts)), counts), actions] = True
        return out


@nb.njit(cache=True, nogil=True)
def segment_argmax(values, counts):
    """Index (into ``values``) of the first largest value of each segment of ``counts`` values; -1 for an empty one.

    Examples
    --------
    >>> segment_argmax(np.array([0.1, 0.7, 0.7, 0.2, 0.5]), np.array([3, 0, 2])).tolist()
    [1, -1, 4]
    """
    out = np.full(counts.size, -1, dtype=np.int64)
    start = 0
    for i in range(counts.size):
        best = -np.inf
        for j in range(start, start + counts[i]):
            if values[j] > best:
                best = values[j]
                out[i] = j
        start += counts[i]
    return out
