"""Property-based: random small custom games, solved, against plain brute force over their ``moves``.

Games are drawn by hypothesis (derandomized: every run draws the same games): one- and two-coordinate
move relations, acyclic (every move lowers the coordinate sum) or loopy (moves may go anywhere, so
draws appear), normal or misere play. Each goes through ``solvers.checks.check_solver`` (outcomes by
fixed-point iteration, Grundy values by mex recursion, remoteness by its definition) and, when
acyclic, against a plain minimax recursion written here.
"""

from __future__ import annotations

import functools
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from games import custom_game
from games.checks import check_game
from solvers import solve
from solvers.checks import check_solver

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


class TableMoves:
    """A move relation given as a table: position -> options (module level, so the game pickles)."""

    def __init__(self, table: dict):
        self.table = table

    def __call__(self, position):
        return list(self.table.get(position, []))


@st.composite
def random_games(draw):
    dims = draw(st.integers(1, 2))
    side = draw(st.integers(1, 7 if dims == 1 else 4))
    positions = list(itertools.product(range(side + 1), repeat=dims))
    loopy = draw(st.booleans())
    table = {}
    for p in positions:
        targets = positions if loopy else [q for q in positions if sum(q) < sum(p)]
        chosen = draw(st.lists(st.sampled_from(targets), max_size=3, unique=True)) if targets else []
        table[p] = [q for q in chosen if q != p]
    misere = draw(st.booleans())
    return custom_game("random", TableMoves(table), dims=dims, misere=misere), side, loopy


def minimax(game, position) -> int:
    @functools.cache
    def value(p):
        options = game.moves(p)
        if not options:
            return int(game.terminal_values([p])[0])
        return max(-value(o) for o in options)

    return value(position)


@SETTINGS
@given(random_games())
def test_random_games_solve_as_brute_force_says(drawn):
    game, side, loopy = drawn
    check_game(game, side)
    check_solver(game, side)
    if not loopy:
        solution = solve(game, bound=side)
        for i, p in enumerate(solution.universe.positions()):
            position = tuple(int(x) for x in p)
            assert solution.outcome_table[i] == minimax(game, position), position
