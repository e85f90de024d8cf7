"""The feature vocabulary of rules: a game's own features plus generic derived ones.

Derived features are reductions over all coordinates (xor, sum, min, max, counts, sorted
order), so a rule written with them holds for any number of heaps: "xor_all = 0" found on
3 heaps is a statement about k heaps.  Each derived feature has a numpy definition (used to
evaluate rules) and a sympy expansion over the coordinates: ``expand_derived`` writes a rule out
for the printers, ``expand_features`` for the provers (counts as sums of 0/1 branches).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy as sp

from discover.expr.nodes import BitXor, DigitSum, digit_sum
from discover.expr.walker import Unsupported

__all__ = ["Derived", "DERIVED", "DIGIT_SUM_BASES", "derived_names", "feature_columns", "expand_derived",
           "expand_features"]


@dataclass(frozen=True)
class Derived:
    """A feature computed from the coordinate matrix of positions."""

    name: str
    compute: Callable[[np.ndarray], np.ndarray]
    expand: Callable[[list[sp.Symbol]], sp.Expr]
    words: str
    min_dims: int = 2


def _unevaluated(extreme, xs):
    """``Min`` or ``Max`` of distinct coordinate symbols as sympy builds it, without its pairwise comparisons (the
    same expression; tens of milliseconds less for each)."""
    return extreme(*xs, evaluate=False)


def _sorted(k: int) -> Derived:
    """The (k + 1)-th smallest coordinate, written as the least max over the sets of k + 1 coordinates
    (median of three: min(max(a, b), max(a, c), max(b, c)))."""
    return Derived(
        f"sorted{k + 1}",
        lambda P: np.sort(P, axis=1)[:, k],
        lambda xs: _unevaluated(sp.Min, [_unevaluated(sp.Max, g) for g in itertools.combinations(xs, k + 1)]),
        f"the {k + 1}-th smallest coordinate",
        min_dims=3,
    )


#: bases m of the carry-less digit sums among the derived features (Moore's Nim_k for k = m - 1)
DIGIT_SUM_BASES = (3, 4)


def _digit_sum(m: int) -> Derived:
    """The carry-less digit sum mod m of all coordinates; only with at least m coordinates (k < heaps)."""
    return Derived(
        f"dsum{m}_all",
        lambda P: digit_sum(m, P),
        lambda xs: DigitSum(m, *xs),
        f"the binary digit sums of all coordinates, each mod {m}",
        min_dims=m,
    )


def _fold(op, P: np.ndarray) -> np.ndarray:
    """``op`` folded over the columns of ``P`` into a new array (several times faster than a ufunc's reduce along
    rows of a few columns)."""
    out = P[:, 0].copy()
    for column in P.T[1:]:
        op(out, column, out=out)
    return out


DERIVED: dict[str, Derived] = {
    d.name: d
    for d in [
        Derived("xor_all", lambda P: _fold(np.bitwise_xor, P), lambda xs: BitXor(*xs), "the xor of all coordinates"),
        Derived("sum_all", lambda P: _fold(np.add, P), lambda xs: sp.Add(*xs), "the sum of all coordinates"),
        Derived("min_all", lambda P: _fold(np.minimum, P), lambda xs: _unevaluated(sp.Min, xs),
                "the smallest coordinate"),
        Derived("max_all", lambda P: _fold(np.maximum, P), lambda xs: _unevaluated(sp.Max, xs),
                "the largest coordinate"),
        Derived(
            "spread", lambda P: _fold(np.maximum, P) - _fold(np.minimum, P),
            lambda xs: sp.Abs(xs[0] - xs[1]) if len(xs) == 2 else _unevaluated(sp.Max, xs) - _unevaluated(sp.Min, xs),
            "the largest minus the smallest coordinate",
        ),
        Derived(
            "nonzero", lambda P: (P > 0).sum(axis=1),
            lambda xs: sp.Symbol("nonzero"), "the number of non-zero coordinates",
        ),
        Derived(
            "big", lambda P: (P > 1).sum(axis=1),
            lambda xs: sp.Symbol("big"), "the number of coordinates greater than 1",
        ),
    ]
    + [_sorted(k) for k in range(1, 4)]
    + [_digit_sum(m) for m in DIGIT_SUM_BASES]
}


def derived_names(dims: int) -> list[str]:
    """The derived features that make sense for positions with ``dims`` coordinates."""
    names = [name for name, d in DERIVED.items() if dims >= d.min_dims]
    return [n for n in names if not n.startswith("sorted") or int(n[6:]) < dims]


def feature_columns(names, coordinate_names, features: np.ndarray) -> dict[str, np.ndarray]:
    """Columns for the requested feature names from a game's feature matrix (with every coordinate's column, so
    that an expression of no feature, a constant rule, still sees how many positions there are).

    Examples
    --------
    >>> cols = feature_columns(["a", "xor_all"], ["a", "b", "c"], np.array([[1, 2, 3]]))
    >>> cols["xor_all"].tolist()
    [0]
    """
    features = np.asarray(features, dtype=np.int64)
    index = {n: i for i, n in enumerate(coordinate_names)}
    columns = {name: features[:, i] for name, i in index.items()}
    for name in names:
        if name in index:
            columns[name] = features[:, index[name]]
        elif name in DERIVED:
            columns[name] = DERIVED[name].compute(features)
        else:
            raise ValueError(f"unknown feature {name!r}; known: {', '.join(list(index) + list(DERIVED))}")
    return columns


def expand_derived(expr, coordinate_names) -> sp.Basic:
    """Write derived features (xor_all, min_all, ...) out over the coordinates (|x - y| = 0 as x = y).

    Examples
    --------
    >>> expand_derived(sp.Eq(sp.Symbol("spread"), 0), ["a", "b"])
    Eq(a, b)
    """
    coordinates = tuple(coordinate_names)
    subs = {
        sp.Symbol(name): _expansion(name, coordinates)
        for name, d in DERIVED.items()
        if sp.Symbol(name) in expr.free_symbols and len(coordinates) >= d.min_dims
    }
    expanded = expr.xreplace(subs) if subs else expr
    return expanded.replace(_is_zero_distance, _as_equality)


def _is_zero_distance(e) -> bool:
    return isinstance(e, sp.Eq) and isinstance(e.lhs, sp.Abs) and e.rhs == 0


def _as_equality(e):
    """|x - y| = 0 reads x = y."""
    inside = e.lhs.args[0]
    plus = [t for t in sp.Add.make_args(inside) if not t.could_extract_minus_sign()]
    minus = [-t for t in sp.Add.make_args(inside) if t.could_extract_minus_sign()]
    return sp.Eq(sp.Add(*plus), sp.Add(*minus), evaluate=False)


def expand_features(expr, coordinates) -> sp.Basic:
    """Derived features written out over the coordinate symbols (counts as sums of 0/1 branches), for the
    provers; ``Unsupported`` for an order statistic or too few coordinates.

    Examples
    --------
    >>> expand_features(sp.Eq(sp.Symbol("nonzero"), 1), ["a", "b"])
    Eq(Piecewise((1, a > 0), (0, True)) + Piecewise((1, b > 0), (0, True)), 1)
    >>> a, b, count = sp.Symbol("a"), sp.Symbol("b"), sp.Symbol("nonzero")   # a count in a branch's condition
    >>> expand_features(sp.Piecewise((sp.Ne(a, b), sp.Eq(a, count)), (sp.Eq(a, b), True)), ["a", "b"]).has(sp.ITE)
    False
    """
    coords = [sp.Symbol(n) for n in coordinates]
    counts = {"nonzero": 0, "big": 1}
    subs = {}
    for symbol in expr.free_symbols:
        name = symbol.name
        if name in counts:
            subs[symbol] = sp.Add(*[sp.Piecewise((1, x > counts[name]), (0, True)) for x in coords])
        elif name in DERIVED:
            if name.startswith("sorted"):
                raise Unsupported(f"the feature {name} (an order statistic) has no exact encoding here")
            if len(coords) < DERIVED[name].min_dims:
                raise Unsupported(f"the feature {name} needs {DERIVED[name].min_dims} coordinates")
            subs[symbol] = _expansion(name, tuple(coordinates))
    if not subs:
        return expr
    # a count inside a Piecewise's condition makes sympy write an if-then-else of conditions: as connectives
    return expr.xreplace(subs).replace(sp.ITE, lambda c, t, f: sp.Or(sp.And(c, t), sp.And(sp.Not(c), f)))


@functools.lru_cache(maxsize=256)
def _expansion(name: str, coordinates: tuple[str, ...]) -> sp.Basic:
    """The derived feature ``name`` written over the coordinate symbols, built once a process (sympy takes
    milliseconds to build a Min or Max of several arguments, and every rule's text asks for them)."""
    return DERIVED[name].expand([sp.Symbol(n) for n in coordinates])
