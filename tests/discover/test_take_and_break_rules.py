"""``find_rule`` on one-heap take-and-break games: the take-and-break engine by default, a proved period
as a verified periodic rule (checked here against the plain mex kernel, not the tool's own claim), open
games ending with "no period up to n = N", never a proof, and the budget options."""

from __future__ import annotations

import numpy as np
import pytest

from discover.find import find_rule
from discover.periodic_values import PeriodicValues
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.verify import verify_rule
from games import make_game
from solvers.take_and_break import plain_grundy_values

CHECKS = ["agreement with the solver", "closure certificate", "self-play"]


def assert_proved(found, preperiod: int, period: int, plain_heaps: int = 3000) -> None:
    """Verified and proved with the published period; the rule equals the plain mex kernel's values."""
    assert found.status == "verified" and found.source == "take_and_break", found.sequence.statement
    assert [c.name for c in found.checks] == CHECKS and all(c.passed for c in found.checks)
    assert found.proof.status == "proved" and "Guy and Smith" in found.proof.method
    assert (found.rule.preperiod, found.rule.period) == (preperiod, period)
    assert found.sequence.proved and found.verified_bound == found.verify_bound
    heaps = min(plain_heaps, found.sequence.heaps)
    plain = plain_grundy_values(found.game, heaps)
    assert np.array_equal(found.rule.evaluate(np.arange(heaps)[:, None]), plain)


@pytest.mark.parametrize("code, preperiod, period", [("0.45", 498, 20), ("0.156", 3479, 349), ("0.644", 3256, 442)])
def test_published_solved_games_are_proved(code, preperiod, period):
    found = find_rule(make_game("octal", code=code), games=10)
    assert_proved(found, preperiod, period)


def test_octal_016_period_149459_with_the_default_budget():
    messages = []
    found = find_rule(make_game("octal", code="0.16"), games=10, progress=messages.append)
    assert_proved(found, 105_351, 149_459, plain_heaps=20_000)
    assert found.rule.text() == "period 149,459 from n = 105,351 (values in the report)"
    assert found.sequence.heaps == 509_622  # the theorem's range: 2 (n0 + p) + t
    reason = found.proof.reason
    assert "2·105,351 + 149,459 + 2" in reason and "take-and-break engine for every n < 509,622" in reason
    # progress: heaps done, rate, the candidate period once it shows
    assert messages and all("heaps/s" in m for m in messages if m.startswith("Grundy values"))
    assert any("candidate period 149,459 from n = 105,351" in m for m in messages)


def test_hexadecimal_three_heap_moves_use_the_three_heap_theorem():
    found = find_rule(make_game("hexadecimal", code="0.A"), games=10)  # remove 1, leave one or three heaps
    assert_proved(found, 1, 2, plain_heaps=300)
    assert "moves leaving at most 3 heaps" in found.proof.reason


@pytest.mark.parametrize("name, params, text", [
    ("grundy_game", {}, "no periodicity theorem covers Grundy's game"),
    ("octal", {"code": "0.6"}, "no period up to n = 19,999"),
])
def test_open_games_end_with_no_period(name, params, text):
    found = find_rule(make_game(name, **params), heaps=20_000, games=10)
    assert found.status == "none" and found.rule is None and found.checks == []
    assert found.sequence.heaps == 20_000 and not found.sequence.proved
    assert found.sequence.statement.startswith("no period up to n = 19,999") and text in found.sequence.statement
    assert "proved" not in found.sequence.statement
    record = found.to_record()
    assert record["status"] == "none" and record["sequence"]["proved"] is False and record["rule"] is None


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [("grundy_game", {}), ("octal", {"code": "0.6"})])
def test_open_games_up_to_2_21_heaps(name, params):
    found = find_rule(make_game(name, **params), heaps=1 << 21, games=10)
    assert found.status == "none" and found.rule is None
    assert found.sequence.statement.startswith("no period up to n = 2,097,151")


def test_a_seconds_budget_stops_the_engine():
    found = find_rule(make_game("octal", code="0.6"), seconds=0.5, games=10)
    assert found.status == "none" and 1024 <= found.sequence.heaps < 1 << 21


def test_a_training_bound_trains_the_engines_instead():
    found = find_rule(make_game("octal", code="0.16"), bound=30, games=10)
    assert found.sequence is None and found.source == "solver" and found.train_bound == 30


def test_the_rule_is_refuted_when_the_known_values_disagree():
    game = make_game("octal", code="0.77")
    values = plain_grundy_values(game, 400)
    rule = Rule.from_periodic(PeriodicValues.from_values(values, 71, 12))
    wrong = values.copy()
    wrong[300] ^= 1
    proof = prove_rule(rule, game, values=wrong)
    assert proof.status == "disproved"
    assert proof.counterexample == {"position": (300,), "rule": int(values[300]), "solver": int(wrong[300])}


def test_no_proof_without_the_theorem_range():
    game = make_game("octal", code="0.77")
    values = plain_grundy_values(game, 150)  # the theorem needs G(n) up to n = 155
    rule = Rule.from_periodic(PeriodicValues.from_values(values, 71, 12))
    checks = verify_rule(rule, game, 100, games=5)
    assert [c.name for c in checks] == CHECKS and all(c.passed for c in checks)
    proof = prove_rule(rule, game, values=values)  # too few values: the solver computes the theorem's range
    assert proof.status == "proved" and "the solver" in proof.reason


@pytest.mark.parametrize("kwargs, message", [
    ({"heaps": 0}, "heaps must be a positive integer, got 0"),
    ({"seconds": 0}, "seconds must be a positive number, got 0"),
    ({"heaps": 100, "bound": 30}, "heaps budgets the take-and-break engine"),
])
def test_bad_budgets(kwargs, message):
    with pytest.raises(ValueError, match=message):
        find_rule(make_game("octal", code="0.16"), **kwargs)


def test_budgets_are_for_take_and_break_games_only():
    with pytest.raises(ValueError, match="leave out heaps"):
        find_rule(make_game("subtraction", subtract=(1, 2)), heaps=1000)
