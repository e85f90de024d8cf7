"""Property-based: every record the toolkit writes reads back equal.

Rules over every node type of the expression language and every constant kind the engines produce (integers,
rationals, the golden ratio, sqrt(m) for squarefree m and its rational combinations: Beatty pairs of any real
quadratic field), periodic rules, strategies, misère-quotient rules and solutions: written, read back, and
compared (the same sympy expression, the same record, the same values). Constants of a quadratic field also
print (text, LaTeX, MathML) and bound (intervals) without refusal.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from discover.expr.exact import Surd
from discover.expr.intervals import value_range
from discover.expr.mathml import rule_mathml
from discover.engines.pairs import pairs_expression
from discover.expr.nodes import DIGIT_FUNCTIONS, NODES, BitAnd, BitOr, BitXor, DigitSum
from discover.expr.tree import from_tree, to_tree
from discover.expr.nimber import NimProduct
from discover.expr.zeckendorf import ZeckendorfLeast
from discover.periodic_values import PeriodicValues
from discover.quotients.monoid import BipartiteMonoid
from discover.quotients.heap_period import HeapPeriod
from discover.quotients.rule import QuotientRule
from discover.rule import Rule
from discover.strategy import HEAP, Branch, MovesOf, Strategy
from games import custom_game, declared_game, make_game
from games.symbolic import take_from_one
from solvers import solve
from solvers.solution import Solution

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
A, B, N = sp.symbols("a b n")
BOX = np.array(list(itertools.product(range(7), repeat=2)), dtype=np.int64)
SQUAREFREE = [m for m in range(2, 200) if sp.factorint(m) and max(sp.factorint(m).values()) == 1]


def quadratic_constants():
    """(p + q·sqrt(m)) / r with m squarefree, q != 0: every constant of a real quadratic field a rule may hold."""
    return st.builds(lambda p, q, m, r: (p + q * sp.sqrt(m)) / r, st.integers(-9, 9),
                     st.integers(-9, 9).filter(bool), st.sampled_from(SQUAREFREE), st.integers(1, 9))


def constants():
    return st.one_of(st.integers(-5, 9).map(sp.Integer),
                     st.builds(sp.Rational, st.integers(-9, 9), st.integers(1, 9)),
                     st.sampled_from([sp.GoldenRatio, 1 / sp.GoldenRatio, sp.GoldenRatio ** 2]),
                     quadratic_constants())


def _built(e):
    """``e`` as its constructors build it (sympy may leave a drawn nesting such as |2·|a|| unfolded; the engines
    and the readers call the constructors, which fold it)."""
    return e if e.is_Atom or isinstance(e, sp.Piecewise) else e.func(*[_built(a) for a in e.args])


def terms():
    leaves = st.one_of(st.sampled_from([A, B]), st.integers(0, 9).map(sp.Integer))

    def extend(inner):
        pairs = st.tuples(inner, inner)
        return st.one_of(
            pairs.map(lambda t: t[0] + t[1]), pairs.map(lambda t: t[0] * t[1]), inner.map(lambda t: t ** 2),
            st.tuples(inner, st.integers(2, 7)).map(lambda t: sp.Mod(t[0], t[1])),
            st.tuples(constants(), inner).map(lambda t: sp.floor(t[0] * t[1])),
            st.tuples(constants(), inner).map(lambda t: sp.ceiling(t[0] * t[1])),
            pairs.map(lambda t: BitXor(*t)), pairs.map(lambda t: BitAnd(*t)), pairs.map(lambda t: BitOr(*t)),
            st.tuples(st.integers(2, 4), inner, inner).map(lambda t: DigitSum(t[0], sp.Abs(t[1]), sp.Abs(t[2]))),
            pairs.map(lambda t: sp.Min(*t)), pairs.map(lambda t: sp.Max(*t)), inner.map(sp.Abs),
            st.tuples(st.sampled_from(DIGIT_FUNCTIONS), inner).map(lambda t: t[0](t[1])),
            inner.map(lambda t: ZeckendorfLeast(sp.Abs(t))),
            pairs.map(lambda t: NimProduct(sp.Mod(t[0], 16), sp.Mod(t[1], 16))),
        )

    return st.recursive(leaves, extend, max_leaves=5).map(_built)


def conditions():
    relations = st.sampled_from([sp.Eq, sp.Ne, sp.Lt, sp.Le, sp.Gt, sp.Ge])
    atoms = st.one_of(
        st.tuples(relations, terms(), terms()).map(lambda t: t[0](t[1], t[2])),
        st.tuples(terms(), st.integers(2, 6), st.sets(st.integers(0, 5), min_size=2, max_size=3)).map(
            lambda t: sp.Contains(sp.Mod(t[0], t[1]), sp.FiniteSet(*sorted(t[2])))),
        st.tuples(quadratic_constants(), terms()).map(lambda t: sp.Eq(B, sp.floor(t[0] * t[1]))),
        st.sampled_from([sp.true, sp.false]),
    )
    return st.recursive(atoms, lambda inner: st.one_of(st.tuples(inner, inner).map(lambda t: sp.And(*t)),
                                                        st.tuples(inner, inner).map(lambda t: sp.Or(*t)),
                                                        inner.map(sp.Not)), max_leaves=3).map(_built)


def grundy_tables():
    return st.tuples(terms(), conditions(), terms()).map(lambda t: sp.Piecewise((t[0], t[1]), (t[2], True)))


def _values(rule: Rule):
    try:
        return rule.values(BOX)
    except ValueError:  # an expression sympy folded outside what the evaluator takes (refused, not misread)
        assume(False)


def _same_rule(rule: Rule) -> Rule:
    again = Rule.from_json(rule.to_json())
    assert sp.srepr(again.expr) == sp.srepr(rule.expr)
    assert (again.feature_names, again.target, again.text(), again.latex()) == \
        (rule.feature_names, rule.target, rule.text(), rule.latex())
    assert again.to_json() == rule.to_json()
    assert from_tree(to_tree(rule.expr)) == rule.expr
    return again


@SETTINGS
@given(conditions())
def test_p_rules_round_trip(expr):
    rule = Rule(expr, ("a", "b"))
    values = _values(rule)
    assert np.array_equal(_same_rule(rule).values(BOX), values)


@SETTINGS
@given(grundy_tables())
def test_grundy_rules_round_trip(expr):
    rule = Rule(expr, ("a", "b"), target="grundy")
    values = _values(rule)
    assert np.array_equal(_same_rule(rule).values(BOX), values)


@SETTINGS
@given(quadratic_constants(), st.integers(1, 4))
def test_beatty_rules_of_any_quadratic_field_round_trip_and_print(c, k):
    """P iff b = floor(c·a) + k·a: read back exactly, evaluated exactly, printed and bounded in every backend."""
    assume(c > 0)
    expr = sp.Eq(B, sp.floor(c * A) + k * A)
    rule = Rule(expr, ("a", "b"))
    again = _same_rule(rule)
    a = np.arange(0, 50)
    exact = [int(sp.floor(c * x)) + k * x for x in range(50)]
    assert again.predicate(np.stack([a, exact], axis=1)).all()
    assert "sqrt" in rule.text() and r"\sqrt" in rule.latex() and "<msqrt>" in rule_mathml(rule)
    low_high, _ = value_range(sp.floor(c * A), {"a": (0, 49), "b": (0, 49)})
    assert low_high[0] <= min(exact[x] - k * x for x in range(50)) and \
        low_high[1] >= max(exact[x] - k * x for x in range(50))
    assert Surd.of(c).m in SQUAREFREE


def test_a_wythoff_beatty_rule_reads_back():
    """Fraenkel's a-Wythoff with a = 3: P positions the Beatty pairs of alpha = (2 - a + sqrt(a² + 4)) / 2."""
    alpha = (2 - 3 + sp.sqrt(13)) / 2
    rule = Rule(pairs_expression(alpha, 3, sp.Symbol("min_all"), sp.Symbol("spread")), ("a", "b"))
    again = _same_rule(rule)
    pairs = [(int(sp.floor(alpha * k)), int(sp.floor((alpha + 3) * k))) for k in range(30)]
    assert again.predicate(np.array(pairs + [(b, a) for a, b in pairs])).all()
    assert not again.predicate(np.array([(a, b + 1) for a, b in pairs])).any()


