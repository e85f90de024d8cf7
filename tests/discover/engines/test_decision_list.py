"""Decision lists: misère Nim and Euclid found exactly and confirmed by the solver beyond training."""

import numpy as np
import pytest
import sympy as sp

from discover.engines.decision_list import DecisionList




def _fit(table, **params):
    return DecisionList(**params).fit(table.X, table.is_p, feature_names=table.feature_names)


def test_misere_nim_found_and_verified_on_a_larger_bound(table_of, holds):
    engine = _fit(table_of("nim", 7, heaps=3, misere=True))
    best = engine.candidates_[0]
    xor_all, max_all = sp.symbols("xor_all max_all")
    expected = sp.Piecewise((sp.Eq(xor_all, 1), sp.Le(max_all, 1)), (sp.Eq(xor_all, 0), True))
    assert best.exact and best.engine == "decision_list"
    assert best.expr == expected
    assert holds(best.expr, table_of("nim", 12, heaps=3, misere=True))
    # stated with derived features, it holds for other heap counts too
    assert holds(best.expr, table_of("nim", 5, heaps=4, misere=True))


def test_euclid_decision_list_matches_the_solver(table_of, holds):
    engine = _fit(table_of("euclid", 30))
    best = engine.candidates_[0]
    assert best.exact
    assert isinstance(best.expr, sp.Piecewise)
    assert sp.GoldenRatio in best.expr.atoms(sp.NumberSymbol)
    assert holds(best.expr, table_of("euclid", 120))


def test_single_formula_needs_no_guard(table_of):
    engine = _fit(table_of("nim", 7, heaps=3))
    assert engine.candidates_[0].expr == sp.Eq(sp.Symbol("xor_all"), 0)


def test_no_decision_list_gives_only_inexact_candidates(table_of):
    table = table_of("nim", 20, heaps=2)
    labels = np.random.default_rng(0).random(len(table)) < 0.3
    engine = DecisionList().fit(table.X, labels, feature_names=table.feature_names)
    assert engine.candidates_
    assert all(not c.exact for c in engine.candidates_)
    accuracies = [c.accuracy for c in engine.candidates_]
    assert accuracies == sorted(accuracies, reverse=True)


def test_no_float_constants_and_accuracy_is_exact(table_of):
    table = table_of("euclid", 20)
    engine = _fit(table)
    for c in engine.candidates_:
        assert not c.expr.atoms(sp.Float)
        assert c.accuracy == pytest.approx(engine.score(c.expr, table.X, table.is_p, table.feature_names))


@pytest.mark.parametrize("game, bound, params", [("nim", 5, {"heaps": 3, "misere": True}), ("euclid", 20, {}),
                                                  ("chomp", 8, {"rows": 2})])
def test_counts_in_bits_give_the_lists_the_weighted_products_give(table_of, game, bound, params):
    """Weights all 1 take the packed-bits counts; weights all 2 the float products: the same lists, same order."""
    table = table_of(game, bound, **params)
    ones, twos = (DecisionList().fit(table.X, table.is_p, feature_names=table.feature_names,
                                     sample_weight=np.full(len(table.is_p), w)) for w in (1.0, 2.0))
    assert ones._in_bits and not twos._in_bits
    found = [[(str(c.expr), c.accuracy) for c in engine.candidates_] for engine in (ones, twos)]
    assert found[0] == found[1]
