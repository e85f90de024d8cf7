"""``prove_rule``: proofs for every position, the statements and methods they name, and "unknown" with a reason.

Every "proved" here is a rule known to be true by a theorem of the literature (the nim-sum,
Winning Ways' periods, Wythoff's pairs, Moore's digit sums, two-row Chomp, misère Nim, Euclid's game); the rules are
written out by hand so that the prover, not the discovery, is under test.
"""

from __future__ import annotations

import json

import pytest
import sympy as sp

from discover.expr.nodes import BitXor
from discover.proofs.prove import Proof, prove_rule
from discover.rule import Rule
from discover.strategy import HEAP, Branch, Strategy
from games import custom_game, make_game
from games.symbolic import take_from_one

S = sp.Symbol
WYTHOFF = sp.Eq(S("min_all"), sp.floor(sp.GoldenRatio * S("spread")))


def nim_strategy(game):
    rule = Rule(sp.Eq(S("xor_all"), 0), game.feature_names)
    return rule, Strategy(rule, game.move_relation(), [Branch((BitXor(HEAP, S("xor_all")),), per_heap=True)])


@pytest.mark.parametrize("name, params, expr", [
    ("subtraction", {"subtract": (1, 2, 3)}, sp.Eq(sp.Mod(S("n"), 4), 0)),
    ("subtraction", {"subtract": (1, 3, 4)}, sp.Contains(sp.Mod(S("n"), 7), sp.FiniteSet(0, 2))),
    ("subtraction", {"subtract": (2, 3, 7)}, sp.Contains(sp.Mod(S("n"), 5), sp.FiniteSet(0, 1))),
    ("nim", {"heaps": 2}, sp.Eq(S("spread"), 0)),
    ("chomp", {"rows": 2}, sp.Eq(S("spread"), 1)),
    ("staircase", {"stairs": 3}, sp.Eq(S("s1"), S("s3"))),
    ("moore", {"heaps": 3, "k": 2}, sp.Eq(S("spread"), 0)),
])
def test_linear_rules_are_proved_in_unbounded_integers(name, params, expr):
    game = make_game(name, **params)
    proof = prove_rule(Rule(expr, game.feature_names), game, time_budget=60, methods=("z3",))
    assert proof.status == "proved", proof
    assert proof.method == "z3 closure certificate, linear integer arithmetic"
    assert proof.statement.startswith("for every position") and "2^" not in proof.statement
    assert [p.result for p in proof.parts] == ["holds"] * 4
    assert proof.line().startswith("✓ proof for every position")


@pytest.mark.parametrize("heaps", [3, 4])
def test_nim_with_its_strategy_is_proved_in_64_bit_vectors(heaps):
    game = make_game("nim", heaps=heaps)
    rule, strategy = nim_strategy(game)
    proof = prove_rule(rule, game, strategy, time_budget=120, methods=("z3",))  # Bouton's theorem aside
    assert proof.status == "proved", proof
    assert "bit-vectors, with the strategy" in proof.method
    assert proof.statement == "for every position with every coordinate < 2^64"
    assert "moves stay in the bounded set" in [p.name for p in proof.parts]
    assert proof.bits == 64 and Proof.from_record(json.loads(proof.to_json())).bits == 64  # a bounded proof, said


def test_misere_nim_with_its_strategy():
    game = make_game("nim", heaps=3, misere=True)
    rule = Rule(sp.Piecewise((sp.Eq(S("xor_all"), 1), sp.Le(S("max_all"), 1)), (sp.Eq(S("xor_all"), 0), True)),
                game.feature_names)
    strategy = Strategy(rule, game.move_relation(), [Branch((BitXor(HEAP, S("xor_all")),), per_heap=True),
                                                     Branch((sp.Mod(S("nonzero"), 2),), per_heap=True)])
    proof = prove_rule(rule, game, strategy, time_budget=120, methods=("z3",))  # Bouton's misère theorem aside
    assert proof.status == "proved", proof