def test_a_wythoff_as_the_engines_find_it_reads_back():
    """The held-out finding: find_rule's verified rule of a-Wythoff (a = 3) holds sqrt(13) and reads back."""
    from discover.find import find_rule

    def moves(p, a=3):
        x, y = p
        return ([(x - k, y) for k in range(1, x + 1)] + [(x, y - k) for k in range(1, y + 1)]
                + [(x - k, y - m) for k in range(1, x + 1) for m in range(1, y + 1) if abs(k - m) < a])

    found = find_rule(custom_game("a_wythoff3", moves, dims=2), bound=40, verify_bound=80, strategy=False,
                      prove=False)
    assert found.status == "verified" and sp.sqrt(13) in found.rule.expr.atoms(sp.Pow)
    _same_rule(found.rule)


def test_the_generated_rules_cover_every_node_type():
    """The strategies above reach every node type of the language (a new node type must be added here)."""
    seen = set()

    @settings(max_examples=600, deadline=None, derandomize=True)
    @given(st.one_of(conditions(), grundy_tables()))
    def collect(expr):
        seen.update(type(node) for node in sp.preorder_traversal(expr))

    collect()
    assert [cls.__name__ for cls in NODES if not any(issubclass(t, cls) for t in seen)] == []


@SETTINGS
@given(st.integers(0, 6), st.lists(st.integers(0, 9), min_size=1, max_size=8), st.lists(st.integers(0, 9), max_size=6))
def test_periodic_rules_round_trip(preperiod, values, head):
    exceptions = [(n, v) for n, v in enumerate(head[:preperiod]) if v != values[n % len(values)]]
    sequence = PeriodicValues(preperiod, len(values), values, np.array(exceptions, dtype=np.int64).reshape(-1, 2))
    rule = Rule.from_periodic(sequence)
    again = Rule.from_json(rule.to_json())
    heaps = np.arange(40)[:, None]
    assert again.to_json() == rule.to_json()
    assert np.array_equal(again.evaluate(heaps), rule.evaluate(heaps))


