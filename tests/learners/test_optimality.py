"""Exact optimality of a policy (``learners.optimality``), checked against brute force on small games.

The truth here is a memoised negamax over ``game.moves`` and ``game.terminal_values`` written in this file,
independent of the solver the scores read: a perfect policy scores 1.0 exactly, and a random policy scores the
share brute force gives (in expectation, and move by move for the same seed).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pytest

from games import make_game
from learners.agents import GreedyAgent, OptimalAgent, RandomAgent
from learners.optimality import (counted_positions, expected_optimal_move_share, optimal_move_share,
                                 stratified_sample, win_rates)
from solvers import solve

GAMES = [pytest.param(make_game("tictactoe"), None, id="tictactoe"),
         pytest.param(make_game("wythoff"), 6, id="wythoff-6"),
         pytest.param(make_game("nim", heaps=3), 3, id="nim-3-heaps-3"),
         pytest.param(make_game("nim", heaps=2, misere=True), 4, id="misere-nim-2-heaps-4")]


def brute_force(game):
    """The value for the player to move of any position, by negamax over the game's own moves."""

    @functools.cache
    def value(position) -> int:
        options = game.moves(position)
        if not options:
            return int(game.terminal_values([position])[0])
        return max(-value(o) for o in options)

    return value


def mattering(game, solution):
    """Positions (in universe order) with a move that are won or drawn, by brute force."""
    value = brute_force(game)
    positions = [tuple(int(x) for x in p) for p in solution.universe.positions()]
    return [p for p in positions if game.moves(p) and value(p) >= 0], value


@pytest.mark.parametrize("game, bound", GAMES)
def test_a_perfect_policy_scores_one_exactly(game, bound):
    solution = solve(game, bound=bound)
    share = optimal_move_share(solution, OptimalAgent(solution), sample=None)
    assert (share["share"], share["optimal"]) == (1.0, share["asked"])
    assert expected_optimal_move_share(solution, OptimalAgent(solution)) == 1.0
    rates = win_rates(solution, OptimalAgent(solution), sample=None, random_state=3)
    assert rates["overall"]["kept"][0] == rates["overall"]["kept"][1] > 0
    assert rates["in_play"][0] == rates["in_play"][1]


@pytest.mark.parametrize("game, bound", GAMES)
def test_a_random_policy_scores_the_brute_force_share(game, bound):
    solution = solve(game, bound=bound)
    positions, value = mattering(game, solution)
    assert len(positions) == counted_positions(solution).size
    exact = sum(Fraction(sum(value(o) == -value(p) for o in game.moves(p)), len(game.moves(p))) for p in positions)
    assert expected_optimal_move_share(solution, RandomAgent()) == pytest.approx(float(exact / len(positions)),
                                                                                rel=1e-12)
    rng = np.random.default_rng(11)  # the same draws, one per position in universe order
    hits = 0
    for p in positions:
        options = game.moves(p)
        hits += value(options[rng.integers(len(options))]) == -value(p)
    measured = optimal_move_share(solution, RandomAgent(), sample=None, random_state=11)
    assert (measured["optimal"], measured["asked"]) == (hits, len(positions))
    assert measured["low"] < measured["share"] < measured["high"]


def test_win_rates_count_each_seat_against_the_perfect_player():
    game = make_game("wythoff")
    solution = solve(game, bound=4)
    live = [tuple(p) for p in solution.universe.positions() if game.moves(tuple(p))]
    value = brute_force(game)
    rates = win_rates(solution, RandomAgent(), sample=None, random_state=0)
    assert rates["starts"] == len(live)
    assert rates["first"]["games"] == rates["second"]["games"] == len(live)
    # the perfect player never loses a start it can win: the policy wins only where its seat is won
    winnable_first = sum(value(p) == 1 for p in live)
    assert rates["first"]["wins"] <= winnable_first
    assert rates["second"]["wins"] <= len(live) - winnable_first
    assert rates["first"]["kept"][1] == winnable_first and rates["second"]["kept"][1] == len(live) - winnable_first


def test_a_learners_greedy_policy_is_scored():
    from learners.registry import fit_learner

    game = make_game("nim", heaps=2)
    table = fit_learner("q", game, bound=3, games=3000, seed=0).value_table_
    solution = solve(game, bound=3)
    greedy = GreedyAgent(table)
    exact = expected_optimal_move_share(solution, greedy)
    measured = optimal_move_share(solution, greedy, sample=None)
    assert 0.0 <= exact <= 1.0 and 0.0 <= measured["share"] <= 1.0
    ties = any(np.sum(table.q[a:b] == table.q[a:b].max()) > 1 for a, b in zip(table.indptr[:-1], table.indptr[1:])
               if b > a)
    if not ties:
        assert measured["share"] == pytest.approx(exact)


def test_the_sample_is_stratified_and_seeded():
    solution = solve(make_game("tictactoe"))
    ids = counted_positions(solution)
    first = optimal_move_share(solution, RandomAgent(), sample=200, random_state=5)
    again = optimal_move_share(solution, RandomAgent(), sample=200, random_state=5)
    assert first == again and first["sampled"] and first["asked"] == 200 and first["counted"] == ids.size
    picked = stratified_sample(solution, ids, 200, np.random.default_rng(0))
    stones = np.bitwise_count(solution.universe.positions(picked)).sum(axis=1)
    assert set(stones.tolist()) == set(range(9))  # every move number, the first move's too


def test_bad_input_is_refused():
    game = make_game("wythoff")
    solution = solve(game, bound=3)
    with pytest.raises(ValueError, match="not a move"):
        optimal_move_share(solution, lambda position: (9, 9))
    with pytest.raises(ValueError, match="sample must be a positive integer"):
        optimal_move_share(solution, RandomAgent(), sample=0)
    with pytest.raises(ValueError, match="games must be a positive integer"):
        win_rates(solution, RandomAgent(), games=0)
    with pytest.raises(TypeError, match="a policy is an Agent"):
        optimal_move_share(solution, 3)
