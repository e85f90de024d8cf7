"""numba's cached kernels of this toolkit loaded without numba's compiler registries: 0.35 s less for every command.

Before it loads a kernel from its on-disk cache, numba refreshes its CPU target: it imports and installs every
typing and lowering registry it has (about 250: Python's builtins, numpy's array functions, linear algebra and
random generators, typed containers ...; ``numba.np.arraymath`` imports scipy's BLAS on the way), which only the
*compilation* of a kernel reads.  A kernel loaded from the cache is machine code already linked: at run time it
needs numba's runtime (NRT, which allocates arrays) and the C helpers registered when the target is made, nothing
more.  ``load_kernels_lazily`` makes the cache start the runtime alone for the kernels of this toolkit's own
packages (``PACKAGES``: plain ``njit`` functions of arrays and numbers); compiling a kernel (one not in the cache,
or one called with new types) still refreshes the whole target first, as numba's compiler does for every
compilation, so a first run on a fresh checkout is as before.  Every other cached function, a user's included,
loads as numba made it: some need the refreshed target after loading (a ``vectorize`` ufunc builds its wrapper
with the target's constants; a ``cfunc`` passed to a kernel is typed by a registry the refresh imports).

Before the first call of any jitted function numba also loads the ``numba_extensions`` entry points of every
installed distribution (``importlib.metadata``'s scan of them all: 0.04 s); a toolkit kernel's arguments are arrays
and numbers, typed without extensions, so its first call skips that, and the extensions load as before at the
first call of any other function, or when a compilation refreshes the target (``CPUContext.refresh`` loads them);
until then ``numba.typeof`` on a type only an extension registers does not know it.

The runtime's own machine code, which numba compiles in every process, is read from a file as well
(``cgbase.numba_runtime``).

Nothing here runs on import: only the ``discover`` command's entry point (``discover.app.cli.main``) calls
``start_numba``, which applies the change to the numba versions whose cache reads as this module expects
(``Cache.load_overload``: refresh the target, then ``_load_overload`` under the guard against spurious I/O errors),
0.60 to 0.68 (``pyproject.toml`` pins that range; checked on 0.68.1), and to the CPU target only, and falls back to
numba's own functions on any error.  A library user's process (``import games, solvers, discover``) keeps numba as
numba defines it.  A kernel is the toolkit's when its source file lies in one of the toolkit's package folders
(``PACKAGES``), not merely when its module's name starts like one of them.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys

__all__ = ["start_numba", "start_numba_on_import", "load_kernels_lazily", "KNOWN_VERSIONS", "PACKAGES"]

KNOWN_VERSIONS = ((0, 60), (0, 68))  # the numba versions (major, minor), first and last, whose cache is patched
PACKAGES = ("cgbase", "games", "solvers", "learners", "discover")  # whose cached kernels load lazily
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder holding the toolkit's packages
_FOLDERS = tuple(os.path.join(_ROOT, package) + os.sep for package in PACKAGES)


def start_numba() -> bool:
    """``load_kernels_lazily`` for the ``discover`` command, or numba as it is on any error; True when applied."""
    try:
        from numba.core import caching, dispatcher
        from numba.core.runtime import nrtdynmod

        originals = (caching.Cache.load_overload, caching.Cache.save_overload,
                     dispatcher._DispatcherBase._compilation_chain_init_hook, nrtdynmod.compile_nrt_functions)
    except Exception:  # a numba laid out otherwise: nothing is changed
        return False
    try:
        return load_kernels_lazily()
    except Exception:  # a numba whose internals differ from what was read: numba's own path, untouched
        caching.Cache.load_overload, caching.Cache.save_overload, \
            dispatcher._DispatcherBase._compilation_chain_init_hook, nrtdynmod.compile_nrt_functions = originals
        return False


def start_numba_on_import() -> None:
    """``start_numba`` as soon as numba is imported (at once if it is already): a command that never runs a kernel
    (``--help``, a refused argument) never imports numba for it."""
    if "numba" in sys.modules:
        start_numba()
    elif not any(isinstance(finder, _AfterNumba) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterNumba())


class _AfterNumba(importlib.abc.MetaPathFinder):
    """Finds numba as Python does, and calls ``start_numba`` once its package has run; then steps aside."""

    def find_spec(self, name, path=None, target=None):
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            start_numba()

        spec.loader.exec_module = exec_module
        return spec


def load_kernels_lazily() -> bool:
    """Make numba's cache load kernels without refreshing its CPU target; True when it now does (a process-wide
    change: ``start_numba`` is the one caller)."""
    import numba
    from numba.core import caching, dispatcher
    from numba.core.cpu import CPUContext
    from numba.core.runtime import rtsys

    from cgbase.numba_runtime import cache_runtime

    if getattr(caching.Cache.load_overload, "lazy", False):
        return True
    version = tuple(int(part) for part in numba.__version__.split(".")[:2] if part.isdigit())
    if not KNOWN_VERSIONS[0] <= version <= KNOWN_VERSIONS[1]:
        return False
    load_refreshed = caching.Cache.load_overload  # numba's own
    save = caching.Cache.save_overload  # numba's own
    load_extensions = dispatcher._DispatcherBase._compilation_chain_init_hook  # numba's own

    def load_overload(self, sig, target_context):
        """numba's ``Cache.load_overload``; for this toolkit's kernels on the CPU, with the runtime started instead
        of the whole target refreshed."""
        if type(target_context) is not CPUContext or not _ours(self._py_func):
            return load_refreshed(self, sig, target_context)
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # the guard swallowed a spurious I/O error: not found, compiled as numba does

    def save_overload(self, sig, data):
        """numba's ``Cache.save_overload``; a cache the disk cannot take (full, read-only) leaves the kernel uncached
        and the command running, as numba does on Windows for a cache file another process holds."""
        try:
            save(self, sig, data)
        except OSError:
            pass

    def compilation_chain_init_hook(self):
        """numba's hook before a call is typed (it loads the ``numba_extensions``), skipped for this toolkit's
        kernels."""
        if not _ours(self.py_func):
            load_extensions(self)

    load_overload.lazy = True
    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload
    dispatcher._DispatcherBase._compilation_chain_init_hook = compilation_chain_init_hook
    cache_runtime()
    return True


def _ours(function) -> bool:
    """True for a function whose source file lies in one of this toolkit's package folders (``PACKAGES``).

    Examples
    --------
    >>> from games.lines import nim
    >>> _ours(nim(heaps=2).kernel), _ours(os.path.join)
    (True, False)
    """
    code = getattr(function, "__code__", None)
    return code is not None and os.path.abspath(code.co_filename).startswith(_FOLDERS)
