"""The formula enumeration engine: the catalogue rules it is responsible for, exactness, ranking."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.engines.enumeration import EnumerationEngine
from discover.engines.grammar import IRRATIONALS
from discover.expr.exact import exact_floor
from discover.expr.features import derived_names, feature_columns
from discover.expr.numeric import evaluate
from discover.table import table_from_solution
from games import make_game
from solvers import solve


def _fit(game, bound, target="P", **params):
    table = table_from_solution(solve(game, bound=bound, grundy=(target == "grundy")))
    engine = EnumerationEngine(**params).fit(table.X, table.y(target), feature_names=table.feature_names, target=target)
    return engine, table


def _holds_beyond(expr, game, bound, target="P"):
    """The rule agrees with the solver on every position of a larger universe."""
    solution = solve(game, bound=bound, grundy=(target == "grundy"))
    positions = solution.universe.positions()
    names = sorted(s.name for s in expr.free_symbols)
    columns = feature_columns(names, list(game.feature_names), game.features(positions))
    values = evaluate(expr, columns) if names else np.full(len(positions), bool(expr))
    if target == "P":
        return np.array_equal(values.astype(bool), solution.outcome_table == -1)
    return np.array_equal(values, solution.grundy_table)


def _no_floats(expr):
    return not any(isinstance(a, sp.Float) for a in sp.preorder_traversal(expr))


@pytest.mark.parametrize("heaps, bound, check_bound", [(2, 15, 150), (3, 15, 60), (4, 7, 20), (5, 3, 9)])
def test_nim_xor_rule(heaps, bound, check_bound):
    game = make_game("nim", heaps=heaps)
    engine, _ = _fit(game, bound)
    top = engine.candidates_[0]
    assert top.exact and top.complexity == 3
    xor_all = sp.Symbol("xor_all")
    if heaps > 2:
        assert top.expr == sp.Eq(xor_all, 0)
    assert any(c.expr == sp.Eq(xor_all, 0) for c in engine.candidates_ if c.exact)
    assert _holds_beyond(top.expr, game, check_bound)


def test_wythoff_golden_ratio():
    game = make_game("wythoff")
    engine, _ = _fit(game, 30)
    top = engine.candidates_[0]
    min_all, spread = sp.symbols("min_all spread")
    assert top.exact
    assert top.expr == sp.Eq(min_all, sp.floor(sp.GoldenRatio * spread))
    assert _no_floats(top.expr)
    assert _holds_beyond(top.expr, game, 300)


def test_two_row_chomp():
    game = make_game("chomp", rows=2)
    engine, table = _fit(game, 30)
    top = engine.candidates_[0]
    assert top.exact and top.complexity <= 5
    # spread = a - b on 2-row Chomp (a >= b), so "spread = 1" is "a = b + 1"
    a, b = sp.symbols("a b")
    assert np.array_equal(evaluate(top.expr, dict(zip(table.feature_names, table.X.T))),
                          evaluate(sp.Eq(a, b + 1), {"a": table.X[:, 0], "b": table.X[:, 1]}))
    assert _holds_beyond(top.expr, game, 150)


def test_subtraction_123():
    game = make_game("subtraction", subtract=(1, 2, 3))
    engine, _ = _fit(game, 30)
    top = engine.candidates_[0]
    n = sp.Symbol("n")
    assert top.exact and top.expr == sp.Eq(sp.Mod(n, 4), 0)
    assert _holds_beyond(top.expr, game, 300)


def test_grundy_targets():
    engine, _ = _fit(make_game("nim", heaps=3), 7, target="grundy")
    assert engine.candidates_[0].exact and engine.candidates_[0].expr == sp.Symbol("xor_all")
    game = make_game("subtraction", subtract=(1, 2, 3))
    engine, _ = _fit(game, 30, target="grundy")
    top = engine.candidates_[0]
    assert top.exact and top.expr == sp.Mod(sp.Symbol("n"), 4)
    assert _holds_beyond(top.expr, game, 300, target="grundy")


def test_partial_candidates_when_no_rule():
    # labels no short formula explains: the engine stops on its budget and still ranks partial rules
    rng = np.random.default_rng(1)
    X = rng.integers(0, 20, size=(300, 2))
    y = rng.random(300) < 0.3
    engine = EnumerationEngine(work_budget=2e7, max_size=7).fit(X, y, feature_names=["a", "b"])
    assert engine.candidates_, "a best partial candidate is reported"
    assert not engine.candidates_[0].exact
    accuracies = [c.accuracy for c in engine.candidates_]
    assert accuracies == sorted(accuracies, reverse=True)
    for c in engine.candidates_:
        assert _no_floats(c.expr)
        assert c.accuracy == pytest.approx(engine.score(c.expr, X, y, ["a", "b"]))


def test_sample_weight_ignores_zero_weight_rows():
    X = np.array([[a, b] for a in range(8) for b in range(8)])
    y = X[:, 0] == X[:, 1]
    y_noisy = y.copy()
    y_noisy[5] = ~y_noisy[5]
    weights = np.ones(len(y))
    weights[5] = 0.0
    engine = EnumerationEngine().fit(X, y_noisy, feature_names=["a", "b"], sample_weight=weights)
    assert engine.candidates_[0].exact and engine.candidates_[0].expr == sp.Eq(sp.Symbol("a"), sp.Symbol("b"))


def test_constant_labels_and_determinism():
    X = np.arange(10).reshape(-1, 1)
    engine = EnumerationEngine().fit(X, np.zeros(10, bool), feature_names=["n"])
    assert engine.candidates_[0].expr == sp.false and engine.candidates_[0].exact
    game = make_game("wythoff")
    first, _ = _fit(game, 12)
    second, _ = _fit(game, 12)
    assert [str(c.expr) for c in first.candidates_] == [str(c.expr) for c in second.candidates_]


def test_exact_floor_matches_evaluate():
    x = np.arange(-50, 200, dtype=np.int64)
    s = sp.Symbol("x")
    for c in IRRATIONALS + (sp.Rational(1, 2), sp.Integer(2)):
        assert np.array_equal(exact_floor(c, x), evaluate(sp.floor(c * s), {"x": x})), c


def test_misere_nim_and_moore():
    game = make_game("nim", heaps=3, misere=True)
    engine, _ = _fit(game, 15)
    top = engine.candidates_[0]
    assert top.exact and top.complexity <= 8  # e.g. xor_all ⊕ 1 = min(1, #{> 1})
    assert _holds_beyond(top.expr, game, 40)
    assert _holds_beyond(top.expr, make_game("nim", heaps=4, misere=True), 9)  # stated for k heaps
    game = make_game("moore", heaps=3, k=2)
    engine, _ = _fit(game, 15)
    top = engine.candidates_[0]
    assert top.exact and top.complexity == 3
    assert _holds_beyond(top.expr, game, 31)


def test_a_sample_longer_than_the_table():
    """121 rows, 8 of them P: each class is padded to whole 64-row words, so the sample (192 rows)
    repeats rows of the table and its hashing must cover every sample row (an HQN dataset)."""
    positions = np.array([[a, b] for a in range(11) for b in range(11)])
    noisy_p = {(0, 0), (1, 1), (2, 2), (7, 2), (3, 3), (4, 4), (3, 7), (1, 8)}
    y = np.array([tuple(p) in noisy_p for p in positions.tolist()])
    names = ["a", "b"] + derived_names(2)
    columns = feature_columns(names, ["a", "b"], positions)
    X = np.column_stack([columns[n] for n in names])
    engine = EnumerationEngine().fit(X, y, feature_names=names, target="P")
    assert engine.candidates_ and engine.candidates_[0].accuracy >= 117 / 121
