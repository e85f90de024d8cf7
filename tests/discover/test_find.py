"""``find_rule`` as an API: its signature and result, ``Rule`` round trips and evaluation,
seeded determinism, bad input, engine choice, and custom games nobody named."""

from __future__ import annotations

import inspect
import json
import shutil

import numpy as np
import pytest
import sympy as sp

from discover.engines import ENGINES, make_engine
from discover.bounds import VERIFY_POSITIONS
from discover.find import Discovery, FindSettings, default_bound, default_verify_bound, find_rule
from discover.rule import Rule
from discover.table import table_from_solution
from discover.verify import Check
from games import custom_game, make_game
from solvers import solve
from tests.discover.test_catalogue import agrees_with_solver, discovered


# -- signature and result ---------------------------------------------------------------------


def test_signature():
    params = inspect.signature(find_rule).parameters
    assert list(params)[:5] == ["game", "bound", "verify_bound", "engines", "seed"]
    assert [params[p].default for p in ("bound", "verify_bound", "engines", "seed")] == [None, None, None, 0]


def test_result_fields_and_record():
    found = discovered("subtraction", subtract=(1, 3, 4))
    assert isinstance(found, Discovery) and isinstance(found.rule, Rule)
    assert found.status == "verified" and found.verified_bound == 300 and found.train_bound == 30
    assert found.candidates and all(isinstance(r, Rule) for r in found.candidates)
    assert str(found.rule.expr) in {str(r.expr) for r in found.candidates}
    ranks = [(-r.train_accuracy, r.complexity) for r in found.candidates]
    assert ranks == sorted(ranks)
    assert found.checks and all(isinstance(c, Check) and c.line().startswith("✓") for c in found.checks)
    assert found.rule.provenance["engine"] == "sequence" and found.rule.provenance["bound"] == 30
    assert found.rule.provenance["seed"] == 0 and found.rule.provenance["game"] == found.game.spec()
    record = json.loads(json.dumps(found.to_record()))
    assert record["status"] == "verified" and record["verified_bound"] == 300
    assert Rule.from_json(record["rule"]).text() == "n mod 7 ∈ {0, 2}"
    assert [c["passed"] for c in record["checks"]] == [True] * len(found.checks)


def test_progress_is_called_with_each_stage():
    messages = []
    find_rule(make_game("subtraction", subtract=(1, 2)), progress=messages.append)
    assert any(m.startswith("solving") for m in messages)
    assert any(m.startswith("engine") for m in messages)
    assert any(m.startswith("verifying") for m in messages)


def test_a_given_table_sets_the_training_bound():
    game = make_game("subtraction", subtract=(1, 2, 3))
    found = find_rule(game, table=table_from_solution(solve(game, bound=20)))
    assert found.train_bound == 20 and found.verified_bound == 200 and found.rule.text() == "n mod 4 = 0"


# -- Rule: JSON round trip, predicate, evaluate ------------------------------------------------


@pytest.mark.parametrize(
    "name, params",
    [("wythoff", {}), ("nim", {"heaps": 3, "misere": True}), ("subtraction", {"subtract": (1, 3, 4)}), ("lasker", {})],
    ids=["wythoff", "misere-nim", "subtraction", "lasker"],
)
def test_rule_json_round_trip(name, params):
    rule = discovered(name, **params).rule
    back = Rule.from_json(rule.to_json())
    assert back.expr == rule.expr and back.text() == rule.text() and back.latex() == rule.latex()
    assert (back.target, back.feature_names, back.words) == (rule.target, rule.feature_names, rule.words)
    assert back.train_accuracy == rule.train_accuracy and back.provenance == rule.provenance
    positions = np.random.default_rng(0).integers(0, 1000, size=(5000, len(rule.feature_names)))
    assert np.array_equal(back.predicate(positions), rule.predicate(positions))
    if rule.target == "grundy":
        assert np.array_equal(back.evaluate(positions), rule.evaluate(positions))
    assert Rule.from_json(json.loads(rule.to_json())).expr == rule.expr  # a parsed dict reads too


@pytest.mark.parametrize("text", ["", "{}", "[1, 2]", '{"expr": "Eq(", "feature_names": ["a"]}'])
def test_from_json_refuses_what_is_not_a_rule(text):
    with pytest.raises(ValueError, match="not a rule record"):
        Rule.from_json(text)


def test_predicate_takes_an_n_by_dims_array():
    rule = discovered("wythoff").rule
    out = rule.predicate(np.array([[0, 0], [1, 2], [2, 1], [3, 5], [1, 1], [4, 7]]))
    assert out.dtype == bool and out.tolist() == [True, True, True, True, False, True]
    assert rule.predicate(np.zeros((0, 2), dtype=np.int64)).shape == (0,)
    with pytest.raises(ValueError, match="shape"):
        rule.predicate(np.array([1, 2]))


