"""The residues engine: rules periodic in each coordinate with one guarded branch, found, verified, proved;
near misses never verified or proved."""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.engines.residues import ResidueEngine, residue_member
from discover.find import FindSettings, find_rule
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.table import table_from_solution
from discover.verify import verify_rule
from games import custom_game
from games.declared import declared_game
from solvers import solve

a, b, min_all, max_all = sp.symbols("a b min_all max_all")
SPEC = {"name": "t13or1both", "heaps": 2, "moves": [{"take": {"min": 1, "max": 3}}, {"take": 1, "from": "all"}]}
EXPECTED = sp.Piecewise(
    (sp.Eq(sp.Mod(max_all, 4), 0), sp.Eq(min_all, 0)),
    (sp.Or(*[sp.And(sp.Eq(sp.Mod(a, 4), i), sp.Eq(sp.Mod(b, 4), j)) for i, j in ((1, 2), (2, 1), (3, 3))]), True))


def truth(a, b) -> bool:
    """The rule of "take 1 to 3 from one heap, or 1 from both", as the issue states it."""
    if min(a, b) == 0:
        return max(a, b) % 4 == 0
    return (a % 4, b % 4) in {(1, 2), (2, 1), (3, 3)}


def _fit(game, bound, **params):
    table = table_from_solution(solve(game, bound=bound))
    return ResidueEngine(**params).fit(table.X, table.y("P"), feature_names=table.feature_names)


def test_the_stated_rule_is_the_solvers_on_bound_120():
    solution = solve(declared_game(SPEC), bound=120)
    positions = solution.universe.positions()
    assert np.array_equal([truth(*p) for p in positions], solution.outcome_table == -1)


def test_the_engine_finds_the_guarded_residue_table():
    best = _fit(declared_game(SPEC), 30).candidates_[0]
    assert best.exact and best.expr == EXPECTED
    assert Rule(best.expr, ("a", "b")).text() == (
        "if min(a, b) = 0: (max(a, b)) mod 4 = 0; otherwise (a mod 4 = 1 and b mod 4 = 2) or "
        "(a mod 4 = 2 and b mod 4 = 1) or (a mod 4 = 3 and b mod 4 = 3)")


def test_find_rule_verifies_and_proves_it():
    found = find_rule(declared_game(SPEC), settings=FindSettings(verify_bound=120, games=4, strategy=False))
    assert found.status == "verified" and found.verified_bound == 120
    assert found.rule.expr == EXPECTED and found.rule.provenance["engine"] == "residues"
    assert found.proof.status == "proved"


def test_a_product_of_residues_without_guard():
    game = custom_game("s2x3", lambda p: [q for q in ((p[0] - 1, p[1]), (p[0], p[1] - 1), (p[0], p[1] - 2))
                                           if min(q) >= 0], 2)  # a sum of "take 1" and "take 1 or 2"
    best = _fit(game, 20).candidates_[0]  # Grundy values a mod 2 and b mod 3: P iff they are equal
    assert best.expr == sp.Or(sp.And(sp.Eq(sp.Mod(a, 2), 0), sp.Eq(sp.Mod(b, 3), 0)),
                              sp.And(sp.Eq(sp.Mod(a, 2), 1), sp.Eq(sp.Mod(b, 3), 1)))


def test_no_candidate_where_no_residue_table_holds():
    nim = custom_game("nim2", lambda p: [(p[0] - t, p[1]) for t in range(1, p[0] + 1)]
                      + [(p[0], p[1] - t) for t in range(1, p[1] + 1)], 2)
    assert _fit(nim, 20).candidates_ == []


def test_a_one_coordinate_or_grundy_table_is_left_alone():
    X = np.arange(40)[:, None]
    assert ResidueEngine().fit(X, X[:, 0] % 4 == 0, feature_names=["n"]).candidates_ == []
    grundy = ResidueEngine().fit(np.zeros((4, 2), int), np.arange(4), feature_names=["a", "b"], target="grundy")
    assert grundy.candidates_ == [] and "P tables only" in grundy.notes_[0]


def test_residue_member_forms():
    assert residue_member((a, b), (4, 1), [(1, 0), (3, 0)]) == sp.Contains(sp.Mod(a, 4), sp.FiniteSet(1, 3))
    assert residue_member((a, b), (2, 2), [(0, 0), (0, 1), (1, 0)]) == sp.Not(
        sp.And(sp.Eq(sp.Mod(a, 2), 1), sp.Eq(sp.Mod(b, 2), 1)))
    assert residue_member((a, b), (3, 3), []) is sp.false


def test_a_move_planted_inside_the_verification_bound_refutes_the_table():
    declared = declared_game(SPEC)

    def moves(p):  # the declared moves, and one more from (41, 42), a P position, to (0, 0)
        return declared.moves(p) + ([(0, 0)] if tuple(p) == (41, 42) else [])

    found = find_rule(custom_game("planted", moves, 2), settings=FindSettings(
        bound=30, verify_bound=60, engines=["residues"], games=0, prove=False, strategy=False))
    assert found.status == "refuted"
    assert not next(c for c in found.checks if c.name == "agreement with the solver").passed


def test_an_exception_planted_beyond_the_bound_is_not_proved():
    game = declared_game(SPEC)
    planted = sp.And(sp.Eq(a, 1001), sp.Eq(b, 1001))  # (1, 1) mod 4: N, called P here
    rule = Rule(sp.Piecewise((sp.true, planted), *EXPECTED.args), ("a", "b"))
    assert all(c.passed for c in verify_rule(rule, game, 120, games=0, play=False))
    proof = prove_rule(rule, game, time_budget=30)
    assert proof.status in ("disproved", "unknown"), proof
    if proof.status == "disproved":
        found = proof.counterexample
        points = [found["position"]] + ([found["move_to"]] if "move_to" in found else [])
        assert any(rule.predicate(np.array([p]))[0] != truth(*p) for p in points)
