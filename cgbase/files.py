"""Every file and folder the toolkit writes, written one way: whole or not at all.

A file goes to a temporary name in its folder and is renamed into place; a folder (a report, an
experiment's results) is built under a temporary name beside its target and renamed into place.
Targets must be new paths, regular files, or (for folders) earlier results of the same kind: a
device, a FIFO, a socket or a symbolic link is refused, never replaced. Files get the usual
permissions (0666 less the umask). JSON is always valid JSON (``json_text``: NaN and infinities as null);
an npz archive carries the checksum of its arrays (``atomic_savez``). Files are read back by
``cgbase.reading``; journals are appended and read by ``cgbase.journal``.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from cgbase.reading import checksum

__all__ = ["check_output_file", "check_folder_path", "check_output_folder", "atomic_write", "write_text", "write_json", "write_records_csv",
           "atomic_savez", "atomic_folder", "remove_pending", "json_ready", "json_text"]

#: temporary files and folders being written now (removed by ``remove_pending`` when a run is killed)
_PENDING: set[str] = set()


def remove_pending() -> None:
    """Remove every temporary file or folder still being written (a run stopped before it could finish them)."""
    for path in list(_PENDING):
        shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else _unlink(path)
        _PENDING.discard(path)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output_file(path, what: str = "output") -> str:
    """Refuse, before any work, a file that could not be written or must not be replaced; return the path.

    Examples
    --------
    >>> check_output_file("/dev/null", "--save")
    Traceback (most recent call last):
    ...
    ValueError: --save /dev/null is a character device, not a regular file: give a new file name
    """
    path = os.fspath(path)
    if not path:
        raise ValueError(f"{what}: give a file name")
    if os.path.islink(path):
        raise ValueError(f"{what} {path} is a symbolic link: give the file itself or a new name")
    if os.path.isdir(path):
        raise ValueError(f"{what} {path} is a folder: give a file name")
    if os.path.exists(path) and not os.path.isfile(path):
        raise ValueError(f"{what} {path} is {_kind(path)}, not a regular file: give a new file name")
    _check_parent(path)
    return path


def check_folder_path(path, what: str = "output folder") -> Path:
    """Refuse, before any work, a folder path that could never be written whole; return it.

    A new path under a writable folder, or an existing folder that is neither the current folder nor one
    holding it, nor a mount point (a folder is written beside its target and renamed into place, and
    those cannot be renamed). Whether an existing folder may be replaced is ``check_output_folder``'s.

    Examples
    --------
    >>> check_folder_path(".", "--out")
    Traceback (most recent call last):
    ...
    ValueError: --out . is the current folder or holds it: give a new folder, such as runs/new
    """
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ValueError(f"{what}: give a folder name")
    target = Path(os.fspath(path))
    if target.is_symlink():
        raise ValueError(f"{what} {target} is a symbolic link: give the folder itself or a new name")
    if target.exists():
        if not target.is_dir():
            raise ValueError(f"{what} {target} is not a folder")
        here, resolved = Path.cwd().resolve(), target.resolve()
        if resolved == here or resolved in here.parents:
            raise ValueError(f"{what} {path} is the current folder or holds it: give a new folder, such as runs/new")
        if os.path.ismount(resolved):
            raise ValueError(f"{what} {path} is a mount point, which cannot be replaced: give a folder inside it")
    ancestor = _existing_ancestor(target)
    if not ancestor.is_dir():
        raise ValueError(f"cannot write {target}: {ancestor} is a file")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write {target}: the folder {ancestor} is not writable")
    return target


def check_output_folder(path, markers=(), what: str = "output folder") -> Path:
    """Refuse, before any work, a folder that could not be written or holds something else; return it.

    Missing parents are fine (they are made when the folder is written); an existing folder is
    replaced only when empty or when it holds every one of ``markers`` (an earlier result of the
    same kind); see ``check_folder_path`` for the rest.

    Examples
    --------
    >>> check_output_folder("/dev/null")
    Traceback (most recent call last):
    ...
    ValueError: output folder /dev/null is not a folder
    """
    target = check_folder_path(path, what)
    if target.exists() and any(target.iterdir()) and not (markers and all((target / m).is_file() for m in markers)):
        raise ValueError(f"{target} exists and is not an earlier result"
                         + (f" (no {' and '.join(markers)})" if markers else "")
                         + ": give a new or empty folder, or remove it")
    return target


def _existing_ancestor(path: Path) -> Path:
    ancestor = path.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    return ancestor


def _check_parent(path) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write {path}: the folder {folder} is not writable")


def _kind(path) -> str:
    mode = os.stat(path).st_mode
    for test, name in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


@contextmanager
def atomic_write(path, what: str = "output", binary: bool = True):
    """Yield a handle to a temporary file beside ``path``; on success it becomes ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> with atomic_write(target, binary=False) as handle:
    ...     _ = handle.write("hello")
    >>> open(target).read()
    'hello'
    """
    path = check_output_file(path, what)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-",
                               suffix=os.path.splitext(path)[1])
    _PENDING.add(tmp)
    try:
        with os.fdopen(fd, "wb" if binary else "w") as handle:
            yield handle
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise
    finally:
        _PENDING.discard(tmp)


def write_text(path, text: str, what: str = "output") -> str:
    """Write ``text`` to ``path`` atomically; return the path."""
    with atomic_write(path, what, binary=False) as handle:
        handle.write(text)
    return os.fspath(path)


def write_records_csv(path, records: list, what: str = "output") -> str:
    """Write a list of flat dicts (learning-curve records, say) as CSV, one column per key in first-seen order.

    Examples
    --------
    >>> import os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "h.csv")
    >>> _ = write_records_csv(out, [{"episode": 10, "deviations": 3}, {"episode": 20, "deviations": 0, "score": 0.5}])
    >>> print(open(out).read(), end="")
    episode,deviations,score
    10,3,
    20,0,0.5
    """
    import csv

    columns = list(dict.fromkeys(key for record in records for key in record))
    with atomic_write(path, what, binary=False) as handle:
        writer = csv.DictWriter(handle, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    return os.fspath(path)


def json_ready(record):
    """``record`` with numpy numbers as Python numbers and NaN or infinite floats as ``None``: what its JSON holds.

    The toolkit never writes the non-JSON ``NaN``/``Infinity``; a metric that is not a number is ``null``.

    Examples
    --------
    >>> json_ready({"rate": float("nan"), "runs": [np.int64(3), np.float64(0.5), float("inf")]})
    {'rate': None, 'runs': [3, 0.5, None]}
    """
    if isinstance(record, dict):
        return {key: json_ready(value) for key, value in record.items()}
    if isinstance(record, (list, tuple)):
        return [json_ready(value) for value in record]
    if isinstance(record, np.ndarray):
        return json_ready(record.tolist())
    if isinstance(record, np.generic):
        return json_ready(record.item())
    if isinstance(record, float) and not math.isfinite(record):
        return None
    return record


def json_text(record, **options) -> str:
    """``json.dumps`` of ``json_ready(record)`` (``options`` as for ``json.dumps``): always valid JSON.

    Examples
    --------
    >>> json_text({"rate": float("nan")})
    '{"rate": null}'
    """
    return json.dumps(json_ready(record), allow_nan=False, default=float, **options)


def write_json(path, record, what: str = "output") -> str:
    """Write ``record`` as indented JSON (``json_text``: NaN and infinities as null) atomically; return the path."""
    return write_text(path, json_text(record, indent=1) + "\n", what)


def atomic_savez(path, arrays: dict, what: str = "output") -> None:
    """``numpy.savez_compressed`` written atomically, with the arrays' ``checksum`` (``cgbase.reading``) added."""
    arrays = {name: np.asarray(value) for name, value in arrays.items()}
    arrays["checksum"] = np.array(checksum(arrays))
    with atomic_write(path, what) as handle:
        np.savez_compressed(handle, **arrays)


@contextmanager
def atomic_folder(path, markers=(), what: str = "output folder"):
    """Yield a temporary folder; on success it replaces ``path`` (see ``check_output_folder``).

    The old folder is removed only once the new one is in place; on failure or interruption the
    temporary folder is removed, ``path`` is left as it was and no parent folder is made.

    Examples
    --------
    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "reports", "nim")
    >>> with atomic_folder(target) as tmp:
    ...     _ = write_text(tmp / "index.md", "# hello")
    >>> sorted(os.listdir(target))
    ['index.md']
    """
    target = check_output_folder(path, markers, what).absolute()
    built = Path(tempfile.mkdtemp(dir=_existing_ancestor(target), prefix=f".{target.name}-partial-"))
    _PENDING.add(str(built))
    try:
        yield built
        os.chmod(built, 0o777 & ~_umask())
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            os.rename(built, target)
            return
        old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}-old-"))
        try:
            os.rename(target, old / "previous")
            try:
                os.rename(built, target)
            except BaseException:
                os.rename(old / "previous", target)
                raise
        finally:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(built, ignore_errors=True)
        raise
    finally:
        _PENDING.discard(str(built))
