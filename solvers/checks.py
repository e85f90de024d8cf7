"""``check_solver``: the exact solver on a game against plain-Python references, as named checks.

The references are computed here from ``game.moves`` alone, never by the solver's code: outcomes by
repeating the win/loss rules until nothing changes (so loopy games get their draws), Grundy values by
a memoised mex recursion (the xor of the parts for a sum of heaps), remoteness by its definition.
``solver_checks(game, bound)`` yields ``(name, check)`` pairs; ``check_solver(game, bound)`` runs them.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

__all__ = ["check_solver", "solver_checks", "reference_outcomes", "reference_grundy"]


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
            else:  # an option of a sum of heaps is a tuple of single heaps: the xor of theirs
                x = 0
                for heap in option:
                    x ^= grundy((heap,))
                values.add(x)
        g = 0
        while g in values:
            g += 1
        return g

    return {p: grundy(p) for p in positions}


def solver_checks(game, bound=None):
    """The named checks of ``solvers.solve`` on ``game.universe(bound)`` (default ``games.checks.small_bound``).

    Examples
    --------
    >>> from games import make_game
    >>> [name for name, _ in solver_checks(make_game("nim", heaps=2), 6)][:2]
    ['outcomes_match_reference', 'grundy_match_reference']
    """
    from games.checks import small_bound
    from solvers import build_graph, solve
    from solvers.grundy import topological_order

    bound = small_bound(game) if bound is None else bound
    universe = game.universe(bound)
    positions = [tuple(int(x) for x in p) for p in universe.positions()]
    graph = build_graph(game, universe)
    try:
        topological_order(graph)
        loopy = False
    except ValueError:
        loopy = True
    grundy_defined = game.impartial and not game.misere and not loopy

    @functools.cache
    def solved(grundy: bool = False, remoteness: bool = False):
        return solve(game, bound=bound, grundy=grundy, remoteness=remoteness)

    @functools.cache
    def outcomes():
        if game.parts > 1:
            values = reference_grundy(game, positions)
            return np.array([1 if values[p] else -1 for p in positions])
        values = reference_outcomes(game, positions)
        return np.array([values[p] for p in positions])

    def outcomes_match_reference():
        got = solved().outcome_table
        wrong = np.flatnonzero(got != outcomes())
        assert wrong.size == 0, (f"{wrong.size} outcomes differ from the reference, first at {positions[wrong[0]]}: "
                                 f"solver {got[wrong[0]]}, reference {outcomes()[wrong[0]]}")

    def grundy_match_reference():
        if not grundy_defined:
            try:
                solve(game, bound=bound, grundy=True)
            except ValueError:
                return
            raise AssertionError("Grundy values of a partizan, misere or loopy game must be refused")
        got = solved(grundy=True).grundy_table
        values = reference_grundy(game, positions)
        expected = np.array([values[p] for p in positions])
        wrong = np.flatnonzero(got != expected)
        assert wrong.size == 0, f"{wrong.size} Grundy values differ, first at {positions[wrong[0]]}"
        assert np.array_equal(got == 0, outcomes() == -1), "Grundy value 0 must be exactly the P positions"

    def no_draws_without_cycles():
        if loopy:
            return
        ends = np.flatnonzero(np.diff(graph.indptr) == 0)
        if (game.terminal_values(universe.positions(ends)) != 0).all():
            assert (solved().outcome_table != 0).all(), "a game that always ends, never on a drawn end, has no draws"

    def remoteness_consistent():
        if game.parts > 1:
            try:
                solve(game, bound=bound, remoteness=True)
            except ValueError:
                return
            raise AssertionError("remoteness of a sum of heaps must be refused")
        sol = solved(remoteness=True)
        assert np.array_equal(sol.outcome_table, outcomes()), "outcomes changed when remoteness was asked for"
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

    def symmetric_positions_same_outcome():
        if not game.universe_from_start:
            return
        sol = solved()
        points = sol.universe.positions()
        for image in game.symmetric_positions(points):
            assert np.array_equal(sol.outcome(image), sol.outcome_table), "a symmetric image has another outcome"

    yield "outcomes_match_reference", outcomes_match_reference
    yield "grundy_match_reference", grundy_match_reference
    yield "no_draws_without_cycles", no_draws_without_cycles
    yield "remoteness_consistent", remoteness_consistent
    yield "symmetric_positions_same_outcome", symmetric_positions_same_outcome


def check_solver(game, bound=None) -> None:
    """Run every check of ``solver_checks``; the first failure is an ``AssertionError`` naming its check.

    Examples
    --------
    >>> from games import make_game
    >>> check_solver(make_game("wythoff"), 8)
    """
    from cgbase.checks import run_checks

    run_checks(solver_checks(game, bound))
