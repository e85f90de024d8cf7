"""Pseudo-counts: the formula, the context tree switching model against hand values, board densities."""

from __future__ import annotations

import copy
from math import log

import numpy as np
import pytest

from games import make_game
from learners.exploration.density import BoardDensity, ContextTreeSwitching, pseudo_count


@pytest.mark.parametrize("count, total", [(0, 5), (2, 4), (3, 10), (250, 1000)])
def test_pseudo_count_of_the_empirical_distribution_is_the_count(count, total):
    p, p_after = count / total, (count + 1) / (total + 1)
    expected = float(count) if count else 0.0
    assert pseudo_count(np.log([p]) if p else [-np.inf], np.log([p_after]))[0] == pytest.approx(expected, abs=1e-9)


def test_pseudo_count_is_infinite_when_observing_does_not_raise_the_probability():
    assert pseudo_count([log(0.5)], [log(0.5)])[0] == np.inf
    assert pseudo_count([log(0.5)], [log(0.4)])[0] == np.inf


def test_context_tree_switching_against_hand_values():
    # cell 1 is predicted from cell 0 (a depth-1 tree); cell 0 has only the off-board context
    model = ContextTreeSwitching(np.array([[-1], [0]]))
    first = model.observe(np.array([[0, 1]]))[0]
    assert np.exp(first) == pytest.approx([1 / 9, 0.6 * 0.6])
    second = np.exp(model.observe(np.array([[1, 1]]))[0])
    # cell 0: KT (0 + 1/2) / (1 + 3/2) at root and leaf alike; cell 1, new context: root KT 3/5, leaf KT 1/3, equal
    # weights after the first update (alpha = 1/2 mixes them back to 1/6 each)
    assert second[0] == pytest.approx(0.2 * (0.5 * 0.6 + 0.5 / 3))
    stay = (2 / 3) * 0.6 / 6 + (1 / 3) * (1 / 3) / 6  # switching update with alpha = 1/3
    split = (2 / 3) * (1 / 3) / 6 + (1 / 3) * 0.6 / 6
    cell1_after = (stay * (2.5 / 3.5) + split * 0.6) / (stay + split)
    assert second[1] == pytest.approx((1.5 / 3.5) * cell1_after)


def test_context_tree_switching_probabilities_sum_to_one():
    model = ContextTreeSwitching(np.array([[-1, -1], [0, -1], [1, 0]]))
    model.observe(np.random.default_rng(0).integers(0, 3, size=(40, 3)))
    boards = np.array(np.meshgrid(*[range(3)] * 3)).reshape(3, -1).T  # all 27 boards of 3 cells
    total = sum(np.exp(copy.deepcopy(model).observe(board[None, :])[0, 0]) for board in boards)
    assert total == pytest.approx(1.0)


def test_board_density_counts_grow_with_visits_and_repeat_exactly():
    game = make_game("hex", n=3)
    seen, fresh = np.array([[16, 1]]), np.array([[1, 256]])
    density = BoardDensity(game, hexagonal=True)
    counts = density.observe(np.repeat(seen, 6, axis=0))
    assert (np.diff(counts) > 0).all() and counts[-1] > 3
    assert density.observe(fresh)[0] < counts[-1]
    again = BoardDensity(game, hexagonal=True)
    assert np.array_equal(again.observe(np.repeat(seen, 6, axis=0)), counts)


def test_board_density_symbols():
    density = BoardDensity(make_game("hex", n=2), hexagonal=True)
    assert density.symbols(np.array([[0b1001, 0b0100]])).tolist() == [[1, 0, 2, 1]]
    boards = BoardDensity(make_game("notakto", n=2, k=2, boards=2), hexagonal=False)
    assert boards.symbols(np.array([[0b0001, 0b1000]])).tolist() == [[1, 0, 0, 0, 0, 0, 0, 1]]
    with pytest.raises(ValueError, match="symbols"):
        density.model.observe(np.array([[0, 3, 0, 0]]))
