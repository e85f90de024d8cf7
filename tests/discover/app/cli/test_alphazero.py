"""The ``alphazero`` command, ``compare --learner alphazero`` and ``--from alphazero`` (tiny budgets)."""

from __future__ import annotations

import json

import pytest

from learners import ValueTable

TINY = ("--iterations", "2", "--games", "4", "--simulations", "4", "--eval-games", "6")


def test_alphazero_writes_the_report(cli, tmp_path):
    out = tmp_path / "az"
    code, stdout, _ = cli("alphazero", "notakto", "n=2", "k=2", *TINY, "--hidden", "8", "--out", str(out))
    assert code == 0 and "against random as the first player" in stdout
    assert {p.name for p in out.iterdir()} == {"alphazero.json", "index.md", "index.html", "scores.png", "value-table.npz"}
    record = json.loads((out / "alphazero.json").read_text())
    run = record["runs"][0]
    assert run["seat"] == "first" and [r["iteration"] for r in run["history"]] == [0, 1, 2]
    assert run["final"]["score_optimal_first"] == 100.0  # 2 x 2 Notakto: any first mark wins
    assert run["opening"]["wins"] is True and set(run["baseline"]) == {"first", "second"}
    assert ValueTable.load(out / "value-table.npz").meta["learner"] == "AlphaZeroLearner"
    assert "| notakto(n=2, k=2, boards=1) | first |" in (out / "index.md").read_text()


def test_alphazero_self_play_in_shards_is_the_same_on_every_backend(cli, tmp_path):
    histories = []
    for backend in (("--backend", "serial"), ("--workers", "2")):
        out = tmp_path / backend[-1]
        code, _, _ = cli("alphazero", "notakto", "n=2", "k=2", *TINY, "--hidden", "8", "--shards", "2", *backend,
                         "--out", str(out))
        run = json.loads((out / "alphazero.json").read_text())["runs"][0]
        assert code == 0 and run["fit"]["shards"] == 2
        histories.append([{k: v for k, v in r.items() if "seconds" not in k} for r in run["history"]])
    assert histories[0] == histories[1]


def test_alphazero_resumes_from_a_checkpoint(cli, tmp_path):
    ck = tmp_path / "ck.npz"
    args = ("alphazero", "nim", "heaps=2", "--start", "2,3", "--hidden", "8", "--simulations", "4", "--games", "4",
            "--eval-games", "4", "--checkpoint", str(ck), "--out", str(tmp_path / "n"))
    assert cli(*args, "--iterations", "1")[0] == 0 and ck.exists()
    code, _, _ = cli(*args, "--iterations", "2")
    history = json.loads((tmp_path / "n" / "alphazero.json").read_text())["runs"][0]["history"]
    assert code == 0 and [r["iteration"] for r in history] == [0, 1, 2]


def test_compare_an_alphazero_table(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the comparison figure goes to runs/
    code, stdout, _ = cli("compare", "nim", "heaps=2", "--learner", "alphazero", "--bound", "3", "--episodes", "256",
                          "--json")
    scores = json.loads(stdout)
    assert code == 0 and scores["learner"]["learner"] == "AlphaZeroLearner" and scores["accuracy"] > 0.8


def test_rule_from_an_alphazero_table(cli):
    code, stdout, _ = cli("nim", "heaps=2", "--from", "alphazero", "--bound", "4", "--episodes", "640",
                          "--verify-bound", "40", "--json")
    record = json.loads(stdout)
    assert code == 0 and record["status"] == "verified" and record["source"].startswith("AlphaZeroLearner")


@pytest.mark.parametrize("argv", [
    ("alphazero", "notakto", "--checkpoint", "ck.npz"),
    ("alphazero", "notakto", "n=3", "--hidden", "a,b"),
    ("alphazero", "nim", "--iterations", "1"),
    ("alphazero", "hex", "n=3", "--network", "conv", "--start", "1,2,3"),
    ("alphazero", "notakto", "n=3", "--workers", "2"),  # workers without shards
    ("alphazero", "notakto", "n=3", "--shards", "2", "--backend", "serial", "--workers", "2"),
    ("compare", "nim", "--learner", "alphazero", "--opponent", "random", "--bound", "2", "--episodes", "4"),
])
def test_bad_alphazero_input_gets_one_line(cli, one_error_line, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_error_line(*cli(*argv))


def test_learn_trains_any_registered_learner(cli, tmp_path):
    out = tmp_path / "run"
    code, stdout, err = cli("learn", "nim", "heaps=2", "--learner", "alphazero", "--bound", "2", "--episodes", "4",
                            "--out", str(out))
    assert code == 0 and "AlphaZeroLearner" in stdout, err
    assert {p.name for p in out.iterdir()} == {"history.json", "history.csv", "value-table.npz", "learning-curve.png"}


def test_explore_writes_its_report(cli, tmp_path):
    out = tmp_path / "explore"
    code, stdout, err = cli("explore", "hex", "n=2", "--variants", "minimax,joint", "--episodes", "40", "--seeds", "0,1",
                            "--learner", "layers=2,width=4,games=4,batch_size=8", "--out", str(out))
    assert code == 0 and "joint" in stdout, err
    assert {p.name for p in out.iterdir()} == {"curves.png", "explore.json", "index.md", "index.html", "openings.png"}


@pytest.mark.parametrize("argv", [
    ("explore", "nim"),
    ("explore", "hex", "n=2", "--variants", "magic"),
    ("explore", "hex", "n=2", "--seeds", "a,b"),
    ("explore", "hex", "n=2", "--learner", "depth=3"),
    ("explore", "hex", "n=2", "--learner", "width=wide"),
])
def test_bad_explore_input_gets_one_line(cli, one_error_line, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_error_line(*cli(*argv))
    assert list(tmp_path.iterdir()) == []
