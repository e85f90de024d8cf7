"""A custom game through the CLI gets a strategy and a proof (with a relation) or a strategy and "proof: unknown"
(without); ``--game-file`` and ``--game-spec`` work on every command that takes a game, through the shared option
decorator; ``--from FILE`` finds the rule on a value table saved by ``discover learn``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

TAKE12 = '''from games import custom_game
from games.symbolic import take_from_one

game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1{relation})
'''
SPEC = 'name = "take123"\nheaps = 1\n\n[[moves]]\ntake = [1, 2, 3]\n'


@pytest.fixture
def take12(tmp_path):
    def write(relation: bool) -> str:
        path = tmp_path / ("take12.py" if relation else "take12_plain.py")
        path.write_text(TAKE12.format(relation=", relation=take_from_one(1, (1, 2))" if relation else ""))
        return str(path)
    return write


@pytest.fixture
def spec(tmp_path) -> str:
    path = tmp_path / "take123.toml"
    path.write_text(SPEC)
    return str(path)


def test_the_docstring_example_gets_a_strategy_and_a_proof(cli, take12):
    code, out, err = cli("--game-file", take12(True))
    assert code == 0, err
    assert "P iff a mod 3 = 0" in out and "Strategy: a → a - a mod 3" in out
    assert ('✓ proof for every position, for the moves of the relation "subtract t·v (t in {1, 2}, every coordinate '
            'staying ≥ 0) for v in 1", which agrees with moves() on every position up to 300') in out
    assert "moves: subtract t·v (t in {1, 2}, every coordinate staying ≥ 0) for v in 1 (given with moves()" in out


def test_without_a_relation_one_is_inferred_and_the_proof_rests_on_it(cli, take12):
    code, out, err = cli("--game-file", take12(False), "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["relation"]["source"] == "inferred from moves()" and record["relation"]["inferred_on"] == 300
    assert record["relation"]["relation"] == {"kind": "Steps", "vectors": [[1]], "amounts": [1, 2]}
    assert record["strategy"]["relation"]["kind"] == "Steps" and record["proof"]["status"] == "proved"
    assert record["proof"]["statement"].endswith("which agrees with moves() on every position up to 300")
    code, out, err = cli("--game-file", take12(False))
    assert ("moves: subtract t·v (t in {1, 2}, every coordinate staying ≥ 0) for v in 1 (inferred: the options of "
            "moves() at every position up to 300)") in out
    assert "Strategy: a → a - a mod 3" in out and "✓ proof for every position, for the moves of the relation" in out


def test_without_inference_a_strategy_over_moves_and_proof_unknown(cli, take12):
    code, out, err = cli("--game-file", take12(False), "--no-infer-relation", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["relation"] is None and record["strategy"]["relation"]["kind"] == "MovesOf"
    assert record["proof"]["status"] == "unknown" and "no symbolic move relation" in record["proof"]["reason"]
    code, out, err = cli("--game-file", take12(False), "--no-infer-relation")
    assert "Strategy: a → a - a mod 3" in out and "proof: unknown" in out and "moves:" not in out


def test_moves_that_fit_no_relation_say_so_in_one_line(cli, tmp_path):
    path = tmp_path / "halve.py"
    path.write_text('from games import custom_game\n\n'
                    'game = custom_game("take-or-halve", lambda p: [(p[0] - 1,)] + [(p[0] // 2,)] * (p[0] % 2 == 0) '
                    'if p[0] else [], 1)\n')
    code, out, err = cli("--game-file", str(path), "--no-proof")
    assert code == 0, err
    notes = [line for line in out.splitlines() if "fit no relation" in line]
    assert notes == ["  the moves of custom_game('take-or-halve', dims=1) fit no relation of the vocabulary "
                     "(games.symbolic) on bound 300 (the relation allows (2,) → (0,), which moves() does not give): "
                     "strategies and proofs rest on moves() within the bound only"]


@pytest.mark.parametrize("option", ["--game-file", "--game-spec"])
def test_solve_takes_a_game_file_or_spec(cli, take12, spec, option):
    code, out, err = cli("solve", option, take12(True) if option == "--game-file" else spec, "--bound", "12")
    assert code == 0, err
    assert "first P positions  0, 3, 6, 9" in out or "first P positions  0, 4, 8, 12" in out


def test_learn_then_rule_from_the_saved_table(cli, spec, tmp_path):
    folder = tmp_path / "run"
    code, out, err = cli("learn", "--game-spec", spec, "--bound", "12", "--episodes", "1500", "--out", str(folder))
    assert code == 0, err
    table = str(folder / "value-table.npz")
    code, out, err = cli("rule", "--from", table, "--json")  # the game the file records
    assert code == 0, err
    record = json.loads(out)
    assert record["status"] == "verified" and record["game"]["name"] == "take123"
    assert record["rule"]["provenance"]["source"].endswith(f"read from {table}")
    assert record["train_bound"] == 12  # the table's own bound: nothing was learned again
    code, out, err = cli("--game-spec", spec, "--from", table, "--no-proof")
    assert code == 0 and f"read from {table}" in out and "P iff a mod 4 = 0" in out


def test_compare_takes_a_game_file_and_its_saved_table(cli, take12, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # compare draws runs/<game>-<learner>/compare.png by default
    folder = tmp_path / "run"
    game = take12(True)
    assert cli("learn", "--game-file", game, "--bound", "9", "--episodes", "300", "--out", str(folder))[0] == 0
    code, out, err = cli("compare", "--game-file", game, "--table", str(folder / "value-table.npz"), "--json")
    assert code == 0, err
    assert json.loads(out)["positions"] == 10


def test_sweep_takes_a_game_spec(cli, spec, tmp_path):
    code, out, err = cli("sweep", "q", "--game-spec", spec, "--grid", "alpha=0.1,0.5", "--repeats", "1",
                         "--episodes", "50", "--bound", "5", "--backend", "serial", "--out", str(tmp_path / "s"))
    assert code == 0, err and "2 runs" in out


@pytest.mark.parametrize("argv, words", [
    (("solve", "nim"), "give one of a game name"),
    (("learn", "nim"), "give one of a game name"),
    (("sweep", "q", "nim"), "give one of a game name"),
    (("explore",), "board games"),
])
def test_a_game_file_where_it_conflicts_or_makes_no_sense_is_one_line(cli, one_error_line, take12, tmp_path,
                                                                      argv, words):
    extra = ("--out", str(tmp_path / "out")) if argv[0] in ("learn", "explore", "sweep") else ()
    code, out, err = cli(*argv, "--game-file", take12(True), *extra)
    one_error_line(code, out, err)
    assert words in err


@pytest.mark.parametrize("argv", [("solve",), ("learn",), ("rule",)])
def test_no_game_at_all_is_one_line(cli, one_error_line, argv):
    code, out, err = cli(*argv)
    one_error_line(code, out, err)
    assert "name a game" in err


def test_from_a_word_that_is_neither_learner_nor_file(cli, one_error_line):
    code, out, err = cli("nim", "--from", "oracle")
    one_error_line(code, out, err)
    assert "neither a learner nor a file" in err


def test_with_no_strategy_formula_the_command_and_the_report_state_a_move_chooser(cli, take12, tmp_path, monkeypatch):
    import discover.find_strategy

    monkeypatch.setattr(discover.find_strategy, "find_strategy", lambda *args, **kwargs: None)
    code, out, err = cli("--game-file", take12(False))
    assert code == 0, err
    assert ("Strategy: move to the first option of take12's moves() that the rule calls P (a move chooser that lists "
            "the options, not a formula)\n  a winning move from every N position up to bound 300 (checked)") in out
    assert "✓ proof for every position, for the moves of the relation" in out and "with the strategy" not in out
    code, out, err = cli("report", "--game-file", take12(False), "--out", str(tmp_path / "report"))
    assert code == 0, err
    page = (tmp_path / "report" / "index.md").read_text()
    assert "No winning-move formula was found within the search's budget. Strategy, a move chooser (no formula)" in page
    assert "Checked on every N position up to bound 300 (each has an option the rule calls P)" in page
    record = json.loads((tmp_path / "report" / "discovery.json").read_text())
    assert record["strategy"]["kind"] == "move chooser"
    assert record["proof"]["rests_on"]["agrees_with_moves_up_to"] == 300
