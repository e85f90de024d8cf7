"""The shared behaviour of board games: bitboard positions, a start, a reachable universe, symmetries.

A board game's position is a tuple of non-negative integers, one bitboard per coordinate (bit
``r * n + c`` is the cell in row r, column c).  Its universe is not a box: it is every position
reachable from ``start``, built layer by layer by number of stones (``games.reachable``).  The
``bound`` of ``universe(bound)`` is ignored (the game's parameters fix its positions; ``None``
is accepted) and the universe records the board side n as its bound, so every solution and
value table of the game carries the same one.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.base import Game
from games.boards import MAX_BITS, permute_bits
from games.reachable import layered_universe
from games.universe import Universe

__all__ = ["BoardGame", "MAX_RETROGRADE_POSITIONS"]

MAX_RETROGRADE_POSITIONS = 20_000_000  # largest reachable universe built for the exact retrograde


@nb.njit(cache=True, nogil=True)
def _images(P, perms, out):
    """``out[s, r, q]``: symmetry ``s`` applied to coordinate ``q`` of position ``r``."""
    for s in range(perms.shape[0]):
        for r in range(P.shape[0]):
            for q in range(P.shape[1]):
                out[s, r, q] = permute_bits(P[r, q], perms[s])


class BoardGame(Game):
    """Base class of the board games (Hex, Notakto, tic-tac-toe).

    Subclasses set ``n`` (the board side), ``dims``, ``kernel``, ``symmetries`` (an (m, n * n)
    array of cell permutations, identity first) and implement ``position_count_bound(empty)`` (an
    upper bound on the positions reachable from one with ``empty`` empty cells, checked before the
    universe is built) and ``check_position``.
    """

    universe_from_start = True
    symmetries: np.ndarray
    #: how the board is drawn: "grid" (one square grid per board) or "rhombus" (Hex)
    layout = "grid"
    #: the rules ``solvers.search`` knows this game by (``solvers.search_rules.RULES``), or None
    search_rules: str | None = None
    #: the board, seen by the second player to move, is reflected so that the mover always joins the same sides
    #: (Hex: ``planes`` and the exploration learners' move outputs)
    reflects_second_player = False
    n: int

    @property
    def start(self) -> tuple[int, ...]:
        """The empty board."""
        return (0,) * self.dims

    @property
    def cells(self) -> int:
        return self.n * self.n

    def max_moves(self, limits) -> int:
        return self.cells

    # -- positions -------------------------------------------------------------------------
    def check_position(self, p: np.ndarray) -> None:
        """Raise ``ValueError`` if ``p`` (an int64 vector) is not a position of this game."""
        if p.size != self.dims or (p < 0).any() or (p >> self.cells).any():
            raise ValueError(
                f"{self!r}: {tuple(p.tolist())} is not a position: give {self.dims} bitboards, "
                f"each an integer in [0, 2^{self.cells})"
            )

    def board(self, position) -> np.ndarray:
        """The position as an n x n array: 0 empty, q + 1 for a stone of coordinate q.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("tictactoe").board((0b000010000, 0b000000001)).tolist()
        [[2, 0, 0], [0, 1, 0], [0, 0, 0]]
        """
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        bits = (p[:, None] >> np.arange(self.cells)) & 1
        return (bits * (np.arange(self.dims)[:, None] + 1)).max(axis=0).reshape(self.n, self.n)

    # -- features --------------------------------------------------------------------------
    def planes(self, positions) -> np.ndarray:
        """The board as input planes for a network, seen by the player to move: shape (m, planes, n, n)."""
        raise NotImplementedError

    # -- symmetries ------------------------------------------------------------------------
    def symmetric_positions(self, positions) -> np.ndarray:
        """Images of an (m, dims) array under each symmetry: shape (symmetries, m, dims).

        Examples
        --------
        >>> from games import make_game
        >>> make_game("hex", n=2).symmetric_positions([[1, 0]]).tolist()
        [[[1, 0]], [[8, 0]]]
        """
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.dims)
        out = np.empty((self.symmetries.shape[0], P.shape[0], self.dims), dtype=np.int64)
        _images(P, self.symmetries, out)
        return out

    def canonical(self, positions) -> np.ndarray:
        """The canonical form of each of an (m, dims) array: its least image (as a key) under the symmetries.

        Symmetric positions have the same outcome and the same canonical form.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("tictactoe").canonical([[0b100000000, 0]]).tolist()  # a corner X
        [[1, 0]]
        """
        images = self.symmetric_positions(positions)
        keys = np.zeros(images.shape[:2], dtype=np.int64)
        for q in range(self.dims):
            keys += images[:, :, q] << (q * self.cells)
        best = np.argmin(keys, axis=0)
        return images[best, np.arange(images.shape[1])]

    # -- universe --------------------------------------------------------------------------
    def position_count_bound(self, empty: int | None = None) -> float:
        """An upper bound on the positions reachable from one with ``empty`` empty cells (default:
        the empty board)."""
        raise NotImplementedError

    def universe(self, bound=None) -> Universe:
        """Every position reachable from the empty board; ``bound`` is ignored (None is fine) and the
        universe records the board side n as its bound.

        Refused with ``ValueError`` when the positions could exceed ``MAX_RETROGRADE_POSITIONS``:
        larger boards are solved from a position by ``solvers.search.search``.
        """
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 1):
            raise ValueError(f"bound must be None or a positive integer (a board game ignores it), got {bound!r}")
        cached = self.__dict__.get("_universe")
        if cached is None:
            cached = self.__dict__["_universe"] = self.reachable([self.start])
        return cached

    def reachable(self, starts) -> Universe:
        """Every position reachable from ``starts`` (an iterable of positions), as a subset universe.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("tictactoe").reachable([(0b000010000, 0)]).size  # after X takes the centre
        1837
        """
        starts = np.asarray([tuple(s) for s in starts], dtype=np.int64).reshape(-1, self.dims)
        if starts.shape[0] == 0:
            raise ValueError("starts must hold at least one position")
        for p in starts:
            self.check_position(p)
        count = self._reachable_count(starts)
        if not self.retrograde_fits(starts):
            where = "the empty board" if (starts == np.asarray(self.start)).all() else "these starts"
            raise ValueError(
                f"{self!r} has up to {count:,.0f} positions reachable from {where}, more than the "
                f"{MAX_RETROGRADE_POSITIONS:,} the exact retrograde handles; {self.smaller_hint()}, "
                f"or solve single positions with solvers.search.search(game)"
            )
        return layered_universe(self, starts, [(1 << self.cells) - 1] * self.dims, count, bound=self.n)

    def retrograde_fits(self, starts=None) -> bool:
        """Whether the positions reachable from ``starts`` (an (m, dims) array; default the empty board) are
        few enough for the exact retrograde."""
        starts = np.asarray([self.start] if starts is None else starts, dtype=np.int64).reshape(-1, self.dims)
        return self.dims * self.cells <= MAX_BITS and self._reachable_count(starts) <= MAX_RETROGRADE_POSITIONS

    def _reachable_count(self, starts: np.ndarray) -> float:
        """An upper bound on the positions reachable from the (m, dims) array ``starts``."""
        empty = np.asarray(self.board(self.start)).size - np.bitwise_count(starts).sum(axis=1)
        return float(sum(self.position_count_bound(int(e)) for e in empty))

    def smaller_hint(self) -> str:
        return "use a smaller n"

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_universe", None)  # rebuilt on demand; never pickled
        return state
