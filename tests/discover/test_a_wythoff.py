"""Fraenkel's a-Wythoff games: the family's moves, the pairs theorem's proof for any a, and the winning moves the
theorem's proof constructs (the rules are written by hand: the prover and the strategy are under test)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.engines.pairs import pairs_expression
from discover.find_strategy import check_strategy, find_strategy
from discover.proofs.beatty import A_WYTHOFF_METHOD, fraenkel_a
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.strategy import Strategy
from games import make_game
from games.symbolic import AnyOf, Steps, TakeBoth, relation_from_record, take_from_one

S = sp.Symbol


def pairs_rule(alpha, a):
    return Rule(pairs_expression(alpha, a, S("min_all"), S("spread")), ("a", "b"))


def fraenkel_alpha(a):
    return (2 - a + sp.sqrt(a * a + 4)) / 2


def test_the_moves_are_any_amount_from_one_heap_or_amounts_from_both_that_differ_by_less_than_a():
    game = make_game("a_wythoff", a=2)
    options = set(game.moves((2, 3)))
    both = {(2 - s, 3 - t) for s in (1, 2) for t in (1, 2, 3) if abs(s - t) < 2}
    assert options == {(x, 3) for x in (0, 1)} | {(2, y) for y in (0, 1, 2)} | both
    assert relation_from_record(game.move_relation().to_record()) == game.move_relation()
    with pytest.raises(ValueError, match="a must be"):
        TakeBoth(0)


def test_fraenkel_a_reads_the_moves_and_nothing_else():
    assert fraenkel_a(make_game("wythoff").move_relation()) == 1
    assert fraenkel_a(make_game("a_wythoff", a=4).move_relation()) == 4
    assert fraenkel_a(AnyOf((Steps(((1, 0), (0, 1), (1, 1))), TakeBoth(2)))) == 2
    assert fraenkel_a(AnyOf((take_from_one(2, (1, 2)), TakeBoth(2)))) is None  # bounded amounts from one heap
    assert fraenkel_a(AnyOf((take_from_one(2), TakeBoth(2), TakeBoth(3)))) is None


@pytest.mark.parametrize("a", [2, 3, 5])
def test_the_pairs_theorem_proves_fraenkels_rule_and_no_other_constant(a):
    game = make_game("a_wythoff", a=a)
    proof = prove_rule(pairs_rule(fraenkel_alpha(a), a), game, methods=("theorem",))
    assert proof.status == "proved" and proof.method == A_WYTHOFF_METHOD
    assert f"|s - t| < {a}" in proof.reason and "mex recurrence" in proof.reason
    assert prove_rule(pairs_rule(sp.GoldenRatio, a), game, methods=("theorem",)).status != "proved"
    assert prove_rule(pairs_rule(fraenkel_alpha(a), a), make_game("a_wythoff", a=a, misere=True),
                      methods=("theorem",)).status != "proved"
    assert prove_rule(pairs_rule(fraenkel_alpha(a + 1), a + 1), game, methods=("theorem",)).status != "proved"


@pytest.mark.parametrize("a", [2, 3])
def test_the_theorems_winning_moves_are_found_and_hold_on_every_n_position(a):
    game = make_game("a_wythoff", a=a)
    rule = pairs_rule(fraenkel_alpha(a), a)
    strategy = find_strategy(rule, game, bound=60)
    assert strategy is not None and strategy.provenance["theorem"] == "Fraenkel's a-Wythoff pairs"
    assert not len(check_strategy(strategy, game, 60))
    moved = strategy.moves(np.array([[5, 5], [0, 7]]))
    again = Strategy.from_json(strategy.to_json(), game)  # the record reads back: the same moves
    n_positions = game.universe(3).positions()[~rule.predicate(game.universe(3).positions())]
    assert np.array_equal(again.moves(n_positions), strategy.moves(n_positions))
    assert rule.predicate(moved).all()
