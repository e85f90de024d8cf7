"""AlphaZero's self-play in shards on worker processes and on Ray: the same fit whatever runs the shards."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from cgbase.parallel import Workers
from learners.alphazero.learner import AlphaZeroLearner

NIM = make_game("nim", heaps=2)
FIT = dict(bound=3, iterations=2, games_per_iteration=6, simulations=6, eval_games=6)
TIMINGS = ("seconds", "cpu_seconds")


def fitted(**options):
    return AlphaZeroLearner(hidden=(16,), batch_size=16, random_state=3).fit(NIM, **FIT, **options)


def numbers(learner):
    history = [{k: v for k, v in record.items() if k not in TIMINGS} for record in learner.history_]
    return history, learner.policy_value_.state()


def assert_same(a, b):
    (history_a, weights_a), (history_b, weights_b) = numbers(a), numbers(b)
    assert history_a == history_b
    assert all(np.array_equal(weights_a[k], weights_b[k]) for k in weights_a)


@pytest.fixture(scope="module")
def in_this_process():
    return fitted(shards=3)


def test_local_workers_give_the_fit_of_this_process(in_this_process):
    assert_same(fitted(shards=3, workers=2), in_this_process)
    assert_same(fitted(shards=3, workers=Workers("local", 1)), in_this_process)


def test_ray_gives_the_fit_of_this_process(in_this_process, ray_instance):
    assert_same(fitted(shards=3, workers=Workers("ray")), in_this_process)


def test_shards_change_the_numbers_and_unsharded_fits_stay_as_they_were(in_this_process):
    assert numbers(fitted(shards=2))[0] != numbers(in_this_process)[0]
    assert_same(fitted(), fitted())


def test_workers_need_shards():
    with pytest.raises(ValueError, match="needs shards"):
        fitted(workers=2)
    with pytest.raises(ValueError, match="shards must be a positive integer"):
        fitted(shards=0)
