"""``games.checks``: the pickle check uses cloudpickle, as the parallel workers do (issue 20, item 8)."""

from __future__ import annotations

import threading

import pytest

from games import custom_game
from games.checks import check_game, check_pickle_roundtrip
from solvers import solve


def test_a_game_whose_moves_are_a_lambda_passes_every_check_and_runs_on_workers():
    game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    check_game(game, 20)
    parallel = solve(game, bound=20, workers=2)
    assert parallel.outcome_table.tolist() == solve(game, bound=20).outcome_table.tolist()


def test_a_game_that_cannot_travel_to_a_worker_is_refused_with_the_reason():
    lock = threading.Lock()

    def moves(p):
        with lock:
            return [(p[0] - 1,)] if p[0] else []

    with pytest.raises(AssertionError, match="does not pickle with cloudpickle .*lock"):
        check_pickle_roundtrip(custom_game("locked", moves, dims=1), 5)
