"""Hex on an n x n rhombus, with bitboard positions (first player's stones, second player's stones).

The first player connects the top row to the bottom row, the second player the left column to
the right column (OpenSpiel's ``hex`` uses the same sides and cell numbering ``r * n + c``).
Cell (r, c) touches (r, c +- 1), (r +- 1, c), (r - 1, c + 1) and (r + 1, c - 1).  The player to
move is implied by the stone counts: the first player when both have as many stones.  A
position where a player has connected is terminal (no moves) and lost for the player to move;
a full board always holds a connection, so Hex has no draws.

Connections are found with bit-parallel flood fills (``hex_flood``), a handful of shifts per step.
"""

from __future__ import annotations

from math import comb

import numba as nb
import numpy as np

from games.boardgame import BoardGame
from games.boards import check_board_size, hex_symmetries, mover_planes, popcount

__all__ = ["hex_game", "hex_geometry", "hex_flood", "hex_win_cells", "hex_connected"]

# geometry array: n, full, not_left, not_right, top, bottom, left, right
N_, FULL, NOT_LEFT, NOT_RIGHT, TOP, BOTTOM, LEFT, RIGHT = range(8)


def hex_geometry(n: int) -> np.ndarray:
    """Masks of an n x n Hex board: ``[n, full, not_left, not_right, top, bottom, left, right]``.

    Examples
    --------
    >>> [bin(int(x)) for x in hex_geometry(2)[4:]]
    ['0b11', '0b1100', '0b101', '0b1010']
    """
    full = (1 << (n * n)) - 1
    left = sum(1 << (r * n) for r in range(n))
    right = left << (n - 1)
    top = (1 << n) - 1
    bottom = top << (n * (n - 1))
    return np.array([n, full, full & ~left, full & ~right, top, bottom, left, right], dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def _dilate(s, geo):
    """``s`` with every neighbour of its cells added."""
    n = geo[N_]
    r = s & geo[NOT_RIGHT]
    l = s & geo[NOT_LEFT]
    return (s | (r << 1) | (l >> 1) | (s << n) | (s >> n) | (r >> (n - 1)) | (l << (n - 1))) & geo[FULL]


@nb.njit(cache=True, nogil=True)
def hex_flood(stones, seed, geo):
    """The cells of ``stones`` connected (through ``stones``) to a cell of ``stones & seed``."""
    reach = stones & seed
    while True:
        grown = _dilate(reach, geo) & stones
        if grown == reach:
            return reach
        reach = grown


@nb.njit(cache=True, nogil=True)
def hex_connected(stones, start, goal, geo):
    """True when ``stones`` hold a chain from a cell of ``start`` to a cell of ``goal``."""
    return (hex_flood(stones, start, geo) & goal) != 0


@nb.njit(cache=True, nogil=True)
def hex_win_cells(stones, empty, start, goal, geo):
    """Empty cells where one more stone connects ``start`` to ``goal`` (assumes no chain yet)."""
    near_start = _dilate(hex_flood(stones, start, geo), geo) | start
    near_goal = _dilate(hex_flood(stones, goal, geo), geo) | goal
    return near_start & near_goal & empty


@nb.njit(cache=True, nogil=True)
def _hex_moves(P, geo, counts, out):
    for r in range(P.shape[0]):
        a = P[r, 0]
        b = P[r, 1]
        counts[r] = 0
        if hex_connected(a, geo[TOP], geo[BOTTOM], geo) or hex_connected(b, geo[LEFT], geo[RIGHT], geo):
            continue
        first = popcount(a) == popcount(b)
        empty = geo[FULL] & ~(a | b)
        count = 0
        cell = 0
        while empty >> cell:
            bit = np.int64(1) << cell
            if empty & bit:
                out[r, count, 0] = a | bit if first else a
                out[r, count, 1] = b if first else b | bit
                count += 1
            cell += 1
        counts[r] = count


class hex_game(BoardGame):
    """Hex on an n x n rhombus: the first player joins top and bottom, the second left and right.

    Position ``(first player's bits, second player's bits)``, bit ``r * n + c`` for row r and
    column c; the player to move is implied by the stone counts.  A connected position has no
    move and is lost for the player to move.  The universe (n <= 4) is every position reachable
    from the empty board: 9,386,235 positions for n = 4.  Symmetry: rotation by 180 degrees.
    Source: P. Hein (1942), J. Nash (1949); the first player wins on every n x n board (strategy
    stealing), and by search the winning openings of n <= 5 are known.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("hex", n=2)
    >>> game.moves((0, 0))
    [(1, 0), (2, 0), (4, 0), (8, 0)]
    >>> game.moves((1, 2)), game.moves((5, 2))  # (0,0) and (1,0) join top and bottom: no move
    ([(5, 2), (9, 2)], [])
    """

    name = "hex"
    dims = 2
    impartial = False
    kernel = staticmethod(_hex_moves)
    layout = "rhombus"
    search_rules = "hex"
    reflects_second_player = True

    def __init__(self, n: int = 3):
        n = check_board_size(n, "hex", 7)
        super().__init__(n=n)
        self.n = n
        self.symmetries = hex_symmetries(n)
        self._geometry = hex_geometry(n)

    def kernel_params(self) -> np.ndarray:
        return self._geometry

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("first", "second")

    def planes(self, positions) -> np.ndarray:
        """The mover's stones, the opponent's and a plane of ones, the board reflected in its long diagonal when
        the second player moves (so the planes always show a player joining top and bottom)."""
        return mover_planes(positions, self.n, reflect=self.reflects_second_player)

    def check_position(self, p: np.ndarray) -> None:
        super().check_position(p)
        a, b = int(p[0]), int(p[1])
        if a & b or not 0 <= a.bit_count() - b.bit_count() <= 1:
            raise ValueError(
                f"{self!r}: {(a, b)} is not a Hex position: the two bitboards must not overlap and the "
                f"first player must have as many stones as the second or one more"
            )

    def to_move(self, position) -> int:
        """0 when the first player is to move, 1 for the second."""
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        return int(int(p[0]).bit_count() != int(p[1]).bit_count())

    def winner(self, position) -> int | None:
        """0 or 1 for the player who has connected their sides, None while nobody has.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("hex", n=2).winner((5, 2))
        0
        """
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        geo = self._geometry
        if hex_connected(p[0], geo[TOP], geo[BOTTOM], geo):
            return 0
        if hex_connected(p[1], geo[LEFT], geo[RIGHT], geo):
            return 1
        return None

    def render(self, position) -> str:
        """Text of the board, rows shifted right as in OpenSpiel: ``x`` first player, ``o`` second."""
        board = self.board(position)
        return "\n".join(" " * r + " ".join(".xo"[v] for v in row) for r, row in enumerate(board))

    def position_count_bound(self, empty: int | None = None) -> float:
        empty = self.cells if empty is None else empty  # t more stones, split evenly between the players
        return float(sum(comb(empty, t) * comb(t, t // 2) for t in range(empty + 1)))

    def smaller_hint(self) -> str:
        return "use n <= 4"
