"""Progress lines: compact counts and rates, and a whole line that fits in 100 columns with its parts."""

from __future__ import annotations

import io
import re

from rich.console import Console

import cgbase.progress as progress
from games import make_game
from learners import QLearner


def test_compact_counts():
    assert [progress.compact(n) for n in (0, 999, 9_999, 10_000, 216_400, 999_499, 999_500, 2_460_000)] == \
        ["0", "999", "9,999", "10k", "216k", "999k", "1.0M", "2.5M"]


def test_a_line_fits_in_100_columns(monkeypatch):
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system=None)
    monkeypatch.setattr(progress, "_console", lambda: console)
    label = QLearner().progress_label(make_game("nim", heaps=3))
    with progress.progress_bar(True, 300_000, 0, label) as advance:
        advance(216_000, "deviations 133")  # drawn on exit at the latest
    lines = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line).rstrip() for line in re.split(r"[\r\n]", out.getvalue())]
    drawn = [line for line in lines if "216k/300k" in line]
    assert drawn
    for line in drawn:
        assert len(line) <= 100 and line.startswith("QLearner · Nim with 3 heaps")
        assert "deviations 133" in line and "games/s" in line and "left" in line


def test_slow_steps_read_as_seconds_per_step():
    class Task:
        finished_speed, speed = None, 0.25

    assert progress._rate_text(Task(), "iterations") == "4.0 s/iteration"
    Task.speed = 160_400.0
    assert progress._rate_text(Task(), "games") == "160k games/s"


def test_clear_erases_a_shown_bar_and_forgets_it(monkeypatch):
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system=None)
    monkeypatch.setattr(progress, "_console", lambda: console)
    with progress.progress_bar(True, 100, 0, "fit") as advance:
        advance(10)
        assert len(progress._SHOWN) == 1
        progress.clear()  # what Ctrl-C's watchdog does before its message
        assert progress._SHOWN == []
        drawn = len(out.getvalue())
    assert len(out.getvalue()) == drawn  # leaving the block draws nothing more
