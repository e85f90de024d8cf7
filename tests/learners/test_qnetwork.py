"""The Q-network baseline (the HQN paper, figure 7): contract, reproducibility, bad input, and that it learns."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from learners import Arena
from learners.metrics import policy_accuracy
from learners.hqn.qnetwork import QNetworkLearner

NIM2 = make_game("nim", heaps=2)
WYTHOFF = make_game("wythoff")


def test_fit_returns_the_learner_with_records_and_a_table_over_the_universe():
    learner = QNetworkLearner(random_state=1)
    assert learner.fit(WYTHOFF, bound=5, episodes=60, eval_every=20) is learner
    assert [r["episode"] for r in learner.history_] == [20, 40, 60]
    for record in learner.history_:
        assert set(record) == {"episode", "accuracy", "seconds"} and 0 <= record["accuracy"] <= 1
    assert [r["seconds"] for r in learner.history_] == sorted(r["seconds"] for r in learner.history_)
    table, arena = learner.value_table_, Arena(WYTHOFF, 5)
    assert table.universe == arena.universe and np.array_equal(table.targets, arena.targets)
    assert table.q.shape == (arena.edges,) and (np.abs(table.q) <= 1).all() and not table.visits.any()
    assert table.meta["learner"] == "QNetworkLearner" and table.meta["episodes"] == 60
    ends = np.diff(table.indptr) == 0
    assert (table.value[ends] == arena.terminal[ends]).all()


def test_default_records_every_twentieth_and_replay_and_the_other_options_run():
    learner = QNetworkLearner(replay=True, replay_size=50, batch_size=8, loss="sse", optimizer="sgd", random_state=0)
    learner.fit(make_game("wythoff_nd", heaps=3), bound=3, episodes=40, opponent="random")
    assert [r["episode"] for r in learner.history_] == list(range(2, 41, 2))
    assert learner.value_table_.meta["opponent"] == "random"


def test_the_recorded_accuracy_is_the_greedy_table_policy():
    learner = QNetworkLearner(random_state=2).fit(NIM2, bound=4, episodes=30)
    arena = Arena(NIM2, 4)
    assert learner.history_[-1]["accuracy"] == policy_accuracy(arena, arena.best_edges(learner.value_table_.q))


@pytest.mark.parametrize("replay", [False, True])
def test_same_seed_same_table(replay):
    tables = [QNetworkLearner(replay=replay, random_state=seed).fit(WYTHOFF, bound=6, episodes=80).value_table_
              for seed in (3, 3, 4)]
    assert np.array_equal(tables[0].q, tables[1].q)
    assert not np.array_equal(tables[0].q, tables[2].q)


def test_learns_two_heap_nim_against_the_optimal_player():
    arena = Arena(NIM2, 4)
    uniform = policy_accuracy(arena, np.ones(arena.edges))  # 0.1: every move must be right
    good = np.bincount(arena.sources, weights=arena.outcome[arena.targets] == -1, minlength=arena.size)
    one_random_move = (good / np.maximum(np.diff(arena.indptr), 1))[arena.outcome == 1].mean()  # about 0.34
    learner = QNetworkLearner(learning_rate=0.03, temperature=0.2, random_state=0).fit(NIM2, bound=4, episodes=5000)
    # seeds 0..9 all end between 0.6 and 0.8 (this one at 0.65); an untrained network scores 0.25 to 0.4
    assert learner.history_[-1]["accuracy"] >= max(uniform + 0.35, one_random_move + 0.15)


@pytest.mark.slow
def test_the_value_table_labels_small_nim_as_the_solver_does():
    """The table ``discover --from qnetwork`` thresholds: a sign, target or player-to-move error in the Q target
    flips these labels (one heap: the winning move takes it all and ends the game; two heaps <= 2: the targets
    bootstrap from the network's value after the opponent's reply)."""
    from solvers import solve

    for heaps, bound, episodes in ((1, 5, 2000), (2, 2, 3000)):
        game = make_game("nim", heaps=heaps)
        labels = QNetworkLearner(random_state=0).fit(game, bound=bound, episodes=episodes).value_table_.partition(0.3)
        truth = solve(game, bound=bound).outcome_table
        labelled = labels != 0
        assert labelled.sum() >= 0.5 * labels.size
        assert np.array_equal(labels[labelled], truth[labelled])


def test_bad_input():
    with pytest.raises(ValueError, match="lines .*nim, wythoff, wythoff_nd"):
        QNetworkLearner().fit(make_game("subtraction", subtract=(1, 2)), bound=5, episodes=10)
    with pytest.raises(ValueError, match="unknown opponent 'self'"):
        QNetworkLearner().fit(NIM2, bound=3, episodes=10, opponent="self")
    with pytest.raises(ValueError, match="unknown loss"):
        QNetworkLearner(loss="cross-entropy").fit(NIM2, bound=3, episodes=10)
    with pytest.raises(ValueError, match="unknown optimizer"):
        QNetworkLearner(optimizer="rmsprop").fit(NIM2, bound=3, episodes=10)
    with pytest.raises(ValueError, match="temperature"):
        QNetworkLearner(temperature=0).fit(NIM2, bound=3, episodes=10)
    with pytest.raises(ValueError, match="random_state"):
        QNetworkLearner(random_state=-1).fit(NIM2, bound=3, episodes=10)
    with pytest.raises(ValueError, match="episodes"):
        QNetworkLearner().fit(NIM2, bound=3, episodes=0)
    with pytest.raises(ValueError, match="diverged"):
        QNetworkLearner(learning_rate=1e38).fit(NIM2, bound=3, episodes=50)
