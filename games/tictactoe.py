"""Tic-tac-toe on 3 x 3, with bitboard positions (X's bits, O's bits); a line wins, a full board draws.

X moves first; the player to move is implied by the counts (X when both have as many marks).
A position with a line has no move and is lost for the player to move (the previous player
made the line); a full board without a line has no move and is a draw.  ``terminal_values``
gives exactly that, so the solver finds draws without cycles.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.boardgame import BoardGame
from games.boards import has_line, mover_planes, popcount, square_lines, square_symmetries

__all__ = ["tictactoe"]

FULL = (1 << 9) - 1
LINES = square_lines(3, 3)


@nb.njit(cache=True, nogil=True)
def _tictactoe_moves(P, lines, counts, out):
    for r in range(P.shape[0]):
        x = P[r, 0]
        o = P[r, 1]
        count = 0
        if not (has_line(x, lines) or has_line(o, lines)):
            x_moves = popcount(x) == popcount(o)
            for cell in range(9):
                bit = np.int64(1) << cell
                if (x | o) & bit:
                    continue
                out[r, count, 0] = x | bit if x_moves else x
                out[r, count, 1] = o if x_moves else o | bit
                count += 1
        counts[r] = count


@nb.njit(cache=True, nogil=True)
def _terminal_values(P, lines, out):
    for r in range(P.shape[0]):
        out[r] = -1 if has_line(P[r, 0], lines) or has_line(P[r, 1], lines) else 0


class tictactoe(BoardGame):
    """Tic-tac-toe (noughts and crosses) on 3 x 3: three in a row wins, a full board is a draw.

    Position ``(X's bits, O's bits)``, bit ``3 * r + c``; X moves first.  Universe: the 5,478
    positions reachable from the empty board.  Symmetries: the 8 of the square.  With perfect
    play the game is a draw.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("tictactoe")
    >>> len(game.moves((0, 0))), game.moves((0b000000111, 0b000011000))  # X has the top row
    (9, [])
    >>> game.terminal_values([[0b000000111, 0b000011000], [0b110001101, 0b001110010]]).tolist()
    [-1, 0]
    """

    name = "tictactoe"
    dims = 2
    impartial = False
    kernel = staticmethod(_tictactoe_moves)

    def __init__(self):
        super().__init__()
        self.n = 3
        self.symmetries = square_symmetries(3)

    def kernel_params(self) -> np.ndarray:
        return LINES

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("x", "o")

    def planes(self, positions) -> np.ndarray:
        """The mover's marks, the opponent's and a plane of ones (which shows a convolution the board's edge)."""
        return mover_planes(positions, self.n, reflect=False)

    def check_position(self, p: np.ndarray) -> None:
        super().check_position(p)
        x, o = int(p[0]), int(p[1])
        if x & o or not 0 <= x.bit_count() - o.bit_count() <= 1:
            raise ValueError(
                f"{self!r}: {(x, o)} is not a tic-tac-toe position: X and O must not share a cell and "
                f"X must have as many marks as O or one more"
            )

    def terminal_values(self, positions) -> np.ndarray:
        """-1 where a line is on the board (the previous player made it), 0 for a full board without one."""
        P = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
        out = np.empty(P.shape[0], dtype=np.int8)
        _terminal_values(P, LINES, out)
        return out

    def render(self, position) -> str:
        """Text of the board: ``X``, ``O`` and ``.`` for an empty cell."""
        return "\n".join(" ".join(".XO"[v] for v in row) for row in self.board(position))

    def position_count_bound(self, empty: int | None = None) -> float:
        return 6046.0  # boards with as many X as O, or one more
