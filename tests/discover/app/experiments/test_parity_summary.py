"""`discover alphazero nim --guided --summary` reads every parity report through cgbase.reading: a report
tampered with is refused in one line with status 2, and nothing is written."""

from __future__ import annotations

import json
import os
import shutil

import pytest

REPORT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "reports", "nim-heaps6-parity", "parity.json")


def _record() -> dict:
    with open(REPORT, encoding="utf-8") as handle:
        return json.load(handle)


def _set(path: str, value):
    """A tampering that sets the field at ``path`` (keys and list indices joined by dots)."""

    def tamper(record):
        *parents, last = path.split(".")
        node = record
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value
        return json.dumps(record)

    return tamper


TAMPERED = {
    "deep": lambda record: "[" * 100_000 + "]" * 100_000,                 # RecursionError traceback
    "minimal": lambda record: json.dumps({"settings": {"heaps": 7}, "runs": [{}]}),  # KeyError traceback
    "empty_run": _set("runs", [{}]),
    "empty_history": _set("runs.0.history", []),                           # IndexError traceback
    "runs_str": _set("runs", "abc"),                                       # "string indices must be integers"
    "cpu_str": _set("runs.0.train_cpu_seconds", "lots"),                  # "Unknown format code 'f'"
    "heaps_str": _set("settings.heaps", "x"),                              # titled "x heaps"
    "rule_escape": _set("rules.0.rule", "a \x1b[31m b"),                   # an ESC byte written into index.md
    "machine_newline": _set("machine", "Linux\n# forged heading"),
    "cpu_nan": lambda record: json.dumps(record).replace('"cpu_seconds": 281.254298903', '"cpu_seconds": NaN'),
    "positions_huge": _set("runs.0.positions", 10**40),
    "score_over_100": _set("runs.0.history.0.score_optimal_first", 1000.0),
    "start_value": _set("runs.0.start_value", 7),
    "sampled_without_sample": _set("runs.0.exact", False),
}


def test_an_untouched_report_is_summarised(cli, tmp_path):
    folder = tmp_path / "nim-heaps6-parity"
    folder.mkdir()
    shutil.copy(REPORT, folder / "parity.json")
    assert cli("alphazero", "nim", "--guided", "--summary", "--out", str(tmp_path / "s"))[0] == 0
    assert "| 6 | 46,080 (exact) | alone |" in (tmp_path / "s" / "index.md").read_text()


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_report_is_refused_in_one_line_and_nothing_is_written(case, cli, one_error_line, tmp_path):
    folder = tmp_path / "nim-heaps6-parity"
    folder.mkdir()
    text = TAMPERED[case](_record())
    (folder / "parity.json").write_text(text, encoding="utf-8")
    code, out, err = cli("alphazero", "nim", "--guided", "--summary", "--out", str(tmp_path / "s"))
    one_error_line(code, out, err)
    assert "parity.json" in err and "not a parity report" in err, err
    assert sorted(os.listdir(tmp_path)) == ["nim-heaps6-parity"]
