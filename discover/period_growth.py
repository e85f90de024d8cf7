"""Long periods of one-heap games: grow the training table until its period settles.

A one-heap game whose period is longer than a few hundred heaps (subtraction {1, 3, 4, 180}: P period 183)
shows no period on the tables ``find_rule`` first trains on.  A one-heap solve costs milliseconds per
thousand heaps, so ``settled_bound`` doubles the bound, solving each time, until the values settle into a
period with a margin (``solvers.eventual_period.settled_period``: three periods, and the pre-period plus two
periods, in the table), up to ``GROWTH_POSITIONS`` heaps.  The bound it returns is only a training bound: the
rule the periodic engine writes there is verified on a bound far beyond it, like any other.
"""

from __future__ import annotations

import numpy as np

from games import Game
from solvers import solve
from solvers.eventual_period import settled_period

__all__ = ["GROWTH_POSITIONS", "settled_bound"]

GROWTH_POSITIONS = 10**5  # the largest one-heap table the growth solves


def settled_bound(game: Game, bound: int, target: str = "P", progress=None,
                  limit: int = GROWTH_POSITIONS) -> int | None:
    """The first bound, from ``bound`` doubling up to ``limit`` heaps, whose values settle into a period.

    Parameters
    ----------
    game : Game
        A one-heap game.
    bound : int
        The first bound tried (positive).
    target : {"P", "grundy"}
        Which values must settle: the P positions or the Grundy values.
    progress : callable, optional
        Called with a short message for each bound.
    limit : int
        The largest table, in heaps.

    Returns
    -------
    int or None
        The bound, or None when no period settled up to ``limit`` heaps.

    Raises
    ------
    ValueError
        When ``game`` has more than one heap, ``bound`` is not positive or ``target`` is unknown.

    Examples
    --------
    >>> from games import custom_game
    >>> game = custom_game("s1-3-4-40", lambda p: [(p[0] - t,) for t in (1, 3, 4, 40) if t <= p[0]], 1)
    >>> settled_bound(game, 30)  # P period 43 from n = 0: three periods fit in the last half of 481 heaps
    480
    """
    if game.dims != 1:
        raise ValueError(f"settled_bound grows one-heap tables; {game!r} has {game.dims} coordinates")
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
        raise ValueError(f"bound must be a positive integer, got {bound!r}")
    if target not in ("P", "grundy"):
        raise ValueError(f"target must be 'P' or 'grundy', got {target!r}")
    say = progress or (lambda message: None)
    while bound < limit:
        say(f"solving {game!r} on bound {bound} for a settled period")
        solution = solve(game, bound=bound, grundy=target == "grundy")
        values = solution.grundy_table if target == "grundy" else (solution.outcome_table == -1).astype(np.int64)
        if settled_period(values) is not None:
            return bound
        if bound + 1 >= limit:
            break
        bound = min(2 * bound, limit - 1)
    return None