def test_wythoff_by_the_pairs_theorem():
    game = make_game("wythoff")
    proof = prove_rule(Rule(WYTHOFF, ("a", "b")), game)
    assert proof.status == "proved"
    assert proof.method == "theorem: complementary mex pairs (Wythoff) and Beatty's theorem"
    assert "1/α + 1/β = 1" in proof.reason and "mex recurrence" in proof.reason
    assert "min(a, b) = ⌊φ·|a - b|⌋" in proof.reason and "Eq(" not in proof.reason  # the project's notation
    misere = prove_rule(Rule(WYTHOFF, ("a", "b")), make_game("wythoff", misere=True), time_budget=10)
    assert misere.status != "proved"  # the theorem is for normal play; the misere P set differs at (0, 0)


def test_unknown_with_a_reason():
    rule = Rule(sp.Eq(sp.Mod(S("n"), 3), 0), ("n",), target="grundy")
    assert "periodicity theorem" in prove_rule(rule, make_game("nim", heaps=1)).reason
    plain = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
    proof = prove_rule(Rule(sp.Eq(sp.Mod(S("a"), 3), 0), ("a",)), plain)
    assert proof.status == "unknown" and "no symbolic move relation" in proof.reason
    sorted_rule = Rule(sp.Eq(S("sorted2"), 0), ("a", "b", "c"))
    proof = prove_rule(sorted_rule, make_game("nim", heaps=3))
    assert proof.status == "unknown" and "sorted2" in proof.reason


def test_custom_game_with_a_relation_is_proved():
    moves = lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]]  # noqa: E731
    game = custom_game("take12", moves, 1, relation=take_from_one(1, (1, 2)))
    assert prove_rule(Rule(sp.Eq(sp.Mod(S("a"), 3), 0), ("a",)), game).status == "proved"
    lying = custom_game("take12", moves, 1, relation=take_from_one(1, (1, 3)))
    proof = prove_rule(Rule(sp.Eq(sp.Mod(S("a"), 3), 0), ("a",)), lying)
    assert proof.status == "unknown" and "disagrees" in proof.reason


def test_proof_record_and_bad_arguments():
    proof = prove_rule(Rule(sp.Eq(sp.Mod(S("n"), 4), 0), ("n",)), make_game("subtraction"), methods=("z3",))
    record = json.loads(proof.to_json())
    assert record["status"] == "proved" and record["statement"] == proof.statement
    assert [p["name"] for p in record["parts"]][-1] == "every N position has a move into P"
    with pytest.raises(ValueError, match="status"):
        Proof("probably", "", "")
    with pytest.raises(ValueError, match="at least 64"):
        prove_rule(Rule(sp.Eq(S("n"), 0), ("n",)), make_game("subtraction"), bits=32)
    with pytest.raises(TypeError, match="Game"):
        prove_rule(Rule(sp.Eq(S("n"), 0), ("n",)), "subtraction")
    game = make_game("nim", heaps=3)
    rule, strategy = nim_strategy(game)
    with pytest.raises(ValueError, match="strategy is for the moves"):
        prove_rule(rule, make_game("wythoff_nd", heaps=3), strategy)


def test_moore_by_moores_theorem_and_a_wrong_base_is_not():
    game = make_game("moore", heaps=4, k=2)
    proof = prove_rule(Rule(sp.Eq(S("dsum3_all"), 0), game.feature_names), game)
    assert proof.status == "proved" and proof.method.startswith("theorem: Moore's Nim_k")
    wrong = prove_rule(Rule(sp.Eq(S("dsum4_all"), 0), game.feature_names), game, time_budget=20)
    assert wrong.status in ("disproved", "unknown") and not wrong.method.startswith("theorem")
    assert prove_rule(Rule(sp.Eq(S("dsum3_all"), 0), game.feature_names), game, methods=("theorem",)).status == "proved"
    bouton = prove_rule(Rule(sp.Eq(S("xor_all"), 0), ("a", "b", "c")), make_game("nim"), methods=("theorem",))
    assert bouton.status == "proved" and "Bouton" in bouton.reason  # Nim is Moore's Nim_1
    misere = prove_rule(Rule(sp.Eq(S("xor_all"), 0), ("a", "b", "c")), make_game("nim", misere=True), time_budget=20)
    assert misere.status != "proved"  # the nim-sum rule is false in misère play: (1, 0, 0) is P
    only_theorem = prove_rule(Rule(sp.Eq(S("xor_all"), 0), ("a", "b", "c")), make_game("staircase", stairs=3),
                              methods=("theorem",))
    assert only_theorem.status == "unknown" and "not asked for" in only_theorem.reason


