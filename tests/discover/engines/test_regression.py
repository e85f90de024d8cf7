"""Symbolic regression: constants snapped to closed forms and re-checked exactly; PySR only with Julia."""

import shutil
import sys

import numpy as np
import pytest
import sympy as sp

from discover.engines import regression
from discover.engines.constants import snap_constant
from discover.engines.regression import PYSR_NEEDS_JULIA, RegressionEngine, integer_relation
from discover.expr.numeric import evaluate

min_all, spread, k = sp.symbols("min_all spread k")




def _fit(table, **params):
    return RegressionEngine(**params).fit(table.X, table.is_p, feature_names=table.feature_names)


def test_operon_recovers_wythoff_after_snapping(table_of, holds):
    engine = _fit(table_of("wythoff", 30), random_state=0)
    best = engine.candidates_[0]
    assert best.exact and best.engine == "operon"
    assert best.expr == sp.Eq(min_all, sp.floor(sp.GoldenRatio * spread))
    assert holds(best.expr, table_of("wythoff", 120))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integer_relation_is_seeded_and_exact(seed):
    ks = np.arange(12)
    y = evaluate(sp.floor(sp.GoldenRatio * k), {"k": ks})
    first = integer_relation({"k": ks}, y, random_state=seed)
    assert first[0] == sp.floor(sp.GoldenRatio * k)
    assert integer_relation({"k": ks}, y, random_state=seed) == first


def test_euclid_boundary_line_is_golden_and_verified(table_of, holds):
    engine = _fit(table_of("euclid", 30))
    best = engine.candidates_[0]
    assert best.exact
    assert sp.GoldenRatio in best.expr.atoms(sp.NumberSymbol)
    assert holds(best.expr, table_of("euclid", 100))


def test_pysr_without_julia_names_the_alternative(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name, *a, **kw: None)
    already = "pysr" in sys.modules
    with pytest.raises(ValueError) as error:
        RegressionEngine(backend="pysr")
    message = str(error.value)
    assert message == PYSR_NEEDS_JULIA
    assert "operon" in message and "gplearn" in message and "\n" not in message
    with pytest.raises(ValueError, match="needs Julia"):
        regression.symbolic_fit(np.arange(5)[:, None], np.arange(5), ["k"], backend="pysr")
    assert already or "pysr" not in sys.modules  # never imported without Julia


def test_unknown_backend():
    with pytest.raises(ValueError, match="operon"):
        RegressionEngine(backend="eureqa")


def test_gplearn_tiny_case(table_of):
    ks = np.arange(10)
    found = integer_relation({"k": ks}, 3 * ks + 1, backend="gplearn", generations=3, population_size=100)
    assert found and found[0] == 3 * k + 1
    engine = _fit(table_of("wythoff", 20), backend="gplearn", generations=5, population_size=200)
    assert engine.candidates_ and engine.candidates_[0].exact
    assert engine.candidates_[0].engine == "gplearn"


@pytest.mark.parametrize("game,bound,params", [("wythoff", 25, {}), ("euclid", 25, {}), ("chomp", 20, {}),
                                               ("nim", 7, {"heaps": 3})])
def test_snapping_never_returns_a_float(game, bound, params, table_of):
    table = table_of(game, bound, **params)
    engine = _fit(table)
    for c in engine.candidates_:
        assert not c.expr.atoms(sp.Float)
        assert c.accuracy == pytest.approx(engine.score(c.expr, table.X, table.is_p, table.feature_names))


def test_approximate_constants_are_never_emitted():
    ks = np.arange(41)
    y = (ks * 12345) // 10000  # slope 1.2345: no closed form or small rational fits exactly
    assert integer_relation({"k": ks}, y) == []
    for value in (1.6180339, 0.33334, 1.41421, 2.5):
        for c in snap_constant(value):
            assert not c.atoms(sp.Float) and abs(float(c) - value) <= 1e-3
    assert snap_constant(1.6180339)[0] == sp.GoldenRatio
