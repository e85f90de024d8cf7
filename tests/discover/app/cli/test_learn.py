"""The learner commands and ``--from``: files written, scores printed, one line for bad input."""

from __future__ import annotations

import json

import pytest

from learners import ValueTable


def test_learn_writes_table_history_and_curve(cli, tmp_path):
    out = tmp_path / "run"
    code, stdout, _ = cli("learn", "nim", "heaps=2", "--bound", "3", "--episodes", "3000", "--out", str(out))
    assert code == 0 and "optimality deviations 0" in stdout
    assert {p.name for p in out.iterdir()} == {"value-table.npz", "history.json", "history.csv", "learning-curve.png"}
    table = ValueTable.load(out / "value-table.npz")
    assert table.meta["episodes"] == 3000 and table.bound == 3
    assert json.loads((out / "history.json").read_text())["history"][-1]["episode"] == 3000


def test_a_second_learn_never_overwrites_the_first_without_force(cli, one_error_line, tmp_path):
    out = tmp_path / "run"
    argv = ("learn", "nim", "heaps=2", "--bound", "2", "--episodes", "200", "--out", str(out))
    assert cli(*argv)[0] == 0
    first = (out / "history.json").read_text()
    code, stdout, err = cli(*argv[:-3], "300", "--out", str(out))
    one_error_line(code, stdout, err)
    assert "holds an earlier run: give --force" in err and (out / "history.json").read_text() == first
    code, stdout, err = cli(*argv[:-3], "300", "--out", str(out), "--force")
    assert code == 0 and json.loads((out / "history.json").read_text())["history"][-1]["episode"] == 300


def test_compare_scores_a_learner_and_a_saved_table(cli, tmp_path):
    plot = tmp_path / "c.png"
    code, stdout, _ = cli("compare", "wythoff", "--bound", "8", "--episodes", "20000", "--json", "--plot", str(plot))
    scores = json.loads(stdout)
    assert code == 0 and scores["accuracy"] == 1.0 and scores["deviations"] == 0 and plot.stat().st_size > 0
    cli("learn", "nim", "heaps=2", "--bound", "3", "--episodes", "3000", "--out", str(tmp_path / "r"))
    code, stdout, _ = cli("compare", "nim", "heaps=2", "--table", str(tmp_path / "r" / "value-table.npz"),
                          "--plot", str(tmp_path / "n.png"))
    assert code == 0 and "optimal-move rate 1.0000" in stdout


def test_tournament_writes_the_study(cli, tmp_path):
    out = tmp_path / "study"
    code, stdout, _ = cli("tournament", "nim", "heaps=2", "--bound", "3", "--episodes", "1000", "--games", "100",
                          "--learners", "q,bayes", "--out", str(out))
    assert code == 0 and "| q |" in stdout and "| bayes |" in stdout
    assert {p.name for p in out.iterdir()} == {"index.md", "index.html", "study.json", "learning-curves.png"}


def test_rule_from_a_learned_table(cli):
    code, stdout, _ = cli("nim", "heaps=3", "--from", "q", "--bound", "5", "--verify-bound", "40", "--json")
    record = json.loads(stdout)
    assert code == 0 and record["status"] == "verified" and record["verified_bound"] == 40
    assert record["source"].startswith("QLearner self-play")
    assert record["rule"]["expr"] == "Equality(Symbol('xor_all'), Integer(0))"


@pytest.mark.parametrize("argv", [
    ("learn", "nim", "--learner", "sarsa"),
    ("learn", "nim", "--opponent", "nobody", "--bound", "2", "--episodes", "10"),
    ("learn", "nim", "--opponent", "copy-nobody", "--bound", "2", "--episodes", "10"),
    ("learn", "nim", "--start", "1,x", "--bound", "2", "--episodes", "10"),
    ("learn", "octal", "code=0.137", "--bound", "5", "--episodes", "10"),
    ("compare", "nim", "--table", "missing.npz"),
    ("tournament", "nim", "--learners", "q,sarsa"),
    ("nim", "--from", "sarsa"),
])
def test_bad_learner_input_gets_one_line(cli, one_error_line, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_error_line(*cli(*argv))


def test_learn_refuses_an_output_that_is_a_file(cli, one_error_line, tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    one_error_line(*cli("learn", "nim", "--bound", "2", "--episodes", "10", "--out", str(target)))


@pytest.mark.parametrize("game", [("hex", "n=3"), ("tictactoe",)])
def test_learn_on_a_board_game_takes_the_board_as_its_universe(cli, tmp_path, game):
    code, out, err = cli("learn", *game, "--episodes", "500", "--out", str(tmp_path / "run"))
    assert code == 0 and "500 games" in out, err
