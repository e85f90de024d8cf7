"""``load_kernels_lazily``: kernels from numba's cache run without numba's target loaded, in fresh interpreters; a
kernel that allocates (numba's runtime) works, compiling still loads the target, an unknown numba is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys

KERNEL = """
import numba as nb
import numpy as np


@nb.njit(cache=True)
def squares(n):
    out = np.empty(n, dtype=np.int64)  # allocated by numba's runtime
    for i in range(n):
        out[i] = i * i
    return out
"""

PROBE = """
import json, sys
import games  # makes numba's cache load kernels lazily (cgbase.numba_start)
import numba
import numpy as np
from numba.core import event

compiled = []


class Compiles(event.Listener):
    def on_start(self, item):
        compiled.append(item.data["dispatcher"].py_func.__name__)

    def on_end(self, item):
        pass


event.register("numba:compile", Compiles())
import kernels
from solvers import solve

found = {"squares": kernels.squares(5).tolist(),
         "wythoff": solve(games.make_game("wythoff"), 5).outcome_table.tolist()[:4]}
found["compiled"], found["target"] = list(compiled), "numba.np.arraymath" in sys.modules
found["dot"] = float(numba.njit(lambda x: x @ x)(np.arange(3.0)))  # a compilation loads the whole target first
found["target_after"] = "numba.np.arraymath" in sys.modules
print(json.dumps(found))
"""


def _run(tmp_path, code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path,
                          env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_cached_kernel_runs_without_the_target_and_a_compilation_loads_it(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNEL)
    first = _run(tmp_path, PROBE)  # compiles squares into the cache beside kernels.py
    assert "squares" in first["compiled"] and first["target"] is True
    again = _run(tmp_path, PROBE)  # every kernel from the cache now
    assert again["compiled"] == [] and again["target"] is False, again
    assert again["squares"] == [0, 1, 4, 9, 16]  # the allocating kernel ran on a runtime started by the loader
    assert again["wythoff"] == [-1, 1, 1, 1]  # (0, 0) lost, (0, k) won
    assert again["dot"] == 5.0 and again["target_after"] is True  # compiling still works, with numba's linear algebra


def test_an_unknown_numba_version_is_left_as_it_is(tmp_path):
    code = ("import json, numba\nnumba.__version__ = '0.99.0'\nfrom numba.core.caching import Cache\n"
            "from cgbase.numba_start import load_kernels_lazily\n"
            "print(json.dumps([load_kernels_lazily(), hasattr(Cache.load_overload, 'lazy')]))")
    assert _run(tmp_path, code) == [False, False]
