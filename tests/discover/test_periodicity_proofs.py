"""``discover.proofs.periodicity``: the periodicity theorems and the one-heap rules they prove.

The octal periodicity proof with a period from heap 0: n0 counts as 1.  0.04 (remove two tokens and split the
rest into two heaps) has G = 0 on heaps 0 to 3 and G(4) = 1.  Read with n0 = 0, the hypothesis
"G(n + 1) = G(n) for 0 <= n < 2 n0 + p + t = 3" holds on those four values and would prove G = 0 everywhere;
the proof must ask for more values.

``periodic_rule_proof``: a one-heap rule proved by a periodicity theorem only when the game's values, the
rule's own period and their agreement are all shown; planted exceptions and wrong rules are never proved.
"""

from __future__ import annotations

import sympy as sp

from discover.periodic_values import PeriodicValues
from discover.find import FindSettings, find_rule
from discover.proofs.periodicity import PERIODIC_METHODS, octal_periodicity_proof, periodic_rule_proof, periodicity_proof
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from games import make_game
from solvers.periods.sequences import hypothesis_end
from solvers.take_and_break import plain_grundy_values

n = sp.Symbol("n")


def test_a_period_from_heap_zero_is_not_proved_by_too_few_values():
    values = plain_grundy_values(make_game("octal", code="0.04"), 8)
    assert values[:5].tolist() == [0, 0, 0, 0, 1]
    for checked in range(1, 9):
        assert not octal_periodicity_proof(2, 0, 1, values[:checked]).proven


def test_the_proof_asks_for_the_values_the_engine_checks():
    kayles = plain_grundy_values(make_game("octal", code="0.77"), 400)
    for t, n0, p in [(2, 71, 12), (3, 0, 4), (1, 5, 7)]:
        assert octal_periodicity_proof(t, n0, p, kayles).needed == hypothesis_end(n0, p, t, 2) + 1
    assert octal_periodicity_proof(2, 71, 12, kayles).proven


def test_subtraction_rule_proved_with_each_step_said():
    game = make_game("subtraction", subtract=(2, 3, 7))
    status, said, counterexample = periodic_rule_proof(Rule(sp.Contains(sp.Mod(n, 5), sp.FiniteSet(0, 1)), ("n",)),
                                                       game)
    assert status == "proved" and counterexample is None
    assert "y(n + 5) = y(n)" in said[0] and "z3 shows R(n + 5) = R(n)" in said[1] and "the solver" in said[2]


def test_wrong_grundy_rule_disproved_with_the_heap():
    proof = prove_rule(Rule(sp.Mod(n, 3), ("n",), target="grundy"), make_game("subtraction"))
    assert proof.status == "disproved" and proof.counterexample == {"position": (3,), "rule": 0, "solver": 3}


def test_exception_planted_far_away_is_not_proved_by_the_theorem():
    planted = Rule(sp.Or(sp.Eq(sp.Mod(n, 4), 0), sp.Eq(n, 10**6 + 2)), ("n",))
    status, said, _ = periodic_rule_proof(planted, make_game("subtraction"))
    assert status is None and "is not proved" in said[-1]


def test_octal_p_rule_and_other_games_are_not_covered():
    assert periodic_rule_proof(Rule(sp.Eq(sp.Mod(n, 3), 0), ("n",)), make_game("octal", code="0.77"))[0] is None
    assert periodic_rule_proof(Rule(sp.Eq(n, 0), ("n",)), make_game("nim", heaps=1))[0] is None


def test_periodic_table_proved_by_guy_and_smith():
    game = make_game("octal", code="0.07")  # Dawson's Kayles: period 34 from n = 53
    values = plain_grundy_values(game, 400)
    proof = prove_rule(Rule.from_periodic(PeriodicValues.from_values(values, 53, 34)), game, values=values)
    assert proof.status == "proved" and proof.statement == "for every heap size" and "by construction" in proof.reason


def test_a_rule_whose_shortest_period_is_a_run_at_its_end_is_proved_by_its_true_period():
    """Subtract a square up to 196: P is periodic with period 125 from n = 785, and the rule's 4,096 first values
    also end in a run of six N (a "period 1" from 4,090), which the theorem does not prove: the next period does."""
    squares = tuple(k * k for k in range(1, 15))
    game = make_game("subtraction", subtract=squares)
    rule = find_rule(game, settings=FindSettings(prove=False, strategy=False, games=5)).rule
    status, said, _ = periodic_rule_proof(rule, game)
    assert status == "proved" and "from 785" in said[0]


def test_a_custom_game_of_finitely_many_amounts_from_one_heap_is_proved_by_the_subtraction_theorem():
    from games import custom_game
    from games.symbolic import take_from_one

    game = custom_game("take134", lambda p: [(p[0] - t,) for t in (1, 3, 4) if t <= p[0]], 1,
                       relation=take_from_one(1, (1, 3, 4)))
    a = sp.Symbol("a")
    proof = prove_rule(Rule(sp.Contains(sp.Mod(a, 7), sp.FiniteSet(0, 2)), ("a",)), game, relation_bound=100)
    assert proof.status == "proved" and proof.method == PERIODIC_METHODS["subtraction"]
    assert proof.statement.endswith("which agrees with moves() on every position up to 100")
    wrong = prove_rule(Rule(sp.Eq(sp.Mod(a, 7), 0), ("a",)), game, relation_bound=100)
    assert wrong.status == "disproved" and wrong.counterexample["position"] == (2,)


def test_a_split_that_removes_nothing_is_covered_by_the_theorem_with_t_zero():
    """Splitting a heap into two non-empty heaps (4.0: t = 0) is an octal game for the theorem (its proof never
    uses a removal); G = 0, 0, 1, 0, 1, ...: period 2 from n = 1, proved from G(n) up to n = 5."""
    from games.declared import declared_game

    game = declared_game({"name": "split", "heaps": 1, "moves": [{"split": 2}]})
    assert game.period_theorem == "octal" and game.removal_limit == 0
    values = plain_grundy_values(game, 40)
    assert values[:6].tolist() == [0, 0, 1, 0, 1, 0]
    assert octal_periodicity_proof(0, 1, 2, values).needed == 6
    proof = prove_rule(Rule.from_periodic(PeriodicValues.from_values(values, 1, 2)), game, values=values)
    assert proof.status == "proved" and proof.statement == "for every heap size"
    unequal = declared_game({"name": "grundy", "heaps": 1, "moves": [{"split": 2, "unequal": True}]})
    assert periodicity_proof(unequal, 1, 2, [0] * 40) is None  # unequal splits (Grundy's game): no theorem
