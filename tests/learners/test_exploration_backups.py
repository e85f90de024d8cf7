"""The Hex exploration paper's update targets and move scores against values computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from learners.exploration.backups import (exploration_greedy_scores, joint_target, joint_value, minimax_target,
                                          others_product_squared, pseudocount_targets, variance_target, win_value)

GOING_ON = np.array([np.nan])
ALL = np.ones((1, 3), dtype=bool)


def test_minimax_target_is_one_minus_the_best_legal_reply():
    q = np.array([[0.2, 0.7, 0.9]])
    mask = np.array([[True, True, False]])  # 0.9 is not a legal move: it must not count
    assert minimax_target(q, mask, GOING_ON) == pytest.approx([0.3])


def test_finished_games_give_the_win_value_whatever_the_network_says():
    q = np.full((3, 3), 0.4)
    terminal = np.array([-1.0, 0.0, 1.0])  # the player to move there lost, drew, won
    for target in (minimax_target(q, np.ones((3, 3), bool), terminal), joint_target(q, np.ones((3, 3), bool), terminal)):
        assert target.tolist() == [1.0, 0.5, 0.0]
    assert win_value(terminal).tolist() == [1.0, 0.5, 0.0]


def test_joint_backup_and_value_by_hand():
    q = np.array([[0.2, 0.7, 0.5]])
    assert joint_target(q, ALL, GOING_ON) == pytest.approx([0.8 * 0.3 * 0.5])
    assert joint_value(q, ALL) == pytest.approx([1 - 0.8 * 0.3 * 0.5])
    # every reply a sure loss for the opponent: the move surely won; one sure reply win: it surely lost
    assert joint_target(np.zeros((1, 3)), ALL, GOING_ON).tolist() == [1.0]
    assert joint_target(np.array([[0.0, 1.0, 0.3]]), ALL, GOING_ON).tolist() == [0.0]


def test_joint_backup_is_more_pessimistic_than_minimax_with_many_replies():
    # the paper's diagnosis: many replies with a small chance each make a loss look likely
    q = np.full((1, 20), 0.1)
    mask = np.ones((1, 20), dtype=bool)
    assert joint_target(q, mask, GOING_ON)[0] == pytest.approx(0.9 ** 20)
    assert joint_target(q, mask, GOING_ON)[0] < 0.2 < minimax_target(q, mask, GOING_ON)[0]


def test_others_product_against_a_plain_loop():
    rng = np.random.default_rng(0)
    q = rng.random((5, 6))
    q[0, 2] = 1.0  # a sure win among the others zeroes every other move's product, not its own
    mask = rng.random((5, 6)) < 0.8
    expected = np.ones_like(q)
    for i in range(5):
        for a in range(6):
            for b in range(6):
                if b != a and mask[i, b]:
                    expected[i, a] *= (1 - q[i, b]) ** 2
    assert np.allclose(others_product_squared(q, mask), expected)
    assert others_product_squared(q, mask)[0, 2] > 0 or not mask[0].any()


def test_exploration_greedy_choice_by_hand():
    q = np.array([[0.5, 0.2]])
    explore = np.array([[0.1, 0.3]])
    scores = exploration_greedy_scores(q, explore, np.ones((1, 2), dtype=bool))
    assert scores[0] == pytest.approx([(1 - 0.2) ** 2 * 0.1, (1 - 0.5) ** 2 * 0.3])  # 0.064 and 0.075
    assert scores.argmax() == 1
    assert exploration_greedy_scores(q, explore, np.array([[True, False]]))[0, 1] == -np.inf


def test_variance_target_by_hand():
    q_next = np.array([[0.5, 0.25]])
    explore_next = np.array([[0.2, -0.1]])
    joint = 0.5 * 0.75
    continuation = max(0.75 ** 2 * 0.2, 0.5 ** 2 * -0.1)
    target = variance_target(np.array([0.6]), q_next, explore_next, np.ones((1, 2), bool), GOING_ON)
    assert target == pytest.approx([joint ** 2 - 0.6 ** 2 + continuation])
    printed = variance_target(np.array([0.6]), q_next, explore_next, np.ones((1, 2), bool), GOING_ON, sign=-1)
    assert printed == pytest.approx([0.6 ** 2 - joint ** 2 + continuation])


def test_variance_target_of_a_winning_move_is_the_variance_it_removes():
    # the move connects: its value becomes 1, so E[Q_new^2] - Q^2 = 1 - Q^2 and nothing follows
    target = variance_target(np.array([0.6]), np.full((1, 3), 0.9), np.full((1, 3), 5.0), ALL, np.array([-1.0]))
    assert target == pytest.approx([1 - 0.36])
    with pytest.raises(ValueError, match="sign"):
        variance_target(np.array([0.6]), np.zeros((1, 3)), np.zeros((1, 3)), ALL, GOING_ON, sign=0)


def test_pseudocount_targets_by_hand():
    q_next = np.array([[0.6, 0.5, 0.1]])
    explore_next = np.array([[0.0, 0.2, 0.9]])
    mask = np.array([[True, True, False]])  # 0.1 + 0.9 would be largest but is illegal
    value, explore = pseudocount_targets(q_next, explore_next, mask, GOING_ON, np.array([0.01]), 0.95)
    assert value == pytest.approx([1 - 0.5]) and explore == pytest.approx([0.01 + 0.95 * 0.2])
    value, explore = pseudocount_targets(q_next, explore_next, mask, np.array([-1.0]), np.array([0.01]), 0.95)
    assert value.tolist() == [1.0] and explore == pytest.approx([0.01])
