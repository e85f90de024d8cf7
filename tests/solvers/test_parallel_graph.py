"""The move graph of a game written in Python, built on worker processes and on Ray: the graph of this process."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from games import Universe, custom_game
from cgbase import parallel
from cgbase.parallel import Workers
from solvers import build_graph, solve
from solvers import graph as graph_module


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


@pytest.mark.parametrize("workers", [1, 2, Workers("local", 2), Workers("local", 2, start="fork")],
                         ids=["local-1", "local-2", "pool", "fork"])
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


# -- the batched builder against the options of every position, one ``moves()`` call at a time -------------------
def as_lists(p):
    return [list(o) for o in take_one_or_two_from_either(p)]


def as_generator(p):
    return (o for o in take_one_or_two_from_either(p))


def numpy_coordinates(p):
    return [tuple(np.int64(x) for x in o) for o in take_one_or_two_from_either(p)]


def mixed(p):
    """Tuples on most positions, lists on some: one block reads both."""
    return as_lists(p) if sum(p) % 5 == 0 else take_one_or_two_from_either(p)


def reference_graph(game, universe):
    """The old builder: ``moves()`` of each position, one after another."""
    options = [game.moves(p) for p in universe.positions()]
    indptr = np.concatenate([[0], np.cumsum([len(o) for o in options])])
    flat = np.array([o for opts in options for o in opts], dtype=np.int64).reshape(-1, game.dims)
    return indptr, universe.index(flat).reshape(-1, 1)


@pytest.mark.parametrize("moves", [take_one_or_two_from_either, as_lists, as_generator, numpy_coordinates, mixed])
def test_the_batched_graph_is_the_moves_of_every_position(moves):
    game = custom_game("shapes", moves, dims=2)
    graph = build_graph(game, UNIVERSE, Workers("serial"))
    indptr, targets = reference_graph(game, UNIVERSE)
    np.testing.assert_array_equal(graph.indptr, indptr)
    np.testing.assert_array_equal(graph.targets, targets)


def test_every_worker_count_builds_the_same_graph(in_this_process, monkeypatch):
    monkeypatch.setattr(graph_module, "PARALLEL_MOVES", 0)  # the default starts local workers on this tiny graph
    monkeypatch.setattr(graph_module, "BATCH_MOVES", 7)  # and batches of a few positions
    for workers in (None, Workers("serial"), 1, 3):
        assert_same_graph(build_graph(GAME, UNIVERSE, workers), in_this_process)


@pytest.mark.parametrize("safe, start", [(True, "fork"), (False, "spawn")])
def test_default_workers_start_by_fork_where_it_is_safe(monkeypatch, safe, start):
    monkeypatch.setattr(graph_module, "PARALLEL_MOVES", 0)
    monkeypatch.setattr(parallel, "fork_is_safe", lambda: safe)
    pool = graph_module._python_pool(GAME, 1.0, None)
    assert (pool.backend, pool.start_method) == ("local", start)


def test_fork_is_not_safe_beside_another_thread():
    waiting = threading.Thread(target=threading.Event().wait, args=(5,), daemon=True)
    waiting.start()  # a fork could copy a lock this thread holds
    assert not parallel.fork_is_safe()


def test_fork_is_safe_under_the_commands_ctrl_c_watchdog():
    """Every command runs inside discover.app.cli.interrupt.watch(): its watchdog thread must not rule fork out."""
    from discover.app.cli.interrupt import watch

    before = parallel.fork_is_safe()
    with watch():
        assert any(t.name.startswith("fork-safe") for t in threading.enumerate())
        assert parallel.fork_is_safe() == before


@pytest.mark.parametrize("args, words", [({"start": "thread"}, "unknown start method 'thread'"),
                                         ({"backend": "ray", "start": "fork"}, "use it with backend 'local'")])
def test_a_bad_start_method_is_refused(args, words):
    with pytest.raises(ValueError, match=words):
        Workers(**args)


def test_a_moves_that_cannot_travel_to_workers_runs_here(monkeypatch):
    lock = threading.Lock()

    def locked(p):
        with lock:
            return take_one_or_two_from_either(p)

    monkeypatch.setattr(graph_module, "PARALLEL_MOVES", 0)
    assert_same_graph(build_graph(custom_game("locked", locked, dims=2), UNIVERSE), build_graph(GAME, UNIVERSE))


@pytest.mark.parametrize("coordinate, words", [(2**70, "must fit in 64 bits"), (1.0, "must be integers"),
                                               (True, "must be integers")])
def test_a_bad_coordinate_in_a_block_names_the_position(coordinate, words):
    game = custom_game("odd", lambda p: [(0, 0)] + ([(coordinate, 0)] if p == (3, 4) else []), dims=2)
    with pytest.raises(ValueError, match=rf"'odd' at \(3, 4\) returned .*{words}"):
        build_graph(game, UNIVERSE, Workers("serial"))
