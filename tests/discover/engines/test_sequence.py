"""The sequence-structure engine: periodic rules (1-D) and complementary pairs (2-D).

Each rule is found on a small table and then checked against the exact solver on a larger one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from discover.engines.pairs import PairsEngine, beatty_constants, complementary_pairs
from discover.engines.periods1d import PeriodicEngine
from discover.engines.sequence import SequenceEngine
from discover.expr.features import derived_names, feature_columns
from discover.proofs.periodicity import octal_periodicity_proof, subtraction_periodicity_proof
from discover.rule import Rule
from discover.table import table_from_solution
from games import make_game
from solvers import solve
from solvers.periods.sequences import find_periods

n = sp.Symbol("n")


def _table(name, bound, **params):
    return table_from_solution(solve(make_game(name, **params), bound=bound, grundy=name != "wythoff"))


def _fit(table, target, **params):
    return SequenceEngine(**params).fit(table.X, table.y(target), feature_names=table.feature_names, target=target)


def _holds(candidate, table, solution) -> bool:
    """The candidate's rule agrees with the solver on every position of ``solution``."""
    rule = Rule(candidate.expr, tuple(table.coordinate_names), candidate.target)
    positions = solution.universe.positions()
    if candidate.target == "grundy":
        return bool(np.array_equal(rule.evaluate(positions), solution.grundy_table))
    return bool(np.array_equal(rule.predicate(positions), solution.outcome_table == -1))


# -- subtraction games -----------------------------------------------------------------------


def test_subtraction_123_is_n_mod_4():
    best = _fit(_table("subtraction", 30, subtract=(1, 2, 3)), "P").candidates_[0]
    assert best.exact
    assert best.expr == sp.Eq(sp.Mod(n, 4), 0)
    assert "period 4 from n = 0" in best.words


def test_subtraction_134_is_n_mod_7_in_0_2():
    best = _fit(_table("subtraction", 30, subtract=(1, 3, 4)), "P").candidates_[0]
    assert best.expr == sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2))
    assert Rule(best.expr, ("n",)).text() == "n mod 7 ∈ {0, 2}"


@pytest.mark.parametrize("target", ["P", "grundy"])
def test_subtraction_237_period_from_the_data_holds_on_1000(target):
    game = make_game("subtraction", subtract=(2, 3, 7))
    table = table_from_solution(solve(game, bound=30, grundy=True))
    best = _fit(table, target).candidates_[0]
    assert best.exact
    assert _holds(best, table, solve(game, bound=1000, grundy=True))


# -- octal games and Lasker's Nim --------------------------------------------------------------


@pytest.fixture(scope="module")
def kayles_1000():
    return solve(make_game("octal", code="0.77"), bound=1000, grundy=True)


@pytest.mark.slow
def test_kayles_period_12_from_71_with_exceptions(kayles_1000):
    game = make_game("octal", code="0.77")
    table = table_from_solution(solve(game, bound=200, grundy=True))
    best = _fit(table, "grundy").candidates_[0]
    assert best.exact
    assert "period 12 from n = 71" in best.words
    assert "{0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70}" in best.words
    assert _holds(best, table, kayles_1000)


def test_kayles_small_table_is_right_on_its_table():
    # heaps <= 30 cannot reveal the exceptions at 34..70: the engine must only be right on its table
    table = _table("octal", 30, code="0.77")
    for c in _fit(table, "grundy").candidates_:
        assert c.exact


def test_kayles_p_positions_only_at_zero():
    best = _fit(_table("octal", 60, code="0.77"), "P").candidates_[0]
    assert best.expr == sp.Eq(n, 0)


def test_lasker_grundy_is_arithmetic_periodic():
    game = make_game("lasker")
    table = table_from_solution(solve(game, bound=30, grundy=True))
    best = _fit(table, "grundy").candidates_[0]
    assert best.exact
    assert "G(n + 4) = G(n) + 4" in best.words
    assert Rule(best.expr, ("n",), "grundy").text() == (
        "G = if n = 0: 0; if n mod 4 = 0: n - 1; if n mod 4 = 3: n + 1; otherwise n"
    )
    assert _holds(best, table, solve(game, bound=1000, grundy=True))


def test_grundys_game_has_no_period_on_a_small_table():
    table = _table("grundy_game", 30)
    assert _fit(table, "grundy").candidates_ == []


