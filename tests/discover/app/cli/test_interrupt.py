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


# a command run in a child that says on stdout when it is at work, so that the signal finds it there at once
_AT_WORK = """
import sys, time
import numpy as np
from solvers.hex_solver import HexSolver
from discover.app.cli import main

def slow_save(handle, **arrays):
    print("at work", flush=True)  # the temporary file is open in the user's folder
    time.sleep(60)

expand = HexSolver._expand
def noisy_expand(self, key):
    if self.nodes == 200:
        print("at work", flush=True)  # the proof-number search is running its compiled kernels
    return expand(self, key)

np.savez_compressed = slow_save
HexSolver._expand = noisy_expand
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("argv, signum, status", [
    (("solve", "hex", "n=7"), signal.SIGINT, 130),   # numba re-raised the interrupt as a SystemError
    (("solve", "hex", "n=7"), signal.SIGTERM, 143),
    (("solve", "nim", "heaps=2", "--bound", "30", "--save", "s.npz"), signal.SIGTERM, 143),  # left .tmp-*.npz
    (("solve", "nim", "heaps=2", "--bound", "30", "--save", "s.npz"), signal.SIGINT, 130),
])
def test_a_signal_at_work_stops_with_one_line_and_its_status(argv, signum, status, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    process = subprocess.Popen([sys.executable, "-c", _AT_WORK, *argv], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    assert "at work\n" in iter(process.stdout.readline, "")  # the lines before it are the command's own
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == status, (out, err)
    assert err == "discover: interrupted\n"
    assert os.listdir(tmp_path) == []


def test_an_interrupt_numba_turned_into_a_system_error_is_an_interruption(monkeypatch, capsys):
    from discover.app.cli import main
    from solvers import hex_solver

    def evaluate(*args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as stop:  # as numba's dispatcher reports one raised in its own Python code
            raise SystemError("CPUDispatcher(<function evaluate>) returned a result with an exception set") from stop

    monkeypatch.setattr(hex_solver, "evaluate", evaluate)
    assert main(["solve", "hex", "n=6"]) == 130
    assert capsys.readouterr().err == "discover: interrupted\n"


def test_a_system_error_of_another_cause_is_not_an_interruption(monkeypatch):
    from discover.app.cli import main
    from solvers import hex_solver

    def evaluate(*args):
        raise SystemError("a real fault")

    monkeypatch.setattr(hex_solver, "evaluate", evaluate)
    with pytest.raises(SystemError, match="a real fault"):
        main(["solve", "hex", "n=6"])
