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
