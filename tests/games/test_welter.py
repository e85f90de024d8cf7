"""Welter's game: coins on distinct squares, one moved to an empty square below; the two-coin P positions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from games import make_game
from games.symbolic import CoinSlides, relation_from_record
from solvers import solve


def test_a_coin_jumps_to_any_empty_square_below_and_the_squares_stay_sorted():
    game = make_game("welter", coins=3)
    assert sorted(game.moves((5, 3, 1))) == sorted([(4, 3, 1), (3, 2, 1), (3, 1, 0), (5, 2, 1), (5, 1, 0),
                                                    (5, 3, 0)])
    assert game.moves((2, 1, 0)) == []
    universe = game.universe(6)
    assert universe.size == 35 and (np.diff(universe.positions(), axis=1) < 0).all()
    assert relation_from_record(game.move_relation().to_record()) == CoinSlides()
    with pytest.raises(ValueError, match="at least 2"):
        game.universe(1)


def test_the_relation_allows_exactly_the_kernels_options():
    game = make_game("welter", coins=3)
    pool = np.array([p for p in itertools.product(range(7), repeat=3) if p[0] > p[1] > p[2]])
    for p in game.universe(6).positions():
        allowed = game.move_relation().allows(np.repeat(p[None, :], len(pool), axis=0), pool)
        assert {tuple(q) for q in pool[allowed].tolist()} == set(game.moves(tuple(p)))


def test_two_coins_lose_on_2j_plus_1_and_2j():
    solution = solve(make_game("welter", coins=2), bound=40)
    positions = solution.universe.positions()
    assert np.array_equal(solution.outcome_table == -1, (positions[:, 0] ^ positions[:, 1]) == 1)
