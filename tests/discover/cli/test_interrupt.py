"""Defect class: Ctrl-C gives one line, "interrupted", status 130, and leaves nothing half-written.

Each command runs as a real process (``python -m discover``) and gets SIGINT while it works: in a compiled
search, a retrograde solve, compiled learning episodes and a report being written (and, when the machine is
slow, during start-up). The answer is always the one line and status 130, with no traceback, no temporary
file and no partial folder left in the working directory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ("solve", "hex", "n=5"),
    ("solve", "wythoff", "--bound", "40000"),
    ("learn", "nim", "heaps=3", "--bound", "7", "--episodes", "1000000000"),
    ("report", "wythoff", "--verify-bound", "20000", "--out", "report"),
])
def test_ctrl_c_stops_with_one_line_and_status_130(argv, tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "discover", *argv], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(8)  # every command here runs far longer: the signal finds it at work
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert err == "discover: interrupted\n"
    assert os.listdir(tmp_path) == []
