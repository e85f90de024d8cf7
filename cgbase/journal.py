"""Journals: append-only files of JSON records, one a line, that never lose a finished record.

A journal starts with its settings line, written atomically (``start_journal``: the file appears with that
line or not at all). Each later record is appended whole in one write and flushed to disk (``fsync``) before
``append_record`` returns. A run killed mid-write leaves at most a torn last line; the next append first
repairs it: a torn line that is a whole record lacking only its newline is completed, anything else is moved
to ``<journal>.torn`` (kept for inspection, never silently dropped) and cut from the journal, so the new
record starts on a fresh line. Each line ends with its own check, ``"sha256"``: the first 16 hex digits of
the SHA-256 of the record's compact JSON without it. ``read_records`` reads each line within
``cgbase.reading``'s limits and schemas and recomputes its check (a line without one, or whose record was
changed, is refused); a torn tail is not a record (it is left for the next append to repair).

Examples
--------
>>> import os, tempfile
>>> journal = os.path.join(tempfile.mkdtemp(), "runs.jsonl")
>>> start_journal(journal, {"sweep": "demo"})
>>> append_record(journal, {"run": 0})
>>> with open(journal, "ab") as handle:  # a kill in the middle of a write
...     _ = handle.write(b'{"run": 1, "fin')
>>> append_record(journal, {"run": 1})
>>> read_records(journal)
[{'sweep': 'demo'}, {'run': 0}, {'run': 1}]
>>> open(journal + ".torn").read()
'{"run": 1, "fin\\n'
>>> open(journal).read().splitlines()[1]
'{"run":0,"sha256":"1be506b3e148e8dc"}'
"""

from __future__ import annotations

import hashlib
import os

from cgbase.files import atomic_write, check_output_file, json_text
from cgbase.reading import MAX_JSON_BYTES, check_record, load_json

__all__ = ["start_journal", "append_record", "read_records", "TORN", "CHECK"]

TORN = ".torn"  # the side file that keeps torn lines: <journal>.torn
CHECK = "sha256"  # the key of each line's check


def start_journal(path, settings: dict, what: str = "journal") -> None:
    """Give a journal its settings line, atomically, unless it has a first record already (a torn start is
    kept aside in ``<journal>.torn``).

    Examples
    --------
    >>> import os, tempfile
    >>> journal = os.path.join(tempfile.mkdtemp(), "runs.jsonl")
    >>> open(journal, "w").close()  # an empty journal
    >>> start_journal(journal, {"sweep": 1}); start_journal(journal, {"sweep": 2})
    >>> read_records(journal)
    [{'sweep': 1}]
    """
    path = check_output_file(path, what)
    if _repair(path, what) > 0:
        return
    with atomic_write(path, what) as handle:
        handle.write(_line(settings))
        handle.flush()
        os.fsync(handle.fileno())
    _sync_folder(path)


def append_record(path, record: dict, what: str = "journal") -> None:
    """Append ``record`` as one JSON line (NaN as null, ``cgbase.files.json_text``) on a fresh line, in one write,
    flushed to disk before returning; a torn last line is repaired first (see the module's notes)."""
    path = check_output_file(path, what)
    created = not os.path.exists(path)
    _repair(path, what)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        os.write(fd, _line(record))
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        _sync_folder(path)


def read_records(path, what: str = "journal", settings: dict | None = None, record: dict | None = None) -> list:
    """The records of a journal (none when it does not exist): the first checked against the schema ``settings``,
    the others against ``record`` (``cgbase.reading.Field``); a torn tail is left out. A line that is not a
    record is an error naming the file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> from cgbase.reading import Field
    >>> journal = os.path.join(tempfile.mkdtemp(), "runs.jsonl")
    >>> start_journal(journal, {"sweep": 1}); append_record(journal, {"run": "x"})
    >>> read_records(journal, "sweep journal", {"sweep": Field("int")}, {"run": Field("int")})
    Traceback (most recent call last):
    ...
    ValueError: ...runs.jsonl, line 2: field run is a string, not an integer: give a new folder
    """
    path = os.fspath(path)
    if not os.path.lexists(path):
        return []
    if os.path.islink(path) or not os.path.isfile(path):
        raise ValueError(f"{what} {path} is not a regular file: give a new folder")
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    lines = lines[:-1] if not _whole(lines[-1]) else lines  # the part after the last newline: a torn write
    records = []
    for number, line in enumerate(lines, 1):
        source = f"{path}, line {number}"
        try:
            value = _checked(load_json(line, source), source, what)
            schema = settings if number == 1 else record
            records.append(value if schema is None else check_record(value, schema, source))
        except ValueError as err:
            raise ValueError(f"{err}: give a new folder") from None
    return records


def _check(record: dict) -> str:
    return hashlib.sha256(json_text(record, separators=(",", ":")).encode()).hexdigest()[:16]


def _checked(value, source: str, what: str) -> dict:
    """The record of a parsed line, once its check matches."""
    if not isinstance(value, dict):
        raise ValueError(f"{source}: not a record of a {what}")
    check = value.pop(CHECK, None)
    if not isinstance(check, str):
        raise ValueError(f"{source}: field {CHECK} is missing (a journal written before lines carried a check)")
    if check != _check(value):
        raise ValueError(f"{source}: field {CHECK} does not match the record (changed after it was written)")
    return value


def _line(record: dict) -> bytes:
    if CHECK in record:
        raise ValueError(f"a journal record may not have a field named {CHECK!r}")
    record = {**record, CHECK: _check(record)}
    line = (json_text(record, separators=(",", ":")) + "\n").encode()
    if len(line) > MAX_JSON_BYTES:
        raise ValueError(f"a journal record of {len(line):,} bytes is longer than a reader accepts")
    return line


def _whole(tail: bytes) -> bool:
    """True when a last line without its newline is a whole record (the kill came just before the newline)."""
    if not tail:
        return False
    try:
        return isinstance(load_json(tail), dict)
    except ValueError:
        return False


def _repair(path: str, what: str) -> int:
    """End the journal on a newline: complete a whole last record, move a torn one to ``<path>.torn``; the number
    of whole lines left (0 for a new or empty journal)."""
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as handle:
        data = handle.read()
    cut = data.rfind(b"\n") + 1
    tail = data[cut:]
    if tail and _whole(tail):
        with open(path, "ab") as handle:
            handle.write(b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        return data.count(b"\n") + 1
    if tail:
        with open(check_output_file(path + TORN, f"{what} side file"), "ab") as side:
            side.write(tail + b"\n")
            side.flush()
            os.fsync(side.fileno())
        with open(path, "r+b") as handle:
            handle.truncate(cut)
            handle.flush()
            os.fsync(handle.fileno())
    return data.count(b"\n")


def _sync_folder(path: str) -> None:
    """Flush the folder's entry of a new file to disk (where the system allows opening folders)."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:  # pragma: no cover - systems without folder handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)
