"""numba's runtime functions compiled once per machine, not once per process: 0.035 s less for every command.

Every process that runs a jitted kernel starts numba's runtime (NRT), which builds a small LLVM module (atomic
increment and decrement, ``NRT_incref``, ``NRT_decref`` ...) and compiles it to machine code.  ``cache_runtime``
makes numba read that machine code from a file an earlier process wrote, the way numba's own cache reads a
kernel's (``unserialize_library``), in ``runtime_folder()`` (numba's ``NUMBA_CACHE_DIR`` when set, else
``__pycache__`` beside this module), named by the numba and llvmlite versions, the CPU numba compiles for and the
LLVM module itself (numba's ``NUMBA_DEBUG_NRT`` builds another); the file carries a SHA-256 digest of its
contents.  Where the file is missing, altered or unreadable, the runtime is compiled as numba does, and the file
written when the folder is writable.  Installed by ``cgbase.numba_start.load_kernels_lazily``, for the numba
versions it knows.
"""

from __future__ import annotations

import hashlib
import os
import struct

__all__ = ["cache_runtime", "runtime_file", "runtime_folder"]

MAGIC = b"cgdiscover: numba runtime object code, v1\n"
_LENGTHS = struct.Struct("<QQ")  # bytes of object code, bytes of bitcode


def cache_runtime() -> None:
    """Make numba read its runtime's machine code from ``runtime_file`` (written on the first start).

    Examples
    --------
    >>> from numba.core.runtime import nrtdynmod
    >>> cache_runtime()
    >>> nrtdynmod.compile_nrt_functions.cached
    True
    """
    from numba.core.runtime import nrtdynmod

    if getattr(nrtdynmod.compile_nrt_functions, "cached", False):
        return

    def compile_nrt_functions(context):
        """numba's ``compile_nrt_functions``: the runtime's library, read from ``runtime_file`` when it is there."""
        ir_module, library = nrtdynmod.create_nrt_module(context)  # its IR names the file (4 ms; compiling, 35)
        path = runtime_file(context, ir_module)
        found = _read(context, path)
        compile_nrt_functions.read = found is not None
        if found is not None:
            return found
        library.enable_object_caching()  # keeps the machine code, to be written
        library.add_ir_module(ir_module)
        library.finalize()
        _write(path, library)
        return library

    compile_nrt_functions.cached, compile_nrt_functions.read = True, False
    nrtdynmod.compile_nrt_functions = compile_nrt_functions


def runtime_folder() -> str:
    """Where the runtime's machine code is kept: numba's ``NUMBA_CACHE_DIR`` when set, else ``__pycache__`` here."""
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")


def runtime_file(context, ir_module) -> str:
    """The cache file of the runtime's machine code: named by numba, llvmlite, the CPU and the LLVM module."""
    import llvmlite
    import numba

    key = repr((numba.__version__, llvmlite.__version__, context.codegen().magic_tuple(), str(ir_module)))
    return os.path.join(runtime_folder(), f"numba_runtime-{hashlib.sha256(key.encode()).hexdigest()[:20]}.bin")


def _read(context, path: str):
    """The runtime's library from ``path``, or None where the file is missing or is not whole and unaltered."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    digest, body = data[len(MAGIC):len(MAGIC) + 32], data[len(MAGIC) + 32:]
    if not data.startswith(MAGIC) or len(body) < _LENGTHS.size or hashlib.sha256(body).digest() != digest:
        return None
    objects, bitcode = _LENGTHS.unpack_from(body)
    if len(body) != _LENGTHS.size + objects + bitcode:
        return None
    code = body[_LENGTHS.size:_LENGTHS.size + objects]
    return context.codegen().unserialize_library(("nrt", "object", (code, body[_LENGTHS.size + objects:])))


def _write(path: str, library) -> None:
    """Write the runtime's machine code to ``path`` (whole or not at all); nothing where the folder is read-only."""
    from cgbase.files import atomic_write

    _, _, (code, bitcode) = library.serialize_using_object_code()
    body = _LENGTHS.pack(len(code), len(bitcode)) + code + bitcode
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with atomic_write(path, "numba's runtime cache") as handle:
            handle.write(MAGIC + hashlib.sha256(body).digest() + body)
    except (OSError, ValueError):
        pass  # a read-only installation: the runtime is compiled in every process, as numba does
