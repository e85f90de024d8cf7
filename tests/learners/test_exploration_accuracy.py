"""The exact measure against a plain brute force on Hex 3 x 3, and its search-based forms against the retrograde."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from games import make_game
from learners.exploration.accuracy import ExactMeasure, OpeningMeasure, random_positions, searched_wins
from solvers import solve

HEX3 = make_game("hex", n=3)


@lru_cache(maxsize=None)
def _wins(position: tuple[int, int]) -> bool:
    """Plain minimax: whether the player to move at ``position`` wins (Hex 3 x 3, no solver code)."""
    if HEX3.winner(position) is not None:
        return False  # the previous player connected
    return any(not _wins(option) for option in HEX3.moves(position))


def _scores(P: np.ndarray) -> np.ndarray:
    """A fixed scrambled score per position and output cell (the measure must follow whatever it says)."""
    cells = np.arange(9)
    return np.sin(3.1 * P[:, :1] + 1.7 * P[:, 1:] + 0.37 * cells[None, :] ** 2)


def _brute_force_accuracy() -> tuple[int, float]:
    good = total = 0
    for position in map(tuple, solve(HEX3).universe.positions().tolist()):
        if not _wins(position):
            continue
        a, b = position
        second = a.bit_count() != b.bit_count()
        best, best_win = -np.inf, False
        for option in HEX3.moves(position):
            cell = ((option[0] ^ a) | (option[1] ^ b)).bit_length() - 1
            out = (cell % 3) * 3 + cell // 3 if second else cell  # the network sees the second player reflected
            score = _scores(np.array([position]))[0, out]
            if score > best:
                best, best_win = score, not _wins(option)
        total += 1
        good += best_win
    return total, good / total


def test_exact_measure_against_a_brute_force_on_hex_3():
    total, accuracy = _brute_force_accuracy()
    measure = ExactMeasure.from_solution(solve(HEX3))
    assert len(measure) == total
    assert measure(_scores)["accuracy"] == pytest.approx(accuracy)
    assert measure(lambda P: np.zeros((len(P), 9)))["accuracy"] < accuracy < 1  # a different policy, another share


def test_a_sample_is_seeded_and_inside_the_n_positions():
    solution = solve(HEX3)
    sample = ExactMeasure.from_solution(solution, sample=500, seed=3)
    assert len(sample) == 500 and (solution.outcome(sample.positions) == 1).all()
    assert np.array_equal(sample.positions, ExactMeasure.from_solution(solution, sample=500, seed=3).positions)
    assert not np.array_equal(sample.positions, ExactMeasure.from_solution(solution, sample=500, seed=4).positions)


def test_search_values_agree_with_the_retrograde_on_hex_4():
    game = make_game("hex", n=4)
    positions = random_positions(game, 40, (3, 10), seed=0)
    solution = solve(game, starts=positions)
    counts, options, wins = searched_wins(game, positions)
    assert np.array_equal(wins, solution.outcome(options) == -1)
    measure = ExactMeasure.from_search(game, positions)
    assert (solution.outcome(measure.positions) == 1).all()
    assert len(measure) == int((solution.outcome(positions) == 1).sum())


def test_the_hex_solver_values_moves_as_the_retrograde_does():
    from solvers.hex_solver import HexSolver

    game = make_game("hex", n=4)
    positions = random_positions(game, 30, (2, 9), seed=5)
    solution = solve(game, starts=positions)
    counts, options, wins = searched_wins(game, positions, HexSolver(4))
    assert np.array_equal(wins, solution.outcome(options) == -1) and wins.any() and not wins.all()


def test_openings_by_search_and_by_retrograde_agree():
    solution = solve(HEX3)
    by_search, by_retrograde = OpeningMeasure.from_search(HEX3), OpeningMeasure.from_solution(solution)
    assert np.array_equal(by_search.wins, by_retrograde.wins)
    winning = by_search.wins.astype(float)
    perfect = by_search(lambda P: np.where(winning, 3.0, -3.0)[None, :])
    assert perfect["opening_wins"] == 1.0 and perfect["opening_agreement"] == 1.0 and perfect["opening_auc"] == 1.0
    backwards = by_search(lambda P: np.where(winning, -3.0, 3.0)[None, :])
    assert backwards["opening_wins"] == 0.0 and backwards["opening_auc"] == 0.0 and len(backwards["opening_q"]) == 9


def test_random_positions_are_live_seeded_and_in_range():
    game = make_game("hex", n=5)
    P = random_positions(game, 30, (4, 12), seed=2)
    stones = np.bitwise_count(P).sum(axis=1)
    assert ((stones >= 4) & (stones <= 12)).all() and all(game.moves(tuple(p)) for p in P)
    assert np.array_equal(P, random_positions(game, 30, (4, 12), seed=2))
    with pytest.raises(ValueError, match="stones"):
        random_positions(game, 3, (5, 2))


def test_a_measure_needs_winning_moves():
    with pytest.raises(ValueError, match="winning move"):
        ExactMeasure(HEX3, np.array([[16, 0]]), np.zeros(8, dtype=bool))
    with pytest.raises(ValueError, match="one flag per move"):
        ExactMeasure(HEX3, np.array([[0, 0]]), np.ones(3, dtype=bool))
