"""Every solved octal game of the published tables, recovered and proved with its pre-period and period.

The table (``published_octal_games.csv``, also read by ``benchmarks/octal.py``) holds the
nontrivial solved games (0.16: pre-period 105,351, period 149,459; 0.354: pre-period 10,061,916,
period 1,180; ...) and the games whose period shows below a thousand heaps.  The two largest
take about a minute and more, so they are marked slow (part of the default run).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from games import make_game
from solvers.take_and_break import grundy_sequence

TABLE = Path(__file__).with_name("published_octal_games.csv")
SLOW = {"0.376", "0.354"}  # 4.5 and 20.1 million heaps to prove


def published() -> list[tuple[str, int, int, str]]:
    """(code, pre-period, period, table) for every row of the published table."""
    with TABLE.open() as lines:
        rows = csv.DictReader(line for line in lines if not line.startswith("#"))
        return [(row["code"], int(row["preperiod"]), int(row["period"]), row["table"]) for row in rows]


CASES = [pytest.param(code, n0, p, table, id=code, marks=[pytest.mark.slow] if code in SLOW else [])
         for code, n0, p, table in published()]


@pytest.mark.parametrize("code,preperiod,period,table", CASES)
def test_published_period_is_recovered_and_proved(code, preperiod, period, table):
    result = grundy_sequence(make_game("octal", code=code), seconds=1200)
    assert result.proved, result.statement
    assert (result.preperiod, result.period) == (preperiod, period)
    # the theorem's range (values up to 2 (n0 + p) + t - 1) was computed; a long run stops right there
    first, last = result.hypothesis
    assert first == preperiod and result.heaps >= last + period + 1
    if table == "solved":
        assert result.heaps == last + period + 1


def test_the_table_holds_the_records_of_the_field():
    rows = {code: (n0, p) for code, n0, p, _ in published()}
    assert rows["0.16"] == (105_351, 149_459) and rows["0.354"] == (10_061_916, 1_180)
    assert sum(table == "solved" for *_, table in published()) == 10