def test_evaluate_is_for_grundy_rules():
    lasker = discovered("lasker").rule
    n = np.arange(13)[:, None]
    assert lasker.evaluate(n).tolist() == [0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11]
    assert lasker.predicate(n).tolist() == [True] + [False] * 12  # P iff Grundy value 0
    with pytest.raises(ValueError, match="predicate"):
        discovered("wythoff").rule.evaluate(np.array([[1, 2]]))


# -- determinism ------------------------------------------------------------------------------


def test_same_seed_same_result():
    # Grundy's game on bound 30 runs every default engine, the randomised ones included.
    game = make_game("grundy_game")
    first, second = (find_rule(game, bound=30, seed=0) for _ in range(2))
    assert first.status == second.status
    assert (first.rule and first.rule.text()) == (second.rule and second.rule.text())
    assert first.best_partial.text() == second.best_partial.text()
    assert [r.text() for r in first.candidates] == [r.text() for r in second.candidates]


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3"])
def test_bad_bounds(bad):
    game = make_game("subtraction", subtract=(1, 2))
    with pytest.raises(ValueError, match="bound must be a positive integer"):
        find_rule(game, bound=bad)
    with pytest.raises(ValueError, match="verify_bound must be a positive integer"):
        find_rule(game, bound=10, verify_bound=bad)


def test_verify_bound_below_the_training_bound():
    with pytest.raises(ValueError, match=r"verify_bound \(9\) must be at least the training bound \(10\)"):
        find_rule(make_game("subtraction", subtract=(1, 2)), bound=10, verify_bound=9)


def test_not_a_game():
    with pytest.raises(TypeError, match="takes a Game"):
        find_rule("nim")


def test_unknown_engine_names_the_choices():
    game = make_game("subtraction", subtract=(1, 2))
    with pytest.raises(ValueError, match="unknown engine 'magic'") as err:
        find_rule(game, engines=["magic"])
    assert all(name in str(err.value) for name in ENGINES)
    with pytest.raises(ValueError, match="did you mean enumeration\\? the engines: sequence") as err:
        find_rule(game, engines=["sequence", "enumerat"])
    assert all(name in str(err.value) for name in ENGINES)


@pytest.mark.skipif(shutil.which("julia") is not None, reason="Julia is installed: PySR can run")
def test_pysr_without_julia_names_the_alternative():
    with pytest.raises(ValueError, match="needs Julia.*operon"):
        find_rule(make_game("subtraction", subtract=(1, 2)), engines=["pysr"])


def test_engines_are_used_as_asked():
    found = find_rule(make_game("nim", heaps=3), engines=["enumeration"])
    assert found.status == "verified" and found.rule.text() == "a ⊕ b ⊕ c = 0"
    assert {r.provenance["engine"] for r in found.candidates} == {make_engine("enumeration").name}


# -- default bounds ---------------------------------------------------------------------------


@pytest.mark.parametrize("heaps, bound, verify", [(2, 30, 300), (3, 15, 124), (4, 7, 36), (5, 3, 17)])
def test_default_bounds_verify_nim_tenfold_within_the_budget(heaps, bound, verify):
    """Tenfold while the box fits ``VERIFY_POSITIONS``, else the largest box that fits (the strategy check's)."""
    game = make_game("nim", heaps=heaps)
    assert default_bound(game) == bound
    assert default_verify_bound(game, bound) == verify
    assert (verify + 1) ** heaps <= VERIFY_POSITIONS < (verify + 2) ** heaps or verify == 10 * bound


# -- custom games: every stage works on a game nobody named -----------------------------------


def take_one_or_two(position):
    """The subtraction game {1, 2}, written by hand."""
    (n,) = position
    return [(n - t,) for t in (1, 2) if t <= n]


def king_moves(position):
    """A king in the corner game: one step left, down, or diagonally down-left."""
    a, b = position
    return [(x, y) for x, y in ((a - 1, b), (a, b - 1), (a - 1, b - 1)) if x >= 0 and y >= 0]


def test_custom_one_dimensional_game():
    game = custom_game("take-1-or-2", take_one_or_two, dims=1)
    found = find_rule(game)
    assert found.status == "verified" and found.verified_bound == 300
    n = np.arange(10_000)[:, None]
    assert np.array_equal(found.rule.predicate(n), n[:, 0] % 3 == 0)
    assert agrees_with_solver(found.rule, game, found.verified_bound)


def test_custom_two_dimensional_game():
    game = custom_game("corner-the-king", king_moves, dims=2)
    found = find_rule(game)
    assert found.status == "verified" and found.verified_bound >= 10 * found.train_bound
    assert agrees_with_solver(found.rule, game, found.verified_bound)
    positions = np.random.default_rng(1).integers(0, 10**6, size=(20000, 2))
    assert np.array_equal(found.rule.predicate(positions), (positions % 2 == 0).all(axis=1))  # both even


