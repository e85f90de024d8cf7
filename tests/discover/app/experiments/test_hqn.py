"""The HQN paper's experiments: accuracy by board size, the rule-change cycle, and the command's bad input."""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.app.experiments.hqn import accuracy_by_size, model_accuracy, rule_change_cycle
from discover.rule import Rule
from discover.app.experiments.hqn import SymbolicModel
from games import make_game

WYTHOFF = make_game("wythoff")


def rule_model(expr) -> SymbolicModel:
    rule = Rule(expr, ("a", "b"))
    rule.train_accuracy = 1.0
    return SymbolicModel(rule)


def test_accuracy_of_the_exact_rule_and_of_a_wrong_one():
    a, b = sp.symbols("a b")
    exact = rule_model(sp.Eq(sp.Min(a, b), sp.floor(sp.GoldenRatio * sp.Abs(a - b))))
    diagonal = rule_model(sp.Eq(a, b))
    sizes = accuracy_by_size(WYTHOFF, {"exact": exact, "diagonal": diagonal}, sizes=(10, 40), symbolic_sizes=(1000,))
    assert sizes["exact"] == {10: 1.0, 40: 1.0, 1000: 1.0}
    assert sizes["diagonal"][10] < 0.5 and np.isnan(sizes["diagonal"][1000])
    assert model_accuracy(make_game("nim", heaps=2), diagonal, 1000) == 1.0


def test_rule_change_cycle_detects_every_change_and_recalls():
    cycle = rule_change_cycle([WYTHOFF, make_game("nim", heaps=2)], cycles=2, episodes=2000, eval_bound=20)
    stints = cycle["stints"]
    assert [s["game"].split("(")[0] for s in stints] == ["wythoff", "nim", "wythoff", "nim"]
    assert all(s["detected_at"] for s in stints[1:])
    assert stints[2]["recalled"] and stints[2]["recovery"] <= stints[0]["recovery"]


def test_hqn_command_refuses_games_off_the_board(cli, one_error_line):
    one_error_line(*cli("hqn", "nim", "heaps=3", "--periods", "1"))


def test_symbolic_hqn_from_three_heaps_plays_many_heaps_perfectly():
    from discover.app.experiments.hqn import many_heap_games
    from discover.app.experiments.hqn import SymbolicModelBuilder
    from learners.hqn.learner import HQN

    hqn = HQN(model=SymbolicModelBuilder(), random_state=0).fit(make_game("nim", heaps=3), bound=7, eval_bound=12,
                                                               periods=6, episodes=5000)
    for heaps in (7, 10, 20):
        result = many_heap_games(hqn.best_model_.rule, heaps, games=1000)
        assert result == {"heaps": heaps, "max_heap": 31, "games": 1000, "wins": 1000, "losses": 0}
    a, b = sp.symbols("a b")
    assert many_heap_games(Rule(sp.Eq(a, b), ("a", "b")), 7, games=200)["losses"] > 0
