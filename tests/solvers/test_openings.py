"""``solvers.openings``: the value of every first move of a board game."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.openings import openings
from games import make_game
from solvers import solve


@pytest.mark.parametrize("name, params", [("hex", {"n": 4}), ("notakto", {"n": 3, "boards": 2}), ("tictactoe", {})])
def test_values_are_the_solver_values_of_each_move(name, params):
    game = make_game(name, **params)
    sol = solve(game)
    result = openings(game, sol)
    options = np.asarray(game.moves(game.start))
    assert result.moves == len(options) and result.start_value == int(sol.outcome([game.start])[0])
    assert sorted(result.values[np.isfinite(result.values)].tolist()) == sorted((-sol.outcome(options)).tolist())


def test_known_openings():
    hex4 = make_game("hex", n=4)
    short_diagonal = np.fliplr(np.eye(4))  # the cells (r, 3 - r)
    np.testing.assert_array_equal(openings(hex4, solve(hex4)).values[0], 2 * short_diagonal - 1)
    ttt = make_game("tictactoe")
    assert openings(ttt, solve(ttt)).count(0) == 9  # every first move draws
    assert openings(make_game("notakto", n=3)).text() == "L L L\nL W L\nL L L"  # by search: only the centre


def test_search_and_retrograde_agree():
    game = make_game("hex", n=3)
    np.testing.assert_array_equal(openings(game).values, openings(game, solve(game)).values)


def test_bad_input():
    with pytest.raises(ValueError, match="board games"):
        openings(make_game("nim", heaps=2))
    with pytest.raises(ValueError, match="not tictactoe"):
        openings(make_game("tictactoe"))  # draws: the search does not know the game
    with pytest.raises(ValueError, match="the solution is of hex"):
        openings(make_game("hex", n=2), solve(make_game("hex", n=3)))
