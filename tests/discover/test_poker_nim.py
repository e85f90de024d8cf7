"""Poker Nim: the family (heaps and two banks, a loopy game closed on its chips), the theorem that it is Nim, and
the nim-sum move with the bank (the rules are written by hand: the prover and the strategy are under test)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sympy as sp

from discover.expr.nodes import BitXor
from discover.find_strategy import check_strategy, find_strategy
from discover.proofs.poker import POKER_NIM_METHOD
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.strategy import Strategy
from games import make_game
from games.poker_nim import chips_at_most
from games.symbolic import PokerMoves, relation_from_record
from solvers import solve

A, B, C = sp.symbols("a b c")


def test_chips_are_kept_and_the_universe_is_closed():
    game = make_game("poker_nim", heaps=2)
    universe = game.universe(3)
    positions = universe.positions()
    assert universe.size == math.comb(4 * 3 + 4, 4) and (positions.sum(axis=1) <= 12).all()
    assert universe.contains(np.array(list(itertools.product(range(4), repeat=4)))).all()  # the box is inside
    for p in positions[::97]:
        for option in game.moves(tuple(p)):
            assert sum(option) == p.sum() and universe.contains(np.array([option]))[0]
    assert sorted(map(tuple, chips_at_most(3, 2).tolist())) == sorted(
        p for p in itertools.product(range(3), repeat=3) if sum(p) <= 2)
    assert relation_from_record(game.move_relation().to_record()) == PokerMoves(2)


def test_the_relation_allows_exactly_the_kernels_options():
    game = make_game("poker_nim", heaps=2)
    pool = np.array(list(itertools.product(range(5), repeat=4)))
    for p in game.universe(1).positions():
        allowed = game.move_relation().allows(np.repeat(p[None, :], len(pool), axis=0), pool)
        assert {tuple(q) for q in pool[allowed].tolist()} == set(game.moves(tuple(p))), tuple(p)


def test_the_solver_finds_no_draw_and_nims_losses():
    solution = solve(make_game("poker_nim", heaps=3), bound=2)
    positions = solution.universe.positions()
    assert not (solution.outcome_table == 0).any()
    assert np.array_equal(solution.outcome_table == -1, (positions[:, 0] ^ positions[:, 1] ^ positions[:, 2]) == 0)


@pytest.mark.parametrize("heaps, expr", [(2, sp.Eq(A, B)), (3, sp.Eq(BitXor(A, B, C), 0)), (3, sp.Eq(A, BitXor(B, C)))])
def test_the_theorem_proves_the_nim_sum_of_the_heaps(heaps, expr):
    game = make_game("poker_nim", heaps=heaps)
    proof = prove_rule(Rule(expr, game.feature_names), game, methods=("theorem",))
    assert proof.status == "proved" and proof.method == POKER_NIM_METHOD


@pytest.mark.parametrize("expr", [sp.Eq(BitXor(A, B, sp.Symbol("bank")), 0), sp.Eq(A, 0), sp.Eq(A, B)])
def test_the_theorem_needs_every_heap_and_no_bank(expr):
    game = make_game("poker_nim", heaps=3)
    assert prove_rule(Rule(expr, game.feature_names), game, methods=("theorem",)).status != "proved"


def test_the_nim_sum_move_banks_the_chips_taken():
    game = make_game("poker_nim", heaps=3)
    rule = Rule(sp.Eq(BitXor(A, B, C), 0), game.feature_names)
    strategy = find_strategy(rule, game, bound=3)
    assert strategy.provenance["theorem"] == "the nim-sum move of Poker Nim (Winning Ways)"
    assert not len(check_strategy(strategy, game, 3))
    assert strategy.move((3, 1, 1, 2, 0)) == (0, 1, 1, 0, 5)  # three chips into the mover's bank, banks swapped
    again = Strategy.from_json(strategy.to_json(), game)  # the record reads back: the same moves
    n_positions = game.universe(3).positions()[~rule.predicate(game.universe(3).positions())]
    assert np.array_equal(again.moves(n_positions), strategy.moves(n_positions))
