"""``start_numba`` (the ``discover`` command's entry point only): the toolkit's kernels from numba's cache run without numba's target loaded and without
numba's extensions, in fresh interpreters; an allocating kernel works, a user's cached ufunc and cfunc load as numba
made them (the extensions loaded first), compiling still loads the target, an unknown numba is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys

USER = """
import numba as nb


@nb.vectorize(cache=True)
def triple(x):
    return x * 3


@nb.cfunc("float64(float64)", cache=True)
def square(x):
    return x * x


@nb.njit(cache=True)
def apply(f, x):
    return f(x)
"""

PROBE = """
import json, sys
import games
from cgbase.numba_start import start_numba
assert start_numba()  # what the discover command does first: numba's cache loads the toolkit's kernels lazily
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
from solvers import solve
from solvers.graph import _bucket_starts

found = {"starts": _bucket_starts(np.array([0, 5, 9]), 2, 3).tolist(),  # allocated by numba's runtime
         "wythoff": solve(games.make_game("wythoff"), 5).outcome_table.tolist()[:4]}
found["compiled"], found["target"] = list(compiled), "numba.np.arraymath" in sys.modules
from numba.core.runtime import nrtdynmod
found["runtime_read"] = nrtdynmod.compile_nrt_functions.read  # the runtime's machine code from its cache file
found["extension_early"] = "user_extension" in sys.modules
import user_kernels  # a user's cached functions, loaded as numba loads them (the target refreshed)
found["triple"] = user_kernels.triple(np.arange(3)).tolist()
found["apply"] = user_kernels.apply(user_kernels.square, 3.0)
found["extension"] = getattr(sys.modules.get("user_extension"), "LOADED", None)
found["dot"] = float(numba.njit(lambda x: x @ x)(np.arange(3.0)))  # a compilation, with numba's BLAS
found["target_after"] = "numba.np.arraymath" in sys.modules
print(json.dumps(found))
"""

TOOLKIT_PROBE = PROBE.split("import user_kernels")[0] + "print(json.dumps(found))"  # the toolkit's kernels only


def _run(tmp_path, code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path,
                          env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_toolkits_kernels_run_without_the_target_and_a_users_load_as_numba_made_them(tmp_path):
    (tmp_path / "user_kernels.py").write_text(USER)
    (tmp_path / "user_extension.py").write_text("LOADED = []\n\n\ndef init():\n    LOADED.append(True)\n")
    listed = tmp_path / "user_extension-1.0.dist-info"  # an installed numba extension, found by importlib.metadata
    listed.mkdir()
    (listed / "METADATA").write_text("Metadata-Version: 2.1\nName: user-extension\nVersion: 1.0\n")
    (listed / "entry_points.txt").write_text("[numba_extensions]\ninit = user_extension:init\n")
    _run(tmp_path, PROBE)  # fills the caches (the toolkit's, where a fresh checkout has none yet, and the user's)
    again = _run(tmp_path, PROBE)
    assert again["compiled"] == [] and again["target"] is False, again
    assert again["starts"] == [0, 1, 2, 3] and again["wythoff"] == [-1, 1, 1, 1]  # (0, 0) lost, (0, k) won
    assert again["triple"] == [0, 3, 6] and again["apply"] == 9.0  # a cached ufunc and a cfunc passed to a kernel
    assert again["extension_early"] is False and again["extension"] == [True]  # loaded once, for the user's
    assert again["runtime_read"] is True
    assert again["dot"] == 5.0 and again["target_after"] is True


def test_the_runtime_is_compiled_again_when_its_cache_file_is_altered(tmp_path):
    """In a folder of its own (other processes keep theirs), an altered file is compiled again and rewritten."""
    folder = tmp_path / "runtime"
    probe = f"import cgbase.numba_runtime as kept\nkept.runtime_folder = lambda: {str(folder)!r}\n{TOOLKIT_PROBE}"
    first = _run(tmp_path, probe)  # writes the file
    (path,) = folder.glob("numba_runtime-*.bin")
    assert first["runtime_read"] is False and first["starts"] == [0, 1, 2, 3]
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF  # one flipped byte of machine code
    path.write_bytes(bytes(data))
    altered = _run(tmp_path, probe)
    assert altered["runtime_read"] is False and altered["starts"] == [0, 1, 2, 3]  # compiled, and right
    again = _run(tmp_path, probe)
    assert again["runtime_read"] is True and again["wythoff"] == [-1, 1, 1, 1]  # written whole again


def test_a_debug_runtime_gets_a_file_of_its_own(monkeypatch):
    """numba's NRT debugging builds other runtime functions (they print every reference count): another file."""
    from numba.core import config
    from numba.core.registry import cpu_target
    from numba.core.runtime import nrtdynmod

    from cgbase.numba_runtime import runtime_file

    context = cpu_target.target_context
    plain = runtime_file(context, nrtdynmod.create_nrt_module(context)[0])
    monkeypatch.setattr(config, "DEBUG_NRT", True)
    assert runtime_file(context, nrtdynmod.create_nrt_module(context)[0]) != plain