MISERE_NIM = sp.Piecewise((sp.Eq(S("xor_all"), 1), sp.Le(S("max_all"), 1)), (sp.Eq(S("xor_all"), 0), True))


@pytest.mark.parametrize("heaps", [2, 3, 5])
def test_misere_nim_by_boutons_theorem_on_any_number_of_heaps(heaps):
    game = make_game("nim", heaps=heaps, misere=True)
    proof = prove_rule(Rule(MISERE_NIM, game.feature_names), game, methods=("theorem",))
    assert proof.status == "proved" and proof.method == "theorem: Bouton's theorem for misère Nim", proof
    assert proof.statement == "for every position" and "exact search" in proof.reason and "Eq(" not in proof.reason
    swapped = sp.Piecewise((sp.Eq(1, S("xor_all")), sp.Ge(1, S("max_all"))), (sp.Eq(0, S("xor_all")), True))
    assert prove_rule(Rule(swapped, game.feature_names), game, methods=("theorem",)).status == "proved"


@pytest.mark.parametrize("game, expr", [
    (make_game("nim", heaps=3), MISERE_NIM),  # normal play: the rule is false there
    (make_game("nim", heaps=3, misere=True), sp.Piecewise((sp.Eq(S("xor_all"), 1), sp.Le(S("max_all"), 2)),
                                                          (sp.Eq(S("xor_all"), 0), True))),
    (make_game("nim", heaps=3, misere=True), sp.Eq(S("xor_all"), 0)),
    (make_game("wythoff", misere=True), MISERE_NIM),  # not Nim's moves
])
def test_boutons_misere_theorem_needs_its_hypotheses(game, expr):
    proof = prove_rule(Rule(expr, game.feature_names), game, methods=("theorem",))
    assert proof.status == "unknown" and "not asked for" in proof.reason


EUCLID = sp.Piecewise((True, sp.Eq(S("min_all"), 0)), (False, sp.Eq(S("spread"), 0)),
                      (S("max_all") <= sp.floor(sp.GoldenRatio * S("min_all")), True))


def test_euclid_by_cole_and_davies_theorem_without_z3():
    game = make_game("euclid")
    proof = prove_rule(Rule(EUCLID, ("a", "b")), game, methods=("theorem",))
    assert proof.status == "proved" and proof.method == "theorem: Cole and Davie's theorem on Euclid's game", proof
    assert "φ is irrational" in proof.reason and "exact search on every position up to 60" in proof.reason
    assert "Eq(" not in proof.reason  # the project's notation
    tail = sp.Piecewise((True, sp.Eq(0, S("min_all"))),  # "if a != b: ...; otherwise False", sides swapped
                        (S("max_all") <= sp.floor(sp.GoldenRatio * S("min_all")), sp.Ne(S("spread"), 0)),
                        (False, True))
    assert prove_rule(Rule(tail, ("a", "b")), game, methods=("theorem",)).status == "proved"


@pytest.mark.parametrize("expr", [
    sp.Piecewise((True, sp.Eq(S("min_all"), 0)), (False, sp.Eq(S("spread"), 0)),
                 (S("max_all") <= sp.floor(sp.Rational(8, 5) * S("min_all")), True)),  # 8/5 for φ
    sp.Piecewise((False, sp.Eq(S("spread"), 0)), (True, sp.Eq(S("min_all"), 0)),  # (0, 0) called N
                 (S("max_all") <= sp.floor(sp.GoldenRatio * S("min_all")), True)),
    sp.Piecewise((True, sp.Eq(S("min_all"), 0)), (S("max_all") <= sp.floor(sp.GoldenRatio * S("min_all")), True)),
])
def test_cole_and_davies_theorem_needs_the_rule_it_states(expr):
    proof = prove_rule(Rule(expr, ("a", "b")), make_game("euclid"), methods=("theorem",))
    assert proof.status == "unknown" and "not asked for" in proof.reason
    assert prove_rule(Rule(EUCLID, ("a", "b")), make_game("wythoff"), methods=("theorem",)).status == "unknown"


