"""Grundy values with binary structure: the digit functions, the binary engine, coin-turning games written in Python
(one-heap games whose options are sums of heaps) and the proofs by a theorem's recursion in n's binary digits."""

from __future__ import annotations

import functools
import itertools
import operator

import numpy as np
import pytest
import sympy as sp

from discover.bounds import heaps_that_fit
from discover.composition import compose
from discover.engines.binary import BinaryEngine
from discover.engines.enumeration import EnumerationEngine
from discover.expr.nodes import DIGIT_FUNCTIONS, BitCount, LowBit, OddPart, Valuation2
from discover.find import find_rule
from discover.proofs.digit_recursions import RECURSIONS, digit_recursion_holds, halved, recursion_proof
from discover.rule import Rule
from games import custom_game
from games.declared import declared_game
from solvers import solve

N = sp.Symbol("n")
M = sp.Symbol("m", integer=True, nonnegative=True)
HALF = {"name": "half", "heaps": 1, "moves": [{"take": {"up_to": "half"}}]}


def ruler(p):
    return [tuple(range(p[0] - k + 1, p[0])) for k in range(1, p[0] + 1)]


def mock_turtles(p):
    return [c for k in range(3) for c in itertools.combinations(range(1, p[0]), k)] if p[0] else []


def mex_values(moves, top: int) -> list[int]:
    """Grundy values of a one-heap game whose options are sums, by the mex rule over ``moves``."""
    values = []
    for n in range(top + 1):
        seen = {functools.reduce(operator.xor, (values[h] for h in o), 0) for o in moves((n,))}
        values.append(next(v for v in itertools.count() if v not in seen))
    return values


def half_values(top: int) -> np.ndarray:
    return np.asarray(solve(declared_game(HALF), bound=top, grundy=True).grundy_table, dtype=np.int64)


@pytest.mark.parametrize("node", DIGIT_FUNCTIONS)
def test_digit_functions_agree_with_python_on_every_sign(node):
    x = np.arange(-70, 70, dtype=np.int64)
    assert node.numpy_op(x).tolist() == [node.python_op(int(v)) for v in x] == [int(node(int(v))) for v in x]


def test_digit_identities_rewrite_halved_arguments():
    assert halved(LowBit(2 * M + 2)) == 2 * LowBit(M + 1)
    assert halved(OddPart(4 * M + 3)) == 4 * M + 3
    assert halved(BitCount(2 * M + 1)) == BitCount(M) + 1
    assert halved(Valuation2(2 * M)) == Valuation2(2 * M)  # ν₂(0) = 0: no rewrite when the half may be 0
    assert halved(Valuation2(2 * M + 4)) == Valuation2(M + 2) + 1
    assert halved(LowBit(M)) == LowBit(M)  # not of the form 2x + r


def test_unary_enumeration_and_its_meet_in_the_middle():
    values = half_values(63)
    heaps = np.arange(64)[:, None]
    found = EnumerationEngine(unary=("odd",), max_size=6).fit(heaps, values, feature_names=["n"], target="grundy")
    assert sp.floor(OddPart(N + 1) / 2) in [c.expr for c in found.candidates_ if c.exact]
    turtles = np.array(mex_values(mock_turtles, 63))[1:]
    plain = EnumerationEngine(unary=("weight",), max_size=6).fit(heaps[1:], turtles, feature_names=["n"],
                                                                 target="grundy")
    met = EnumerationEngine(unary=("weight",), max_size=6, meet=True).fit(heaps[1:], turtles, feature_names=["n"],
                                                                          target="grundy")
    assert not any(c.exact for c in plain.candidates_)
    assert any(c.exact for c in met.candidates_)  # 2n - 1 - (wt(n - 1) mod 2): two terms of size 5 and 6
    with pytest.raises(ValueError, match="unknown functions of binary digits"):
        EnumerationEngine(unary=("log",)).fit(heaps, values, feature_names=["n"], target="grundy")


