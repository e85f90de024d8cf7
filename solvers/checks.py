"""``check_solver``: the exact solver on a game against plain-Python references, as named checks.

The references are computed here from ``game.moves`` alone, never by the solver's code: outcomes by
repeating the win/loss rules until nothing changes (so loopy games get their draws), Grundy values by
a memoised mex recursion (the xor of the parts for a sum of heaps), remoteness by its definition.
Each check is a module-level ``check_*(game, bound)``; ``solver_checks(game, bound)`` yields those that apply to
the game, chosen by what it declares (Grundy values for impartial normal-play games, refused for the others;
remoteness for single positions, refused for sums of heaps; board symmetries for ``universe_from_start``), and
``check_solver(game, bound)`` runs them, a failure raised with its check's name in front.
"""

from __future__ import annotations

import functools
import sys
from functools import partial

import numpy as np

from cgbase.checks import run_checks, shared

__all__ = ["check_solver", "solver_checks", "reference_outcomes", "reference_grundy", "check_outcomes_match_reference",
           "check_grundy_match_reference", "check_grundy_refused", "check_no_draws_without_cycles",
           "check_remoteness_consistent", "check_remoteness_refused", "check_symmetric_positions_same_outcome"]


def reference_outcomes(game, positions) -> dict:
    """Outcome (+1 win, -1 loss, 0 draw) of each position for the player to move, by fixed-point iteration.

    Examples
    --------
    >>> from games import make_game
    >>> reference_outcomes(make_game("nim", heaps=1), [(0,), (1,), (2,)])
    {(0,): -1, (1,): 1, (2,): 1}
    """
    moves = {p: game.moves(p) for p in positions}
    value = {p: None for p in positions}
    changed = True
    while changed:
        changed = False
        for p, options in moves.items():
            if value[p] is not None:
                continue
            if not options:
                value[p] = int(game.terminal_values([p])[0])
            elif any(value.get(o) == -1 for o in options):
                value[p] = 1
            elif all(value.get(o) == 1 for o in options):
                value[p] = -1
            else:
                continue
            changed = True
    return {p: 0 if v is None else v for p, v in value.items()}


def reference_grundy(game, positions) -> dict:
    """Grundy value of each position (an acyclic impartial normal-play game), by memoised mex recursion.

    Examples
    --------
    >>> from games import make_game
    >>> reference_grundy(make_game("subtraction", subtract=(1, 2)), [(n,) for n in range(5)])
    {(0,): 0, (1,): 1, (2,): 2, (3,): 0, (4,): 1}
    """
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    @functools.cache
    def grundy(p):
        values = set()
        for option in game.moves(p):
            if game.parts == 1:
                values.add(grundy(option))
            else:  # an option of a sum is its parts side by side: the xor of theirs
                x = 0
                for part in game.option_parts(option):
                    x ^= grundy(part)
                values.add(x)
        g = 0
        while g in values:
            g += 1
        return g

    return {p: grundy(p) for p in positions}


@shared()
def _graph(game, bound):
    """The universe, its positions as tuples of ints, the game graph, and whether the graph has a cycle."""
    from games.checks import small_bound
    from solvers import build_graph
    from solvers.grundy import topological_order

    universe = game.universe(small_bound(game) if bound is None else bound)
    positions = [tuple(int(x) for x in p) for p in universe.positions()]
    graph = build_graph(game, universe)
    try:
        topological_order(graph)
        loopy = False
    except ValueError:
        loopy = True
    return universe, positions, graph, loopy


@shared()
def _solved(game, bound, grundy: bool = False, remoteness: bool = False):
    from games.checks import small_bound
    from solvers import solve

    bound = small_bound(game) if bound is None else bound
    return solve(game, bound=bound, grundy=grundy, remoteness=remoteness)


@shared()
def _reference(game, bound) -> np.ndarray:
    """The reference outcome of every position, in id order (the xor of the parts' Grundy values for sums)."""
    positions = _graph(game, bound)[1]
    if game.parts > 1:
        values = reference_grundy(game, positions)
        return np.array([1 if values[p] else -1 for p in positions])
    values = reference_outcomes(game, positions)
    return np.array([values[p] for p in positions])


def _refused(game, bound, **what) -> bool:
    from games.checks import small_bound
    from solvers import solve

    bound = small_bound(game) if bound is None else bound
    try:
        solve(game, bound=bound, **what)
    except ValueError:
        return True
    return False


def check_outcomes_match_reference(game, bound=None) -> None:
    """The solver's outcomes equal ``reference_outcomes`` (for a sum of heaps: the xor of the parts' Grundy values).

    Examples
    --------
    >>> from games import make_game
    >>> check_outcomes_match_reference(make_game("nim", heaps=2), 6)
    """
    positions, expected = _graph(game, bound)[1], _reference(game, bound)
    got = _solved(game, bound).outcome_table
    wrong = np.flatnonzero(got != expected)
    assert wrong.size == 0, (f"{wrong.size} outcomes differ from the reference, first at {positions[wrong[0]]}: "
                             f"solver {got[wrong[0]]}, reference {expected[wrong[0]]}")