def test_tables_that_are_too_short_are_not_periodic():
    assert find_periods([0, 1, 2, 0, 1]) == []  # one period and a bit: not evidence
    assert find_periods([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8]) == []


def test_noisy_table_gets_an_inexact_majority_candidate():
    X = np.arange(60)[:, None]
    y = X[:, 0] % 4 == 0
    y[[45, 53]] = True  # two wrong labels too late for an exact periodic fit
    cands = PeriodicEngine().fit(X, y, feature_names=["n"], target="P").candidates_
    best = max(cands, key=lambda c: c.accuracy)
    assert not best.exact and best.expr == sp.Eq(sp.Mod(n, 4), 0)


# -- proofs -----------------------------------------------------------------------------------


def test_octal_periodicity_proof_needs_the_range():
    values = solve(make_game("octal", code="0.77"), bound=200, grundy=True).grundy_table
    assert make_game("octal", code="0.77").removal_limit == 2
    need = 2 * 71 + 2 * 12 + 2  # n < 2 n0 + p + t, each compared with n + p
    assert octal_periodicity_proof(2, 71, 12, values[:need]).proven
    short = octal_periodicity_proof(2, 71, 12, values[: need - 1])
    assert not short.proven and short.needed == need
    assert not octal_periodicity_proof(2, 70, 12, values).proven  # 70 is an exception


def test_subtraction_periodicity_proof():
    values = [1, 0, 0, 0] * 3
    assert subtraction_periodicity_proof(3, 0, 4, values)
    assert not subtraction_periodicity_proof(3, 0, 4, values[:6])


# -- complementary pairs ----------------------------------------------------------------------


def test_wythoff_pairs_golden_ratio():
    table = _table("wythoff", 30)
    best = _fit(table, "P").candidates_[0]
    min_all, spread = sp.symbols("min_all spread")
    assert best.expr == sp.Eq(min_all, sp.floor(sp.GoldenRatio * spread))
    assert best.words == (
        "P positions are the pairs {⌊kφ⌋, ⌊kφ²⌋}, k ≥ 0, where a_k = mex{a_j, b_j : j < k} and b_k = a_k + k"
    )
    assert _holds(best, table, solve(make_game("wythoff"), bound=1000))


def _beatty_table(alpha, c, bound):
    a = [math.floor(k * alpha) for k in range(bound + 1)]
    pairs = {(x, x + c * k) for k, x in enumerate(a)}
    positions = np.array([(x, y) for x in range(bound + 1) for y in range(bound + 1)])
    is_p = np.array([(x, y) in pairs or (y, x) in pairs for x, y in positions])
    names = ["a", "b"] + derived_names(2)
    columns = feature_columns(names, ["a", "b"], positions)
    return np.column_stack([columns[m] for m in names]), is_p, names, positions


def test_pairs_with_c_2_give_sqrt_2():
    # a_k = mex, b_k = a_k + 2k: alpha = sqrt(2), beta = 2 + sqrt(2) (not a Wythoff special case)
    X, y, names, _ = _beatty_table(math.sqrt(2), 2, 60)
    fit = complementary_pairs(X[:, :2], y)
    assert fit.c == 2 and fit.mex
    best = PairsEngine().fit(X, y, feature_names=names).candidates_[0]
    assert best.exact
    assert sp.srepr(best.expr) == sp.srepr(
        sp.And(
            sp.Eq(sp.Mod(sp.Symbol("spread"), 2), 0),
            sp.Eq(sp.Symbol("min_all"), sp.floor(sp.sqrt(2) * sp.Symbol("spread") / 2)),
        )
    )
    X2, y2, names2, _ = _beatty_table(math.sqrt(2), 2, 300)
    assert PairsEngine().score(best.expr, X2, y2, names2) == 1.0


def test_beatty_constants_confirm_exactly():
    a = [math.floor(k * (1 + math.sqrt(5)) / 2) for k in range(12)]
    assert beatty_constants(a, c=1) == [sp.GoldenRatio]
    assert beatty_constants([0, 1, 5, 2]) == []  # no alpha fits


def test_non_pair_tables_give_nothing():
    for name, params in [("nim", {"heaps": 2}), ("euclid", {})]:
        table = table_from_solution(solve(make_game(name, **params), bound=15))
        assert PairsEngine().fit(table.X, table.is_p, feature_names=table.feature_names).candidates_ == []
