"""Notakto: misere tic-tac-toe in which both players place the same mark, on one or several boards.

A move puts an X on an empty cell of a live board; a board with k X's in a row (row, column or
diagonal) is dead.  The player who kills the last live board loses.  Both players have the
same moves, so the game is impartial; a position where every board is dead has no move and is
won for the player to move (the previous player killed the last board), which is the misere
terminal rule.  Position: one bitboard per board (``dims = boards``), bit ``r * n + c``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.boardgame import BoardGame
from games.boards import MAX_BITS, bit_planes, canonical_board, check_board_size, has_line, square_lines, square_symmetries
from cgbase.validation import at_most

__all__ = ["notakto"]


@nb.njit(cache=True, nogil=True)
def _notakto_moves(P, params, counts, out):
    cells = params[0]
    lines = params[1:]
    for r in range(P.shape[0]):
        count = 0
        for q in range(P.shape[1]):
            bits = P[r, q]
            if has_line(bits, lines):
                continue
            for cell in range(cells):
                bit = np.int64(1) << cell
                if bits & bit:
                    continue
                for i in range(P.shape[1]):
                    out[r, count, i] = P[r, i]
                out[r, count, q] = bits | bit
                count += 1
        counts[r] = count


@nb.njit(cache=True, nogil=True)
def _canonical_boards(P, perms, out):
    for r in range(P.shape[0]):
        for q in range(P.shape[1]):
            out[r, q] = canonical_board(P[r, q], perms)
        out[r] = np.sort(out[r])


class notakto(BoardGame):
    """Notakto: both players place X; whoever completes k in a row on the last live board loses.

    ``n`` is the board side, ``k`` the length of a losing line (default n), ``boards`` the
    number of boards played side by side (a move is on any live board; a board with a line is
    dead).  Position: one bitboard per board.  Impartial, with the misere terminal rule: the
    player to move when every board is dead wins.  The universe (every position reachable from
    empty boards) is built when 2^(n * n * boards) <= 2e7: 3 x 3 with 1 or 2 boards, 4 x 4 with
    one (61,950 positions); larger games are solved from a position by ``solvers.search``.
    Symmetries: the 8 of the square on each board, and boards in any order.
    Source: T. Plambeck and G. Whitehead, "The secrets of Notakto" (2013).

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("notakto", n=2, k=2)
    >>> game.moves((0,))
    [(1,), (2,), (4,), (8,)]
    >>> game.moves((3,))  # the top row is a line: the board is dead
    []
    """

    name = "notakto"
    impartial = True
    misere = True
    board_sums = True
    kernel = staticmethod(_notakto_moves)
    search_rules = "notakto"

    def __init__(self, n: int = 3, k: int | None = None, boards: int = 1):
        n = check_board_size(n, "notakto", 7)
        if k is None:
            k = n
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"notakto: k must be a positive integer line length (or None for k = n), got k={k!r}")
        if k > n:
            raise ValueError(f"notakto: k={k} is longer than the board side n={n}; use k <= {n}")
        if isinstance(boards, bool) or not isinstance(boards, (int, np.integer)) or boards < 1:
            raise ValueError(f"notakto: boards must be an integer >= 1, got boards={boards!r}; use boards=1 for one board")
        at_most(int(boards), "boards", MAX_BITS, "the search packs a position's boards into one 62-bit key, and the "
                "retrograde takes far fewer")
        super().__init__(n=n, k=int(k), boards=int(boards))
        self.n = n
        self.k = int(k)
        self.dims = int(boards)
        self.lines = square_lines(n, self.k)
        self.symmetries = square_symmetries(n)

    def kernel_params(self) -> np.ndarray:
        return np.concatenate([[self.cells], self.lines]).astype(np.int64)

    def max_moves(self, limits) -> int:
        return self.dims * self.cells

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(f"board{q + 1}" for q in range(self.dims)) if self.dims > 1 else ("board",)

    def planes(self, positions) -> np.ndarray:
        """A plane of marks per board; with several boards also a plane per board that is 1 when it is dead."""
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.dims)
        marks = bit_planes(P, self.cells).reshape(P.shape[0], self.dims, self.n, self.n)
        if self.dims == 1:
            return marks
        dead = np.array([[has_line(x, self.lines) for x in row] for row in P], dtype=np.float32)
        return np.concatenate([marks, np.broadcast_to(dead[:, :, None, None], marks.shape)], axis=1)

    def dead(self, position) -> np.ndarray:
        """For each board of a position, whether it holds a line (no more moves there).

        Examples
        --------
        >>> from games import make_game
        >>> make_game("notakto", n=3, boards=2).dead((0b000000111, 0b000010001)).tolist()
        [True, False]
        """
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        return np.array([bool(has_line(x, self.lines)) for x in p])

    def board(self, position) -> np.ndarray:
        """The boards as a (boards, n, n) 0/1 array.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("notakto", n=2).board((0b1001,)).tolist()
        [[[1, 0], [0, 1]]]
        """
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        return ((p[:, None] >> np.arange(self.cells)) & 1).reshape(self.dims, self.n, self.n)

    def canonical(self, positions) -> np.ndarray:
        """Each board replaced by its least image under the square's symmetries, boards sorted.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("notakto", n=3, boards=2).canonical([[0, 0b100000000]]).tolist()
        [[0, 1]]
        """
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.dims)
        out = np.empty_like(P)
        _canonical_boards(P, self.symmetries, out)
        return out

    def render(self, position) -> str:
        """Text of the boards side by side, ``X`` for a mark and ``.`` for an empty cell."""
        boards = self.board(position)
        rows = ["   ".join(" ".join(".X"[v] for v in b[r]) for b in boards) for r in range(self.n)]
        return "\n".join(rows)

    def position_count_bound(self, empty: int | None = None) -> float:
        return float(2 ** (self.cells * self.dims if empty is None else empty))  # every subset of the empty cells

    def smaller_hint(self) -> str:
        return "use n <= 3 with boards <= 2, or n = 4 with one board"
