"""``solve``: the exact solver's entry point, choosing the fastest path a game allows."""

from __future__ import annotations

from games import Game
from cgbase.validation import positive_int
from solvers.exact import exact_tables
from solvers.graph import reachable_universe
from solvers.networkx_io import GraphGame, is_digraph
from solvers.solution import Solution

__all__ = ["solve"]


def solve(game, bound=None, starts=None, grundy: bool = False, remoteness: bool = False, workers=None) -> Solution:
    """Solve a game by search over a bounded universe.

    Parameters
    ----------
    game : Game or networkx.DiGraph
        A game object, or a directed graph whose edges are the moves.
    bound : int, optional
        Use ``game.universe(bound)`` (for integer games: every coordinate in [0, bound]).
        Board games (``game.universe_from_start``) need none: their universe is every position
        reachable from the start, and a bound given to them is ignored.
    starts : iterable of positions, optional
        Use the positions reachable from these instead.
    grundy, remoteness : bool
        Also compute Grundy values (impartial, normal play) or remoteness.
    workers : int or cgbase.parallel.Workers, optional
        Call a game's Python ``moves`` on this many worker processes (games written as a ``moves``
        function; see ``solvers.graph.build_graph``).

    Returns
    -------
    Solution
        The outcome of every position of the universe for the player to move (1 win, -1 loss, 0 draw),
        and the Grundy values and remoteness when asked.

    Raises
    ------
    TypeError
        If ``game`` is neither a ``Game`` nor a ``networkx.DiGraph``.
    ValueError
        If both or neither of ``bound`` and ``starts`` are given (board games may give neither), ``bound`` is
        not a positive integer, Grundy values are asked of a partizan or misère game, remoteness of a sum of
        heaps, a move leaves the universe, or the universe would not fit in memory.

    Notes
    -----
    Outcomes come from retrograde counting over the move graph (loopy games get draws); a misère heap game
    whose options are sums of heaps is solved over the sums themselves (``solvers.heap_sums``); Grundy values are
    the mex of the options' values [1]_ [2]_, and a sum of heaps takes the xor of its parts' values, as
    Bouton found for Nim [3]_.  No formula is ever used: the solver is the ground truth discovery is
    checked against.

    References
    ----------
    .. [1] R. P. Sprague, "Über mathematische Kampfspiele", Tôhoku Mathematical Journal 41 (1935),
       438-444.
    .. [2] P. M. Grundy, "Mathematics and games", Eureka 2 (1939), 6-8.
    .. [3] C. L. Bouton, "Nim, a game with a complete mathematical theory", Annals of Mathematics 3
       (1901), 35-39.

    Examples
    --------
    >>> from games import make_game
    >>> s = solve(make_game("wythoff"), bound=10)
    >>> s.p_positions()[:5].tolist()
    [[0, 0], [2, 1], [1, 2], [5, 3], [7, 4]]
    >>> solve(make_game("tictactoe")).outcome([[0, 0]]).tolist()  # a draw
    [0]
    """
    if is_digraph(game):
        game = GraphGame(game)
        bound = None if starts is not None else len(game.nodes) - 1
    if not isinstance(game, Game):
        raise TypeError(f"solve() takes a Game or a networkx.DiGraph, got {type(game).__name__}")
    if bound is None and starts is None and game.universe_from_start:
        universe = game.universe()
    elif (bound is None) == (starts is None):
        raise ValueError("give exactly one of bound=N or starts=[positions]")
    else:
        universe = game.universe(positive_int(bound, "bound")) if starts is None else reachable_universe(game, starts)
    tables = exact_tables(game, universe, grundy, remoteness, workers)
    solution = Solution(game, universe, tables.outcome, tables.grundy, tables.remoteness)
    solution.graph = tables.graph
    return solution
