"""The CLI probes of the hostile-input issue, each as a test: refused in one line with status 2, nothing written;
and the API paths that lacked the CLI's checks."""

from __future__ import annotations

import os

import pytest
import sympy as sp

from cgbase.files import atomic_folder, check_folder_path, write_text
from discover.app.cli.checks import hostile_folder, run_case


@pytest.mark.parametrize("argv", [
    ("solve", "nim", "heaps=3", "heaps=4", "--bound", "3"),        # silently solved 4 heaps
    ("solve", "nim", "--bound", "3", "--bound", "4"),              # click kept the last
    ("solve", "nim", "--bound", str(10**25)),                      # OverflowError
    ("solve", "nim", "--bound", "\u0663"),                          # solved at bound 3
    ("solve", "nim", "heaps=\u0663", "--bound", "2"),               # solved 3 heaps
    ("rule", "nim", "--seed", str(10**25)),                        # ran
    ("sweep", "q", "nim", "--workers", str(10**10), "--out", "s"),  # OverflowError, folder left behind
    ("sweep", "q", "nim", "--repeats", str(10**9), "--out", "s"),   # 8-11 GB before refusing
    ("alphazero", "nim", "--shards", str(10**9), "--out", "a"),     # 8 GB of seeds
    ("sweep", "q", "nim", "--out", "s", "--grid",                  # 10^10 points
     " ".join(f"{name}=" + ",".join(str(k / 100) for k in range(1, 101))
              for name in ("alpha", "gamma", "epsilon", "eta", "temperature"))),
    ("sweep", "q", "nim", "heaps=3", "--bound", "100000", "--episodes", "10", "--out", "s"),  # runs.jsonl left
    ("sweep", "q", "nim", "--out", "."), ("study", "nim", "--out", "."), ("report", "nim", "--out", "."),
    ("learn", "nim", "--out", "."), ("alphazero", "notakto", "n=3", "--out", "."), ("hqn", "wythoff", "--out", "."),
    ("explore", "hex", "n=2", "--out", "."), ("learn", "nim", "--out", ".."),
    ("learn", "nim", "--out", "folder"), ("report", "nim", "--out", "folder"),
    ("tournament", "nim", "--learners", ","),                      # IndexError
    ("rule", "nim", "--engines", ","),                             # ran every engine
    ("sweep", "q", "nim", "--rank", "-1"),                         # ran the sweep, then refused
    ("sweep", "q", "nim", "heaps=2", "--bound", "3", "--episodes", "50", "--repeats", "1",  # trained, runs.jsonl left
     "--workers", "1", "--rank", "zzz", "--out", "o"),
    ("notakto", "n=3", "boards=2", "--heaps", "5"),                # --heaps is for heap games
    ("notakto", "n=3", "boards=2", "--bound", "3"),                # a training table: Notakto's rule is a quotient
    ("notakto", "n=3", "boards=2", "--from", "q"),                 # trained the learner for minutes, then refused
    ("report", "notakto", "n=3", "--from", "q", "--out", "r"),     # the same
    ("report", "notakto", "n=3", "--out", "."),                    # the working folder is not a report folder
    ("notakto", "n=3", "--no-proof"), ("notakto", "n=3", "--verify-bound", "5"),  # a quotient has neither
    ("octal", "code=0.77", "misere=true", "--proof-seconds", "5"),
    # the command-line battery of issue 20: options the others make meaningless were silently ignored
    ("solve", "hex", "n=2", "--bound", "3"),                       # solved, the bound ignored
    ("alphazero", "notakto", "n=3", "--bound", "3", "--out", "a"),  # trained, the bound ignored
    ("nim", "heaps=2", "--episodes", "10"),                         # --from solver: no learner plays
    ("nim", "heaps=2", "--confidence", "0.5"),                      # --from solver: exact values
    ("nim", "heaps=2", "--no-proof", "--proof-seconds", "5"),
    ("nim", "heaps=2", "--from", "q", "--bound", "100000"),         # solved 10^10 positions for minutes first
    ("sweep", "q", "nim", "--grid", "alpha=0.1,0.1", "--out", "s"),  # fitted the same point twice
    ("sweep", "q", "nim", "--grid", "alpha=0.\u0663", "--out", "s"),   # swept alpha=0.3
    ("solve", "nim", "heaps=2", "--bound", "3", "--save", "x.npz", "--csv", "./x.npz"),  # the csv over the solution
    ("sweep", "q", "nim", "heaps=2", "--bound", "2", "--episodes", "10", "--points", "100", "--out", "s"),  # a point a game
    ("sweep", "q", "nim", "heaps=2", "--points", "7", "--out", "s"),  # ignored: the default games kept their curve
    ("alphazero", "nim", "heaps=2", "--bound", "3", "--hidden", "100000,100000,100000", "--out", "a"),  # torch's
    ("alphazero", "nim", "heaps=2", "--bound", "3", "--simulations", "1000000000", "--out", "a"),  # MemoryError
    ("hqn", "wythoff", "--bound", "20", "--eval-bound", "5"),     # trained the Q-agent for minutes, then refused
    ("hqn", "hex", "n=2"),                                          # the same, printing its progress first
    ("explore", "hex", "n=2", "--learner", "layers=0", "--out", "e"),  # refused after printing 'fit 1 of 15'
    ("explore", "hex", "n=2", "--learner", "width=1000000000", "--out", "e"),  # torch's allocation error
    ("alphazero", "nim", "heaps=2", "--bound", "3", "--replay-size", "1000000000000", "--out", "a"),  # MemoryError
    ("alphazero", "nim", "heaps=2", "--bound", "3", "--games", "1000000000", "--out", "a"),  # killed by the kernel
])
def test_probe_is_refused_in_one_line_before_any_work(argv):
    with hostile_folder() as folder:
        outcome = run_case(argv, folder, seconds=30)
    assert outcome.code == 2, outcome
    assert outcome.out == "" and len(outcome.err.splitlines()) == 1 and outcome.err.startswith("discover: ")
    assert not outcome.changed, outcome.changed