THREE_HEAPS = custom_game("three_heaps", lambda p: [p[:j] + (v,) + p[j + 1:] for j in range(3) for v in range(p[j])], 3)
RELATIONS = {"take_from_one": take_from_one(3), "moore": make_game("moore", heaps=3, k=2).move_relation(),
             "moves_of": MovesOf(THREE_HEAPS)}


@SETTINGS
@given(terms(), st.sampled_from(sorted(RELATIONS)))
def test_strategies_round_trip(value, relation):
    rule = Rule(sp.Eq(sp.Symbol("xor_all"), 0), ("a", "b", "c"))
    strategy = Strategy(rule, RELATIONS[relation], [Branch((BitXor(HEAP, sp.Symbol("xor_all")),), per_heap=True),
                                                    Branch((value, A, B))],
                        checked_bound=9, provenance={"engine": "test"})
    again = Strategy.from_json(strategy.to_json(), game=THREE_HEAPS)
    assert again.to_json() == strategy.to_json()
    assert again.branches == strategy.branches and again.relation == strategy.relation


@SETTINGS
@given(terms(), st.none() | st.integers(0, 10**6))
def test_move_choosers_round_trip(value, bound):
    """A custom game's strategy of last resort (no formula): its rule over any term, its bound and its game."""
    from discover.move_chooser import MoveChooser

    rule = Rule(sp.Eq(value, sp.Symbol("c")), ("a", "b", "c"))
    chooser = MoveChooser(rule, THREE_HEAPS, bound, {"formula_search": "none"})
    again = MoveChooser.from_json(chooser.to_json(), THREE_HEAPS)
    assert again.to_json() == chooser.to_json() and again.rule.expr == chooser.rule.expr


@SETTINGS
@given(st.integers(1, 6), st.data())
def test_quotient_rules_round_trip(order, data):
    """A cyclic group Z_order (heap 1 its generator) with a drawn P-portion, heap elements and period."""
    table = np.add.outer(np.arange(order), np.arange(order)) % order
    p_portion = np.array(data.draw(st.lists(st.booleans(), min_size=order, max_size=order)))
    element = {1: 1 % order} | {h: data.draw(st.integers(0, order - 1)) for h in range(2, data.draw(st.integers(2, 6)))}
    period = data.draw(st.none() | st.builds(HeapPeriod, st.integers(0, 3), st.integers(1, 3), st.booleans(),
                                             st.integers(0, 9)))
    rule = QuotientRule(BipartiteMonoid(table, p_portion), element, period, {"name": "test"})
    again = QuotientRule.from_json(rule.to_json())
    assert again.to_json() == rule.to_json()
    assert again.text() == rule.text()


@pytest.mark.parametrize("name, params, bound", [("nim", {"heaps": 2}, 6), ("wythoff", {}, 8),
                                                  ("subtraction", {"subtract": [1, 3, 4]}, 20)])
def test_solutions_round_trip(name, params, bound, tmp_path):
    solution = solve(make_game(name, **params), bound=bound)
    path = tmp_path / "s.npz"
    solution.save(path)
    again = Solution.load(path)
    assert again.universe == solution.universe and again.game == solution.game
    for table in ("outcome_table", "grundy_table", "remoteness_table"):
        first, second = getattr(solution, table), getattr(again, table)
        assert (first is None and second is None) or np.array_equal(first, second)


@pytest.mark.parametrize("game", [
    make_game("lasker"),
    declared_game({"name": "s247-s12", "heaps": 2, "moves": [{"step": [[2, 0], [4, 0], [7, 0], [0, 1], [0, 2]]}]}),
], ids=["lasker", "declared sum"])
def test_a_composed_strategy_reads_back_and_moves_alike(game):
    """The Grundy composition's strategy (the Nim strategy over Grundy values) as find_rule writes it."""
    from discover.composition import SumStrategy, compose

    written = compose(game, verify_bound=40, games=2).strategy
    again = SumStrategy.from_json(written.to_json())
    assert again.to_json() == written.to_json()
    positions = [(5, 7), (9, 3), (12, 40)] if game.dims == 2 else [(5,), (9,), (40,)]
    assert [again.move(p) for p in positions] == [written.move(p) for p in positions]
    with pytest.raises(ValueError, match="not a sum-of-components"):
        SumStrategy.from_json({**json.loads(written.to_json()), "kind": "other"})
