"""numba's CPU target loaded once, without scipy's BLAS: 0.2 s less start-up for every command that runs a kernel.

The first call of any numba function, even one loaded from numba's on-disk cache, loads the CPU target's
registries; one of them (``numba.np.arraymath``) checks for BLAS by importing ``scipy.linalg.cython_blas``, which
imports all of ``scipy.linalg`` (and ``numpy.f2py`` through it): about 0.2 s of CPU, a tenth of a ``discover GAME``
command, for a flag that only ``np.correlate`` and ``np.convolve`` read (no kernel of this project calls
them).  ``load_numba_target`` loads the registries with that one module reported missing, then puts it back: in
this process numba's ``np.correlate`` and ``np.convolve`` then sum their products in a plain loop instead of
calling BLAS, while ``np.dot``, ``@`` and ``np.linalg`` inside ``njit`` functions import scipy's BLAS when they are
compiled, as before, and ``scipy.linalg`` imports as usual.  When scipy's BLAS is already imported, or the target
already loaded, nothing changes.
"""

from __future__ import annotations

import sys

__all__ = ["load_numba_target"]

_BLAS = "scipy.linalg.cython_blas"


def load_numba_target() -> None:
    """Load numba's CPU target (its typing and lowering registries) now, without importing scipy's BLAS.

    Examples
    --------
    >>> load_numba_target()
    >>> import numba.np.arraymath, scipy.linalg  # the target is loaded; scipy.linalg imports as usual
    >>> "scipy.linalg" in sys.modules
    True
    """
    if "numba.np.arraymath" in sys.modules:  # loaded already (it is imported by the target's first load)
        return
    from numba.core.registry import cpu_target

    blocked = _BLAS not in sys.modules
    if blocked:
        sys.modules[_BLAS] = None  # an import of it raises ImportError: numba records "no BLAS"
    try:
        cpu_target.target_context.refresh()
    finally:
        if blocked and sys.modules.get(_BLAS, 0) is None:
            del sys.modules[_BLAS]
