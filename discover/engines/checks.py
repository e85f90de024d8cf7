"""``check_engine``: the engine contract as named checks a user can run on their own engine.

An engine is a ``sklearn.base.BaseEstimator``: its parameters are its constructor's, ``clone``, ``get_params``
and ``set_params`` work; ``fit(X, y, *, feature_names, sample_weight=None, target="P")`` returns itself and sets
``candidates_``, a list of ``Candidate`` ranked by accuracy, then description length, whose reported accuracy is
what the expression really scores on the training table, and ``notes_``; before ``fit`` both raise
``NotFittedError``. In the manner of scikit-learn's ``utils/estimator_checks.py``: each check is a module-level
``check_*(engine)`` run on small exact tables (two-heap Nim and a subtraction game); ``engine_checks(engine)``
yields them, bound to the engine, and ``check_engine(engine)`` runs them, a failure raised with the check's name.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from cgbase.checks import run_checks, shared

__all__ = ["check_engine", "engine_checks", "check_parameters_from_the_constructor", "check_unfitted_refused",
           "check_fit_returns_the_engine", "check_candidates_are_ranked", "check_accuracies_are_true",
           "check_same_seed_same_candidates", "check_constant_table_handled", "check_notes_are_fitted"]


@shared(maxsize=1)
def _tables():
    from discover.table import table_from_solution
    from games import make_game
    from solvers import solve

    return [table_from_solution(solve(make_game("subtraction", subtract=(1, 3, 4)), bound=40)),
            table_from_solution(solve(make_game("nim", heaps=2), bound=7))]


def _fit(engine, table):
    from sklearn.base import clone

    fresh = clone(engine)
    result = fresh.fit(table.X, table.y("P"), feature_names=table.feature_names, target="P")
    assert result is fresh, f"fit returned {type(result).__name__}, not the engine"
    return fresh


@shared(maxsize=4)
def _fitted(engine, i: int):
    """The engine fitted on ``_tables()[i]``, shared by the checks."""
    return _fit(engine, _tables()[i])


def check_parameters_from_the_constructor(engine) -> None:
    """``get_params`` lists exactly the constructor's parameters; ``clone`` keeps them and carries no fitted state;
    ``set_params`` sets one.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_parameters_from_the_constructor(make_engine("sequence"))
    """
    import inspect

    from sklearn.base import clone

    names = {p for p in inspect.signature(type(engine).__init__).parameters if p != "self"}
    params = engine.get_params()
    assert set(params) == names, f"get_params lists {sorted(params)}, the constructor takes {sorted(names)}"
    assert "random_state" in names, "the constructor takes no random_state"
    assert not hasattr(engine, "params"), "parameters are stored once, each under its name (not in self.params)"
    copy = clone(engine)
    assert copy is not engine and repr(copy.get_params()) == repr(params), "clone changed the parameters"
    assert not [k for k in vars(copy) if k.endswith("_") and not k.startswith("_")], "clone carries fitted state"
    assert copy.set_params(random_state=7).random_state == 7, "set_params(random_state=7) did not set it"


def check_unfitted_refused(engine) -> None:
    """Reading ``candidates_`` or ``notes_`` of an unfitted engine raises ``NotFittedError``.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_unfitted_refused(make_engine("sequence"))
    """
    from sklearn.base import clone

    from cgbase.fitted import NotFittedError

    for name in ("candidates_", "notes_"):
        try:
            getattr(clone(engine), name)
        except NotFittedError:
            continue
        raise AssertionError(f"{name} of an unfitted engine must raise cgbase.fitted.NotFittedError")


def check_fit_returns_the_engine(engine) -> None:
    """``fit`` returns the engine itself on every table.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_fit_returns_the_engine(make_engine("sequence"))
    """
    for i in range(len(_tables())):
        _fitted(engine, i)


def check_candidates_are_ranked(engine) -> None:
    """``candidates_`` is a list of ``Candidate`` ranked by accuracy, then complexity.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_candidates_are_ranked(make_engine("sequence"))
    """
    from discover.engines.base import Candidate

    for i in range(len(_tables())):
        candidates = _fitted(engine, i).candidates_
        assert isinstance(candidates, list), "candidates_ must be a list"
        assert all(isinstance(c, Candidate) for c in candidates), "candidates_ must hold Candidate objects"
        keys = [(-c.accuracy, c.complexity) for c in candidates]
        assert keys == sorted(keys), "candidates_ must be ranked by accuracy, then complexity"


def check_accuracies_are_true(engine) -> None:
    """The accuracy each of the first ten candidates reports is what its expression scores on the table.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_accuracies_are_true(make_engine("sequence"))
    """
    from discover.engines.base import weighted_accuracy
    from discover.expr.numeric import evaluate

    for i, table in enumerate(_tables()):
        columns = {name: table.X[:, j] for j, name in enumerate(table.feature_names)}
        for c in _fitted(engine, i).candidates_[:10]:
            said = evaluate(c.expr, columns).astype(bool)
            true = weighted_accuracy(said, table.y("P"))
            assert abs(true - c.accuracy) < 1e-9, f"{c.expr} reports accuracy {c.accuracy}, scores {true}"


def check_same_seed_same_candidates(engine) -> None:
    """Two fits with the same parameters (and seed) give the same candidates.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_same_seed_same_candidates(make_engine("sequence"))
    """
    again = _fit(engine, _tables()[0])
    assert [str(c.expr) for c in again.candidates_] == [str(c.expr) for c in _fitted(engine, 0).candidates_], \
        "the same seed gave other candidates"


def check_constant_table_handled(engine) -> None:
    """A table with no P position still gives a list of candidates.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_constant_table_handled(make_engine("sequence"))
    """
    from sklearn.base import clone

    X = np.arange(20, dtype=np.int64)[:, None]
    result = clone(engine).fit(X, np.zeros(20, dtype=bool), feature_names=["n"], target="P")
    assert isinstance(result.candidates_, list), "a table with no P position must still give a list"


def check_notes_are_fitted(engine) -> None:
    """``fit`` sets ``notes_``, a list of sentences of this engine's own (never one list shared by the class).

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_notes_are_fitted(make_engine("sequence"))
    """
    fitted = [_fitted(engine, i) for i in range(len(_tables()))]
    for one in fitted:
        assert "notes_" in vars(one), "fit must set notes_ on the engine (a fitted attribute, not a class one)"
        assert isinstance(one.notes_, list) and all(isinstance(n, str) for n in one.notes_), \
            "notes_ must be a list of sentences"
    assert fitted[0].notes_ is not fitted[1].notes_, "two fits share one notes_ list"


def engine_checks(engine):
    """The checks of ``engine`` (an unfitted instance), each a callable taking no argument.

    Examples
    --------
    >>> from cgbase.checks import check_name
    >>> from discover.engines import make_engine
    >>> [check_name(check) for check in engine_checks(make_engine("sequence"))][:2]
    ['parameters_from_the_constructor', 'unfitted_refused']
    """
    for check in (check_parameters_from_the_constructor, check_unfitted_refused, check_fit_returns_the_engine,
                  check_candidates_are_ranked, check_accuracies_are_true, check_same_seed_same_candidates,
                  check_constant_table_handled, check_notes_are_fitted):
        yield partial(check, engine)


def check_engine(engine) -> None:
    """Run every check of ``engine_checks``; the first failure is an ``AssertionError`` naming its check.

    Parameters
    ----------
    engine : discover.engines.base.Engine
        An unfitted engine (fits are made on clones).

    Raises
    ------
    AssertionError
        ``"<check>: <what broke>"`` for the first check that fails.

    Examples
    --------
    >>> from discover.engines import make_engine
    >>> check_engine(make_engine("sequence"))
    """
    run_checks(engine_checks(engine))
