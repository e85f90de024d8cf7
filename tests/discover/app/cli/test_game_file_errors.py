"""Issue 39, point 6: a game file's own failing line is in its error, and the error names the least failing
position (fewest tokens), not the first one a build happens to meet."""

from __future__ import annotations

import textwrap

import pytest

TWO_HEAPS = textwrap.dedent("""\
    from games import custom_game

    LIMIT = [0] * 30


    def moves(p):
        a, b = p
        out = [(a - t, b) for t in (1, 2) if t <= a] + [(a, b - t) for t in (1, 2) if t <= b]
        if a and b:
            out.append((a - 1 + LIMIT[a], b - 1))
        return out


    game = custom_game("two-heaps-12-or-both", moves, dims=2)
""")


@pytest.fixture(autouse=True)
def no_debug(monkeypatch):
    monkeypatch.delenv("DISCOVER_DEBUG", raising=False)


@pytest.mark.parametrize("command", [("solve", "--bound", "40"), ("rule", "--bound", "40", "--no-proof")])
def test_a_failing_moves_names_the_least_failing_position_and_its_line(cli, one_error_line, tmp_path, command):
    path = tmp_path / "two.py"
    path.write_text(TWO_HEAPS)
    code, out, err = cli(command[0], "--game-file", str(path), *command[1:])
    one_error_line(code, out, err)
    assert "at (30, 1) raised IndexError: list index out of range" in err  # (30, 1): 31 tokens, the fewest
    assert "(two.py, line 10: out.append((a - 1 + LIMIT[a], b - 1)))" in err


def test_a_game_file_failing_as_it_runs_shows_its_line(cli, one_error_line, tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("from games import custom_game\n\nsizes = {'a': 1}\nlimit = sizes['b']\n")
    code, out, err = cli("solve", "--game-file", str(path))
    one_error_line(code, out, err)
    assert "failed to run: KeyError: 'b' (bad.py, line 4: limit = sizes['b'])" in err


TAKE = textwrap.dedent("""\
    from games import custom_game
    from games.symbolic import take_from_one


    def moves(p):
        return [(p[0] - t,) for t in (1, 3, 4) if t <= p[0]]


    game = custom_game("take-1-3-4", moves, dims=1{relation})
""")


@pytest.mark.parametrize("relation, options, moves", [
    (", relation=take_from_one(1, (1, 3, 4))", (),
     "subtract t·v (t in {1, 3, 4}, every coordinate staying ≥ 0) for v in 1 (given with moves(), checked against "
     "it by the proof)"),
    ("", (), "subtract t·v (t in {1, 3, 4}, every coordinate staying ≥ 0) for v in 1 (inferred: the options of "
             "moves() at every position up to 60)"),
    ("", ("--no-infer-relation",), "given by a Python function moves(), with no symbolic relation"),
])
def test_a_custom_game_report_states_its_moves_and_its_file(cli, tmp_path, monkeypatch, relation, options, moves):
    """Issue 39, point 8: the moves in words (or that a Python function gives them), the file and its SHA-256;
    never the game's name and dims written as if they were a command."""
    import hashlib
    import json

    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_game.py").write_text(TAKE.format(relation=relation))
    digest = hashlib.sha256((tmp_path / "my_game.py").read_bytes()).hexdigest()
    code, out, err = cli("report", "--game-file", "my_game.py", "--bound", "20", "--verify-bound", "60", "--out", "r",
                         *options)
    assert code == 0, err
    page = (tmp_path / "r" / "index.md").read_text()
    assert f"| moves | {moves} |" in page
    assert f"| game file | `my_game.py`, SHA-256 {digest} |" in page
    assert "take-1-3-4 dims=1" not in page  # the name and dims were shown as if they were a command
    assert json.loads((tmp_path / "r" / "discovery.json").read_text())["game_file"] == {"file": "my_game.py",
                                                                                       "sha256": digest}


def test_the_least_failure_is_looked_for_among_the_fewest_tokens_only():
    from games.custom import custom_game
    from solvers.graph import least_failure

    game = custom_game("fails", lambda p: 1 / 0 if p[0] + p[1] >= 7 else [(p[0] - 1, p[1])] if p[0] else [], dims=2)
    met = ValueError("met at (9, 9)")
    assert "at (7, 0) raised ZeroDivisionError" in str(least_failure(game, game.universe(9), met))
    assert least_failure(game, game.universe(9), met, limit=10) is met  # the 10 positions with fewest tokens pass