def test_sys_exit_in_moves_is_one_line_naming_the_function(tmp_path):
    path = tmp_path / "quit.py"
    path.write_text("import sys\nfrom games import custom_game\n\ndef quitter(p):\n    sys.exit(0)\n\n"
                    "game = custom_game('quit', quitter, dims=1)\n")
    with hostile_folder() as folder:
        outcome = run_case(("--game-file", str(path), "--bound", "5"), folder, seconds=30)
    assert outcome.code == 2 and "quitter" in outcome.err and "sys.exit(0)" in outcome.err, outcome


def test_moves_past_64_bits_are_refused():
    from games import custom_game

    game = custom_game("huge", lambda p: [(10**30,)], dims=1)
    with pytest.raises(ValueError, match="64 bits"):
        game.moves((1,))


def test_find_rule_refuses_a_board_game_before_allocating():
    from discover.find import find_rule
    from games import make_game

    with pytest.raises(ValueError, match="board game"):
        find_rule(make_game("hex", n=3))
    with pytest.raises(ValueError, match="misère quotient over boards"):
        find_rule(make_game("notakto", n=3, boards=2), bound=5)  # its rule needs no table


def test_a_rule_dividing_by_zero_is_refused():
    from discover.rule import Rule

    n = sp.Symbol("n")
    with pytest.raises(ValueError, match="divides by zero"):
        Rule(sp.Eq(sp.Mod(n, 0, evaluate=False), 0), ("n",))
    with pytest.raises(ValueError, match="not a rule record"):
        Rule.from_json('{"expr": "Equality(Mod(Symbol(\'n\'), Integer(0)), Integer(0))", "feature_names": ["n"]}')


