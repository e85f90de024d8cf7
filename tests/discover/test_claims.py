"""Claims never exceed their evidence: the reading for any number of heaps (proved, verified on other numbers of
heaps, refuted, or a conjecture), a custom game's proof that rests on its relation, and a learned table's
coverage and accuracy against the solver beside the rule's training accuracy."""

from __future__ import annotations

import json

import sympy as sp

from discover.find import find_rule
from discover.generality import general_claim
from discover.learned import table_from_values
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from games import custom_game, make_game
from games.symbolic import take_from_one
from learners.registry import fit_learner


def _rule(name, game):
    return Rule(sp.Eq(sp.Symbol(name), 0), game.feature_names)


def test_a_reading_false_for_another_number_of_heaps_is_refuted_with_the_position():
    # the issue: moore heaps=3 k=2 printed "for any number of heaps: [largest - smallest] = 0"
    claim = general_claim(_rule("spread", make_game("moore", heaps=3, k=2)), make_game("moore", heaps=3, k=2))
    assert claim.status == "refuted"
    assert claim.counterexample == {"heaps": 2, "position": (1, 1), "rule": "P", "solver": "N"}
    assert claim.line().startswith("not for any number of heaps: ")


def test_a_reading_checked_on_other_numbers_of_heaps_says_so_and_is_not_called_proved():
    game = make_game("nim", heaps=3)
    claim = general_claim(_rule("xor_all", game), game)
    assert claim.status == "verified"
    assert "verified on 2, 4 and 5 heaps" in claim.evidence and "not proved" in claim.evidence


def test_moores_theorem_proves_the_reading_for_every_number_of_heaps():
    game = make_game("moore", heaps=4, k=2)
    rule = _rule("dsum3_all", game)
    proof = prove_rule(rule, game)
    assert proof.status == "proved"
    assert general_claim(rule, game, proof).status == "proved"
    assert general_claim(rule, game).status == "verified"  # without the proof: checked, not proved


def test_boutons_misere_theorem_proves_the_reading_for_every_number_of_heaps():
    game = make_game("nim", heaps=3, misere=True)
    rule = Rule(sp.Piecewise((sp.Eq(sp.Symbol("xor_all"), 1), sp.Le(sp.Symbol("max_all"), 1)),
                             (sp.Eq(sp.Symbol("xor_all"), 0), True)), game.feature_names)
    proof = prove_rule(rule, game)
    assert proof.status == "proved" and "misère Nim" in proof.method
    claim = general_claim(rule, game, proof)
    assert claim.status == "proved" and "Bouton's theorem for misère Nim" in claim.evidence
    assert general_claim(rule, game).status == "verified"  # without the proof: checked, not proved


def test_a_game_with_no_number_of_heaps_to_vary_gives_a_conjecture():
    game = custom_game("three", lambda p: [], 3)
    claim = general_claim(_rule("xor_all", game), game)
    assert claim.status == "conjecture" and "checked on 3 heaps only" in claim.evidence
    assert claim.line().startswith("conjecture for any number of heaps (checked on 3 heaps only")


def test_a_two_coordinate_game_without_heaps_gets_no_reading_for_more_heaps():
    game = make_game("wythoff")
    assert general_claim(_rule("spread", game), game) is None


def test_the_reading_is_in_the_discovery_record():
    found = find_rule(make_game("moore", heaps=3, k=2), bound=7, verify_bound=12, games=5, strategy=False,
                      prove=False)
    assert found.status == "verified"
    record = json.loads(json.dumps(found.to_record()))
    assert record["general"]["status"] == "refuted" and record["general"]["counterexample"]["heaps"] == 2


def _take12(limit=None):
    def moves(p):  # take 1 or 2; from `limit` up, taking 2 is not allowed any more
        return [(p[0] - t,) for t in (1, 2) if t <= p[0] and (t == 1 or limit is None or p[0] < limit)]
    return custom_game("take12", moves, 1, relation=take_from_one(1, (1, 2)))


def test_a_proof_of_a_custom_game_says_it_rests_on_the_relation_and_where_they_agree():
    rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 3), 0), ("n",))
    proof = prove_rule(rule, _take12(), relation_bound=1000)
    assert proof.status == "proved"
    assert proof.statement.endswith('for the moves of the relation "subtract t·v (t in {1, 2}, every coordinate '
                                    'staying ≥ 0) for v in 1", which agrees with moves() on every position up to 1,000')


def test_a_relation_that_disagrees_with_moves_beyond_the_small_box_is_caught_on_the_verification_bound():
    rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 3), 0), ("n",))
    assert prove_rule(rule, _take12(limit=500)).status == "proved"  # the small box alone misses it
    proof = prove_rule(rule, _take12(limit=500), relation_bound=1000)
    assert proof.status == "unknown"
    assert proof.line() == ("proof: unknown (the game's symbolic move relation disagrees with its moves(): the "
                            "relation allows (500,) → (498,), which moves() does not give)")


def test_a_rule_from_a_learned_table_carries_the_tables_coverage_and_accuracy():
    game = make_game("nim", heaps=2)
    table = table_from_values(fit_learner("q", game, bound=3, games=3000).value_table_)
    learned = table.provenance["learned"]
    assert learned["positions"] == 16 and 0 < learned["labelled"] <= 16
    assert learned["coverage"] == learned["labelled"] / 16
    assert learned["solver_accuracy"] == learned["correct"] / learned["labelled"]
    found = find_rule(game, table=table, verify_bound=10, min_accuracy=0.95, games=5, strategy=False, prove=False)
    assert found.rule.provenance["learned"] == learned
    assert json.loads(found.rule.to_json())["provenance"]["learned"] == learned


def test_the_cli_prints_the_reading_with_its_evidence(cli):
    code, out, err = cli("moore", "heaps=3", "k=2", "--bound", "7", "--verify-bound", "12", "--no-proof")
    assert code == 0 and err == ""
    assert ("  not for any number of heaps: [the largest minus the smallest coordinate] = 0 (on 2 heaps, (1, 1) is N "
            "but the statement says P)") in out.splitlines()
    assert "\n  for any number of heaps" not in out


def test_the_cli_prints_a_learned_tables_coverage_and_accuracy(cli):
    code, out, err = cli("nim", "heaps=2", "--from", "q", "--bound", "3", "--episodes", "3000", "--no-proof",
                         "--verify-bound", "10")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("  learned table: "))
    assert "of 16 positions labelled (coverage" in line and "as the solver says (accuracy" in line
