"""``play_batched``: every verification game side by side through the move kernel, with the outcomes the
one-game-at-a-time ``learners.play.match`` gives."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.rule import Rule
from discover.self_play import hypothesis_player, optimal_player, play_batched, random_player, strategy_player
from discover.strategy import Branch, Strategy
from discover.verify import self_play
from games import make_game
from learners import HypothesisAgent, OptimalAgent, match
from solvers import solve

n = sp.Symbol("n")


@pytest.mark.parametrize("name, params", [("nim", {"heaps": 3}), ("nim", {"heaps": 3, "misere": True}),
                                          ("wythoff", {}), ("chomp", {"rows": 2}), ("euclid", {})])
def test_optimal_against_optimal_from_n_and_p_positions_matches_the_solver(name, params):
    game = make_game(name, **params)
    solution = solve(game, bound=12)
    ids = np.random.default_rng(0).choice(solution.universe.size, 60, replace=False)
    starts = solution.universe.positions(np.sort(ids))
    terminal = np.array([len(game.moves(p)) == 0 for p in starts])
    starts = starts[~terminal]
    result = play_batched(game, optimal_player(solution), optimal_player(solution), starts)
    assert result["wins"] == int((solution.outcome(starts) == 1).sum()) and result["draws"] == 0
    assert result["wins"] + result["losses"] == len(starts)


def test_a_wrong_rule_loses_as_in_match():
    game = make_game("subtraction", subtract=(1, 2, 3))
    solution = solve(game, bound=60)
    wrong = Rule(sp.Eq(sp.Mod(n, 5), 0), ("n",))
    starts = solution.universe.positions(np.flatnonzero(solution.outcome_table == 1))
    batched = play_batched(game, hypothesis_player(wrong.predicate), optimal_player(solution), starts)
    one_by_one = match(game, HypothesisAgent(wrong), OptimalAgent(solution), [tuple(p) for p in starts])
    assert batched["losses"] > 0 and one_by_one["losses"] > 0
    assert batched["first_loss"][0] % 4 and one_by_one["first_loss"][0] % 4  # N starts (random moves differ)
    check = self_play(wrong, game, solution, games=40)
    assert not check.passed and check.counterexample["opponent"] in ("random", "optimal", "itself")


def test_the_strategy_player_plays_the_strategy():
    game = make_game("subtraction", subtract=(1, 2, 3))
    rule = Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",))
    strategy = Strategy(rule, game.move_relation(), [Branch((n - sp.Mod(n, 4),))])
    result = play_batched(game, strategy_player(strategy), random_player, [[5], [10], [103]], seed=1)
    assert result == {"games": 3, "wins": 3, "losses": 0, "draws": 0, "first_loss": None}


def test_a_custom_game_plays_side_by_side_through_its_moves():
    from games import custom_game

    game = custom_game("take123", lambda p: [(p[0] - t,) for t in (1, 2, 3) if t <= p[0]], 1)
    four = hypothesis_player(lambda X: X[:, 0] % 4 == 0)
    starts = [[5], [6], [7], [9], [101]]
    assert play_batched(game, four, random_player, starts, seed=2)["wins"] == 5
    solution = solve(game, bound=40)
    assert self_play(Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",)), game, solution, games=20).passed
    assert not self_play(Rule(sp.Eq(sp.Mod(n, 5), 0), ("n",)), game, solution, games=20).passed