def test_proving_a_rule_of_other_dimension_is_a_value_error():
    from discover.expr.nodes import BitXor
    from discover.proofs.prove import prove_rule
    from discover.rule import Rule
    from games import make_game

    a, b = sp.symbols("a b")
    with pytest.raises(ValueError, match="names 2 coordinates"):
        prove_rule(Rule(sp.Eq(BitXor(a, b), 0), ("a", "b")), make_game("nim", heaps=3))


@pytest.mark.parametrize("rule", [None, "n % 4 == 0", 3])
def test_proving_what_is_not_a_rule_is_a_type_error_naming_it(rule):
    from discover.proofs.prove import prove_rule
    from games import make_game

    with pytest.raises(TypeError, match="takes a Rule .* as rule"):  # was AttributeError
        prove_rule(rule, make_game("subtraction", subtract=(1, 2, 3)))


@pytest.mark.parametrize("seconds", [-5, 0, float("nan"), "10", True])
def test_a_quotient_budget_that_is_not_a_positive_number_is_refused(seconds):
    from discover.quotients import discover_quotient
    from discover.quotients.board_discovery import discover_board_quotient
    from games import make_game

    with pytest.raises(ValueError, match="seconds must be a number in"):  # was accepted and answered
        discover_quotient(make_game("octal", code="0.77", misere=True), heaps=20, seconds=seconds)
    with pytest.raises(ValueError, match="seconds must be a number in"):
        discover_board_quotient(make_game("notakto", n=3, boards=2), seconds=seconds)


@pytest.mark.parametrize("table", [{"first": {"a": {"a": 0.5}}}, {"first": {}, "second": {}},
                                   {"first": {"a": {"a": 0.5}}, "second": {"b": {"a": 0.5}}}])
def test_a_broken_tournament_table_is_a_value_error(table):
    from learners.tournament import format_table

    with pytest.raises(ValueError, match="tournament table"):
        format_table(table)


def test_api_counts_past_their_limits_are_refused():
    from cgbase.parallel import Workers
    from learners.sweep import run
    from games import make_game

    with pytest.raises(ValueError, match="workers"):
        Workers("local", 10**10)
    with pytest.raises(ValueError, match="too large"):
        run("q", make_game("nim", heaps=2), "alpha=0.1,0.2", bound=2, repeats=10**9)


def test_the_current_folder_and_its_ancestors_are_never_an_output_folder(tmp_path, monkeypatch):
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)
    for path in (".", "..", str(tmp_path), "./"):
        with pytest.raises(ValueError, match="current folder"):
            check_folder_path(path, "--out")
    assert check_folder_path("new", "--out").name == "new"


def test_a_failed_replacement_leaves_no_old_folder(tmp_path, monkeypatch):
    """The old folder is moved aside inside the try: a failing move leaves neither a '-old-' folder nor a partial one."""
    target = tmp_path / "report"
    target.mkdir()
    write_text(target / "index.md", "old")
    real = os.rename

    def refuse(src, dst):
        if os.fspath(src) == os.fspath(target):
            raise OSError(16, "Device or resource busy")
        return real(src, dst)

    monkeypatch.setattr(os, "rename", refuse)
    with pytest.raises(OSError):
        with atomic_folder(target, ("index.md",)) as out:
            write_text(out / "index.md", "new")
    assert sorted(os.listdir(tmp_path)) == ["report"]
    assert (target / "index.md").read_text() == "old"


def test_probe_a_study_of_one_seed_is_refused_before_any_work(tmp_path):
    """A fresh battery's probe: one repeat gave a verdict from the interval [nan, nan]."""
    from discover.app.experiments import nim_study
    from games import make_game

    with pytest.raises(ValueError, match="at least 2"):
        nim_study.run(make_game("nim", heaps=2), bound=3, episodes=10, repeats=1, games=5)


@pytest.mark.parametrize("argv", [["tournament", "nim", "heaps=2", "--learners", "q,q"],
                                  ["nim", "heaps=2", "--engines", "sequence,sequence"]])
