"""Every solved octal game of the published tables, recovered and proved with its pre-period and period;
the open games of the same tables (0.6, Grundy's game) to 2^21 heaps, never proved.

The table (``published_octal_games.csv``, also read by ``benchmarks/octal.py``) holds the
nontrivial solved games (0.16: pre-period 105,351, period 149,459; 0.354: pre-period 10,061,916,
period 1,180; ...) and the games whose period shows below a thousand heaps.  The two largest
solved games and the open games take about a minute each, so they are marked slow (part of the
default run).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from games import make_game
from solvers.take_and_break import grundy_sequence

TABLE = Path(__file__).with_name("published_octal_games.csv")
SLOW = {"0.376", "0.354"}  # 4.5 and 20.1 million heaps to prove


def published() -> list[dict]:
    """Every row of the published table: code, preperiod, period, table, rare_mask, rare_count, last_rare."""
    with TABLE.open() as lines:
        return list(csv.DictReader(line for line in lines if not line.startswith("#")))


CASES = [pytest.param(row, id=row["code"], marks=[pytest.mark.slow] if row["code"] in SLOW else [])
         for row in published()]


@pytest.mark.parametrize("row", CASES)
def test_published_period_is_recovered_and_proved(row):
    preperiod, period = int(row["preperiod"]), int(row["period"])
    result = grundy_sequence(make_game("octal", code=row["code"]), seconds=1200)
    assert result.proved, result.statement
    assert (result.preperiod, result.period) == (preperiod, period)
    # the theorem's range (values up to 2 (n0 + p) + t - 1) was computed; a long run stops right there
    first, last = result.hypothesis
    assert first == preperiod and result.heaps >= last + period + 1
    if row["table"] == "solved":
        assert result.heaps == last + period + 1
    if row["rare_mask"]:  # the same split of the values into rare and common as the published solver's
        mask, _, parity = row["rare_mask"].partition("+")
        rare = result.rare
        assert (rare.mask, rare.heap_parity) == (int(mask, 16), parity == "pos")
        assert (rare.heaps.size, rare.heaps[-1]) == (int(row["rare_count"]), int(row["last_rare"]))


def test_the_table_holds_the_records_of_the_field():
    rows = {row["code"]: (int(row["preperiod"]), int(row["period"])) for row in published()}
    assert rows["0.16"] == (105_351, 149_459) and rows["0.354"] == (10_061_916, 1_180)
    assert sum(row["table"] == "solved" for row in published()) == 10


@pytest.mark.slow
@pytest.mark.parametrize("name,code,largest,at,mask,rare,last_rare", [
    ("grundy_game", None, 231, 763_622, 0xFE, 1274, 82_860),
    ("octal", "0.6", 319, 1_274_955, 0x1EE, 1584, 20_627),
])
def test_open_games_to_two_to_the_21_heaps(name, code, largest, at, mask, rare, last_rare):
    # the table of open games in tczajka/octal-games (UnsolvedGames.md), checked to n = 2^21
    game = make_game(name) if code is None else make_game(name, code=code)
    result = grundy_sequence(game, heaps=1 << 21)
    assert not result.proved and result.statement.startswith("no period up to n = 2,097,151")
    assert (int(result.values.max()), int(result.values.argmax())) == (largest, at)
    assert (result.rare.mask, result.rare.heaps.size, int(result.rare.heaps[-1])) == (mask, rare, last_rare)
