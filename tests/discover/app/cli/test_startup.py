"""Start-up: every command imports the heavy modules it uses and no other; numba kernels load from cache, lazily.

Each command line runs in a fresh interpreter: a probe calls ``discover.app.cli.main`` and writes the exit status,
the heavy modules then in ``sys.modules`` and, when asked, the numba functions it compiled. A heavy import put
back at the top of a module on the way (``import torch`` in a package's ``__init__``, scikit-learn through a
base class) fails here; so does a kernel without ``cache=True`` (or one numba cannot cache), compiled again
by a second run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("torch", "sympy", "numba", "numpy", "sklearn", "scipy", "scipy.linalg", "matplotlib", "networkx", "z3",
         "pyoperon")
QUOTIENTS = "discover.quotients.construct"  # the misère quotient's construction: only for quotient games
TARGET = "numba.np.arraymath"  # loaded with numba's whole CPU target: only to compile a kernel
STYLE = "rich"  # styles the output and draws the spinner on a terminal: never imported in a pipe
WATCHED = (*HEAVY, QUOTIENTS, TARGET, STYLE)  # the modules a probe reports
HELP = {"numpy", "numba", "sympy", "torch", "sklearn"}  # --help imports none of these
NO_RULE = {"torch", "sympy", "sklearn", "matplotlib", "z3"}  # a command that finds no rule imports none of these

PROBE = """
import json, sys
argv, count, record = json.loads(sys.argv[1]), sys.argv[2] == "count", sys.argv[3]
compiled = []
if count:
    from numba.core import event

    class Compiles(event.Listener):
        def on_start(self, item):
            compiled.append(str(item.data["dispatcher"].py_func.__qualname__))

        def on_end(self, item):
            pass

    event.register("numba:compile", Compiles())
from discover.app.cli import main
status = main(argv)
with open(record, "w") as out:
    json.dump({"status": status, "modules": [m for m in json.loads(sys.argv[4]) if m in sys.modules],
               "compiled": compiled}, out)
"""


def probe(tmp_path, *argv: str, count: bool = False) -> dict:
    """Run ``discover ARGV...`` in a fresh interpreter; its exit status, heavy modules and numba compilations."""
    record = tmp_path / "record.json"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}  # a plain pipe
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv), "count" if count else "-", str(record),
                           json.dumps(WATCHED)], capture_output=True, text=True, timeout=900, cwd=tmp_path, env=env)
    assert done.returncode == 0 and record.exists(), done.stderr[-3000:]
    return json.loads(record.read_text())


COMMANDS = [  # the command line, its exit status, the modules it must not import
    (["--help"], 0, HELP),
    (["solve", "--help"], 0, HELP),
    (["rule", "--help"], 0, HELP),
    (["solve", "wythoff", "--bound", "0"], 2, HELP),
    (["wythof"], 2, NO_RULE),
    (["nim", "heaps=x"], 2, NO_RULE),
    (["hex", "n=3"], 2, NO_RULE),
    (["nim", "--engines", "fourier"], 2, NO_RULE),
    (["games"], 0, NO_RULE | {"networkx"}),
    (["solve", "nim", "heaps=3", "--bound", "5", "--grundy"], 0, NO_RULE | {"networkx", STYLE}),  # plain in a pipe
    (["solve", "hex", "n=3"], 0, NO_RULE | {"networkx"}),
    (["evaluate", "wythoff", "--bound", "3", "--bot", "random"], 0, NO_RULE | {"networkx"}),
    (["evaluate", "octal"], 2, NO_RULE | {"networkx"}),
]


@pytest.mark.parametrize("argv, status, absent", COMMANDS, ids=[" ".join(argv) for argv, _, _ in COMMANDS])
def test_a_command_imports_only_what_it_uses(tmp_path, argv, status, absent):
    found = probe(tmp_path, *argv)
    assert found["status"] == status
    assert not absent & set(found["modules"]), f"discover {' '.join(argv)} imported {absent & set(found['modules'])}"


@pytest.mark.slow
def test_the_rule_of_wythoff_needs_no_torch_and_a_second_run_compiles_nothing(tmp_path):
    first = probe(tmp_path, "wythoff", count=True)
    assert first["status"] == 0 and {"sympy", "numba"} <= set(first["modules"])
    assert not {"torch", "sklearn"} & set(first["modules"]), first["modules"]
    again = probe(tmp_path, "wythoff", count=True)  # every kernel now loads from numba's cache
    assert again["status"] == 0 and again["compiled"] == [], f"compiled again: {again['compiled']}"
    assert not {TARGET, "scipy.linalg"} & set(again["modules"]), again["modules"]  # cgbase.numba_start
    solved = [probe(tmp_path, "solve", "nim", "heaps=3", "--bound", "20", "--grundy", "--remoteness", count=True)
              for _ in range(2)]
    assert solved[1]["status"] == 0 and solved[1]["compiled"] == [], f"compiled again: {solved[1]['compiled']}"


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["euclid"], ["nim", "heaps=3"], ["nim", "heaps=3", "misere=true"], ["wythoff"]])
def test_a_rule_a_theorem_proves_imports_no_z3(tmp_path, argv):
    """Cole and Davie's, Bouton's (normal and misère) and Wythoff's theorems prove these rules: z3 is never
    imported; none of them is a quotient game, so the misère quotient's construction is not imported either
    (``discover.quotients.kinds`` answers); in a pipe, neither spinner nor output imports rich."""
    found = probe(tmp_path, *argv)
    assert found["status"] == 0 and "numba" in found["modules"]
    assert not {"z3", "torch", "sklearn", QUOTIENTS, STYLE} & set(found["modules"]), found["modules"]
