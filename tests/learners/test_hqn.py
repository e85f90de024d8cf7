"""The Hierarchical Q-Network: model building, the symbolic model, rule changes, carried Q-values."""

from __future__ import annotations

import numpy as np
import pytest

from discover.app.experiments.hqn import SymbolicModelBuilder
from discover.verify import verify_rule
from games import make_game
from learners import Arena
from learners.arena import carry_table
from learners.hqn import HQN
from learners.hqn.model_network import NeuralModelBuilder

WYTHOFF = make_game("wythoff")


def test_symbolic_hqn_finds_and_verifies_the_wythoff_rule():
    hqn = HQN(model=SymbolicModelBuilder(), random_state=0).fit(WYTHOFF, bound=12, eval_bound=50, periods=4,
                                                               episodes=2000)
    assert hqn.history_[-1]["model_accuracy"] == 1.0
    rule = hqn.best_model_.rule
    assert "GoldenRatio" in str(rule.expr)
    assert all(check.passed for check in verify_rule(rule, WYTHOFF, 300))


def test_neural_hqn_records_every_period():
    builder = NeuralModelBuilder(hidden=8, iterations=(50, 100))
    hqn = HQN(model=builder, eval_games=100, random_state=0).fit(WYTHOFF, bound=8, eval_bound=20, periods=3,
                                                                 episodes=500)
    assert [r["period"] for r in hqn.history_] == [1, 2, 3]
    assert 0 <= hqn.best_performance_ <= 1 and hqn.best_model_ is not None
    assert all(0 <= r["q_accuracy"] <= 1 for r in hqn.history_)
    assert hqn.history_[0]["model_probability"] == 0.0 < hqn.history_[1]["model_probability"] <= hqn.limit


def test_symbolic_hqn_learns_nim_on_heaps_up_to_7():
    hqn = HQN(model=SymbolicModelBuilder(), random_state=0).fit(make_game("nim", heaps=3), bound=7, eval_bound=12,
                                                               periods=6, episodes=5000)
    assert hqn.best_model_.rule.text() == "a ⊕ b ⊕ c = 0"
    assert hqn.best_model_.cold([[7, 9, 14, 1, 2, 6, 1], [1, 1, 1, 1, 1, 1, 1]]).tolist() == [False, False]
    assert hqn.best_model_.cold([[7, 9, 14, 1, 2, 6, 5]]).tolist() == [True]


def test_a_rule_change_is_detected_and_the_old_model_recalled():
    hqn = HQN(model=SymbolicModelBuilder(), random_state=0)
    hqn.fit(WYTHOFF, bound=12, eval_bound=30, periods=3, episodes=2000)
    wythoff_model = hqn.best_model_
    hqn.fit(make_game("nim", heaps=2), bound=12, eval_bound=30, periods=4, episodes=2000, warm_start=True)
    assert any(r["change_detected"] for r in hqn.history_[3:]) and wythoff_model in hqn.memory_
    hqn.fit(WYTHOFF, bound=12, eval_bound=30, periods=2, episodes=2000, warm_start=True)
    assert hqn.history_[-2]["change_detected"] and hqn.best_model_.rule.text() == wythoff_model.rule.text()


def test_carried_q_values_follow_the_moves():
    old, new = Arena(WYTHOFF, 4), Arena(make_game("nim", heaps=2), 4)
    table = np.vstack([np.arange(old.edges, dtype=float), np.zeros(old.edges)])
    carried = carry_table(old, table, new)
    keys = {(s, t): q for s, t, q in zip(old.sources, old.targets, table[0])}
    assert all(carried[0, j] == keys[(s, t)] for j, (s, t) in enumerate(zip(new.sources, new.targets)))


def test_bad_hqn_input():
    with pytest.raises(ValueError, match="eval_bound"):
        HQN().fit(WYTHOFF, bound=12, eval_bound=5, periods=1)
    with pytest.raises(ValueError, match="model must be"):
        HQN(model="forest").fit(WYTHOFF, bound=4, eval_bound=4, periods=1, episodes=10)


@pytest.mark.parametrize("learner, budget", [("hqn", {}), ("q", {"episodes": 10})])
def test_a_box_where_nothing_moves_is_refused_before_any_episode(learner, budget):
    """Welter's three coins on squares 0 to 2 sit still (their one position has no move): the fit is refused
    with the reason, and the learner is left as it was (the episode kernels would read an empty pool)."""
    from learners.registry import make_learner

    fresh = make_learner(learner)
    with pytest.raises(ValueError, match="has no move anywhere on bound 2: nothing to learn"):
        fresh.fit(make_game("welter"), bound=2, **budget)
    assert not hasattr(fresh, "history_")
