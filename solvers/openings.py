"""The value of every first move of a board game: which openings win, lose or draw.

The values come from a solver, never from a formula: from a retrograde ``Solution`` over the
reachable positions (Hex up to 4 x 4, Notakto up to 4 x 4, tic-tac-toe), from the
proof-number search of ``solvers.search`` for larger boards (Hex 5 x 5), or for Hex 6 x 6 and
7 x 7 from the solver with virtual connections of ``solvers.hex_solver``, which also gives the
positions evaluated and CPU seconds of each opening.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

__all__ = ["Openings", "openings"]

SYMBOLS = {1: "W", -1: "L", 0: "D"}


@dataclass
class Openings:
    """The value of each first move from the empty board, for the player who makes it.

    Attributes
    ----------
    game : Game
    values : numpy.ndarray
        Shape (panels, n, n): one panel per board (several only for Notakto on several boards);
        +1 the move wins, -1 it loses, 0 it draws, NaN where there is no move.
    start_value : int
        Outcome of the empty board for the player to move.
    source : str
        Which solver gave the values.
    seconds : float
    nodes, cpu : numpy.ndarray, optional
        Shape (n, n), from the Hex solver: positions evaluated and CPU seconds of each opening's
        proof (0 for the 180-degree twin of an opening proved before).
    unsettled : numpy.ndarray, optional
        Shape (n, n), from the Hex solver: True where the opening's proof ran past its budget (its value
        is NaN there, shown as ``?``).
    """

    game: object
    values: np.ndarray
    start_value: int
    source: str
    seconds: float = 0.0
    nodes: np.ndarray | None = None
    cpu: np.ndarray | None = None
    unsettled: np.ndarray | None = None

    def count(self, value: int) -> int:
        """How many openings have this value (+1, -1 or 0)."""
        return int((self.values == value).sum())

    @property
    def moves(self) -> int:
        return int(np.isfinite(self.values).sum())

    @property
    def open_moves(self) -> int:
        """How many first moves the solver left unsettled (its budget ran out)."""
        return 0 if self.unsettled is None else int(self.unsettled.sum())

    @property
    def winner(self) -> str:
        """Who wins the empty board, in words."""
        return {1: "the first player wins", -1: "the second player wins", 0: "a draw"}[self.start_value]

    def cells_record(self) -> dict:
        """Each cell's value as JSON (``values``: panels of rows, +1, -1, 0, or null where no move goes) and the
        ``unsettled`` cells as ``[panel, row, column]``: what ``from_record`` reads back.

        Examples
        --------
        >>> from games import make_game
        >>> from solvers import solve
        >>> game = make_game("hex", n=2)
        >>> found = openings(game, solve(game))
        >>> found.cells_record()["values"]
        [[[-1, 1], [1, -1]]]
        >>> print(Openings.from_record(game, {**found.cells_record(), "empty_board": 1, "source": "s"}).text())
        L W
         W L
        """
        values = [[[None if np.isnan(v) else int(v) for v in row] for row in panel] for panel in self.values]
        unsettled = [] if self.unsettled is None else \
            [[int(i) for i in cell] for cell in zip(*self.unsettled.reshape(self.values.shape).nonzero())]
        return {"values": values, "unsettled": unsettled}

    @classmethod
    def from_record(cls, game, record: dict) -> Openings:
        """The openings of ``game`` from a record of ``discover solve --json`` (its ``openings``): each cell's
        value, who wins the empty board, the source, and the Hex solver's work per opening (``proofs``).

        Values other than -1, 0, +1 and null, or boards that are not square, are a ``ValueError``.
        """
        try:
            values = np.array([[[np.nan if v is None else v for v in row] for row in panel]
                               for panel in record["values"]], dtype=float)
            if values.ndim != 3 or values.shape[1] != values.shape[2] or not np.isin(
                    values[np.isfinite(values)], (-1, 0, 1)).all():
                raise ValueError("values must be square boards of cells holding -1, 0, 1 or null")
            unsettled = np.zeros(values.shape, dtype=bool)
            for cell in record.get("unsettled", []):
                unsettled[tuple(int(i) for i in cell)] = True
            n, nodes, cpu = values.shape[1], None, None
            if record.get("proofs"):
                nodes, cpu = np.zeros((n, n), dtype=np.int64), np.zeros((n, n))
                for proof in record["proofs"]:
                    nodes[proof["row"], proof["column"]] = int(proof["positions"])
                    cpu[proof["row"], proof["column"]] = float(proof["cpu_seconds"])
            start = int(record["empty_board"])
            if start not in (-1, 0, 1):
                raise ValueError(f"empty_board must be -1, 0 or 1, got {start}")
            return cls(game, values, start, str(record["source"]), float(record.get("seconds", 0.0)), nodes, cpu,
                       unsettled if unsettled.any() else None)
        except (KeyError, TypeError, IndexError) as err:
            raise ValueError(f"not an openings record: {type(err).__name__} {err}") from None

    def text(self) -> str:
        """The board(s) with W, L or D on each cell a first move may take (Hex rows shifted as the game renders)."""
        hex_rows = getattr(self.game, "name", "") == "hex"
        unsettled = np.zeros(self.values.shape, dtype=bool) if self.unsettled is None else \
            self.unsettled.reshape(self.values.shape)
        panels = [
            [(" " * r if hex_rows else "") + " ".join("?" if u else "." if np.isnan(v) else SYMBOLS[int(v)]
                                                       for v, u in zip(row, open_row))
             for r, (row, open_row) in enumerate(zip(panel, open_panel))]
            for panel, open_panel in zip(self.values, unsettled)
        ]
        return "\n".join("   ".join(lines) for lines in zip(*panels))


def _cells(game, options: np.ndarray, one_per_coordinate: bool) -> tuple[np.ndarray, np.ndarray]:
    """(panel, cell) each first move fills: the bit where an option differs from the start, on the panel of
    its coordinate when each coordinate is a board of its own (Notakto), else on the one board."""
    changed = options ^ np.asarray(game.start, dtype=np.int64)[None, :]
    coordinate = np.argmax(changed != 0, axis=1)
    bits = changed[np.arange(len(options)), coordinate]
    cell = np.log2(bits).round().astype(np.int64)
    return (coordinate if one_per_coordinate else np.zeros_like(coordinate)), cell


def openings(game, solution=None, progress=None) -> Openings:
    """The value of every first move of a board game from the empty board.

    Parameters
    ----------
    game : Game
        A board game (``hex``, ``notakto``, ``tictactoe``).
    solution : solvers.Solution, optional
        A retrograde solution of ``game``; without one, ``solvers.search`` proves each move
        (Hex up to 5 x 5 and Notakto; tic-tac-toe, with its draws, needs a solution), and
        ``solvers.hex_solver`` each move of Hex 6 x 6 and 7 x 7.
    progress : callable, optional
        Passed to ``solvers.search.search``: ``progress(done, total)`` after each proof.

    Returns
    -------
    Openings

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> game = make_game("notakto", n=3)
    >>> print(openings(game, solve(game)).text())  # only the centre wins
    L L L
    L W L
    L L L
    """
    if not getattr(game, "universe_from_start", False):
        raise ValueError(f"openings are for board games (hex, notakto, tictactoe), not {game!r}")
    clock = time.perf_counter()
    if solution is None and getattr(game, "name", "") == "hex" and game.n >= 6:
        return _hex_openings(game, progress, clock)
    options = np.asarray(game.moves(game.start), dtype=np.int64).reshape(-1, game.dims)
    if solution is not None:
        if repr(solution.game) != repr(game):
            raise ValueError(f"the solution is of {solution.game!r}, not {game!r}")
        move_values = -np.asarray(solution.outcome(options), dtype=float)
        start_value = int(solution.outcome([game.start])[0])
        source = "retrograde solver"
    else:
        from solvers.search import search

        result = search(game, moves=True, progress=progress)
        move_values = np.array([result.moves[tuple(int(x) for x in o)] for o in options], dtype=float)
        start_value = result.value
        source = f"proof-number search, {result.nodes:,} positions"
    board = np.asarray(game.board(game.start))
    panels = board.shape[0] if board.ndim == 3 else 1
    values = np.full((panels, game.n * game.n), np.nan)
    panel, cell = _cells(game, options, one_per_coordinate=board.ndim == 3)
    values[panel, cell] = move_values
    return Openings(game, values.reshape(panels, game.n, game.n), start_value, source, time.perf_counter() - clock)


HEX_OPENING_POSITIONS = 500_000  # a 7 x 7 opening's proof budget (about 9 minutes of CPU); beyond it, unsettled


def _hex_openings(game, progress, clock: float) -> Openings:
    """Hex 6 x 6 and 7 x 7 by ``solvers.hex_solver`` (the first player wins the empty board: some opening wins)."""
    from solvers.hex_solver import hex_openings

    values, nodes, cpu = hex_openings(game.n, progress, max_nodes=HEX_OPENING_POSITIONS)
    unsettled = values == 0
    if not (values == 1).any():
        raise ValueError(f"no opening of Hex {game.n} x {game.n} was settled as a win within "
                           f"{HEX_OPENING_POSITIONS:,} positions each")
    source = (f"proof-number search with virtual connections, {int(nodes.sum()):,} positions, at most "
              f"{HEX_OPENING_POSITIONS:,} an opening")
    return Openings(game, np.where(unsettled, np.nan, values)[None], 1, source, time.perf_counter() - clock,
                    nodes, cpu, unsettled)
