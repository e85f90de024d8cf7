"""``discover evaluate``: an OpenSpiel bot or a learner scored exactly; contradicting options refused in one line."""

from __future__ import annotations

import json
import sys

import pytest

from games import make_game
from learners.agents import RandomAgent
from learners.optimality import counted_positions, expected_optimal_move_share
from solvers import solve


def test_openspiels_random_bot_is_scored_on_every_position(cli):
    pytest.importorskip("pyspiel")
    code, stdout, _ = cli("evaluate", "wythoff", "--bound", "6", "--bot", "random", "--positions", "1000", "--json")
    record = json.loads(stdout)
    solution = solve(make_game("wythoff"), bound=6)
    share = record["optimal_moves"]
    assert code == 0 and record["agent"] == {"bot": "random"} and not share["sampled"]
    assert share["asked"] == counted_positions(solution).size
    assert share["low"] <= expected_optimal_move_share(solution, RandomAgent()) <= share["high"]
    rates = record["against_perfect"]
    assert rates["starts"] == 20 and rates["overall"]["games"] == 40


def test_a_learners_greedy_policy_is_scored(cli):
    code, stdout, _ = cli("evaluate", "nim", "heaps=2", "--bound", "3", "--learner", "q", "--episodes", "3000")
    assert code == 0 and "learner q (3000 games), its greedy policy" in stdout
    assert "optimal moves    1.000" in stdout and "kept its seat's win or draw 15/15" in stdout


def test_mcts_on_tictactoe_plays_both_seats_from_the_empty_board(cli):
    pytest.importorskip("pyspiel")
    code, stdout, _ = cli("evaluate", "tictactoe", "--positions", "20", "--simulations", "20", "--games", "2",
                          "--json")
    record = json.loads(stdout)
    assert code == 0 and 20 <= record["optimal_moves"]["asked"] <= 20 + 9  # at least one per number of stones
    assert record["optimal_moves"]["sampled"]
    assert record["against_perfect"]["starts"] == 1 and record["against_perfect"]["first"]["games"] == 2
    assert record["against_perfect"]["overall"]["wins"] == 0  # nobody beats the perfect player at tic-tac-toe


def test_an_openspiel_game_is_scored_in_its_own_openspiel_game(cli):
    """An imported game's bot plays OpenSpiel's own nim; a perfect learner and a random bot are scored exactly."""
    pytest.importorskip("pyspiel")
    name = "openspiel:nim(pile_sizes=1;2;3)"
    code, stdout, _ = cli("evaluate", name, "--bot", "random", "--json")
    record = json.loads(stdout)
    solution = solve(make_game(name))
    share = record["optimal_moves"]
    assert code == 0 and not share["sampled"] and share["asked"] == counted_positions(solution).size
    assert share["low"] <= expected_optimal_move_share(solution, RandomAgent()) <= share["high"]
    code, stdout, _ = cli("evaluate", name, "--learner", "q", "--episodes", "3000", "--json")
    assert code == 0 and json.loads(stdout)["optimal_moves"]["share"] == 1.0
    code, stdout, _ = cli("evaluate", name, "--simulations", "20", "--games", "2", "--json")
    record = json.loads(stdout)
    assert code == 0 and record["agent"]["bot"] == "mcts" and record["optimal_moves"]["asked"] == share["asked"]
    assert record["against_perfect"]["overall"]["games"] == 4


@pytest.mark.parametrize("argv, words", [
    (("nim", "--bot", "alpha_zero", "--checkpoint", "run/checkpoint-0"), "JAX"),
    (("nim", "--bot", "alpha_zero"), "JAX"),
    (("nim", "--checkpoint", "x"), "--checkpoint is the AlphaZero checkpoint"),
    (("nim", "--learner", "q", "--bot", "mcts"), "leave out --bot"),
    (("nim", "--bot", "random", "--simulations", "5"), "set --bot mcts"),
    (("nim", "--episodes", "5"), "--episodes is the budget of --learner"),
    (("octal",), "sum of heaps"),
    (("tictactoe", "--bound", "3"), "leave out --bound"),
    (("tictactoe", "--starts", "3"), "leave out --starts"),
])
def test_contradicting_options_are_refused_in_one_line(cli, one_error_line, argv, words):
    code, stdout, err = cli("evaluate", *argv)
    one_error_line(code, stdout, err)
    assert words in err


def test_without_openspiel_one_line_says_how_to_install_it(cli, one_error_line, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    code, stdout, err = cli("evaluate", "wythoff", "--bound", "3")
    one_error_line(code, stdout, err)
    assert "OpenSpiel is not installed: pip install -e '.[openspiel]'" in err
    assert cli("evaluate", "wythoff", "--bound", "3", "--learner", "q", "--episodes", "500")[0] == 0  # not needed


@pytest.mark.parametrize("command", [("evaluate", "--learner", "alphazero"), ("alphazero", "--iterations", "1")])
def test_alphazero_refuses_an_openspiel_game_in_one_line(cli, one_error_line, command):
    """An imported game's positions are state ids: AlphaZero has no board to encode (was a traceback)."""
    pytest.importorskip("pyspiel")
    code, stdout, err = cli(command[0], "openspiel:nim(pile_sizes=1;2)", *command[1:])
    one_error_line(code, stdout, err)
    assert "AlphaZero plays integer games" in err
