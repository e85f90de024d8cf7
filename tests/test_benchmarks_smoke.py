"""Every benchmark script runs in its quick mode and its own agreement checks pass.

The scripts compare every value they time against a baseline and stop with an
``AssertionError`` on a mismatch; nothing here looks at the times they print.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.slow
@pytest.mark.parametrize("script", ["boards", "solve", "learn", "discover", "octal", "parallel", "declared", "quotients",
                                    "commands", "openspiel", "hex_solver"])
def test_quick_mode_runs_and_agrees(script):
    run = subprocess.run([sys.executable, str(BENCHMARKS / f"{script}.py"), "--quick"], capture_output=True,
                         text=True, cwd=BENCHMARKS.parent, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Traceback" not in run.stderr


def _theory_modules():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import theory_baselines
        import theory_report
    finally:
        sys.path.remove(str(BENCHMARKS))
    return theory_baselines, theory_report


def test_a_baseline_is_judged_on_the_whole_box():
    """Thresholded (P) or rounded (Grundy) outputs: exact on the box, FALSE when right on training only, none
    when wrong on training; a value that is no number is wrong."""
    import numpy as np

    judged = _theory_modules()[0].judged
    truth = np.arange(12) % 3 == 0
    exact = np.where(truth, 0.8, 0.3)
    assert judged(exact[:6], truth[:6], exact, truth)[0] == "exact"
    overfit = exact.copy()
    overfit[9] = 0.1
    verdict, wrong = judged(overfit[:6], truth[:6], overfit, truth)
    assert verdict == "FALSE" and wrong.nonzero()[0].tolist() == [9]
    assert judged(1 - exact[:6], truth[:6], exact, truth)[0] == "none"
    grundy = np.array([0, 1, 2, 0, 1, 2])
    assert judged([0.1, 1.2, 1.9], grundy[:3], [0.1, 1.2, 1.9, np.inf, 1.0, 2.0], grundy)[0] == "FALSE"


def test_a_proof_below_2_64_leaves_a_case_exact():
    """The judge counts a proof as proved only for every position: a bit-vector proof's ``bits`` leave it exact."""
    import json

    import sympy as sp

    from discover.rule import Rule

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import theory
    finally:
        sys.path.remove(str(BENCHMARKS))
    case = next(c for c in theory.load_cases() if c["name"] == "sub-1-2")
    rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 3), 0), ("n",))
    answer = {"status": "verified", "rule": json.loads(rule.to_json()), "seconds": 1.0, "strategy": None,
              "road": "engines", "line": "verified on bound 300, proved below 2^64: P iff n mod 3 = 0",
              "proof": {"status": "proved", "line": "✓ proof for every position with every coordinate < 2^64",
                        "bits": 64}}
    assert theory.judge(case, answer, 120.0)["verdict"] == "exact"
    answer["proof"]["bits"] = None
    assert theory.judge(case, answer, 120.0)["verdict"] == "proved"


def test_a_baseline_fits_a_loopy_case_and_no_table_holds_a_quotient():
    """Poker Nim's truth comes from retrograde counting (the recursion never ends on a loopy game); a one-heap
    misère game's rule (find_rule's quotient) is over sums of any number of heaps: n/a, counted as none."""
    sys.path.insert(0, str(BENCHMARKS))
    try:  # run_baseline imports theory_baselines from there
        import theory

        cases = {c["name"]: c for c in theory.load_cases()}
        assert theory.run_baseline(cases["poker-nim-2"], "operon", 10.0)["verdict"] in ("exact", "FALSE", "none")
        quotient = theory.run_baseline(cases["misere-sub-1-2-3"], "operon", 10.0)
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert quotient["verdict"] == "n/a"
    row = {"name": "misere-sub-1-2-3", "class": "misère", "control": False, "verdict": "proved", "seconds": 1.0,
           "baselines": {"operon": quotient}}
    assert _theory_modules()[1].counts([row])["baselines"]["operon"]["none"] == 1


def test_the_report_counts_systems_and_aims():
    report = _theory_modules()[1]
    rows = [{"name": "a", "class": "one heap", "control": False, "reference": "", "known": "", "verdict": "proved",
             "seconds": 1.0, "rule": "n mod 3 = 0", "baselines": {"operon": {"verdict": "FALSE", "seconds": 2.0}}},
            {"name": "b", "class": "one heap", "control": False, "reference": "", "known": "k", "verdict": "none",
             "seconds": 130.0, "late": True, "why": "none within 120 s: no candidate",
             "baselines": {"operon": {"verdict": "exact", "seconds": 3.0}}},
            {"name": "c", "class": "control", "control": True, "reference": "", "known": "", "verdict": "none",
             "seconds": 5.0, "why": "none: no candidate", "baselines": {"operon": {"error": "killed"}}}]
    counted = report.counts(rows)
    assert (counted["must"], counted["exact"], counted["proved"], counted["late"], counted["honest"]) == (2, 1, 1, 1, 1)
    assert counted["baselines"]["operon"] == {"exact": 1, "false": 1, "none": 0, "median": 2.5, "total": 5.0}
    text = report.summary(rows, {"budget": 120, "late": 0.05})
    assert "- **b** (one heap; known: k): none: none within 120 s: no candidate" in text
    assert "| exact recoveries against the best baseline | ≥ 5× | 1 against operon's 1: 1.0× | **no** |" in text


@pytest.mark.slow
def test_the_theory_benchmark_runs_a_case_with_a_baseline_and_resumes(tmp_path):
    import json

    argv = [sys.executable, str(BENCHMARKS / "theory.py"), "--cases", "sub-1-2", "--systems", "find_rule,operon",
            "--budget", "20", "--out", str(tmp_path), "--resume"]
    first = subprocess.run(argv, capture_output=True, text=True, cwd=BENCHMARKS.parent, timeout=600)
    assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-2000:]
    record = json.loads((tmp_path / "cases.json").read_text())
    row, = record["rows"]
    assert row["verdict"] == "proved" and row["baselines"]["operon"]["verdict"] in ("exact", "FALSE", "none")
    assert record["meta"]["systems"] == ["find_rule", "operon"] and "### Every case" in (tmp_path / "table.md").read_text()
    again = subprocess.run(argv, capture_output=True, text=True, cwd=BENCHMARKS.parent, timeout=600)
    assert again.returncode == 0 and "sub-1-2 " not in again.stdout.split("`python")[0]  # kept, not run again
    assert json.loads((tmp_path / "cases.json").read_text()) == record  # nothing ran: the report as it was
