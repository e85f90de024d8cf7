"""Automata for Büchi arithmetic and the mex induction they decide: relations agree with brute force on small
boxes, Lasker's Nim is proved for every heap, wrong formulas and planted exceptions are disproved at their heap,
and games or formulas outside the vocabulary are refused, never proved."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy as sp

from discover.expr.nodes import BitAnd, BitXor
from discover.expr.walker import Unsupported
from discover.proofs.automata import bitwise, conj, exists, least, linear
from discover.proofs.automata_rules import rule_graph
from discover.proofs.mex_induction import MEX_METHOD, heap_rule_proof, heap_moves, mex_induction
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from games import custom_game, make_game
from games.declared import declared_game
from games.symbolic import PowerSteps

n = sp.Symbol("n")
LASKER = sp.Piecewise((0, sp.Eq(n, 0)), (n - 1, sp.Eq(sp.Mod(n, 4), 0)), (n + 1, sp.Eq(sp.Mod(n, 4), 3)), (n, True))


def accepts(automaton, values: dict) -> bool:
    """Run the automaton on the numbers' binary digits, least significant first."""
    state = 0
    for i in range(max(max(values.values()).bit_length(), 1) + 1):
        symbol = sum(((values[t] >> i) & 1) << j for j, t in enumerate(automaton.tracks))
        state = automaton.delta[state, symbol]
    return bool(automaton.final[state])


def test_linear_bitwise_and_exists_agree_with_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(6):
        a, b, c = (int(x) for x in rng.integers(-4, 5, 3))
        relation = conj(linear({"x": a, "y": b}, c, equal=False), bitwise("xor", "x", "y", "z"))
        some = exists(relation, "y")
        for x, y, z in itertools.product(range(9), repeat=3):
            assert accepts(relation, {"x": x, "y": y, "z": z}) == (a * x + b * y <= c and x ^ y == z)
        for x, z in itertools.product(range(9), repeat=2):  # witnesses y < 32 suffice: y = x ^ z
            assert accepts(some, {"x": x, "z": z}) == any(a * x + b * y <= c and x ^ y == z for y in range(32))


@pytest.mark.parametrize("expr", [LASKER, BitXor(n, sp.Mod(n, 3)), sp.floor(n / 3) + sp.Mod(2 * n + 1, 5),
                                  sp.Max(n, 7) - sp.Min(n, 3), sp.Abs(n - 5), BitAnd(n, n + 1)])
def test_a_rules_graph_is_its_values(expr):
    graph = rule_graph(expr, "n", "y")
    for x, y in itertools.product(range(24), range(30)):
        assert accepts(graph, {"n": x, "y": y}) == (int(expr.subs(n, x)) == y)


def test_lasker_nim_is_proved_for_every_heap():
    proved, said, at = mex_induction(LASKER, "n", make_game("lasker"))
    assert proved and at is None and "for every heap n" in said
    proof = prove_rule(Rule(LASKER, ("n",), target="grundy"), make_game("lasker"))
    assert proof.status == "proved" and proof.method == MEX_METHOD and proof.statement == "for every heap size"


def test_a_wrong_formula_is_disproved_at_the_least_heap_where_it_differs():
    assert mex_induction(n, "n", make_game("lasker"))[2] == 3  # G(3) = 4
    planted = sp.Piecewise((2, sp.Eq(n, 5000)), (LASKER, True))  # Lasker's values but at a heap far away
    status, said, counterexample, _ = heap_rule_proof(Rule(planted, ("n",), target="grundy"), make_game("lasker"))
    assert status == "disproved" and counterexample == {"position": (5000,), "rule": 2}


def test_split_and_take_games_and_their_periodic_values():
    split3 = declared_game({"name": "split3", "heaps": 1, "moves": [{"split": 3}]})
    assert [m.heaps for m in heap_moves(split3)] == [3]
    kayles_like = make_game("subtraction", subtract=(1, 3, 4))
    values = sp.Piecewise((0, sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 1))), (1, sp.Eq(sp.Mod(n, 7), 2)),
                          (2, sp.Contains(sp.Mod(n, 7), sp.FiniteSet(3, 4, 5))), (3, True))
    expected = [int(values.subs(n, i)) for i in range(7)]
    assert expected == [0, 0, 1, 2, 2, 2, 3] and not mex_induction(values, "n", kayles_like)[0]  # not S(1,3,4)'s
    assert mex_induction(sp.Mod(n, 2), "n", make_game("subtraction", subtract=(1,)))[0]


