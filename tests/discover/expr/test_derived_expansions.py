"""The derived features' sympy expansions, built without sympy's evaluation for speed, are the very expressions
sympy's evaluated ``Min`` and ``Max`` give, for every number of coordinates a game may have here."""

from __future__ import annotations

import itertools

import pytest
import sympy as sp

from discover.expr.features import DERIVED, expand_derived


def _evaluated(name: str, xs):
    if name in ("min_all", "max_all"):
        return (sp.Min if name == "min_all" else sp.Max)(*xs)
    if name == "spread":
        return sp.Abs(xs[0] - xs[1]) if len(xs) == 2 else sp.Max(*xs) - sp.Min(*xs)
    k = int(name[6:]) - 1
    return sp.Min(*[sp.Max(*group) for group in itertools.combinations(xs, k + 1)])


@pytest.mark.parametrize("dims", range(2, 8))
def test_expansions_equal_sympys_evaluated_forms(dims):
    xs = sp.symbols(" ".join(f"x{i}" for i in range(dims)))
    names = [n for n in ("min_all", "max_all", "spread", "sorted2", "sorted3", "sorted4")
             if dims >= DERIVED[n].min_dims and (not n.startswith("sorted") or int(n[6:]) < dims)]
    for name in names:
        built = DERIVED[name].expand(list(xs))
        assert built == _evaluated(name, xs) and sp.srepr(built) == sp.srepr(_evaluated(name, xs)), name
    coordinates = [str(x) for x in xs]
    rule = sp.Eq(sp.Symbol("min_all"), sp.Symbol("max_all"))
    assert expand_derived(rule, coordinates) == sp.Eq(sp.Min(*xs), sp.Max(*xs))
