"""The measures on a stratified sample (``learners.alphazero.sampled``): the box's totals, the allocation, the
draws, and the estimate, which equals the exact measure when the sample is the whole box."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from games import make_game
from learners.alphazero.sampled import SampledScoring, check_box_sample, stratified_box_sample, total_counts
from solvers import solve


def test_the_totals_count_the_box():
    limits = [1, 3, 2, 4]
    box = np.array(list(itertools.product(*[range(x + 1) for x in limits])))
    assert total_counts(limits) == np.bincount(box.sum(axis=1)).tolist()
    assert sum(total_counts([15] * 20)) == 16 ** 20  # exact beyond 64-bit integers


def test_the_sample_is_proportional_by_total_and_uniform_within_a_total():
    limits = [1, 3, 5]
    counts = total_counts(limits)
    sample = stratified_box_sample(limits, 4800, np.random.default_rng(3))
    assert ((sample >= 0) & (sample <= limits)).all()
    per_total = np.bincount(sample.sum(axis=1), minlength=len(counts))
    assert per_total.tolist() == [4800 * c // sum(counts) for c in counts]  # 48 positions: exact shares of 4800
    at_four = Counter(map(tuple, sample[sample.sum(axis=1) == 4]))
    assert len(at_four) == counts[4] and max(at_four.values()) < 2 * min(at_four.values())
    again = stratified_box_sample(limits, 4800, np.random.default_rng(3))
    assert (again == sample).all()  # seeded


def test_a_box_too_large_to_sample_is_refused():
    with pytest.raises(ValueError, match="at most 1000"):
        check_box_sample([600, 600])
    with pytest.raises(ValueError, match="at least one coordinate"):
        stratified_box_sample([], 3, np.random.default_rng(0))


def test_on_the_whole_box_the_estimate_is_the_exact_measure():
    pytest.importorskip("torch")
    from learners.alphazero.learner import AlphaZeroLearner

    game, start = make_game("nim", heaps=3), (1, 3, 5)
    learner = AlphaZeroLearner(hidden=(8,), random_state=0)
    learner.fit(game, start=start, iterations=1, games_per_iteration=4, simulations=4, eval_every=1, eval_games=4)
    exact = learner.history_[-1]
    box = np.array(list(itertools.product(*[range(x + 1) for x in start])))
    measured = SampledScoring(game, box, solve(game, starts=[start]), "the solver").measure(learner.policy_value_)
    assert measured["optimal_move_rate"] == pytest.approx(exact["optimal_move_rate"])
    assert measured["value_accuracy"] == pytest.approx(exact["value_accuracy"])
    assert measured["optimal_move_rate_low"] <= measured["optimal_move_rate"] <= measured["optimal_move_rate_high"]
