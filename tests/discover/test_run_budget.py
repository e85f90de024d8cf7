"""find_rule's whole-run time budget (``seconds``): every road answers within it, "none within S s" with the best
partial when it runs out; a rule verified in time stays verified.  The statuses and lines are asserted; the one
clock read is the budget's own margin (``BUDGET_MARGIN``), never a speed."""

from __future__ import annotations

import json
import time

import pytest

from cgbase.deadline import OutOfTime
from discover import defaults
from discover.app.cli.checks import BUDGET_MARGIN
from discover.discovery import Discovery
from discover.find import find_rule
from discover.find_settings import FindSettings
from discover.road import choose_road
from discover.verdicts import Road, Status
from games import make_game


def answered(game, seconds: float, **kw) -> Discovery:
    """find_rule's answer, asserted to come within the budget and its margin."""
    clock = time.perf_counter()
    found = find_rule(game, seconds=seconds, **kw)
    assert time.perf_counter() - clock < seconds + BUDGET_MARGIN, "the answer came after its budget and margin"
    return found


def test_the_engines_road_answers_none_within_its_budget_with_the_best_partial():
    found = answered(make_game("wythoff_nd", heaps=3), 2.0)  # runs for minutes without a budget
    assert found.road == Road.ENGINES and found.status == Status.NONE and found.rule is None
    assert found.out_of_time.startswith("the 2-second budget ran out in ")
    assert found.line().startswith("none within 2 s: the 2-second budget ran out in ")
    assert "\nNone within 2 s: the 2-second budget ran out in " in found.summary()
    record = json.loads(json.dumps(found.to_record()))
    assert record["status"] == "none" and record["budget"] == 2.0 and record["out_of_time"] == found.out_of_time


def test_the_take_and_break_road_answers_none_within_its_budget_with_its_period_search():
    found = answered(make_game("grundy_game"), 1.0)
    assert found.road == Road.TAKE_AND_BREAK and found.status == Status.NONE
    assert found.line().startswith("none within 1 s: no period up to n = ")
    assert "Grundy values of grundy_game" in found.out_of_time


def test_a_run_within_its_budget_records_it_and_no_time_out():
    found = find_rule(make_game("subtraction", subtract=(1, 2)))
    assert found.status == Status.VERIFIED and found.out_of_time is None
    assert found.budget == defaults.ENGINES.seconds == defaults.road_seconds(Road.ENGINES)
    assert found.to_record()["budget"] == defaults.ENGINES.seconds


def test_a_proof_the_budget_cuts_short_is_unknown_and_the_rule_stays_verified(monkeypatch):
    def out_of_time(*args, **kwargs):
        raise OutOfTime("the 9-second budget ran out in the proof")

    monkeypatch.setattr("discover.proofs.prove.prove_rule", out_of_time)
    found = find_rule(make_game("subtraction", subtract=(1, 2)), strategy=False)
    assert found.status == Status.VERIFIED and found.proof.status == "unknown"
    assert "budget ran out in the proof" in found.proof.reason


def test_seconds_budgets_every_road_and_heaps_only_the_growing_ones():
    nim = make_game("nim", heaps=3)
    assert choose_road(nim, FindSettings(seconds=5)) == Road.ENGINES
    with pytest.raises(ValueError, match="leave out heaps"):
        choose_road(nim, FindSettings(heaps=5))


def test_a_verified_discovery_is_not_turned_into_none():
    found = find_rule(make_game("subtraction", subtract=(1, 2)), prove=False)
    with pytest.raises(ValueError, match="stays verified"):
        found.ran_out(OutOfTime("late"))
