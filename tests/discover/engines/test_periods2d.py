"""The periods2d engine: two-heap P rules periodic in each coordinate with exceptional lines near the axes.

Each example is checked against an independent brute force on a bound beyond the verification: a sum of
subtraction games through its one-heap Grundy values computed here by mex (Sprague-Grundy: P iff the values are
equal), the others by a plain recursive search over the declared moves.  The control ("take 1 or 4 from one
heap, or 1 from both") has rows that are each periodic, with a pre-period that grows with the row: no finite
rule of this shape exists, and none is claimed.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.engines.periods2d import Periods2DEngine, grid_from_table
from discover import defaults
from discover.find import FindSettings, find_rule
from discover.period_growth import settled_bound
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.table import table_from_solution
from games import custom_game
from games.declared import declared_game
from solvers import solve
from solvers.periods.grids import grid_periods

SUM_247_12 = {"name": "s247-s12", "heaps": 2, "moves": [{"step": [[2, 0], [4, 0], [7, 0], [0, 1], [0, 2]]}]}
TAKE_247 = {"name": "take247", "heaps": 2, "moves": [{"take": [2, 4, 7]}]}
TAKE_13_OR_3_BOTH = {"name": "t13-or-3both", "heaps": 2,
                     "moves": [{"take": {"min": 1, "max": 3}}, {"take": 3, "from": "all"}]}
SUM_134_256 = {"name": "s134-s256", "heaps": 2, "moves": [{"step": [[1, 0], [3, 0], [4, 0], [0, 2], [0, 5], [0, 6]]}]}
CONTROL = {"name": "t14-or-1both", "heaps": 2, "moves": [{"take": [1, 4]}, {"take": 1, "from": "all"}]}


def mex_values(subtract, size: int) -> list[int]:
    """Grundy values of the one-heap subtraction game, by mex, independently of the solver."""
    values = []
    for n in range(size):
        seen = {values[n - t] for t in subtract if t <= n}
        values.append(next(g for g in range(len(seen) + 1) if g not in seen))
    return values


def sum_truth(first, second, bound: int) -> np.ndarray:
    g, h = np.array(mex_values(first, bound + 1)), np.array(mex_values(second, bound + 1))
    return g[:, None] == h[None, :]


def search_truth(spec, bound: int) -> np.ndarray:
    """P positions of a declared game by a plain search over its ``moves()``, position by position."""
    game = declared_game(spec)
    p = np.zeros((bound + 1, bound + 1), dtype=bool)
    for total in range(2 * bound + 1):
        for a in range(max(0, total - bound), min(total, bound) + 1):
            p[a, total - a] = not any(p[q] for q in game.moves((a, total - a)))  # moves lower a + b
    return p


def rule_grid(rule, bound: int) -> np.ndarray:
    a, b = np.indices((bound + 1, bound + 1))
    return rule.predicate(np.column_stack([a.ravel(), b.ravel()])).reshape(a.shape)


def fitted(spec, bound: int) -> Periods2DEngine:
    table = table_from_solution(solve(declared_game(spec), bound=bound))
    return Periods2DEngine().fit(table.X, table.y("P"), feature_names=table.feature_names)


def test_the_grid_shape_of_a_sum_with_a_preperiod():
    truth = sum_truth((2, 4, 7), (1, 2), 60)  # G of {2, 4, 7}: period 3 from n = 8; of {1, 2}: n mod 3
    found = grid_periods(truth)
    assert found.periods == (3, 3) and found.start == (8, 0)
    assert found.rows == ((0, 3),) * 7 + ((0, 1),) and found.columns == ()


def test_a_sum_of_subtraction_games_is_found_verified_and_proved():
    """On the engines' road (find_rule's own road for a sum is the Grundy composition: both rules are the truth)."""
    engines = FindSettings(engines=defaults.ENGINES.engines, verify_bound=120, games=8, strategy=False)
    found = find_rule(declared_game(SUM_247_12), settings=engines)
    assert found.status == "verified" and found.rule.provenance["engine"] == "periods2d"
    assert found.proof.status == "proved" and found.proof.method.startswith("z3 closure certificate")
    assert np.array_equal(rule_grid(found.rule, 400), sum_truth((2, 4, 7), (1, 2), 400))
    composed = find_rule(declared_game(SUM_247_12), settings=FindSettings(verify_bound=120, games=8, strategy=False))
    assert composed.road == "Grundy composition" and composed.proof.status == "proved"
    assert np.array_equal(rule_grid(composed.rule, 400), sum_truth((2, 4, 7), (1, 2), 400))


def test_the_symmetric_form_by_the_smaller_heap():
    best = fitted(TAKE_247, 30).candidates_[0]
    assert best.exact and "min_all" in str(best.expr)
    rule = Rule(best.expr, ("a", "b"))
    assert rule.text().startswith("if min(a, b) ∈ {0, 1}: max(a, b) = 1 or")
    assert np.array_equal(rule_grid(rule, 300), sum_truth((2, 4, 7), (2, 4, 7), 300))
    assert prove_rule(rule, declared_game(TAKE_247), relation_bound=30).status == "proved"


@pytest.mark.slow
def test_a_game_that_is_no_sum_grows_to_bound_60_and_is_proved():
    game = declared_game(TAKE_13_OR_3_BOTH)
    assert fitted(TAKE_13_OR_3_BOTH, 30).candidates_ == []  # the exceptional lines reach min(a, b) = 8
    assert settled_bound(game, 30) == 60
    found = find_rule(game, settings=FindSettings(verify_bound=150, games=8, strategy=False))
    assert found.status == "verified" and found.train_bound == 60 and found.verified_bound == 150
    assert found.rule.provenance["engine"] == "periods2d" and found.proof.status == "proved"
    assert np.array_equal(rule_grid(found.rule, 160), search_truth(TAKE_13_OR_3_BOTH, 160))


def test_periods_7_and_11_settle_on_bound_120_only():
    assert fitted(SUM_134_256, 60).candidates_ == []
    best = fitted(SUM_134_256, 120).candidates_[0]
    assert best.exact and {int(m.args[1]) for m in best.expr.atoms(sp.Mod)} == {7, 11}
    assert np.array_equal(rule_grid(Rule(best.expr, ("a", "b")), 500), sum_truth((1, 3, 4), (2, 5, 6), 500))


def test_a_custom_game_in_python_with_its_relation():
    declared = declared_game(SUM_247_12)
    game = custom_game("s247-s12-python", declared.moves, 2, relation=declared.move_relation())
    found = find_rule(game, settings=FindSettings(bound=30, verify_bound=60, engines=["periods2d"], games=8,
                                                  strategy=False))
    assert found.status == "verified" and found.proof.status == "proved"
    assert np.array_equal(rule_grid(found.rule, 200), sum_truth((2, 4, 7), (1, 2), 200))


def test_no_rule_where_the_rows_preperiods_grow_without_end():
    truth = search_truth(CONTROL, 160)
    starts = [settled_period_start(truth[a]) for a in (10, 20, 40)]
    assert starts[0] < starts[1] < starts[2]  # each row settles, ever later: no finite list of exceptional rows
    assert grid_periods(truth) is None and fitted(CONTROL, 120).candidates_ == []
    found = find_rule(declared_game(CONTROL), settings=FindSettings(games=4, strategy=False, prove=False,
                                                                     engines=["residues", "periods2d"]))
    assert found.status == "none" and any("no periods in each coordinate settled" in n for n in found.notes)


def settled_period_start(row) -> int:
    from solvers.periods.sequences import settled_period

    return settled_period(row.astype(np.int64))[0]


def test_tables_it_leaves_alone():
    X = np.array([(a, b) for a in range(12) for b in range(12) if a >= b])  # ordered heaps: not a box
    engine = Periods2DEngine().fit(X, X[:, 0] == X[:, 1], feature_names=["a", "b"])
    assert engine.candidates_ == [] and "full box" in engine.notes_[0]
    grundy = Periods2DEngine().fit(np.zeros((4, 2), int), np.arange(4), feature_names=["a", "b"], target="grundy")
    assert grundy.candidates_ == [] and "P tables only" in grundy.notes_[0]
    assert grid_from_table(np.array([[0, 0], [0, 0]]), [True, True], (0, 1)) is None  # a cell twice


@pytest.mark.parametrize("spec", [SUM_247_12, TAKE_247])
def test_every_candidate_is_exact_on_its_table(spec):
    engine = fitted(spec, 30)
    assert engine.candidates_ and all(c.exact for c in engine.candidates_)