def test_an_unknown_numba_version_is_left_as_it_is(tmp_path):
    code = ("import json, numba\nnumba.__version__ = '0.99.0'\nfrom numba.core.caching import Cache\n"
            "from cgbase.numba_start import start_numba\n"
            "print(json.dumps([start_numba(), hasattr(Cache.load_overload, 'lazy')]))")
    assert _run(tmp_path, code) == [False, False]


IMPORT_ONLY = """
import json
from numba.core import caching, dispatcher
from numba.core.runtime import nrtdynmod
before = (caching.Cache.load_overload, dispatcher._DispatcherBase._compilation_chain_init_hook,
          nrtdynmod.compile_nrt_functions)
import games, solvers, discover, learners
from games import make_game
from solvers import solve
from discover.find import find_rule
solve(make_game("nim", heaps=2), 4)
after = (caching.Cache.load_overload, dispatcher._DispatcherBase._compilation_chain_init_hook,
         nrtdynmod.compile_nrt_functions)
print(json.dumps([a is b for a, b in zip(before, after)]))
"""


def test_importing_the_library_leaves_numba_as_numba_defines_it(tmp_path):
    assert _run(tmp_path, IMPORT_ONLY) == [True, True, True]


def test_a_numba_whose_internals_differ_falls_back_to_numbas_own_path(tmp_path):
    code = ("import json\nfrom numba.core import caching\nimport cgbase.numba_start as start\n"
            "own = caching.Cache.load_overload\n"
            "def broken():\n    caching.Cache.load_overload = None\n    raise AttributeError('no such internal')\n"
            "start.load_kernels_lazily = broken\n"
            "print(json.dumps([start.start_numba(), caching.Cache.load_overload is own]))")
    assert _run(tmp_path, code) == [False, True]


def test_a_users_package_named_like_the_toolkits_is_not_the_toolkits(tmp_path):
    (tmp_path / "solvers_extra").mkdir()
    (tmp_path / "games.py").write_text("def moves(p):\n    return p\n")  # a user's module named games, elsewhere
    code = ("import json, sys\nsys.path.insert(0, '.')\nfrom cgbase.numba_start import _ours\n"
            "import importlib.util\nspec = importlib.util.spec_from_file_location('games.user', 'games.py')\n"
            "module = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(module)\n"
            "print(json.dumps([_ours(module.moves)]))")
    assert _run(tmp_path, code) == [False]


FULL_DISK = """
import errno, json
from numba.core import caching
from cgbase.numba_start import start_numba
assert start_numba()


def full(self, *args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


caching.IndexDataCacheFile.save = full  # every cache file numba would write: the disk is full
from successor import successor

print(json.dumps([successor(41)]))
"""


def test_a_full_disk_under_numbas_cache_leaves_the_command_running_uncached(tmp_path):
    (tmp_path / "successor.py").write_text("import numba\n\n\n@numba.njit(cache=True)\ndef successor(x):\n"
                                           "    return x + 1\n")
    assert _run(tmp_path, FULL_DISK) == [42]
    assert not list(tmp_path.glob("__pycache__/successor*.nbi"))  # nothing half-written left