def test_a_reworded_certificate_changes_no_verdict(monkeypatch):
    """Verdicts read the parts' keys: every sentence reworded, the same statuses and the same failing part."""
    from discover.verdicts import PART_TEXT, CertificatePart, ProofStatus

    game = make_game("subtraction", subtract=(1, 2, 3))
    cases = [Rule(sp.Eq(sp.Mod(S("n"), 4), 0), ("n",)),  # proved
             Rule(sp.Eq(sp.Mod(S("n"), 4), 1), ("n",)),  # terminal 0 is P: breaks the terminal part
             Rule(sp.Eq(sp.Mod(S("n"), 2), 0), ("n",)),  # 2 -> 0 is a move from P to P
             Rule(sp.Eq(S("n"), 0), ("n",))]  # 4 is N by the rule with no move into P
    before = [prove_rule(rule, game, methods=("z3",)) for rule in cases]
    for key in CertificatePart:
        monkeypatch.setitem(PART_TEXT, key, f"part {key.value} in other words")
    after = [prove_rule(rule, game, methods=("z3",)) for rule in cases]
    assert [p.status for p in before] == [ProofStatus.PROVED] + [ProofStatus.DISPROVED] * 3
    assert [p.status for p in after] == [p.status for p in before]
    assert [p.parts[-1].key for p in after] == [p.parts[-1].key for p in before] == [
        CertificatePart.MOVE_INTO_P, CertificatePart.TERMINAL, CertificatePart.NO_P_TO_P, CertificatePart.MOVE_INTO_P]
    assert after[1].parts[-1].name == "part terminal in other words"


def test_a_proof_resting_on_a_given_relation_says_so_in_its_record():
    moves = lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]]  # noqa: E731
    game = custom_game("take12", moves, 1, relation=take_from_one(1, (1, 2)))
    record = prove_rule(Rule(sp.Eq(sp.Mod(S("a"), 3), 0), ("a",)), game, relation_bound=40).to_record()
    assert record["status"] == "proved" and record["rests_on"]["agrees_with_moves_up_to"] == 40
    assert record["rests_on"]["relation"] == take_from_one(1, (1, 2)).words()
    plain = prove_rule(Rule(sp.Eq(sp.Mod(S("n"), 4), 0), ("n",)), make_game("subtraction")).to_record()
    assert plain["rests_on"] == {}


def test_a_counterexample_of_the_relation_beyond_its_box_refutes_nothing():
    """Moves that change past heap 40 (take 1, 2 or 3 there), a relation stating take 1 or 2 checked up to 40 only:
    the game's true rule is refuted by the relation's periodicity theorem at 42, past the box, and is not disproved;
    a rule wrong inside the box still is."""
    moves = lambda p: [(p[0] - t,) for t in ((1, 2) if p[0] <= 40 else (1, 2, 3)) if t <= p[0]]  # noqa: E731
    game = custom_game("changes", moves, 1, relation=take_from_one(1, (1, 2)))
    n = S("n")
    true = Rule(sp.Piecewise((sp.Eq(sp.Mod(n, 3), 0), n <= 40), (sp.Eq(sp.Mod(n, 4), 3), True)), ("n",))
    proof = prove_rule(true, game, relation_bound=40)
    assert proof.status == "unknown" and "beyond the box" in proof.reason and proof.rests_on
    wrong = prove_rule(Rule(sp.Eq(sp.Mod(n, 3), 1), ("n",)), game, relation_bound=40)
    assert wrong.status == "disproved" and wrong.counterexample["position"] == (0,)



def test_a_bit_vector_proof_says_so_in_the_one_line_outcome():
    """A proof of the positions below 2^64 is "proved below 2^64" in ``Discovery.line``; one in unbounded integers
    has no bits and is "proved"."""
    from discover.discovery import Discovery

    game = make_game("subtraction", subtract=(1, 2))
    rule = Rule(sp.Eq(sp.Mod(S("n"), 3), 0), ("n",))
    everywhere = prove_rule(rule, game)
    assert everywhere.status == "proved" and everywhere.bits is None
    bounded = Proof("proved", "z3 closure certificate, 66-bit bit-vectors", "for every position with every "
                    "coordinate < 2^64", bits=64)
    found = Discovery(game, rule, "verified", 300, [rule], [], 30, 300, proof=bounded)
    assert found.line() == "verified on bound 300, proved below 2^64: P iff n mod 3 = 0"
    found.proof = everywhere
    assert found.line() == "verified on bound 300, proved: P iff n mod 3 = 0"
