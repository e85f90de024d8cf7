"""``load_numba_target``: numba's target loaded without scipy's BLAS, in a fresh interpreter; kernels, numba's
linear algebra and scipy still work."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
import games  # loads numba's target (cgbase.numba_start)
import numba
import numba.np.arraymath as arraymath
from solvers import solve

found = {"blas": arraymath._HAVE_BLAS, "linalg_before": "scipy.linalg" in sys.modules}
found["wythoff"] = solve(games.make_game("wythoff"), 5).outcome_table.tolist()[:4]  # a cached kernel runs
found["dot"] = float(numba.njit(lambda x: x @ x)(__import__("numpy").arange(3.0)))  # BLAS imported when compiled
import scipy.linalg
found["linalg_after"] = "scipy.linalg.cython_blas" in sys.modules
print(json.dumps(found))
"""


def test_the_target_loads_without_scipys_blas_and_scipy_still_imports():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["blas"] is False and found["linalg_before"] is False
    assert found["wythoff"] == [-1, 1, 1, 1]  # (0, 0) lost, (0, k) won
    assert found["dot"] == 5.0  # numba's linear algebra still works: it imports scipy's BLAS when compiled
    assert found["linalg_after"] is True
