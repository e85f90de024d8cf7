"""``discover octal code=...`` and ``discover grundy_game``: the take-and-break engine's period and proof
on the terminal, ``--json`` with period and pre-period, the report's values figure and rare heaps, and
the budget options."""

from __future__ import annotations

import json
import os

import numpy as np

from discover.rule import Rule
from games import make_game
from solvers.take_and_break import plain_grundy_values


def test_octal_016_prints_the_period_and_its_proof(cli):
    code, out, err = cli("octal", "code=0.16")
    assert code == 0 and err == ""
    assert "Grundy values of 509,622 heaps computed by the take-and-break engine" in out
    assert "Rule (verified on bound" in out and "; proved for every heap size):" in out
    assert "Grundy values: period 149,459 from n = 105,351 (values in the report)" in out
    assert "✓ proof for every heap size (theorem: periodicity of octal games (Guy and Smith)" in out
    assert "because: G(n + 149,459) = G(n) checked for 105,351 <= n < 360,163" in out
    assert "sums of heaps: P iff G(n₁) ⊕ G(n₂) ⊕ ... = 0" in out
    assert "✗" not in out and out.count("✓") == 4
    assert len(out) < 5000  # the values stay in the report


def test_json_carries_period_and_preperiod(cli):
    code, out, err = cli("octal", "code=0.77", "--json")
    assert code == 0 and err == ""
    record = json.loads(out)
    assert record["status"] == "verified" and record["rule"]["period"] == 12 and record["rule"]["preperiod"] == 71
    assert record["sequence"]["proved"] and record["sequence"]["rare"]["count"] >= 1
    assert record["proof"]["status"] == "proved" and record["proof"]["statement"] == "for every heap size"
    assert record["strategy"] is None  # a Grundy rule: the strategy is the Sprague-Grundy one
    rule = Rule.from_json(record["rule"])
    values = plain_grundy_values(make_game("octal", code="0.77"), 500)
    assert np.array_equal(rule.evaluate(np.arange(500)[:, None]), values)


def test_an_open_game_ends_with_no_period(cli):
    code, out, err = cli("grundy_game", "--heaps", "5000")
    assert code == 1 and err == ""
    assert "No rule found. No period up to n = 4,999" in out and "Try a larger --heaps or --seconds" in out
    assert "proved" not in out and "✓" not in out


def test_report_draws_the_values_and_states_the_rare_heaps(cli, tmp_path):
    folder = tmp_path / "o156"
    code, out, err = cli("report", "octal", "code=0.156", "--out", str(folder))
    assert code == 0
    assert {"values.png", "rule.json", "discovery.json", "index.md"} <= set(os.listdir(folder))
    md = (folder / "index.md").read_text()
    assert "Heap n is rare when popcount(G(n) & " in md and "rare heaps of 7,659" in md
    assert "one period of 349 values" in md and "![Grundy values and rare heaps](values.png)" in md
    assert Rule.from_json((folder / "rule.json").read_text()).period == 349
    assert len(md) < 50_000  # long value lists are named, not printed


def test_budget_options_are_checked(cli, one_error_line):
    one_error_line(*cli("octal", "code=0.16", "--heaps", "0"))
    one_error_line(*cli("octal", "code=0.16", "--seconds", "0"))
    code, out, err = cli("octal", "code=0.16", "--heaps", "100", "--bound", "20")
    one_error_line(code, out, err)
    assert "heaps budgets the take-and-break engine" in err


def test_report_of_an_open_game(cli, tmp_path):
    folder = tmp_path / "gg"
    code, out, err = cli("report", "grundy_game", "--heaps", "5000", "--out", str(folder))
    assert code == 1 and "rule.json" not in os.listdir(folder) and "values.png" in os.listdir(folder)
    md = (folder / "index.md").read_text()
    assert "**Status: no rule**" in md and "no period up to n = 4,999" in md and "rare heaps of 5,000" in md
