"""A custom game's relation inferred by ``find_rule``: used by strategy and proof, never a claim about ``moves()``
beyond the box on which it was checked; a relation given by the user wins; inference can be turned off."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from discover.find import INFERENCE_TIMING, FindSettings, find_rule
from discover.relation_inference import relation_line, with_inferred_relation
from discover.rule import Rule
from games import custom_game, make_game
from games.symbolic import take_from_one
from solvers import solve
from solvers.graph_store import keep_graphs

SMALL = FindSettings(bound=30, verify_bound=300, games=10, proof_seconds=20)


def take12_then_3(p):
    """Take 1 or 2; from n >= 5000 also 3 (then n mod 3 = 0 is no longer P: 5001 → 4998)."""
    return [(p[0] - t,) for t in (1, 2, 3) if t <= p[0] and (t < 3 or p[0] >= 5000)]


def test_moves_that_change_beyond_the_box_are_never_called_proved_for_moves_itself():
    game = custom_game("take12-then-3", take12_then_3, 1)
    found = find_rule(game, settings=SMALL)
    assert found.status == "verified" and found.verified_bound == 300 and found.rule.text() == "a mod 3 = 0"
    assert found.game.move_relation() == take_from_one(1, (1, 2)) and found.game.relation_inferred_on == 300
    assert found.timings[INFERENCE_TIMING] > 0  # the inference's seconds have a name of their own
    proof = found.proof
    assert proof.status == "proved" and proof.statement != "for every position"
    assert proof.statement.endswith('for the moves of the relation "subtract t·v (t in {1, 2}, every coordinate '
                                    'staying ≥ 0) for v in 1", which agrees with moves() on every position up to 300')
    # and the rule is indeed false for moves() itself beyond the box: 5001 is N (take 3 to 4998)
    beyond = solve(game, bound=5001)
    assert beyond.outcome_table[5001] == 1 and found.rule.predicate(np.array([[5001]]))[0]
    record = json.loads(json.dumps(found.to_record()))
    assert record["relation"] == {"words": take_from_one(1, (1, 2)).words(), "relation": {
        "kind": "Steps", "vectors": [[1]], "amounts": [1, 2]}, "inferred_on": 300, "source": "inferred from moves()"}
    assert record["proof"]["statement"].endswith("up to 300")


def test_a_relation_given_by_the_user_wins_and_inference_can_be_turned_off():
    given = custom_game("take12", take12_then_3, 1, relation=take_from_one(1, (1, 2)))
    with keep_graphs():
        assert with_inferred_relation(given, 100) == (given, None)
        assert with_inferred_relation(make_game("nim", heaps=2), 10)[0].move_relation() == take_from_one(2)
    assert relation_line(given).endswith("(given with moves(), checked against it by the proof)")
    off = find_rule(custom_game("take12", take12_then_3, 1),
                    settings=FindSettings(bound=30, verify_bound=300, games=10, infer_relation=False))
    assert off.game.move_relation() is None and off.proof.status == "unknown" and INFERENCE_TIMING not in off.timings
    assert off.to_record()["relation"] is None


@pytest.mark.parametrize("moves, dims, text", [
    (lambda p: [(p[0] - t, p[1]) for t in (1, 2) if t <= p[0]] + [(p[0], p[1] - t) for t in (1, 2) if t <= p[1]]
     + [(p[0] - 1, p[1] - 1)] * (min(p) > 0), 2, "(a + b) mod 3 = 0"),
    (lambda p: [(p[0] - t,) for t in range(1, p[0] + 1, 2)], 1, "a mod 2 = 0"),
])
def test_an_inferred_relation_gives_a_strategy_and_a_proof(moves, dims, text):
    found = find_rule(custom_game("g", moves, dims), settings=FindSettings(bound=12 if dims == 2 else 30,
                                                                           verify_bound=40 if dims == 2 else 300,
                                                                           games=10, proof_seconds=20))
    assert found.status == "verified" and found.rule.text() == text
    assert found.strategy is not None and found.strategy.relation == found.game.move_relation()
    n = found.game.universe(found.strategy.checked_bound).positions()
    n = n[~found.rule.predicate(n)]
    assert found.rule.predicate(found.strategy.moves(n)).all()
    assert found.proof.status == "proved" and "which agrees with moves() on every position up to" in found.proof.statement


def powers_of_two(p):
    return [(p[0] - (1 << k),) for k in range(p[0].bit_length()) if 1 << k <= p[0]]


def test_powers_are_proved_by_their_residues_and_a_coarse_bracket_proves_nothing(monkeypatch):
    """Subtract a power of 2: P iff n mod 3 = 0 is proved (by mex induction, first) and, by z3 alone, with the powers
    above 2^62 stated by their residues modulo 3 (never 0); stated by none (modulus 1: any large amount), z3 finds a
    move from P to P by an amount that is no power, which is "unknown", never a disproof."""
    import discover.proofs.moves_smt
    from discover.proofs.prove import prove_rule

    found = find_rule(custom_game("powers", powers_of_two, 1), settings=SMALL)
    assert found.rule.text() == "a mod 3 = 0" and found.proof.status == "proved"
    assert found.proof.statement.endswith("up to 300")
    by_z3 = prove_rule(found.rule, found.game, relation_bound=300, methods=("z3",))
    assert by_z3.status == "proved" and "residues modulo 3" in by_z3.method and by_z3.statement.endswith("up to 300")
    monkeypatch.setattr(discover.proofs.moves_smt, "residue_modulus", lambda *exprs: 1)
    coarse = prove_rule(found.rule, found.game, relation_bound=300, methods=("z3",))
    assert coarse.status == "unknown" and "not exactly" in coarse.reason


@pytest.mark.slow
def test_a_relation_is_inferred_again_on_the_bound_a_grown_table_is_verified_on():
    """Subtract 1, 3, 4 or 180: the period 183 shows only on a grown table, verified on 19,200; the relation (first
    inferred on 300) is inferred again there, and the proof rests on that box."""
    found = find_rule(custom_game("s180", lambda p: [(p[0] - t,) for t in (1, 3, 4, 180) if t <= p[0]], 1),
                      settings=FindSettings(games=10, proof_seconds=30))
    assert "a mod 183" in found.rule.text() and found.verify_bound == found.game.relation_inferred_on == 19_200
    assert found.proof.status == "proved" and found.proof.rests_on["agrees_with_moves_up_to"] == 19_200
