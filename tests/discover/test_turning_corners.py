"""Turning Corners: the nim-product (its table against the definition), the family's options, the Tartan theorem
and the engines' operator of two features."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
import sympy as sp

from discover.engines.enumeration import EnumerationEngine
from discover.expr.nimber import NimProduct, nim_product
from discover.proofs.prove import prove_rule, relation_agrees
from discover.proofs.tartan import TARTAN_METHOD
from discover.rule import Rule
from games import custom_game, make_game
from games.symbolic import CornerTurns, relation_from_record
from solvers import solve

A, B = sp.symbols("a b")


@functools.cache
def by_definition(x: int, y: int) -> int:
    """Conway's definition: x ⊗ y = mex{x' ⊗ y ⊕ x ⊗ y' ⊕ x' ⊗ y' : x' < x, y' < y}."""
    seen = {by_definition(u, y) ^ by_definition(x, v) ^ by_definition(u, v) for u in range(x) for v in range(y)}
    return next(g for g in range(len(seen) + 1) if g not in seen)


def test_the_nim_product_is_conways():
    x, y = np.indices((24, 24))
    assert nim_product(x, y).tolist() == [[by_definition(a, b) for b in range(24)] for a in range(24)]
    assert NimProduct(2**16, 2**16) == 3 * 2**15  # a Fermat 2-power squared is three halves of it
    rng = np.random.default_rng(0)
    u, v, w = rng.integers(0, 2**32, size=(3, 200))
    assert np.array_equal(nim_product(u, v ^ w), nim_product(u, v) ^ nim_product(u, w))  # distributive over xor
    assert np.array_equal(nim_product(nim_product(u, v), w), nim_product(u, nim_product(v, w)))
    with pytest.raises(ValueError, match="2\\^32"):
        nim_product([2**32], [1])
    assert NimProduct(A, 1) == A and NimProduct(A, 0) == 0


def test_a_coin_goes_to_three_corners_and_its_values_are_nim_products():
    game = make_game("turning_corners")
    assert game.moves((1, 1)) == [(0, 1, 1, 0, 0, 0)] and game.moves((0, 5)) == []
    pool = np.array(list(itertools.product(range(4), repeat=6)))
    for p in game.universe(3).positions():
        allowed = game.move_relation().allows(np.repeat(p[None, :], len(pool), axis=0), pool)
        got = {tuple(sorted(game.option_parts(q))) for q in pool[allowed].tolist()}
        assert got == {tuple(sorted(game.option_parts(o))) for o in game.moves(tuple(p))}, tuple(p)
    assert relation_from_record(game.move_relation().to_record()) == CornerTurns()
    solution = solve(game, bound=12, grundy=True)
    positions = solution.universe.positions()
    assert np.array_equal(solution.grundy_table, nim_product(positions[:, 0], positions[:, 1]))


def test_the_tartan_theorem_proves_the_nim_product_and_nothing_else():
    game = make_game("turning_corners")
    proof = prove_rule(Rule(NimProduct(B, A), ("a", "b"), target="grundy"), game)
    assert proof.status == "proved" and proof.method == TARTAN_METHOD
    for expr in (A * B, NimProduct(A, A)):
        assert prove_rule(Rule(expr, ("a", "b"), target="grundy"), game).status != "proved"
    nim = make_game("nim", heaps=2)
    assert prove_rule(Rule(NimProduct(A, B), ("a", "b"), target="grundy"), nim).status != "proved"


def test_the_enumeration_finds_a_nim_product_of_two_features():
    X = np.array([(a, b) for a in range(12) for b in range(12)])
    engine = EnumerationEngine().fit(X, nim_product(X[:, 0], X[:, 1]), feature_names=["a", "b"], target="grundy")
    assert engine.candidates_[0].expr == NimProduct(A, B) and engine.candidates_[0].accuracy == 1.0


def test_the_tartan_theorem_is_never_applied_to_moves_that_are_not_checked():
    """A game that states Turning Corners' relation beside other moves gets no Tartan proof: Nim's moves, or
    corners whose third coin is one row too high."""
    nim_moves = custom_game("nim-as-corners", lambda p: [(p[0] - t, p[1]) for t in range(1, p[0] + 1)]
                            + [(p[0], p[1] - t) for t in range(1, p[1] + 1)], 2, relation=CornerTurns())

    class HighCorners(type(make_game("turning_corners"))):
        def moves(self, position):
            return [o[:5] + (o[5] + 1,) if o[5] + 1 < position[1] else o for o in super().moves(position)]

    rule = Rule(NimProduct(A, B), ("a", "b"), target="grundy")
    assert prove_rule(rule, nim_moves).status != "proved"
    proof = prove_rule(rule, HighCorners())
    assert proof.status == "unknown" and "disagrees with its moves()" in proof.reason


def test_turning_corners_relation_is_checked_against_its_sums_and_a_p_rule_gets_an_answer():
    game = make_game("turning_corners")
    assert relation_agrees(game) is None
    counts, options = game.option_rows(np.array([[1, 2], [0, 3]]))
    assert counts.tolist() == [2, 0] and options.shape == (2, 6)  # one row an option, its three coins side by side
    assert prove_rule(Rule(sp.Eq(A * B, 0), ("a", "b")), game, time_budget=5).status == "unknown"
