"""Graphs of games written in Python kept inside ``keep_graphs()``: ``moves()`` is called once per position."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from discover.find import FindSettings, find_rule
from games import Universe, custom_game
from games.symbolic import take_from_one
from solvers import build_graph
from solvers import graph as graph_module
from solvers.graph_store import graph_options, has_edges, keep_graphs, kept_graph


def counted(moves):
    """``moves`` with a count of its calls per position."""
    calls = Counter()

    def counting(p):
        calls[tuple(p)] += 1
        return moves(p)

    counting.calls = calls
    return counting


def king(p):
    a, b = p
    return [(x, y) for x, y in ((a - 1, b), (a, b - 1), (a - 1, b - 1)) if x >= 0 and y >= 0]


def nim3(p):
    return [p[:i] + (p[i] - t,) + p[i + 1:] for i in range(3) for t in range(1, p[i] + 1)]


def assert_same_graph(a, b):
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.targets, b.targets)


def test_a_kept_graph_answers_its_universe_and_the_boxes_inside_it_without_moves():
    moves = counted(king)
    game = custom_game("king", moves, dims=2)
    with keep_graphs():
        big = build_graph(game, Universe([12, 9]))
        before = sum(moves.calls.values())
        assert build_graph(game, Universe([12, 9])) is big
        small = build_graph(game, Universe([5, 7]))
        assert sum(moves.calls.values()) == before
    assert_same_graph(small, build_graph(custom_game("king", king, dims=2), Universe([5, 7])))


@pytest.mark.parametrize("workers", [None, 2])
def test_a_larger_box_takes_the_rows_of_a_kept_smaller_one(monkeypatch, workers):
    monkeypatch.setattr(graph_module, "BATCH_MOVES", 50)  # batches that mix kept rows and new ones
    moves = counted(king)
    game = custom_game("king", moves, dims=2)
    with keep_graphs():
        build_graph(game, Universe([9, 5]))
        graph = build_graph(game, Universe([20, 17]), workers)
    if workers is None:  # (workers count their own calls)
        assert len(moves.calls) == 21 * 18 and set(moves.calls.values()) == {1}
    assert_same_graph(graph, build_graph(custom_game("king", king, dims=2), Universe([20, 17])))


def test_nothing_is_kept_outside_the_context():
    moves = counted(king)
    game = custom_game("king", moves, dims=2)
    with keep_graphs():
        build_graph(game, Universe([6, 6]))
    calls = sum(moves.calls.values())
    build_graph(game, Universe([6, 6]))
    assert sum(moves.calls.values()) > calls and kept_graph(game, Universe([6, 6])) is None


def test_a_box_whose_moves_leave_it_is_not_cut_and_its_build_names_the_move():
    up = custom_game("up", lambda p: [(p[0] + 1,)] if p[0] < 9 else [], dims=1)
    with keep_graphs():
        build_graph(up, Universe([9]))
        assert kept_graph(up, Universe([4])) is None
        with pytest.raises(ValueError, match=r"from \(4,\) to \(5,\) leaves the universe"):
            build_graph(up, Universe([4]))


def test_another_game_with_the_same_name_is_not_answered_from_the_kept_graph():
    with keep_graphs():
        build_graph(custom_game("g", king, dims=2), Universe([4, 4]))
        assert kept_graph(custom_game("g", king, dims=2), Universe([4, 4])) is None


def test_options_read_from_a_graph_are_those_of_moves():
    game = custom_game("king", king, dims=2)
    universe = Universe([7, 7])
    graph = build_graph(game, universe)
    positions = universe.positions(np.array([0, 9, 63, 20]))
    counts, options = graph_options(graph, universe, positions)
    assert counts.tolist() == [len(king(tuple(p))) for p in positions.tolist()]
    assert list(map(tuple, options.tolist())) == [o for p in positions.tolist() for o in king(tuple(p))]
    ids = universe.index(positions)
    assert has_edges(graph, ids, universe.index(positions - 1, strict=False)).tolist() == [False, True, True, True]


@pytest.mark.parametrize("relation, infer", [(None, False), (None, True), (take_from_one(3), True)],
                         ids=["moves only", "inferred relation", "stated relation"])
def test_find_rule_calls_moves_once_a_position(relation, infer):
    """The verification graph first (its sample included; the relation inferred from it), the training one cut
    from it; the strategy search, its check, the relation's check against moves(), self-play and the proof read
    the kept graph."""
    moves = counted(nim3)
    settings = FindSettings(bound=5, verify_bound=14, games=10, infer_relation=infer)
    found = find_rule(custom_game("nim3", moves, dims=3, relation=relation), settings=settings)
    assert found.status == "verified" and found.strategy is not None
    assert (found.proof.status == "proved") == (relation is not None or infer)
    assert len(moves.calls) == 15 ** 3 and set(moves.calls.values()) == {1}


def test_a_graph_build_calls_moves_once_a_position():
    moves = counted(king)
    graph = build_graph(custom_game("king", moves, dims=2), Universe([40, 30]))  # its sample reused
    assert len(moves.calls) == 41 * 31 and set(moves.calls.values()) == {1}
    universe = Universe([40, 30])
    options = [king(p) for p in map(tuple, universe.positions().tolist())]
    np.testing.assert_array_equal(graph.indptr, np.cumsum([0] + [len(o) for o in options]))
    np.testing.assert_array_equal(graph.targets[:, 0], universe.index(np.array(sum(options, []))))
