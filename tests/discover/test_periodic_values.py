"""Periodic rules (``discover.periodic_values``, ``Rule.from_periodic``): exact evaluation for every
heap size, the P rule of sums against a plain search over multisets of heaps, JSON round trips read
against a whitelist, and the compact text."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from discover.periodic_values import PeriodicValues
from discover.rule import Rule
from games import make_game
from solvers.take_and_break import plain_grundy_values

KAYLES = make_game("octal", code="0.77")
KAYLES_VALUES = plain_grundy_values(KAYLES, 400)


def kayles_rule() -> Rule:
    return Rule.from_periodic(PeriodicValues.from_values(KAYLES_VALUES, 71, 12))


def test_the_table_reproduces_the_values_and_continues_the_period():
    rule = kayles_rule()
    n = np.arange(400)
    assert np.array_equal(rule.evaluate(n[:, None]), KAYLES_VALUES)
    far = np.array([10**6, 10**12 + 5, 2**62])
    assert np.array_equal(rule.evaluate(far[:, None]), KAYLES_VALUES[71 + (far - 71) % 12])
    assert rule.predicate(n[:, None]).tolist() == (KAYLES_VALUES == 0).tolist()
    assert (rule.period, rule.preperiod, rule.target) == (12, 71, "grundy")
    assert rule.sequence.exceptions[:, 0].tolist() == [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]


def test_from_values_refuses_values_without_the_period():
    with pytest.raises(ValueError, match=r"G\(70\) != G\(58\)"):
        PeriodicValues.from_values(KAYLES_VALUES, 58, 12)
    with pytest.raises(ValueError, match="need the values up to n = 82"):
        PeriodicValues.from_values(KAYLES_VALUES[:80], 71, 12)


def test_other_rules_have_no_period():
    import sympy as sp

    rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",))
    assert rule.period is None and rule.preperiod is None
    record = json.loads(rule.to_json())
    assert record["period"] is None and record["preperiod"] is None and Rule.from_json(record).period is None


@functools.lru_cache(maxsize=None)
def sum_is_p(heaps: tuple[int, ...]) -> bool:
    """Plain search over sums of Kayles heaps: P iff no move leads to a P position."""
    for i, heap in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for parts in KAYLES.moves((heap,)):
            if sum_is_p(tuple(sorted(rest + parts))):
                return False
    return True


def test_the_xor_of_the_table_is_the_p_rule_of_sums():
    rule = kayles_rule()
    rng = np.random.default_rng(0)
    for count in (2, 3):
        positions = rng.integers(0, 13, size=(150, count))
        truth = [sum_is_p(tuple(sorted(int(h) for h in row if h))) for row in positions]
        assert rule.predicate(positions).tolist() == truth
        assert np.array_equal(rule.evaluate(positions), np.bitwise_xor.reduce(KAYLES_VALUES[positions], axis=1))


def test_json_round_trip_is_exact():
    rule = kayles_rule()
    record = json.loads(rule.to_json())
    assert record["expr"] is None and record["period"] == 12 and record["preperiod"] == 71
    assert record["values"] == [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7] and record["exceptions"][0] == [0, 0]
    again = Rule.from_json(rule.to_json())
    assert again.sequence == rule.sequence and again.text() == rule.text() and again.target == "grundy"


def _record(**changes) -> dict:
    record = json.loads(kayles_rule().to_json())
    record.update(changes)
    return record


@pytest.mark.parametrize("changes, message", [
    ({"values": [4, 1, 2]}, "one period"),
    ({"values": ["4"] + [1] * 11}, "values must be a list of integers, got '4'"),
    ({"values": [True] + [1] * 11}, "values must be a list of integers, got True"),
    ({"values": [None] + [1] * 11}, "values must be a list of integers, got None"),
    ({"values": [4.0] + [1] * 11}, "values must be a list of integers, got 4.0"),
    ({"values": [-1] + [1] * 11}, ">= 0"),
    ({"values": "__import__('os')"}, "list of integers"),
    ({"exceptions": [[0, "0"]]}, "exceptions must be a list of integers"),
    ({"prefix": [0] * 71}, "one of exceptions or prefix"),
    ({"exceptions": [[0, 0, 1]]}, r"\[n, G\(n\)\] pairs"),
    ({"exceptions": [[3, 3], [0, 0]]}, "ascending"),
    ({"exceptions": [[71, 0]]}, "below the pre-period"),
    ({"exceptions": [[1, 1]]}, "follows the period"),
    ({"period": 0}, "period must be an integer >= 1"),
    ({"period": 10**9}, "longer than"),
    ({"preperiod": "71"}, "preperiod must be an integer"),
    ({"expr": "Symbol('n')"}, "expr must be null"),
    ({"target": "P"}, "target 'grundy'"),
])
def test_from_json_refuses_bad_periodic_records(changes, message):
    with pytest.raises(ValueError, match=message):
        Rule.from_json(_record(**changes))


def test_missing_fields_are_named():
    record = _record()
    del record["exceptions"]
    with pytest.raises(ValueError, match="one of exceptions or prefix"):
        Rule.from_json(record)
    del record["values"]
    with pytest.raises(ValueError, match="the fields preperiod, period, values"):
        Rule.from_json(record)


def test_dense_exceptions_are_written_as_the_prefix():
    values = np.array([5, 0, 7, 8, 9, 0, 1, 0, 1], dtype=np.int64)  # v = (1, 0): G(1) = 0 follows the period
    sequence = PeriodicValues.from_values(values, 5, 2)
    assert sequence.exceptions[:, 0].tolist() == [0, 2, 3, 4]  # 8 integers as pairs, 5 as the prefix
    record = json.loads(Rule.from_periodic(sequence).to_json())
    assert "exceptions" not in record and record["prefix"] == [5, 0, 7, 8, 9]
    again = Rule.from_json(record)
    assert again.sequence == sequence and np.array_equal(again.evaluate(np.arange(9)[:, None]), values)
    for prefix, message in (([5, 6, 7, 8], "every n below the pre-period"), ([5, 6, "7", 8, 9], "prefix must be a list"),
                            ([5, 6, 7, 8, -9], ">= 0")):
        with pytest.raises(ValueError, match=message):
            Rule.from_json({**record, "prefix": prefix})


def test_negative_heaps_are_refused():
    with pytest.raises(ValueError, match="heap sizes must be >= 0, got -3"):
        kayles_rule().evaluate([[-3]])


def test_text_is_written_out_when_short_and_named_by_its_period_otherwise():
    text = kayles_rule().text()
    assert text.startswith("G(n) = v[n mod 12], v = (4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7), period 12 from n = 71")
    assert "3 for n ∈ {3, 6, 18, 39}" in text and "7 for n = 15" in text
    long = Rule.from_periodic(PeriodicValues(105_351, 149_459, np.arange(149_459) % 7, []))
    assert long.text() == "period 149,459 from n = 105,351 (values in the report)"
    assert "149459" in long.latex() and len(long.to_json()) < 2_000_000
    assert long.complexity == 2 + 149_459