def check_grundy_match_reference(game, bound=None) -> None:
    """An impartial normal-play game: the solver's Grundy values equal ``reference_grundy``, 0 exactly on the P
    positions; refused (``ValueError``) where the graph has a cycle.

    Examples
    --------
    >>> from games import make_game
    >>> check_grundy_match_reference(make_game("subtraction", subtract=(1, 3, 4)), 20)
    """
    _, positions, _, loopy = _graph(game, bound)
    if loopy:
        assert _refused(game, bound, grundy=True), "Grundy values of a loopy game must be refused"
        return
    got = _solved(game, bound, True).grundy_table
    values = reference_grundy(game, positions)
    expected = np.array([values[p] for p in positions])
    wrong = np.flatnonzero(got != expected)
    assert wrong.size == 0, f"{wrong.size} Grundy values differ, first at {positions[wrong[0]]}"
    assert np.array_equal(got == 0, _reference(game, bound) == -1), "Grundy value 0 must be exactly the P positions"


def check_grundy_refused(game, bound=None) -> None:
    """A partizan or misere game: Grundy values are refused with a ``ValueError``.

    Examples
    --------
    >>> from games import make_game
    >>> check_grundy_refused(make_game("nim", heaps=2, misere=True), 5)
    """
    assert _refused(game, bound, grundy=True), "Grundy values of a partizan, misere or loopy game must be refused"


def check_no_draws_without_cycles(game, bound=None) -> None:
    """A game whose graph has no cycle and no drawn end has no draws.

    Examples
    --------
    >>> from games import make_game
    >>> check_no_draws_without_cycles(make_game("wythoff"), 8)
    """
    universe, _, graph, loopy = _graph(game, bound)
    if loopy:
        return
    ends = np.flatnonzero(np.diff(graph.indptr) == 0)
    if (game.terminal_values(universe.positions(ends)) != 0).all():
        assert (_solved(game, bound).outcome_table != 0).all(), \
            "a game that always ends, never on a drawn end, has no draws"


def check_remoteness_consistent(game, bound=None) -> None:
    """A game of single positions: remoteness follows its definition from the options' outcomes and remoteness,
    and asking for it changes no outcome.

    Examples
    --------
    >>> from games import make_game
    >>> check_remoteness_consistent(make_game("nim", heaps=2), 5)
    """
    universe, positions, _, _ = _graph(game, bound)
    sol = _solved(game, bound, False, True)
    assert np.array_equal(sol.outcome_table, _reference(game, bound)), "outcomes changed when remoteness was asked for"
    for i, p in enumerate(positions):
        options = game.moves(p)
        out, rem = int(sol.outcome_table[i]), int(sol.remoteness_table[i])
        if not options:
            end = int(game.terminal_values([p])[0])
            assert (out, rem) == ((end, 0) if end else (0, -1)), f"terminal {p}: ({out}, {rem})"
            continue
        ids = universe.index(np.array(options))
        o_out, o_rem = sol.outcome_table[ids], sol.remoteness_table[ids]
        if out == 0:
            assert rem == -1 and not (o_out == -1).any() and (o_out == 0).any(), f"draw {p}: remoteness {rem}"
        elif out == -1:
            assert (o_out == 1).all() and rem == 1 + o_rem.max(), f"P position {p}: remoteness {rem}"
        else:
            assert (o_out == -1).any() and rem == 1 + o_rem[o_out == -1].min(), f"N position {p}: remoteness {rem}"


def check_remoteness_refused(game, bound=None) -> None:
    """A sum of heaps (``parts > 1``): remoteness is refused with a ``ValueError``.

    Examples
    --------
    >>> from games import make_game
    >>> check_remoteness_refused(make_game("octal", code="0.77"), 10)
    """
    assert _refused(game, bound, remoteness=True), "remoteness of a sum of heaps must be refused"


def check_symmetric_positions_same_outcome(game, bound=None) -> None:
    """A board game (``universe_from_start``): every symmetric image of a position has its outcome.

    Examples
    --------
    >>> from games import make_game
    >>> check_symmetric_positions_same_outcome(make_game("tictactoe"))
    """
    sol = _solved(game, bound)
    points = sol.universe.positions()
    for image in game.symmetric_positions(points):
        assert np.array_equal(sol.outcome(image), sol.outcome_table), "a symmetric image has another outcome"


def solver_checks(game, bound=None):
    """The checks of ``solvers.solve`` that apply to ``game`` on ``game.universe(bound)`` (default
    ``games.checks.small_bound``), each a callable taking no argument.

    Examples
    --------
    >>> from cgbase.checks import check_name
    >>> from games import make_game
    >>> [check_name(check) for check in solver_checks(make_game("nim", heaps=2), 6)][:2]
    ['outcomes_match_reference', 'grundy_match_reference']
    """
    from games.checks import small_bound

    bound = small_bound(game) if bound is None else bound
    yield partial(check_outcomes_match_reference, game, bound)
    grundy = check_grundy_match_reference if game.impartial and not game.misere else check_grundy_refused
    yield partial(grundy, game, bound)
    yield partial(check_no_draws_without_cycles, game, bound)
    yield partial(check_remoteness_consistent if game.parts == 1 else check_remoteness_refused, game, bound)
    if game.universe_from_start:
        yield partial(check_symmetric_positions_same_outcome, game, bound)


def check_solver(game, bound=None) -> None:
    """Run every check of ``solver_checks``; the first failure is an ``AssertionError`` naming its check.

    Parameters
    ----------
    game : Game
        A registered or custom game.
    bound : int, optional
        The universe checked (default ``games.checks.small_bound(game)``; board games ignore it).

    Raises
    ------
    AssertionError
        ``"<check>: <what broke>"`` for the first check that fails.

    Examples
    --------
    >>> from games import make_game
    >>> check_solver(make_game("wythoff"), 8)
    """
    run_checks(solver_checks(game, bound))
