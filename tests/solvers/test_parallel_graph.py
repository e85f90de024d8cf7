"""The move graph of a game written in Python, built on worker processes and on Ray: the graph of this process."""

from __future__ import annotations

import numpy as np
import pytest

from games import Universe, custom_game
from cgbase.parallel import Workers
from solvers import build_graph, solve


def take_one_or_two_from_either(p):
    """Two heaps: take 1 or 2 from one heap, or 1 from both (a game with no compiled kernel)."""
    moves = [(p[0] - t, p[1]) for t in (1, 2) if t <= p[0]] + [(p[0], p[1] - t) for t in (1, 2) if t <= p[1]]
    return moves + ([(p[0] - 1, p[1] - 1)] if min(p) >= 1 else [])


GAME = custom_game("take12-both", take_one_or_two_from_either, dims=2)
UNIVERSE = Universe([12, 12])


@pytest.fixture(scope="module")
def in_this_process():
    return build_graph(GAME, UNIVERSE)


def assert_same_graph(a, b):
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.targets, b.targets)


@pytest.mark.parametrize("workers", [1, 2, Workers("local", 2)], ids=["local-1", "local-2", "pool"])
def test_local_workers_build_the_graph_of_this_process(in_this_process, workers):
    assert in_this_process.indptr[-1] > 0
    assert_same_graph(build_graph(GAME, UNIVERSE, workers), in_this_process)


def test_ray_builds_the_graph_of_this_process(in_this_process, ray_instance):
    with Workers("ray") as pool:
        assert_same_graph(build_graph(GAME, UNIVERSE, pool), in_this_process)


def test_a_solve_on_workers_is_the_solve_in_this_process():
    here, there = solve(GAME, bound=9, grundy=True), solve(GAME, bound=9, grundy=True, workers=2)
    np.testing.assert_array_equal(here.outcome_table, there.outcome_table)
    np.testing.assert_array_equal(here.grundy_table, there.grundy_table)


def test_a_move_leaving_the_box_names_its_position_on_workers():
    escaping = custom_game("up", lambda p: [(p[0] + 1,)] if p[0] == 3 else [], dims=1)
    with pytest.raises(ValueError, match=r"\(3,\)"):
        build_graph(escaping, Universe([3]), 2)
