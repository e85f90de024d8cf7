"""The exact measure on positions met in play: the solver with virtual connections against the retrograde on
Hex 4 x 4, the budget's unsettled positions counted, the stratified sample, proved targets beyond 5 x 5."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from learners.exploration import BoardQLearner
from learners.exploration.boards import BoardActions
from learners.exploration.guidance import ProvedTargets
from learners.exploration.played import SolvedMeasure, played_positions, stratified_sample
from solvers import solve
from solvers.hex_solver import HexSolver

HEX4 = make_game("hex", n=4)


def _random_scores(seed):
    rng = np.random.default_rng(seed)
    return lambda P: rng.random((len(P), HEX4.n * HEX4.n))


@pytest.fixture(scope="module")
def pool():
    return played_positions(HEX4, [_random_scores(1), _random_scores(2)], games=20, epsilon=0.2, seed=3)


def test_played_positions_are_distinct_live_and_seeded(pool):
    assert len(np.unique(pool, axis=0)) == len(pool) and (BoardActions(HEX4).expand(pool)[0] > 0).all()
    assert (pool == 0).all(axis=1).any()  # the empty board starts every game
    again = played_positions(HEX4, [_random_scores(1), _random_scores(2)], games=20, epsilon=0.2, seed=3)
    assert np.array_equal(pool, again)


def test_the_sample_takes_the_same_number_at_every_move_number(pool):
    sample = stratified_sample(pool, 60, seed=0)
    moves = np.bitwise_count(sample).sum(axis=1)
    strata = np.unique(np.bitwise_count(pool).sum(axis=1))
    per = -(-60 // strata.size)
    for s in strata:
        assert (moves == s).sum() == min(per, (np.bitwise_count(pool).sum(axis=1) == s).sum())
    assert np.array_equal(sample, stratified_sample(pool, 60, seed=0))
    assert not np.array_equal(sample, stratified_sample(pool, 60, seed=1))


def test_the_solved_measure_agrees_with_the_retrograde(pool):
    solution = solve(HEX4)
    sample = stratified_sample(pool, 80, seed=0)
    measure = SolvedMeasure(HEX4, sample, nodes=100_000)
    outcome = solution.outcome(sample)
    assert measure.unsettled == 0 and measure.lost == int((outcome == -1).sum())
    assert np.array_equal(measure.positions, sample[outcome == 1])
    scores = _random_scores(5)(measure.positions)
    values = measure.greedy_values(lambda P: scores)
    counts, options, actions = BoardActions(HEX4).expand(measure.positions)
    starts = np.concatenate([[0], np.cumsum(counts)])
    best = [starts[i] + int(np.argmax(scores[i, actions[starts[i]:starts[i + 1]]])) for i in range(len(counts))]
    assert np.array_equal(values, -solution.outcome(options[best]).astype(np.int64))
    result = measure(lambda P: scores)
    assert result["won"] == int((values == 1).sum()) and result["settled"] == len(measure)
    assert 0 < result["accuracy"] < 1


def test_positions_the_budget_does_not_settle_are_counted_not_guessed():
    game = make_game("hex", n=6)
    early = played_positions(game, [lambda P: np.zeros((len(P), 36))], games=2, epsilon=1.0, seed=0)
    early = early[np.bitwise_count(early).sum(axis=1) <= 2]
    measure = SolvedMeasure(game, early, nodes=1)
    assert measure.unsettled > 0 and measure.unsettled + measure.lost + len(measure) == measure.sampled == len(early)


def test_bad_input():
    with pytest.raises(ValueError, match="nodes must be a positive integer"):
        SolvedMeasure(HEX4, np.zeros((1, 2), dtype=np.int64), nodes=0)
    with pytest.raises(ValueError, match="needs Hex up to 7 x 7"):
        SolvedMeasure(make_game("tictactoe"), np.zeros((1, 2), dtype=np.int64), nodes=10)


def test_proved_targets_on_6x6_come_from_the_solver_with_virtual_connections():
    game = make_game("hex", n=6)
    BoardQLearner(solver_nodes=5, must_play=True).check_game(make_game("hex", n=7))  # no longer refused
    P = played_positions(game, [lambda P: np.zeros((len(P), 36))], games=3, epsilon=1.0, seed=4)
    late = P[np.bitwise_count(P).sum(axis=1) >= 16][:40]
    targets = ProvedTargets(game, nodes=200).targets(late)
    solver = HexSolver(6)
    truth = np.array([solver.value(int(a), int(b)) for a, b in late])
    settled = np.isfinite(targets)
    assert settled.sum() > len(late) // 2
    assert np.array_equal(targets[settled], (1.0 - truth[settled]) / 2.0)
