"""``search``: the exact value of one board-game position and of each of its moves, by proof-number search.

The retrograde solver (``solve``) needs the whole reachable universe in memory: Hex up to 4 x 4,
Notakto up to 4 x 4 on one board.  Beyond that, ``search`` proves the value of a single
position with a depth-first proof-number search and a transposition table (``solvers.dfpn``),
exploring only the positions the proof needs: every opening of Hex 5 x 5 in seconds.  It
handles the games without draws whose rules ``solvers.search_rules`` knows (Hex up to 5 x 5,
Notakto while the boards fit a 62-bit key); tic-tac-toe and other games are solved by ``solve``.
A proof runs as compiled slices of ``SLICE`` positions resumed from the table, so a long search
can be interrupted (Ctrl-C) and reports progress between proofs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from games import Game
from solvers.dfpn import Table, prove
from solvers.search_rules import RULES

__all__ = ["search", "SearchResult", "Prover"]

MAX_TABLE_BITS = 30
SLICE = 1 << 20  # positions per compiled call; between calls Ctrl-C is seen (the table keeps the work)


@dataclass
class SearchResult:
    """The value of a position and of each of its moves.

    Attributes
    ----------
    position : tuple of int
    value : int
        Outcome for the player to move: +1 win, -1 loss.
    moves : dict
        For each option (the position a move leads to), the outcome for the player who makes
        the move: +1 a winning move, -1 a losing one.  Empty when ``moves=False`` was asked.
    nodes : int
        Positions the search expanded.
    seconds : float
    """

    game: Game
    position: tuple[int, ...]
    value: int
    moves: dict = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0

    def winning_moves(self) -> list[tuple[int, ...]]:
        """The options whose move wins, in the game's move order."""
        return [option for option, v in self.moves.items() if v == 1]


def _family(game: Game):
    """(family code, params, children per position, longest play) of the rules the game names, or ValueError."""
    rules = RULES.get(getattr(game, "search_rules", None))
    if rules is None:
        raise ValueError(
            f"search knows the rules of {', '.join(RULES)} (games without draws), not {game!r}; "
            f"solve it over its universe with solvers.solve(game)"
        )
    return rules(game)


def _table_bits(game: Game, table_bits) -> int:
    if table_bits is None:
        return int(min(22, max(12, 2 * game.dims * game.cells - 8)))
    if isinstance(table_bits, bool) or not isinstance(table_bits, (int, np.integer)) or not 4 <= table_bits <= MAX_TABLE_BITS:
        raise ValueError(f"table_bits must be an integer in [4, {MAX_TABLE_BITS}] (2**bits entries of 24 bytes), got {table_bits!r}")
    return int(table_bits)


def _check_max_nodes(max_nodes) -> None:
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer))
                                  or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive integer or None, got {max_nodes!r}")


class Prover:
    """Proves positions one at a time, keeping one transposition table across proofs.

    What one proof learns (the positions it proved, its proof and disproof numbers) serves every
    later one, so a learner can ask for the value of each position it meets within a budget of
    expanded positions and get more answers as the table fills.

    Parameters
    ----------
    game : Game
        ``hex`` (n <= 6) or ``notakto`` (boards * n * n <= 62).
    table_bits : int, optional
        The table has ``2**table_bits`` entries of 24 bytes (default: from the board size).

    Examples
    --------
    >>> from games import make_game
    >>> prover = Prover(make_game("hex", n=4))
    >>> prover.value((0, 0), max_nodes=1)  # one expanded position proves nothing yet
    0
    >>> prover.value((0, 0)), prover.value((0, 0), max_nodes=1), prover.nodes  # then proved, and remembered
    (1, 1, 231)
    """

    def __init__(self, game: Game, table_bits: int | None = None):
        if not isinstance(game, Game):
            raise TypeError(f"a Prover takes a Game, got {type(game).__name__}")
        self.game = game
        self.family, self.params, self.max_children, self.depth = _family(game)
        self.table = Table(_table_bits(game, table_bits))
        self.nodes = 0

    def value(self, position, max_nodes: int | None = None) -> int:
        """The value of ``position`` for the player to move: +1 win, -1 loss, 0 when ``max_nodes`` expanded
        positions did not settle it (the work stays in the table for the next call)."""
        _check_max_nodes(max_nodes)
        p = tuple(int(x) for x in np.asarray(position).reshape(-1))
        if not self.game.moves(p):  # a finished game: its terminal rule decides
            return int(self.game.terminal_values([p])[0])
        limit, nodes = int(max_nodes or 0), 0
        while True:
            value, done = prove(self.family, self.params, p, self.table, self.max_children, self.depth,
                                min(SLICE, limit - nodes) if limit else SLICE)
            nodes += done
            self.nodes += done
            if value != 0 or (limit and nodes >= limit):
                return value


def search(game: Game, position=None, *, moves: bool = True, table_bits: int | None = None,
           max_nodes: int | None = None, progress=None) -> SearchResult:
    """The exact value of ``position`` (the empty board by default) and, with ``moves``, of each move.

    Parameters
    ----------
    game : Game
        ``hex`` (n <= 6) or ``notakto`` (boards * n * n <= 62).
    position : sequence of int, optional
        The position to solve; the game's start by default.
    moves : bool
        Also solve every option, giving each move's value for the player who makes it.
    table_bits : int, optional
        The transposition table has ``2**table_bits`` entries of 24 bytes (default: from the
        board size, at most 2**22 = 96 MB).  One table serves the position and all its moves.
    max_nodes : int, optional
        Stop with ``RuntimeError`` after this many expanded positions per proof.
    progress : callable, optional
        Called as ``progress(done, total)`` after the position and after each move is solved
        (``total`` counts the position and its moves).

    Returns
    -------
    SearchResult

    Examples
    --------
    >>> from games import make_game
    >>> result = search(make_game("hex", n=3))
    >>> result.value, result.moves[(16, 0)]  # the first player wins, for instance in the centre
    (1, 1)
    >>> search(make_game("notakto", n=3), (16,), moves=False).value  # after the centre: lost
    -1
    """
    if not isinstance(game, Game):
        raise TypeError(f"search() takes a Game, got {type(game).__name__}")
    prover = Prover(game, table_bits)
    position = tuple(game.start if position is None else (int(x) for x in np.asarray(position).reshape(-1)))
    game.check_position(np.asarray(position, dtype=np.int64))
    _check_max_nodes(max_nodes)
    clock = time.perf_counter()

    def value_of(p) -> int:
        value = prover.value(p, max_nodes)
        if value == 0:
            raise RuntimeError(f"search of {game!r} at {p} stopped after {max_nodes:,} positions: raise max_nodes")
        return value

    options = game.moves(position) if moves else []
    report = progress or (lambda done, total: None)
    result = SearchResult(game, position, value_of(position))
    report(1, 1 + len(options))
    for done, option in enumerate(options, start=2):
        result.moves[option] = -value_of(option)
        report(done, 1 + len(options))
    result.nodes = prover.nodes
    result.seconds = time.perf_counter() - clock
    return result