def test_what_the_theorem_does_not_cover_is_refused():
    with pytest.raises(Unsupported, match="one-heap game in normal play"):
        heap_moves(make_game("nim", heaps=2))
    with pytest.raises(Unsupported, match="one-heap game in normal play"):
        heap_moves(make_game("subtraction", subtract=(1, 2), misere=True))
    with pytest.raises(Unsupported, match="outside the automata's arithmetic"):
        rule_graph(n * n, "n", "y")
    with pytest.raises(Unsupported, match="may be negative"):
        rule_graph(BitXor(n - 3, 1), "n", "y")
    with pytest.raises(Unsupported, match="may be negative"):  # a product under a bitwise operator: refused
        rule_graph(BitXor(n * sp.Mod(n, 2), 1), "n", "y")
    threes = custom_game("threes", lambda p: [(p[0] - 3**k,) for k in range(12) if 3**k <= p[0]], 1,
                         relation=PowerSteps(((1,),), 3))
    status, said, _, _ = heap_rule_proof(Rule(sp.Mod(n, 2), ("n",), target="grundy"), threes)
    assert status is None and "powers of 3" in said[0]
    assert mex_induction(sp.Piecewise((n, n > 2), (n - 1, True)), "n", make_game("lasker"))[1] \
        == "F is not one natural number at every heap"  # F(0) = -1


def test_the_proof_rests_on_a_custom_games_relation_and_its_box():
    odd = custom_game("odd", lambda p: [(p[0] - t,) for t in range(1, p[0] + 1, 2)], 1)
    from discover.relation_inference import with_inferred_relation

    game, _ = with_inferred_relation(odd, 60, lambda message: None)
    status, _, _, rests_on = heap_rule_proof(Rule(sp.Mod(n, 2), ("n",), target="grundy"), game, 60)
    assert status == "proved" and rests_on["agrees_with_moves_up_to"] == 60


def test_least_finds_the_smallest_accepted_number():
    multiple = exists(conj(linear({"x": 1, "h": -5}, 0, True), linear({"x": -1}, -11, False)), "h")
    assert least(multiple) == 15 and least(conj(linear({"x": 1}, 5, True), linear({"x": 1}, 6, True))) is None


def test_a_relation_that_disagrees_with_the_moves_proves_nothing(monkeypatch):
    """Removing any amount, then maybe splitting (0.777...): the relation says what the kernel does, from k = 0."""
    game = declared_game({"name": "any-split", "heaps": 1, "moves": [{"take": "any"}, {"split": 2, "remove": "any"}]})
    rule = Rule(sp.Piecewise((n, n < 2), (2 * n - 2, True)), ("n",), target="grundy")
    assert heap_rule_proof(rule, game)[0] == "proved"
    from games.symbolic import TakeAndBreak

    monkeypatch.setattr(type(game), "move_relation", lambda self: TakeAndBreak((0,), rest=7))  # no split at k = 0
    status, said, _, _ = heap_rule_proof(rule, game)
    assert status is None and said[0].endswith("heap 2: (1, 1) is an option of moves() only")


def test_an_arithmetic_periodic_hexadecimal_code_is_found_and_proved():
    """0.C (remove one token, leave two or three heaps): G(2k + 1) = k, G(2k + 2) = k; the take-and-break road reads
    it on its first heaps, verifies it and proves it by mex induction (no periodicity theorem: the values grow)."""
    from discover.find import FindSettings, find_rule

    found = find_rule(make_game("hexadecimal", code="0.C"), settings=FindSettings(games=4, strategy=False))
    assert found.road == "take-and-break" and found.status == "verified"
    assert found.rule.evaluate(np.arange(9)[:, None]).tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 3]
    assert found.proof.status == "proved" and found.proof.method == MEX_METHOD