def test_the_custom_game_docstring_example_gets_a_strategy_and_a_proof():
    from games.symbolic import take_from_one

    game = custom_game("take12", take_one_or_two, 1, relation=take_from_one(1, (1, 2)))
    found = find_rule(game)
    assert found.status == "verified" and found.strategy is not None and found.strategy.checked_bound >= 300
    assert found.proof.status == "proved" and "agrees with moves() on every position up to 300" in found.proof.statement


def test_a_custom_game_without_a_relation_gets_a_strategy_and_no_proof():
    settings = FindSettings(bound=10, verify_bound=60, games=20, infer_relation=False)
    found = find_rule(custom_game("corner-the-king", king_moves, dims=2), settings=settings)
    assert found.status == "verified" and found.strategy is not None
    solution = solve(found.game, bound=found.strategy.checked_bound)
    n = solution.universe.positions(np.flatnonzero(solution.outcome_table == 1))
    assert (solution.outcome(found.strategy.moves(n)) == -1).all()
    assert found.proof.status == "unknown" and "no symbolic move relation" in found.proof.reason


def knight_moves(position):
    """One knight's step towards the corner: (2, 1) or (1, 2) down-left."""
    a, b = position
    return [(a - x, b - y) for x, y in ((2, 1), (1, 2)) if a >= x and b >= y]


@pytest.mark.slow
def test_a_custom_knight_with_a_steps_relation_proves():
    from games.symbolic import Steps

    game = custom_game("knight", knight_moves, 2, relation=Steps(((2, 1), (1, 2)), (1,)))
    found = find_rule(game, bound=15, verify_bound=60, games=20)
    assert found.status == "verified" and found.strategy is not None
    assert found.proof.status == "proved" and "z3" in found.proof.method, found.proof.line()
    assert "agrees with moves() on every position up to 60" in found.proof.statement


def test_custom_rule_reads_back():
    found = find_rule(custom_game("take-1-or-2", take_one_or_two, dims=1))
    back = Rule.from_json(found.rule.to_json())
    assert back.expr == found.rule.expr and back.provenance["game"]["custom"] is True
    assert sp.Symbol(found.rule.feature_names[0]) in back.expr.free_symbols


def test_a_verified_rule_comes_with_its_strategy_and_proof():
    from discover import Strategy

    game = make_game("subtraction", subtract=(1, 2, 3))
    found = find_rule(game, games=10)
    assert found.proof.status == "proved" and found.proof.statement == "for every position"
    assert [found.strategy.move((n,)) for n in (5, 6, 7)] == [(4,), (4,), (4,)]
    record = json.loads(json.dumps(found.to_record()))
    assert {"status", "method", "statement", "counterexample", "seconds", "reason"} <= set(record["proof"])
    assert Strategy.from_json(record["strategy"]).move((9,)) == (8,)
    bare = find_rule(game, games=10, strategy=False, prove=False)
    assert bare.strategy is None and bare.proof is None and bare.to_record()["proof"] is None
    with pytest.raises(ValueError, match="proof_seconds must be positive"):
        find_rule(game, proof_seconds=0)


def test_engine_notes_reach_the_discovery_and_the_record():
    found = find_rule(make_game("nim", heaps=1), engines=["operon"])
    assert found.status == "none" and any("this table has one coordinate" in n for n in found.notes)
    assert found.to_record()["notes"] == found.notes


# -- a rule and its strategy are judged apart -------------------------------------------------


def test_a_true_rule_with_a_losing_strategy_stays_verified_and_proved(monkeypatch):
    import discover.strategy_trial as strategy_trial
    from discover.strategy import Branch, Strategy

    game = make_game("nim", heaps=2)
    a, b = sp.symbols("a b")

    def weak(rule, game, seed, timings, notes, say, verify):  # always take one from heap a: legal, rarely winning
        return Strategy(rule, game.move_relation(), [Branch((a - 1, b))], checked_bound=verify)

    monkeypatch.setattr(strategy_trial, "winning_moves", weak)
    found = find_rule(game, bound=6, verify_bound=40, engines=["enumeration"], games=20)
    assert found.status == "verified" and found.rule.text() == "a = b"
    assert all(c.passed for c in found.checks) and [c.name for c in found.checks][-1] == "self-play"
    played = found.strategy_check
    assert played.name == "strategy self-play" and not played.passed and "lost" in played.detail
    assert any("strategy found for the rule failed its self-play" in n for n in found.notes)
    assert found.proof.status == "proved" and "with the strategy" not in found.proof.method
    record = found.to_record()
    assert record["status"] == "verified" and record["strategy_check"]["passed"] is False
