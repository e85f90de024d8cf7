"""Safety: rules that agree with the solver up to a bound but are false beyond it are never proved.

Each near miss passes bounded verification (checked here), then ``prove_rule`` must answer
"disproved" with a counterexample, or "unknown"; a counterexample is re-checked against the
closed form of the literature (the nim-sum, Wythoff's pairs by integer square roots, the
period of the subtraction game): the rule's label is wrong at the position or at the move.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from discover.expr.nodes import BitXor
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.strategy import HEAP, Branch, Strategy
from discover.verify import verify_rule
from games import make_game

S = sp.Symbol


def wythoff_p(a: int, b: int) -> bool:
    d = abs(a - b)
    return min(a, b) == (d + math.isqrt(5 * d * d)) // 2


def assert_real_counterexample(rule, truth, proof):
    """The rule mislabels the counterexample's position or the position its move leads to."""
    found = proof.counterexample
    points = [found["position"]] + ([found["move_to"]] if "move_to" in found else [])
    said = rule.predicate(np.array(points, dtype=np.int64)).tolist()
    assert any(s != truth(*p) for s, p in zip(said, points)), (found, said)


def test_exception_planted_beyond_the_bound_subtraction():
    game = make_game("subtraction", subtract=(1, 2, 3))
    n = S("n")
    rule = Rule(sp.Or(sp.Eq(sp.Mod(n, 4), 0), sp.Eq(n, 1_000_002)), ("n",))
    assert all(c.passed for c in verify_rule(rule, game, 300)[:3])
    proof = prove_rule(rule, game, time_budget=30)
    assert proof.status == "disproved", proof
    assert_real_counterexample(rule, lambda m: m % 4 == 0, proof)


def test_exception_planted_beyond_the_bound_nim_with_its_strategy():
    game = make_game("nim", heaps=3)
    a, b, c = S("a"), S("b"), S("c")
    planted = sp.And(sp.Eq(a, 5000), sp.Eq(b, 3000), sp.Eq(c, 1))
    rule = Rule(sp.Or(sp.Eq(S("xor_all"), 0), planted), game.feature_names)
    assert all(x.passed for x in verify_rule(rule, game, 40, games=20)[:2])
    strategy = Strategy(rule, game.move_relation(), [Branch((BitXor(HEAP, S("xor_all")),), per_heap=True)])
    proof = prove_rule(rule, game, strategy, time_budget=60)
    assert proof.status in ("disproved", "unknown"), proof
    if proof.status == "disproved":
        assert_real_counterexample(rule, lambda *h: (h[0] ^ h[1] ^ h[2]) == 0, proof)


@pytest.mark.parametrize("constant", [sp.Rational(161804, 100000), sp.Rational(161803, 100000),
                                      sp.Rational(1618034, 1000000) + sp.Rational(1, 10**6)])
def test_golden_ratio_perturbed_in_the_sixth_digit(constant):
    game = make_game("wythoff")
    rule = Rule(sp.Eq(S("min_all"), sp.floor(constant * S("spread"))), ("a", "b"))
    assert all(c.passed for c in verify_rule(rule, game, 300, games=20)[:2])
    proof = prove_rule(rule, game, time_budget=10)
    assert proof.status in ("disproved", "unknown"), proof
    assert proof.method != "theorem: complementary mex pairs (Wythoff) and Beatty's theorem"
    if proof.status == "disproved":
        assert_real_counterexample(rule, wythoff_p, proof)


def test_a_wrong_strategy_is_never_a_proof():
    game = make_game("nim", heaps=3)
    rule = Rule(sp.Eq(S("xor_all"), 0), game.feature_names)
    wrong = Strategy(rule, game.move_relation(), [Branch((HEAP - 1,), per_heap=True)])  # take one token
    proof = prove_rule(rule, game, wrong, time_budget=60, methods=("z3",))  # the certificate with the strategy
    assert proof.status == "unknown", proof
    h = proof.counterexample["position"]  # Python ints: below 2^64, maybe beyond int64
    assert h[0] ^ h[1] ^ h[2] != 0  # N
    assert all(x == 0 or (x - 1) ^ (h[0] ^ h[1] ^ h[2] ^ x) != 0 for x in h)  # and taking one token never wins


def test_a_wrong_rule_with_a_true_looking_strategy_is_disproved():
    game = make_game("nim", heaps=3)
    rule = Rule(sp.Eq(S("xor_all"), 1), game.feature_names)  # the misere labels under normal play
    strategy = Strategy(rule, game.move_relation(), [Branch((BitXor(HEAP, S("xor_all"), 1),), per_heap=True)])
    proof = prove_rule(rule, game, strategy, time_budget=60)
    assert proof.status == "disproved", proof
    assert proof.counterexample["position"] == (0, 0, 0)  # terminal, but called N