def test_p_rules_of_one_heap_are_proved_for_every_heap_not_on_a_box():
    a = sp.Symbol("a")
    half = declared_game({"name": "half", "heaps": 1, "moves": [{"take": {"up_to": "half"}}]})
    proof = prove_rule(Rule(sp.Eq(BitAnd(a, a + 1), 0), ("a",)), half)  # P iff a + 1 is a power of 2
    assert proof.status == "proved" and proof.method == MEX_METHOD and proof.statement == "for every position"
    twos = custom_game("twos", lambda p: [(p[0] - (1 << k),) for k in range(p[0].bit_length()) if 1 << k <= p[0]],
                       1, relation=PowerSteps(((1,),), 2))
    assert prove_rule(Rule(sp.Eq(sp.Mod(a, 3), 0), ("a",)), twos, relation_bound=100).status == "proved"
    wrong = prove_rule(Rule(sp.Eq(sp.Mod(a, 3), 1), ("a",)), twos, relation_bound=100)
    assert wrong.status == "disproved" and wrong.counterexample == {"position": (0,), "rule": "N"}
    with pytest.raises(Unsupported, match="sums of heaps"):
        mex_induction(sp.Eq(n, 0), "n", make_game("lasker"), target="P")


def test_linear_relations_past_int64_are_exact():
    """Bounds and coefficients near and past 2^63 (a remainder that would wrap in int64) keep their meaning."""
    rng = np.random.default_rng(1)
    for bound in (2**63 - 1, -(2**63), 2**64 + 3, -(2**70)):
        for a in (1, -1, 3):
            for equal in (False, True):
                relation = linear({"x": a}, bound, equal)
                near = abs(bound) // abs(a)
                for x in [0, 1, 2, 3, near - 1, near, near + 1, *(int(v) for v in rng.integers(0, 2**62, 3))]:
                    if x >= 0:
                        assert accepts(relation, {"x": x}) == (a * x == bound if equal else a * x <= bound)


def test_a_condition_false_at_every_heap_is_not_read_as_odd():
    """n < -(2^63 - 1) never holds: in int64 its automaton read "n odd" and proved F(3) = 7 for Nim's one heap."""
    never = n < -(2**63 - 1)
    planted = Rule(sp.Piecewise((n, never), (7, sp.Eq(n, 3)), (n, True)), ("n",), target="grundy")
    status, _, counterexample, _ = heap_rule_proof(planted, make_game("nim", heaps=1))
    assert status == "disproved" and counterexample == {"position": (3,), "rule": 7}


def test_a_membership_in_other_than_listed_integers_is_refused():
    """n ∈ {1/2} never holds, but every backend read its set as int(1/2) = 0: the rule P iff n ∈ {1/2} was proved
    for Nim's one heap (whose only P position is 0)."""
    for members in (sp.FiniteSet(sp.Rational(1, 2)), sp.Range(0, 1)):
        with pytest.raises(ValueError, match="finite set of integers"):
            Rule(sp.Contains(n, members, evaluate=False), ("n",))
        with pytest.raises(Unsupported, match="finite set of integers"):
            mex_induction(sp.Contains(n, members, evaluate=False), "n", make_game("nim", heaps=1), target="P")


def test_a_statement_past_the_transition_cap_is_left_undecided(monkeypatch):
    """Tables are refused as they grow past MAX_CELLS transitions (memory, before it is taken): not decided."""
    from discover.proofs import automata

    monkeypatch.setattr(automata, "MAX_CELLS", 64)
    proved, said, at = mex_induction(LASKER, "n", make_game("lasker"))
    assert not proved and at is None and said.startswith("the automata did not decide the statement")


def test_a_huge_modulus_is_left_undecided_within_the_budget():
    """n mod (2^64 + 7): a linear relation's remainders span about twice its coefficients, so its automaton is
    refused as it grows (before, the construction ran on past every budget)."""
    proved, said, at = mex_induction(sp.Mod(n, 2**64 + 7), "n", make_game("nim", heaps=1), seconds=5)
    assert not proved and at is None and "did not decide" in said
