"""Tabular learners: convergence against every opponent, reproducibility, checkpoints, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from learners import Arena, BayesLearner, QLearner, RandomAgent
from learners.registry import make_learner

NIM = make_game("nim", heaps=3)


@pytest.mark.parametrize("opponent", ["self", "optimal", "random", "greedy"])
def test_q_reaches_zero_deviations_on_nim(opponent):
    q = QLearner(random_state=1).fit(NIM, bound=4, episodes=60_000, opponent=opponent, eval_every=500,
                                     stop_when_optimal=True)
    assert q.episodes_to_optimal_ is not None and q.history_[-1]["deviations"] == 0
    assert q.history_[-1]["win_rate_optimal"] == 1.0
    learned = q.value_table_.partition(0.5)
    assert (learned[learned != 0] == Arena(NIM, 4).outcome[learned != 0]).all()


def test_q_reply_backup_learns_from_the_optimal_player():
    q = QLearner(backup="reply", random_state=0).fit(NIM, bound=3, episodes=40_000, opponent="optimal",
                                                      eval_every=500, stop_when_optimal=True)
    assert q.history_[-1]["deviations"] == 0


def test_q_against_another_learner_trains_both():
    rival = QLearner(random_state=5)
    q = QLearner(random_state=4).fit(NIM, bound=3, episodes=20_000, opponent=rival)
    assert q.history_[-1]["deviations"] == 0
    assert rival.value_table_.visits.sum() > 0 and rival.value_table_.meta["opponent"].startswith("QLearner")


def test_bayes_learns_two_heap_nim():
    b = BayesLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=5_000, eval_every=500)
    assert b.history_[-1]["deviations"] == 0
    assert (b.value_table_.q >= -1).all() and (b.value_table_.q <= 1).all()


def test_misere_values_are_learned():
    game = make_game("nim", heaps=2, misere=True)
    q = QLearner(random_state=0).fit(game, bound=3, episodes=20_000)
    exact = Arena(game, 3).outcome
    assert q.value_table_.partition(0.5).tolist() == exact.tolist()


@pytest.mark.parametrize("name", ["q", "qt", "bayes"])
def test_same_seed_same_table(name):
    tables = [make_learner(name, seed).fit(NIM, bound=3, episodes=2_000).value_table_ for seed in (7, 7, 8)]
    assert np.array_equal(tables[0].q, tables[1].q) and np.array_equal(tables[0].visits, tables[1].visits)
    assert not np.array_equal(tables[0].q, tables[2].q)


def test_decaying_epsilon_and_boltzmann():
    qt = QLearner(epsilon=0.5, eta=1e-3, random_state=0).fit(NIM, bound=3, episodes=3_000, eval_every=1_000)
    assert [round(r["epsilon"], 4) for r in qt.history_] == [round(0.5 * np.exp(-e), 4) for e in (1, 2, 3)]
    boltzmann = QLearner(exploration="boltzmann", temperature=0.1, random_state=0)
    assert boltzmann.fit(NIM, bound=3, episodes=20_000).history_[-1]["deviations"] == 0


@pytest.mark.parametrize("start", ["sweep", (3, 2, 1)])
def test_start_schedules(start):
    q = QLearner(random_state=0).fit(NIM, bound=3, episodes=4_000, start=start)
    visited = q.value_table_.state_visits > 0
    if start == "sweep":
        assert visited[Arena(NIM, 3).live()].all()
    else:
        assert not visited[Arena(NIM, 3).index((3, 3, 3))]


def test_checkpoint_resume_gives_the_uninterrupted_table(tmp_path):
    path = tmp_path / "run.npz"
    straight = QLearner(random_state=3).fit(NIM, bound=3, episodes=3_000, eval_every=500)
    QLearner(random_state=3).fit(NIM, bound=3, episodes=1_500, eval_every=500, checkpoint=path)
    resumed = QLearner(random_state=3).fit(NIM, bound=3, episodes=3_000, eval_every=500, checkpoint=path)
    assert np.array_equal(straight.value_table_.q, resumed.value_table_.q)
    assert [r["episode"] for r in resumed.history_] == [500 * k for k in range(1, 7)]
    with pytest.raises(ValueError, match="checkpoint of another run"):
        QLearner(random_state=4).fit(NIM, bound=3, episodes=3_000, eval_every=500, checkpoint=path)


def test_a_finished_run_goes_on_from_its_checkpoint_with_its_own_record_interval(tmp_path):
    path = tmp_path / "run.npz"
    straight = QLearner(random_state=3).fit(NIM, bound=3, episodes=3_000)
    QLearner(random_state=3).fit(NIM, bound=3, episodes=1_000, checkpoint=path)  # records every 20 episodes
    extended = QLearner(random_state=3).fit(NIM, bound=3, episodes=3_000, checkpoint=path)  # every 60 from here
    assert np.array_equal(straight.value_table_.q, extended.value_table_.q)
    assert extended.history_[49]["episode"] == 1_000 and extended.history_[-1]["episode"] == 3_000


def test_the_command_extends_a_finished_run(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for episodes in ("1000", "2000"):
        code, out, err = cli("learn", "nim", "heaps=2", "--bound", "3", "--episodes", episodes, "--checkpoint", "ck.npz")
        assert code == 0 and f"{episodes} games" in out, err


def test_value_table_round_trip_and_corrupt_file(tmp_path):
    table = QLearner(random_state=0).fit(NIM, bound=3, episodes=1_000).value_table_
    table.save(tmp_path / "t.npz")
    again = type(table).load(tmp_path / "t.npz")
    assert np.array_equal(again.q, table.q) and again.game == NIM and again.meta["episodes"] == 1_000
    (tmp_path / "bad.npz").write_bytes(b"not a file")
    with pytest.raises(ValueError, match="not a readable value table"):
        type(table).load(tmp_path / "bad.npz")


@pytest.mark.parametrize("kwargs, message", [
    ({"opponent": "nobody"}, "unknown opponent"),
    ({"start": "middle"}, "unknown start"),
    ({"start": (0, 0, 0)}, "has no move"),
    ({"episodes": 0}, "episodes must be a positive integer"),
    ({"bound": -3}, "bound must be a positive integer"),
])
def test_bad_fit_arguments(kwargs, message):
    args = {"bound": 3, "episodes": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        QLearner().fit(NIM, **args)


@pytest.mark.parametrize("learner, message", [
    (QLearner(alpha=2.0), "alpha"), (QLearner(exploration="softmax"), "exploration"),
    (QLearner(backup="td"), "backup"), (BayesLearner(discount=0.0), "discount"), (QLearner(random_state=None), "random_state"),
])
def test_bad_parameters(learner, message):
    with pytest.raises(ValueError, match=message):
        learner.fit(NIM, bound=2, episodes=10)


def test_sums_of_heaps_are_refused():
    with pytest.raises(ValueError, match="sum of heaps"):
        QLearner().fit(make_game("octal", code="0.137"), bound=5, episodes=10)


def test_policy_and_random_agent_share_the_agent_interface():
    q = QLearner(random_state=0).fit(NIM, bound=3, episodes=20_000)
    rng = np.random.default_rng(0)
    assert q.policy().move(NIM, (1, 2, 0), rng) == (1, 1, 0)
    assert RandomAgent().move(NIM, (1, 2, 0), rng) in NIM.moves((1, 2, 0))
