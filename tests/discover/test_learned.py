"""Rules from learned tables and the learned-vs-exact scores."""

from __future__ import annotations

import numpy as np
import pytest

from discover.compare import compare
from discover.find import find_rule
from discover.learned import table_from_values
from games import make_game
from learners import Arena, HypothesisAgent, RandomAgent, duel
from learners.registry import fit_learner


def test_nim_rule_from_a_q_table_on_heaps_up_to_7():
    game = make_game("nim", heaps=3)
    learner = fit_learner("q", game, bound=7, seed=0)
    table = table_from_values(learner.value_table_)
    assert len(table) == 512 and table.provenance["source"].startswith("QLearner self-play")
    found = find_rule(game, verify_bound=63, table=table, min_accuracy=0.95)
    assert found.status == "verified" and found.verified_bound == 63 and found.rule.text() == "a ⊕ b ⊕ c = 0"
    arena = Arena(make_game("nim", heaps=3), bound=31)
    n_starts = np.flatnonzero(arena.outcome == 1)
    assert duel(arena, HypothesisAgent(found.rule), RandomAgent(), 300, starts=n_starts)["wins"] == 300


def test_wythoff_pairs_from_a_12_by_12_q_table():
    game = make_game("wythoff")
    learner = fit_learner("q", game, bound=12, seed=0)
    found = find_rule(game, verify_bound=1000, table=table_from_values(learner.value_table_), min_accuracy=0.95)
    assert found.status == "verified" and found.verified_bound == 1000
    assert "GoldenRatio" in str(found.rule.expr) and found.source.startswith("QLearner")


def test_unsure_positions_are_left_out_and_weighted():
    learner = fit_learner("q", make_game("wythoff"), bound=10, games=2_000, seed=0)
    values = learner.value_table_.value
    table = table_from_values(learner.value_table_, confidence=0.6)
    assert len(table) == int((np.abs(values) >= 0.6).sum()) < values.size
    assert (table.weights >= 0.6).all()
    with pytest.raises(ValueError, match="confidence must be in"):
        table_from_values(learner.value_table_, 1.5)


def test_compare_counts_add_up():
    learner = fit_learner("bayes", make_game("nim", heaps=3), bound=4, games=3_000, seed=0)
    scores = compare(learner.value_table_, confidence=0.3)
    assert sum(sum(row.values()) for row in scores["confusion"].values()) == scores["positions"] == 125
    assert 0 <= scores["accuracy"] <= scores["coverage"] <= 1
    assert scores["optimal_move_rate"] == 1 - scores["deviations"] / (Arena(make_game("nim"), 4).outcome == 1).sum()
