"""``check_engine``: the engine contract as named checks a user can run on their own engine.

An engine is an estimator: ``fit(X, y, *, feature_names, sample_weight=None, target="P")`` returns
itself and sets ``candidates_``, a list of ``Candidate`` ranked by accuracy, then description length,
whose reported accuracy is what the expression really scores on the training table. The checks run on
small exact tables (two-heap Nim and a subtraction game); ``engine_checks(engine)`` yields
``(name, check)`` pairs and ``check_engine(engine)`` runs them, a failure raised with the check's name.
"""

from __future__ import annotations

import numpy as np

__all__ = ["check_engine", "engine_checks"]


def _tables():
    from discover.table import table_from_solution
    from games import make_game
    from solvers import solve

    return [table_from_solution(solve(make_game("subtraction", subtract=(1, 3, 4)), bound=40)),
            table_from_solution(solve(make_game("nim", heaps=2), bound=7))]


def engine_checks(engine):
    """The named checks of ``engine`` (an unfitted instance).

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> [name for name, _ in engine_checks(make_engine("sequence"))][:2]
    ['fit_returns_the_engine', 'candidates_are_ranked']
    """
    from sklearn.base import clone

    from discover.engines.base import Candidate, weighted_accuracy
    from discover.expressions import evaluate

    tables = _tables()
    fitted = {}

    def fit(i: int):
        if i not in fitted:
            table = tables[i]
            fresh = clone(engine, safe=False)
            result = fresh.fit(table.X, table.y("P"), feature_names=table.feature_names, target="P")
            assert result is fresh, f"fit returned {type(result).__name__}, not the engine"
            fitted[i] = fresh
        return fitted[i]

    def fit_returns_the_engine():
        for i in range(len(tables)):
            fit(i)

    def candidates_are_ranked():
        for i in range(len(tables)):
            candidates = fit(i).candidates_
            assert isinstance(candidates, list), "candidates_ must be a list"
            assert all(isinstance(c, Candidate) for c in candidates), "candidates_ must hold Candidate objects"
            keys = [(-c.accuracy, c.complexity) for c in candidates]
            assert keys == sorted(keys), "candidates_ must be ranked by accuracy, then complexity"

    def accuracies_are_true():
        for i, table in enumerate(tables):
            columns = {name: table.X[:, j] for j, name in enumerate(table.feature_names)}
            for c in fit(i).candidates_[:10]:
                said = evaluate(c.expr, columns).astype(bool)
                true = weighted_accuracy(said, table.y("P"))
                assert abs(true - c.accuracy) < 1e-9, f"{c.expr} reports accuracy {c.accuracy}, scores {true}"

    def same_seed_same_candidates():
        table = tables[0]
        again = clone(engine, safe=False).fit(table.X, table.y("P"), feature_names=table.feature_names, target="P")
        assert [str(c.expr) for c in again.candidates_] == [str(c.expr) for c in fit(0).candidates_], \
            "the same seed gave other candidates"

    def constant_table_handled():
        X = np.arange(20, dtype=np.int64)[:, None]
        result = clone(engine, safe=False).fit(X, np.zeros(20, dtype=bool), feature_names=["n"], target="P")
        assert isinstance(result.candidates_, list), "a table with no P position must still give a list"

    yield "fit_returns_the_engine", fit_returns_the_engine
    yield "candidates_are_ranked", candidates_are_ranked
    yield "accuracies_are_true", accuracies_are_true
    yield "same_seed_same_candidates", same_seed_same_candidates
    yield "constant_table_handled", constant_table_handled


def check_engine(engine) -> None:
    """Run every check of ``engine_checks``; the first failure is an ``AssertionError`` naming its check.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_engine(make_engine("sequence"))
    """
    from cgbase.checks import run_checks

    run_checks(engine_checks(engine))
