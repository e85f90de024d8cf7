"""Notakto boards as components: a position of several boards is the sum of its live boards.

In Notakto a move puts an X on one live board; a board with a line is dead (no move there), and the player who
kills the last live board loses, because the player to move when every board is dead wins (``games.notakto``'s
misère terminal rule).  So a position of B boards is the misère sum of its live boards, a dead board being the
empty sum, and its rule is a misère quotient.  ``NotaktoBoards`` offers ``discover.quotients.components``'s four
methods: the components are the live boards reachable from the empty board, each as its least image under the
square's symmetries (``games.notakto``'s canonical boards), most marks first (a move adds a mark, so every
option is an earlier board); a board's options are the boards one X later (the empty sum where the X kills it).
Outcomes of sums come from the solver of the multi-board game (``make_game("notakto", boards=B)``), over its
positions up to symmetry (``solvers.canonical``).
"""

from __future__ import annotations

import math

import numpy as np

from cgbase.deadline import Deadline
from games import make_game
from games.boards import has_line
from solvers.canonical import MAX_POSITIONS, CanonicalSolution

__all__ = ["NotaktoBoards"]

LISTING_STEP = 8192  # boards listed between two looks at the deadline (a second or two of 7 x 7 boards)


class NotaktoBoards:
    """The live n x n Notakto boards (lines of k), up to symmetry, as components of sums.

    Parameters
    ----------
    n, k : int
        Board side and line length (k defaults to n), as ``make_game("notakto", n=n, k=k)``.
    deadline : cgbase.deadline.Deadline, optional
        Checked while the boards are listed and while sums are solved (``OutOfTime``, a ValueError, once passed);
        the attribute ``deadline`` may be given a new one for the solving.

    Examples
    --------
    >>> boards = NotaktoBoards(3)
    >>> len(boards.ids()), boards.ids()[-1], boards.options(0)
    (46, 0, [(1,), (2,), (16,)])
    >>> boards.label(0b000010001), boards.sum_of((0b111, 0b10001, 0b100000000)), boards.outcome([(0,), (16,)]).tolist()
    ('board x../.x./...', (1, 17), [1, -1])
    """

    def __init__(self, n: int = 3, k: int | None = None, deadline: Deadline | None = None):
        self.game = make_game("notakto", n=n, k=k)
        self.n, self.k = self.game.n, self.game.k
        self.deadline = Deadline.of(deadline)
        self._options: dict = {}
        self._solutions: dict = {}
        live, layer, listed = [0], [0], 0
        while layer:
            nxt = set()
            for b in layer:
                listed += 1
                if listed % LISTING_STEP == 0:  # boards of up to 4 x 4 (4,961) are listed before a first look
                    self.deadline.check(f"listing the live {n} x {n} boards ({len(live) + len(nxt):,} found, "
                                        f"{bin(b).count('1')} marks reached): give more seconds or a smaller board")
                self._options[b] = opts = self._board_options(b)
                nxt.update(o[0] for o in opts if o)
            layer = sorted(nxt)
            live.extend(layer)
        self._ids = sorted(live, key=lambda b: (-bin(b).count("1"), b))

    def _board_options(self, b: int) -> list[tuple[int, ...]]:
        rows = self.game.canonical(self.game.options((b,)).reshape(-1, 1))[:, 0]
        return sorted({() if self._dead(x) else (int(x),) for x in rows})

    def _dead(self, bits) -> bool:
        return bool(has_line(np.int64(bits), self.game.lines))

    def ids(self) -> list[int]:
        """The live boards (canonical bitboards), most marks first; the empty board last."""
        return list(self._ids)

    def options(self, c: int) -> list[tuple[int, ...]]:
        """The sums one X from board ``c``: ``(board,)``, or ``()`` where the X completes a line."""
        return self._options[int(c)]

    def sum_of(self, position) -> tuple[int, ...]:
        """The sum a position of any number of boards is: its live boards, canonical, sorted.

        Raises
        ------
        ValueError
            If a board is not a bitboard of this size.
        """
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        if len(p) and ((p < 0).any() or (p >> self.game.cells).any()):
            raise ValueError(f"{tuple(p.tolist())} is not a position of {self.n} x {self.n} boards: each board is a "
                             f"bitboard below 2^{self.game.cells}")
        if not len(p):
            return ()
        canon = self.game.canonical(p.reshape(-1, 1))[:, 0]
        return tuple(sorted(int(x) for x in canon if not self._dead(x)))

    @property
    def cells(self) -> int:
        """Cells of one board."""
        return self.game.cells

    def solution(self, boards: int) -> CanonicalSolution:
        """The solver's outcomes of every position of ``boards`` boards up to symmetry (computed once).

        Raises
        ------
        ValueError
            If those positions would be more than ``solvers.canonical.MAX_POSITIONS`` (estimated from one board's).
        """
        if boards not in self._solutions:
            size = self.sums_size(boards)
            if size > MAX_POSITIONS:
                raise ValueError(f"{boards} boards of {self.n} x {self.n} have about {size:,} "
                                 f"positions up to symmetry, more than the solver's {MAX_POSITIONS:,}")
            self._solutions[boards] = CanonicalSolution(make_game("notakto", n=self.n, k=self.k, boards=boards),
                                                         deadline=self.deadline)
        return self._solutions[boards]

    def sums_size(self, boards: int) -> int:
        """About how many positions of ``boards`` boards there are up to symmetry (multisets of one board's), the
        size ``solution`` refuses past ``MAX_POSITIONS`` before any work."""
        return math.comb(len(self.solution(1)) + boards - 1, boards) if boards > 1 else 1

    def outcome(self, sums) -> np.ndarray:
        """Outcome (1 win, -1 loss for the player to move) of each sum of boards, from the solver of the game of
        that many boards (the empty sum: no move, a win)."""
        out = np.ones(len(sums), dtype=np.int8)
        by_size: dict = {}
        for i, s in enumerate(sums):
            if len(s):
                by_size.setdefault(len(s), []).append(i)
        for size, rows in by_size.items():
            out[rows] = self.solution(size).outcome([sums[i] for i in rows])
        return out

    def label(self, c) -> str:
        """``"board x../.x./..."``: rows top to bottom, ``x`` a mark."""
        bits = int(c)
        rows = ["".join("x" if bits >> (r * self.n + j) & 1 else "." for j in range(self.n)) for r in range(self.n)]
        return "board " + "/".join(rows)
