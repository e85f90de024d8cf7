"""Long periods of one- and two-heap games: grow the training table until its period settles.

A one-heap game whose period is longer than a few hundred heaps (subtraction {1, 3, 4, 180}: P period 183)
shows no period on the tables ``find_rule`` first trains on.  A one-heap solve costs milliseconds per
thousand heaps, so ``settled_bound`` doubles the bound, solving each time, until the values settle into a
period with a margin (``solvers.periods.sequences.settled_period``: three periods, and the pre-period plus two
periods, in the table), up to ``GROWTH_POSITIONS`` heaps.  A two-heap game grows the same way until its P
positions settle into periods in each coordinate (``solvers.periods.grids``: a periodic core and eventually
periodic lines near the axes, with the same margins), up to ``GROWTH_POSITIONS_2D`` positions.  Either growth
stops before a table whose graph would have more than ``GROWTH_MOVES`` moves (estimated on a sample of positions
before it is built: a heap n with n / 2 options has a graph of 2.5 billion moves at 100,000 heaps), and at
``GROWTH_SECONDS`` (a game given in Python whose heap n has n options takes minutes a table).  The bound it returns
is only a training bound: the rule an engine writes there is verified on a bound far beyond it, like any other.
"""

from __future__ import annotations

import numpy as np

from cgbase.deadline import Deadline, OutOfTime, within
from games import Game
from solvers import solve
from solvers.graph import estimated_moves
from solvers.periods.sequences import settled_period
from solvers.periods.grids import grid_periods

__all__ = ["GROWTH_POSITIONS", "GROWTH_POSITIONS_2D", "GROWTH_MOVES", "growth_limit_2d", "settled_bound"]

GROWTH_POSITIONS = 10**5  # the largest one-heap table the growth solves
GROWTH_POSITIONS_2D = 2**18  # the largest two-heap table (512 x 512 positions)
GROWTH_MOVES = 2**25  # the largest graph the growth builds, in moves (a quarter of a GB of targets, about a second)
GROWTH_SECONDS = 60.0  # the growth's deadline: a game whose moves are many (heap n: n options) stops growing there


def growth_limit_2d(game: Game, verify_bound: int | None = None) -> int:
    """The largest two-heap table ``find_rule`` grows (in positions): a sixteenth for moves given in Python (no move
    kernel), and never past a given verification bound.

    Examples
    --------
    >>> from games import make_game
    >>> growth_limit_2d(make_game("wythoff")), growth_limit_2d(make_game("wythoff"), verify_bound=99)
    (262144, 10000)
    """
    limit = GROWTH_POSITIONS_2D // 16 if game.kernel is None else GROWTH_POSITIONS_2D
    return limit if verify_bound is None else min(limit, (verify_bound + 1) ** 2)


def _settles(solution, target: str) -> bool:
    values = solution.grundy_table if target == "grundy" else (solution.outcome_table == -1).astype(np.int64)
    if solution.universe.dims == 1:
        return settled_period(values) is not None
    positions = solution.universe.positions()
    grid = np.zeros((solution.bound + 1,) * 2, dtype=np.int64)
    grid[positions[:, 0], positions[:, 1]] = values
    return grid_periods(grid) is not None


def settled_bound(game: Game, bound: int, target: str = "P", progress=None, limit: int | None = None) -> int | None:
    """The first bound, from ``bound`` doubling up to ``limit`` positions, whose values settle into a period.

    Parameters
    ----------
    game : Game
        A one-heap game, or a two-heap game whose universe is a box (every (a, b) up to the bound).
    bound : int
        The first bound tried (positive).
    target : {"P", "grundy"}
        Which values must settle: the P positions or the Grundy values.
    progress : callable, optional
        Called with a short message for each bound.
    limit : int, optional
        The largest table, in positions (default ``GROWTH_POSITIONS`` heaps for one heap,
        ``GROWTH_POSITIONS_2D`` positions for two).

    Returns
    -------
    int or None
        The bound, or None when no period settled up to ``limit`` positions, on graphs of at most
        ``GROWTH_MOVES`` moves, or within ``GROWTH_SECONDS`` (a deadline the solves read).

    Raises
    ------
    ValueError
        When ``game`` has more than two heaps or a two-heap universe that is not a box, ``bound`` is not
        positive or ``target`` is unknown.

    Examples
    --------
    >>> from games import custom_game
    >>> game = custom_game("s1-3-4-40", lambda p: [(p[0] - t,) for t in (1, 3, 4, 40) if t <= p[0]], 1)
    >>> settled_bound(game, 30)  # P period 43 from n = 0: three periods fit in the last half of 481 heaps
    480
    >>> from games.declared import declared_game
    >>> pair = declared_game({"name": "s134-s256", "heaps": 2, "moves": [{"step": [[1, 0], [3, 0], [4, 0]]},
    ...                                                                  {"step": [[0, 2], [0, 5], [0, 6]]}]})
    >>> settled_bound(pair, 30)  # periods 7 and 11: three of each fit in the last half of 121 x 121 positions
    120
    """
    if game.dims not in (1, 2):
        raise ValueError(f"settled_bound grows one-heap and two-heap tables; {game!r} has {game.dims} coordinates")
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
        raise ValueError(f"bound must be a positive integer, got {bound!r}")
    if target not in ("P", "grundy"):
        raise ValueError(f"target must be 'P' or 'grundy', got {target!r}")
    if game.dims == 2 and not game.universe(1).is_box:
        raise ValueError(f"settled_bound grows two-heap tables over a box of positions; {game!r}'s universe is not "
                         "one (ordered heaps): give find_rule a bound instead")
    limit = (GROWTH_POSITIONS if game.dims == 1 else GROWTH_POSITIONS_2D) if limit is None else limit
    side = int(round(limit ** (1 / game.dims)))  # the largest bound + 1
    say = progress or (lambda message: None)
    with within(Deadline(GROWTH_SECONDS)) as deadline:
        while bound < side:
            moves = estimated_moves(game, game.universe(bound))
            if moves > GROWTH_MOVES:
                say(f"no period settled on graphs of up to {GROWTH_MOVES:,} moves (bound {bound} has about "
                    f"{moves:,.0f})")
                return None
            say(f"solving {game!r} on bound {bound} for a settled period")
            try:
                solution = solve(game, bound=bound, grundy=target == "grundy")
            except OutOfTime:
                say(f"no period settled within {deadline.seconds:g} s (bound {bound} not solved in time)")
                return None
            if _settles(solution, target):
                return bound
            if bound + 1 >= side:
                break
            bound = min(2 * bound, side - 1)
    return None
