"""Every time option is a deadline the work checks: slow work given a small budget answers within the budget and a
margin (``discover.app.cli.checks.BUDGET_CASES``; the margin is generous: this is the deadline's correctness, not a
speed benchmark)."""

from __future__ import annotations

import pytest

from discover.app.cli.checks import BUDGET_CASES, check_budget, command_paths, timed_commands


@pytest.mark.parametrize("case", BUDGET_CASES, ids=[c.name for c in BUDGET_CASES])
def test_slow_work_answers_within_its_budget(case):
    check_budget(case)


def test_every_command_with_a_time_option_has_a_budget_case():
    commands = {c.argv[0] if c.argv[0] in command_paths() else "rule" for c in BUDGET_CASES}
    assert set(timed_commands()) <= commands
