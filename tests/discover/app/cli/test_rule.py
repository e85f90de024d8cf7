"""``discover GAME``: the rule printed in words, symbols and LaTeX with its checks and timings,
``--json`` records that ``Rule.from_json`` reads, ``--game-file`` games, and one stderr line
with exit status 2 for bad input."""

from __future__ import annotations

import json
import shutil
import textwrap

import numpy as np
import pytest

from discover.engines import ENGINES
from discover.rule import Rule




def test_wythoff_in_words_symbols_checks_and_timings(cli):
    code, out, err = cli("wythoff", "--no-proof")  # test_cli has the strategy and the proof
    assert code == 0 and err == ""
    assert "trained on the solver's table at bound 30; verification bound 300" in out
    assert "Rule (verified on bound 300):" in out
    assert "P positions are the pairs {⌊kφ⌋, ⌊kφ²⌋}, k ≥ 0" in out  # words
    assert "P iff min(a, b) = ⌊φ·|a - b|⌋" in out  # symbols
    assert "where φ = (1 + √5)/2, the golden ratio" in out
    assert r"LaTeX: \min\left(a, b\right) = \left\lfloor{\phi \left|{a - b}\right|}\right\rfloor" in out
    ticks = [line.strip() for line in out.splitlines() if line.strip().startswith("✓")]
    assert [t.split(":")[0] for t in ticks] == ["✓ agreement with the solver", "✓ closure certificate", "✓ self-play"]
    assert "✗" not in out
    timings = [line for line in out.splitlines() if line.startswith("Timings:")]
    assert len(timings) == 1 and "solve (training)" in timings[0] and "verify" in timings[0] and "total" in timings[0]


def test_json_is_one_record_that_from_json_reads(cli):
    code, out, err = cli("subtraction", "subtract=1,3,4", "--json")
    assert code == 0 and err == ""
    assert len(out.strip().splitlines()) == 1
    record = json.loads(out)
    assert record["status"] == "verified" and record["verified_bound"] == 300
    assert record["game"] == {"name": "subtraction", "params": {"subtract": [1, 3, 4], "misere": False}}
    rule = Rule.from_json(record["rule"])
    assert rule.text() == "n mod 7 ∈ {0, 2}"
    n = np.arange(1000)[:, None]
    assert np.array_equal(rule.predicate(n), np.isin(n[:, 0] % 7, [0, 2]))
    assert "total" in record["timings"]


GAME_FILE = '''
from games import custom_game

SUBTRACT = (1, 2)


def moves(position):
    (n,) = position
    return [(n - t,) for t in SUBTRACT if t <= n]


game = custom_game("take-1-or-2", moves, dims=1)
'''


def test_game_file_builds_a_custom_game(cli, tmp_path):
    path = tmp_path / "my_game.py"
    path.write_text(GAME_FILE)
    code, out, err = cli("--game-file", str(path), "--json")
    assert code == 0 and err == ""
    record = json.loads(out)
    assert record["status"] == "verified" and record["game"]["name"] == "take-1-or-2"
    rule = Rule.from_json(record["rule"])
    n = np.arange(1000)[:, None]
    assert np.array_equal(rule.predicate(n), n[:, 0] % 3 == 0)
    code, out, err = cli("--game-file", str(path))
    assert code == 0 and out.count("✓") >= 3
    assert ('Rule (verified on bound 300; proved for every position, for the moves of the relation "subtract t·v (t in '
            '{1, 2}, every coordinate staying ≥ 0) for v in 1", which agrees with moves() on every position up to 300)'
            in out)


@pytest.mark.parametrize(
    "source, hint",
    [
        ("raise RuntimeError('broken on purpose')", "failed to run: RuntimeError: broken on purpose"),
        ("def moves(p:\n    return []", "failed to run: SyntaxError"),
        ("import no_such_module_here", "failed to run: ModuleNotFoundError"),
        ("x = 3", "must define one game"),
        ("import sys\nsys.exit(0)", "called sys.exit(0)"),
        ("import sys\nsys.exit('bye')", "called sys.exit('bye')"),
        ("raise SystemExit", "called sys.exit(None)"),
    ],
    ids=["raises", "syntax-error", "bad-import", "no-game", "exit-0", "exit-text", "bare-exit"],
)
def test_bad_game_file(cli, one_error_line, tmp_path, source, hint):
    path = tmp_path / "bad_game.py"
    path.write_text(textwrap.dedent(source))
    code, out, err = cli("--game-file", str(path))
    one_error_line(code, out, err)
    assert hint in err


def test_missing_game_file(cli, one_error_line, tmp_path):
    code, out, err = cli("--game-file", str(tmp_path / "nowhere.py"))
    one_error_line(code, out, err)
    assert "no file at" in err


def test_unknown_engine(cli, one_error_line):
    code, out, err = cli("wythoff", "--engines", "sequence,magic")
    one_error_line(code, out, err)
    assert "unknown engine 'magic'" in err and all(name in err for name in ENGINES)


@pytest.mark.skipif(shutil.which("julia") is not None, reason="Julia is installed: PySR can run")
def test_pysr_without_julia(cli, one_error_line):
    code, out, err = cli("wythoff", "--engines", "pysr")
    one_error_line(code, out, err)
    assert "Julia" in err and "operon" in err


def test_misspelt_game_suggests_the_name(cli, one_error_line):
    code, out, err = cli("nimm")
    one_error_line(code, out, err)
    assert "did you mean: nim" in err


def test_a_negative_control_is_not_printed_as_verified(cli):
    code, out, err = cli("grundy_game", "--bound", "30")
    assert code == 1 and err == ""  # status 1: no rule, so that a script can tell
    assert "Rule (verified" not in out and "✓ agreement" not in out
    paragraph = next(line for line in out.splitlines() if line.startswith("No rule found."))
    assert "The best partial candidate, “" in paragraph and "of the training table" in paragraph
    assert "Try a larger --bound (now 30)" in paragraph and "other --engines (tried " in paragraph
    assert "--json" in paragraph
    assert "Other candidates" not in out and "LaTeX" not in out  # the detail is in --json


def test_no_rule_is_one_short_paragraph_with_the_detail_in_json(cli, tmp_path):
    file = tmp_path / "take_or_halve.py"
    file.write_text(textwrap.dedent("""
        from games import custom_game

        def moves(p):
            n = p[0]
            return [(n - t,) for t in (1, 2) if t <= n] + ([(n // 2,)] if n > 1 else [])

        game = custom_game("take-or-halve", moves, dims=1)
    """))
    code, out, err = cli("--game-file", str(file), "--engines", "sequence")
    assert code == 1 and err == ""
    paragraph = next(line for line in out.splitlines() if line.startswith("No rule found."))
    assert "The best candidate, “" in paragraph and "values)" in paragraph  # its long set shortened
    assert "failed agreement with the solver" in paragraph and "first at " in paragraph
    assert len(out) < 1500, out  # no walls of numbers
    code, out, err = cli("--game-file", str(file), "--engines", "sequence", "--json")
    record = json.loads(out)
    assert code == 1 and record["status"] == "refuted"
    assert record["checks"][0]["counterexample"] is not None and record["candidates"]


def test_notes_say_why_nothing_was_found(cli):
    code, out, err = cli("nim", "heaps=1", "--engines", "operon")
    assert code == 1 and "No rule found." in out
    assert "Notes\n  operon fits a relation between two features, and this table has one coordinate" in out
