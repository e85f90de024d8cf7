"""Sums of components: Grundy formulas composed by the Sprague-Grundy theorem (``discover.composition``)."""

import itertools

import numpy as np
import pytest
import sympy as sp

from discover.composition import SumStrategy, _strategy_check, components, compose
from discover.find import find_rule
from discover.find_settings import FindSettings
from discover.rule import Rule
from games import make_game
from games.declared import declared_game
from solvers import solve

SMALL = {"bound": 6, "verify_bound": 20, "games": 10}


def bounded(heaps=3, top=3):
    return declared_game({"name": f"bounded{heaps}", "heaps": heaps, "moves": [{"take": {"min": 1, "max": top}}]})


def test_components_of_sums_and_of_other_games():
    parts = components(bounded())
    assert len(parts) == 3 and parts[0] is parts[1] is parts[2]
    assert parts[0].moves((5,)) == [(4,), (3,), (2,)]
    mixed = declared_game({"name": "mixed", "heaps": 2, "moves": [{"take": [1, 3, 4], "from": [[1]]},
                                                                   {"take": [1, 2], "from": [[2]]}]})
    first, second = components(mixed)
    assert first.moves((4,)) == [(3,), (1,), (0,)] and second.moves((4,)) == [(3,), (2,)]
    assert components(make_game("lasker")) == (make_game("lasker"),)
    assert components(make_game("nim", heaps=3)) is None and compose(make_game("nim", heaps=3)) is None  # Bouton's
    for other in (make_game("wythoff"), make_game("subtraction"), make_game("moore", heaps=3, k=2),
                  declared_game({"name": "both", "heaps": 2, "moves": [{"take": 1}, {"take": 1, "from": "all"}]}),
                  declared_game({"name": "m", "heaps": 2, "misere": True, "moves": [{"take": [1, 2]}]})):
        assert components(other) is None, other


def test_bounded_nim_is_composed_and_proved():
    found = compose(bounded(), **SMALL)
    assert found.status == "verified" and found.rule.text() == "(a mod 4) ⊕ (b mod 4) ⊕ (c mod 4) = 0"
    assert found.proof.status == "proved" and found.proof.statement == "for every position"
    assert "Sprague-Grundy" in found.proof.reason and "periodicity of subtraction games" in found.proof.reason
    assert found.strategy_check.passed and found.strategy.checked_bound == 20
    box = np.array(list(itertools.product(range(9), repeat=3)))
    truth = solve(bounded(), bound=8).outcome(box) == -1
    assert np.array_equal(found.rule.predicate(box), truth)
    assert Rule.from_json(found.rule.to_json()).text() == found.rule.text()


def test_mixed_sum_and_nim_components():
    mixed = declared_game({"name": "mixed", "heaps": 3, "moves": [{"take": [1, 3, 4], "from": [[1]]},
                                                                  {"take": "any", "from": [[2]]},
                                                                  {"take": [2, 5], "from": [[3]]}]})
    found = compose(mixed, **SMALL)
    assert found.status == "verified" and found.proof.status == "proved"
    assert "every smaller heap is an option" in found.proof.reason
    box = np.array(list(itertools.product(range(12), repeat=3)))
    assert np.array_equal(found.rule.predicate(box), solve(mixed, bound=11).outcome(box) == -1)


def test_arithmetic_periodic_component_is_proved_by_mex_induction():
    found = compose(make_game("lasker"), verify_bound=60, games=10)
    assert found.status == "verified" and found.rule.target == "grundy"
    assert found.proof.status == "proved" and "mex induction" in found.proof.reason
    assert found.rule.evaluate(np.arange(9)[:, None]).tolist() == [0, 1, 2, 4, 3, 5, 6, 8, 7]
    move = found.strategy.move((3, 5, 9))  # G: 4 ⊕ 5 ⊕ 9 = 8: heap 9 becomes heaps of value 1
    assert move is not None and found.strategy._value(move) == 0 and move[:2] == (3, 5)
    assert found.strategy.move((1, 1)) is None and found.strategy.move((2, 5, 6, 1)) is None  # 2 ⊕ 5 ⊕ 6 ⊕ 1 = 0
    assert found.strategy._value(found.strategy.move((1, 2, 3))) == 0


def test_a_wrong_strategy_fails_its_check():
    game = bounded(2)
    wrong = Rule(sp.Mod(sp.Symbol("n"), 3), ("n",), "grundy")
    check = _strategy_check(SumStrategy((wrong, wrong), components(game)), game, solve(game, bound=10), 0)
    assert not check.passed and check.counterexample is not None


@pytest.mark.parametrize("make", [bounded, lambda: make_game("lasker")])
def test_find_rule_takes_the_composition(make):
    found = find_rule(make(), settings=FindSettings(verify_bound=40, games=10))
    assert found.status == "verified" and found.strategy_check.passed
    assert found.proof.method.startswith("theorem: Sprague-Grundy")
    record = found.to_record()
    assert record["proof"]["status"] == found.proof.status and record["strategy"]["checked_bound"] == 40


def test_a_custom_sum_without_a_relation_is_proved_for_its_inferred_relation_only():
    """Bounded Nim written as moves(): its relation is inferred on the verification box, the components' formulas
    composed, and the proof rests on the relation and names the box; moves() that add a move beyond the box
    change nothing in what is said (never a proof for moves() itself)."""
    from games import custom_game

    def moves(p, far=10**9):
        return [p[:i] + (p[i] - t,) + p[i + 1:] for i in range(3) for t in (1, 2, 3, 4) if t <= p[i]
                and (t < 4 or p[i] >= far)]

    for game in (custom_game("bounded3", moves, dims=3),
                 custom_game("bounded3-far", lambda p: moves(p, far=21), dims=3)):
        found = find_rule(game, verify_bound=20, games=4)
        assert found.road == "Grundy composition" and found.rule.text() == "(a mod 4) ⊕ (b mod 4) ⊕ (c mod 4) = 0"
        assert found.proof.status == "proved" and found.proof.rests_on["agrees_with_moves_up_to"] == 20
        assert found.proof.statement.endswith("which agrees with moves() on every position up to 20")
        assert found.strategy is not None


@pytest.mark.parametrize("relation, rule", [
    ("half", "floor(OddPart(n + 1) / 2)"),  # Levine's recursion for taking at most half
    ("any", "n"),  # every smaller heap is an option
])
def test_a_custom_components_proof_rests_on_its_relation_checked_against_its_moves(relation, rule):
    """Moves that keep to the relation up to heap 50 only (at most 3 tokens taken past it): proved on the heaps up
    to 30 for the relation's moves, and saying so; on heaps up to 60 the disagreement is found and nothing proved."""
    from discover.composition import component_proof
    from games import custom_game
    from games.symbolic import TakeUpTo, take_from_one

    top = (lambda h: h // 2) if relation == "half" else (lambda h: h)
    moves = lambda p: [(p[0] - t,) for t in range(1, top(p[0]) + 1) if p[0] <= 50 or t <= 3]  # noqa: E731
    stated = TakeUpTo(((1,),), 1, 2) if relation == "half" else take_from_one(1)
    game = custom_game(f"liar-{relation}", moves, 1, relation=stated)
    grundy = Rule(rule, ("n",), "grundy")
    status, _, why, _ = component_proof(grundy, game, np.zeros(31, dtype=np.int64))
    assert status == "proved" and why.endswith("which agrees with moves() on every position up to 30")
    status, _, why, _ = component_proof(grundy, game, np.zeros(61, dtype=np.int64))
    assert status == "unknown" and "disagrees with moves()" in why