def test_probe_a_name_given_twice_in_a_list_is_refused(argv, capsys):
    """A fresh battery's probe: `tournament --learners q,q` ran and printed duplicate rows."""
    from discover.app.cli import main

    assert main(argv) == 2
    assert "twice" in capsys.readouterr().err


def test_probe_a_custom_game_with_an_empty_name_is_refused():
    from games import custom_game

    with pytest.raises(ValueError, match="non-empty"):
        custom_game("", lambda p: [], 1)


@pytest.mark.parametrize("body", ["class Stop(BaseException):\n    pass\nraise Stop('top')\n",
                                  "raise GeneratorExit\n"])
def test_probe_a_game_file_raising_a_base_exception_is_one_line(tmp_path, body):
    """A fresh battery's probe: an exception outside ``Exception`` raised by a game file gave a traceback."""
    path = tmp_path / "odd.py"
    path.write_text(body)
    with hostile_folder() as folder:
        outcome = run_case(("solve", "--game-file", str(path)), folder, seconds=30)
    assert outcome.code == 2 and len(outcome.err.splitlines()) == 1 and "odd.py failed to run" in outcome.err, outcome


class _Odd(BaseException):
    pass


def _raise_odd(position):
    raise _Odd("odd")


def _endless(position):
    while True:
        yield (0,)


def test_probe_moves_raising_a_base_exception_or_endless_is_a_value_error():
    """A fresh battery's probes: moves() raising its own BaseException gave a traceback; an endless generator
    filled the memory."""
    from games import custom_game
    from games.custom import MAX_OPTIONS

    with pytest.raises(ValueError, match="raised _Odd: odd"):
        custom_game("odd", _raise_odd, dims=1).moves((1,))
    with pytest.raises(ValueError, match=f"more than {MAX_OPTIONS:,} options"):
        custom_game("endless", _endless, dims=1).moves((1,))
    with pytest.raises(KeyboardInterrupt):  # Ctrl-C inside moves() stays an interruption
        custom_game("ctrl-c", lambda p: (_ for _ in ()).throw(KeyboardInterrupt), dims=1).moves((1,))


@pytest.mark.parametrize("text, reason", [('{"name": "a", "name": "b", "heaps": 1, "moves": [{"take": 1}]}', "twice"),
                                          ('{"a":' * 5000 + "1" + "}" * 5000, "nests deeper")])
def test_probe_a_game_spec_with_a_repeated_key_or_deep_nesting_is_refused(tmp_path, text, reason):
    """A fresh battery's probes: a repeated key kept the last silently; 5,000 nested objects gave RecursionError."""
    from games import read_game_spec

    path = tmp_path / "spec.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=reason):
        read_game_spec(path)


def test_probe_compare_refuses_training_options_with_a_saved_table(tmp_path):
    """A fresh battery's probe: `compare --table t.npz --learner qnetwork` compared the saved Q table and wrote
    runs/<game>-qnetwork/compare.png, the learner named but never trained."""
    from games import make_game
    from learners.registry import fit_learner

    path = tmp_path / "t.npz"
    fit_learner("q", make_game("nim", heaps=2), bound=2, games=50).value_table_.save(path)
    with hostile_folder() as folder:
        outcome = run_case(("compare", "nim", "heaps=2", "--table", str(path), "--learner", "qnetwork"), folder, 30)
    assert outcome.code == 2 and "--learner" in outcome.err and not outcome.changed, outcome


def test_probe_a_network_or_search_beyond_memory_is_refused_before_allocating():
    """A fresh battery's probes: torch's allocation error (a traceback) for 3 layers of 100,000 units; 10^9
    simulations allocated search trees until MemoryError."""
    from games import make_game
    from learners.alphazero.mcts import Forest
    from learners.alphazero.network import build_network

    with pytest.raises(ValueError, match="narrower layers"):
        build_network("mlp", (3,), hidden=(10**5,) * 3)
    with pytest.raises(ValueError, match="fewer simulations"):
        Forest(make_game("nim", heaps=2), trees=64, simulations=10**9, width=6)