def test_binary_engine_lists_exceptions_and_prefers_plain_p_rules():
    heaps = np.arange(64)[:, None]
    shifted = heaps[:, 0] & -heaps[:, 0]
    shifted[0] = 5  # off the ruler's pattern at heap 0
    engine = BinaryEngine().fit(heaps, shifted, feature_names=["n"], target="grundy")
    best = engine.candidates_[0]
    assert best.exact and best.words == "exceptions at n in {0}"
    assert Rule(best.expr, ("n",), "grundy").evaluate(heaps).tolist() == shifted.tolist()
    p = BinaryEngine().fit(heaps, half_values(63) == 0, feature_names=["n"], target="P")
    assert not p.candidates_[0].expr.has(*DIGIT_FUNCTIONS)  # n & (n + 1) = 0, not wt(n) = bitlen(n)
    two = np.array(list(itertools.product(range(8), repeat=2)))
    assert BinaryEngine().fit(two, two[:, 0] == two[:, 1], feature_names=["a", "b"]).candidates_ == []


def test_custom_sums_moves_and_their_checks():
    turtles = custom_game("mock", mock_turtles, 1, parts=2)
    assert turtles.moves((3,)) == [(), (1,), (2,), (1, 2)] and turtles.spec()["params"]["parts"] == 2
    counts, options = turtles.option_rows(np.array([[0], [1], [3]]))
    assert counts.tolist() == [0, 1, 4] and options.tolist() == [[0, 0], [0, 0], [1, 0], [2, 0], [1, 2]]
    assert solve(turtles, bound=30, grundy=True).grundy_table.tolist() == mex_values(mock_turtles, 30)
    for moves, match in ((lambda p: [(1, 1, 1)], "at most 2"), (lambda p: [(-1,)] if p[0] else [], "heaps must be"),
                         (lambda p: [()], "heap 0 is the empty part")):
        with pytest.raises(ValueError, match=match):
            custom_game("bad", moves, 1, parts=2).option_rows(np.array([[0], [2]]))
    with pytest.raises(ValueError, match="one-heap games"):
        custom_game("two", lambda p: [], 2, parts=2)


def test_the_verification_range_follows_what_the_graph_holds():
    assert heaps_that_fit(declared_game(HALF), 2000) == 2000
    assert heaps_that_fit(custom_game("mock", mock_turtles, 1, parts=2), 2000) == 128
    moebius = custom_game("moebius", lambda p: [c for k in range(5) for c in itertools.combinations(range(1, p[0]), k)]
                          if p[0] else [], 1, parts=4)
    assert heaps_that_fit(moebius, 2000) == 32  # heap 64's 600,000 options are never listed


def test_the_ruler_composed_and_checked_on_its_heaps():
    found = compose(custom_game("ruler", ruler, 1, parts=1 << 16), games=5)
    assert found.status == "verified" and found.rule.expr == LowBit(N) and found.verify_bound == 256
    assert found.strategy_check.passed and found.proof.status == "unknown"  # moves() only: verified on 256 heaps
    assert "verified for heaps up to 256 only" in found.proof.reason


def test_a_coin_game_with_no_formula_answers_none():
    moebius = custom_game("moebius", lambda p: [c for k in range(5) for c in itertools.combinations(range(1, p[0]), k)]
                          if p[0] else [], 1, parts=4)
    found = find_rule(moebius, games=5)
    assert found.status == "none" and "holds on the heaps up to 32" in found.notes[-1]


def test_taking_at_most_half_is_proved_by_its_recursion():
    assert digit_recursion_holds(sp.floor(N / LowBit(2 * N + 2)), N, RECURSIONS[0])[0]
    assert not digit_recursion_holds(sp.floor(N / 2), N, RECURSIONS[0])[0]
    half = declared_game(HALF)
    status, _, why = recursion_proof(Rule(sp.floor(OddPart(N + 1) / 2), ("n",), "grundy"), half)
    assert status == "proved" and "F(2n + 1) = F(n)" in why
    assert recursion_proof(Rule(sp.floor(OddPart(N + 1) / 2) + 1, ("n",), "grundy"), half)[0] == "unknown"
    other = declared_game({"name": "third", "heaps": 1, "moves": [{"take": {"up_to": "third"}}]})
    assert recursion_proof(Rule(sp.floor(OddPart(N + 1) / 2), ("n",), "grundy"), other) is None
    two = compose(declared_game({**HALF, "heaps": 2}), verify_bound=30, games=5)
    assert two.rule.text() == "⌊odd(a + 1)/2⌋ ⊕ ⌊odd(b + 1)/2⌋ = 0" and two.proof.status == "proved"
