"""Fibonacci Nim: the least Zeckendorf part (the node and its backends), the family's moves, Whinihan's theorem
read by the meaning of a rule, and the winning move its proof constructs."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.expr.intervals import value_range
from discover.expr.latex import rule_latex
from discover.expr.mathml import rule_mathml
from discover.expr.text import rule_text
from discover.expr.zeckendorf import ZeckendorfLeast, fibonacci_below, zeckendorf_least
from discover.find_strategy import check_strategy, find_strategy
from discover.proofs.fibonacci import WHINIHAN_METHOD, whinihan_rule
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.strategy import Strategy
from games import make_game
from games.symbolic import GrowingTake, relation_from_record

N, M = sp.symbols("n m")


def zeckendorf_parts(n: int) -> list[int]:
    """The representation by its definition: non-consecutive Fibonacci numbers summing to n (searched, not
    greedy)."""
    fibs = fibonacci_below(n + 1)

    def search(rest, i, last):
        if rest == 0:
            return []
        for j in range(i, -1, -1):
            if fibs[j] <= rest and (last is None or j < last - 1):
                found = search(rest - fibs[j], j - 1, j)
                if found is not None:
                    return [fibs[j]] + found
        return None

    return search(n, len(fibs) - 1, None)


def test_the_least_part_is_the_smallest_of_the_representation():
    heaps = np.arange(0, 300)
    assert zeckendorf_least(heaps).tolist() == [0] + [min(zeckendorf_parts(int(n))) for n in heaps[1:]]
    top = np.array([2**62 + 12345, (1 << 63) - 1])
    assert all(int(v) in set(fibonacci_below(1 << 63)) for v in zeckendorf_least(top))
    with pytest.raises(ValueError, match="non-negative"):
        zeckendorf_least([-1])
    assert ZeckendorfLeast(sp.Integer(12)) == 1 and ZeckendorfLeast(N).is_integer


def test_the_node_prints_and_is_bounded():
    rule = whinihan_rule(("n", "m"))
    assert rule_text(rule, ("n", "m")) == "n = 0 or m < zeck(n)"
    assert rule_latex(rule, ("n", "m")) == r"n = 0 \vee m < \operatorname{zeck}(n)"
    assert "<mi>zeck</mi><mo>(</mo><mi>n</mi><mo>)</mo>" in rule_mathml(Rule(rule, ("n", "m")))
    (low, high), _ = value_range(ZeckendorfLeast(N + 1), {"n": (0, 40)})
    assert low == 1 and high >= 41


def test_the_moves_cap_the_allowance_at_the_heap_left():
    game = make_game("fibonacci_nim")
    assert game.moves((10, 3)) == [(9, 2), (8, 4), (7, 6)]
    assert game.moves((3, 0)) == [] and game.moves((0, 5)) == []
    assert relation_from_record(game.move_relation().to_record()) == GrowingTake(2)


@pytest.mark.parametrize("expr", [
    whinihan_rule(("n", "m")), sp.Eq(sp.Min(N, M), sp.Mod(M, ZeckendorfLeast(N))),
    sp.Eq(sp.floor(M / ZeckendorfLeast(N)), 0),
], ids=["theorem", "mod", "floor"])
def test_whinihans_theorem_proves_a_rule_by_its_meaning(expr):
    proof = prove_rule(Rule(expr, ("n", "m")), make_game("fibonacci_nim"), methods=("theorem",))
    assert proof.status == "proved" and proof.method == WHINIHAN_METHOD


@pytest.mark.parametrize("game, expr", [
    (make_game("fibonacci_nim"), sp.Lt(M, ZeckendorfLeast(N))),  # wrong at n = 0
    (make_game("fibonacci_nim"), sp.Or(sp.Eq(N, 0), sp.Le(M, ZeckendorfLeast(N)))),
    (make_game("fibonacci_nim", ratio=3), whinihan_rule(("n", "m"))),
    (make_game("fibonacci_nim", misere=True), whinihan_rule(("n", "m"))),
], ids=["no-empty-heap", "at-most", "ratio-3", "misere"])
def test_whinihans_theorem_needs_its_hypotheses(game, expr):
    assert prove_rule(Rule(expr, ("n", "m")), game, methods=("theorem",)).status != "proved"


def test_the_theorems_move_takes_the_least_part():
    game = make_game("fibonacci_nim")
    rule = Rule(whinihan_rule(("n", "m")), ("n", "m"))
    strategy = find_strategy(rule, game, bound=80)
    assert strategy is not None and strategy.provenance["theorem"] == "Whinihan's Fibonacci Nim move"
    assert not len(check_strategy(strategy, game, 80))
    assert strategy.move((12, 5)) == (11, 2)  # 12 = 8 + 3 + 1: take 1
    again = Strategy.from_json(strategy.to_json(), game)  # the record reads back: the same moves
    n_positions = game.universe(3).positions()[~rule.predicate(game.universe(3).positions())]
    assert np.array_equal(again.moves(n_positions), strategy.moves(n_positions))
