"""Fixtures of the discovery tests: exact tables and exactness of an expression on them."""

from __future__ import annotations

import numpy as np
import pytest

from discover.expr.numeric import evaluate
from discover.table import table_from_solution
from games import make_game
from solvers import solve


@pytest.fixture
def table_of():
    """``table_of(name, bound, **params)``: the solver's exact table of a registered game."""

    def build(name, bound, **params):
        return table_from_solution(solve(make_game(name, **params), bound=bound))

    return build


@pytest.fixture
def holds():
    """``holds(expr, table)``: the expression labels every row of the table exactly (True = P)."""

    def check(expr, table) -> bool:
        columns = {n: table.X[:, i] for i, n in enumerate(table.feature_names)}
        return bool(np.array_equal(evaluate(expr, columns).astype(bool), table.is_p))

    return check
