"""Every file the toolkit reads back, read one way: bounded, checked against a schema, never trusted.

- Sizes and depths are bounded *before* parsing: a JSON text longer than ``MAX_JSON_BYTES`` or nested
  deeper than ``MAX_DEPTH`` is refused from a scan of its brackets (never a ``RecursionError``); an npz
  archive's arrays are sized from their ``.npy`` headers, and refused before any is loaded when they hold
  Python objects, more than ``MAX_ARRAYS`` arrays, or more bytes than the machine allows
  (``cgbase.memory.memory_limit``).
- Numbers are finite: JSON ``NaN``/``Infinity`` (and ``1e999``) and float arrays holding NaN or inf are
  refused, integers longer than ``MAX_DIGITS`` digits too. Writers never write them (``cgbase.files``
  writes a non-finite float as ``null``).
- Each record kind has a schema (``Field``): its required fields, their types and ranges, and no field
  outside it (``check_record``).
- Binary artifacts carry a checksum: ``atomic_savez`` stores ``checksum``, ``"sha256:"`` and the hex
  digest of every other array (name, dtype, shape and bytes, names in sorted order; see ``checksum``),
  and ``read_npz`` recomputes it. A file without one (written before checksums) is refused with a line
  saying to re-create it: nothing read back is trusted on its word. Readers re-derive what is cheap on top
  (a solution's outcomes from the game's moves, a checkpoint's episodes from its history).

A refusal is one ``ValueError`` naming the file and the field.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import struct
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass

import numpy as np

from cgbase.memory import _human, memory_limit

__all__ = ["Field", "check_record", "load_json", "read_json", "read_npz", "checksum", "MAX_JSON_BYTES",
           "MAX_DEPTH", "MAX_DIGITS", "MAX_ARRAYS"]

MAX_JSON_BYTES = 64 << 20  # a JSON file or record longer than this is refused unread
MAX_DEPTH = 200  # nesting of JSON arrays and objects
MAX_DIGITS = 40  # digits of a JSON integer (beyond 2**128)
MAX_ARRAYS = 10_000  # arrays in one npz archive
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_DTYPES = "biufcU"  # booleans, integers, floats, complex and text: never objects


# -- schemas ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    """What one field of a record may hold.

    ``kind`` is ``"int"``, ``"number"`` (an int or a finite float), ``"str"``, ``"bool"``, ``"object"``,
    ``"list"`` or ``"any"``; ``null`` allows ``None``; ``low``/``high`` bound a number (inclusive); an object's
    ``fields`` is its schema (no other key unless ``open``); a list's ``items`` checks each item, ``least`` and
    ``most`` bound its length; a ``plain`` string holds no control character (text written into a document).

    Examples
    --------
    >>> check_record({"run": 3, "seed": 0}, {"run": Field("int", low=0), "seed": Field("int")}, "runs.jsonl")
    {'run': 3, 'seed': 0}
    >>> check_record({"run": -1}, {"run": Field("int", low=0)}, "runs.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: runs.jsonl: field run is -1, below 0
    """

    kind: str
    required: bool = True
    null: bool = False
    low: float | None = None
    high: float | None = None
    fields: dict | None = None
    open: bool = False
    items: "Field | None" = None
    least: int | None = None
    most: int | None = None
    plain: bool = False


_KINDS = {"int": int, "number": (int, float), "str": str, "bool": bool, "object": dict, "list": list}


def check_record(record, schema: dict, source, where: str = "", open: bool = False) -> dict:
    """``record`` when it is an object holding exactly ``schema``'s fields (``Field``; others too when ``open``);
    ``ValueError`` naming ``source`` and the field otherwise."""
    _check_value(record, Field("object", fields=schema, open=open), source, where)
    return record


def _check_value(value, field: Field, source, where: str) -> None:
    name = where or "record"
    if value is None:
        if not field.null:
            raise ValueError(f"{source}: field {name} is null, not {_A[field.kind]}")
        return
    if field.kind != "any":
        wanted = _KINDS[field.kind]
        if isinstance(value, bool) and field.kind != "bool" or not isinstance(value, wanted):
            raise ValueError(f"{source}: field {name} is {_kind_of(value)}, not {_A[field.kind]}")
    if field.kind in ("int", "number"):
        if field.low is not None and value < field.low:
            raise ValueError(f"{source}: field {name} is {value}, below {field.low}")
        if field.high is not None and value > field.high:
            raise ValueError(f"{source}: field {name} is {value}, above {field.high}")
    elif field.kind == "object" and field.fields is not None:
        for key, sub in field.fields.items():
            if key not in value:
                if sub.required:
                    raise ValueError(f"{source}: field {_join(where, key)} is missing")
                continue
            _check_value(value[key], sub, source, _join(where, key))
        extra = [k for k in value if k not in field.fields]
        if extra and not field.open:
            raise ValueError(f"{source}: unknown field {_join(where, str(extra[0]))}")
    elif field.kind == "str" and field.plain:
        bad = next((c for c in value if unicodedata.category(c) == "Cc"), None)
        if bad is not None:
            raise ValueError(f"{source}: field {name} holds the control character {bad!r}")
    elif field.kind == "list":
        if field.least is not None and len(value) < field.least:
            raise ValueError(f"{source}: field {name} holds {len(value)} items, fewer than {field.least}")
        if field.most is not None and len(value) > field.most:
            raise ValueError(f"{source}: field {name} holds {len(value)} items, more than {field.most}")
        if field.items is not None:
            for i, item in enumerate(value):
                _check_value(item, field.items, source, f"{name}[{i}]")


_A = {"int": "an integer", "number": "a number", "str": "a string", "bool": "true or false", "object": "an object",
      "list": "a list", "any": "a value"}


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _kind_of(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


# -- JSON -------------------------------------------------------------------------------------------------
def load_json(text, source="JSON", max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_DEPTH):
    """Parse JSON text (str or bytes) within size, depth and number limits; ``ValueError`` naming ``source``.

    Examples
    --------
    >>> load_json('{"a": [1, 2.5, null]}')
    {'a': [1, 2.5, None]}
    >>> load_json("[" * 10_000 + "]" * 10_000, "rule.json")
    Traceback (most recent call last):
    ...
    ValueError: rule.json is nested deeper than 200 levels: not a file the toolkit wrote
    >>> load_json('{"q": NaN}', "q.json")
    Traceback (most recent call last):
    ...
    ValueError: q.json is not readable JSON (NaN is not a finite number)
    """
    data = text.encode() if isinstance(text, str) else bytes(text)
    if len(data) > max_bytes:
        raise ValueError(f"{source} holds {_human(len(data))}, more than the {_human(max_bytes)} a record may hold")
    if _depth(data) > max_depth:
        raise ValueError(f"{source} is nested deeper than {max_depth} levels: not a file the toolkit wrote")
    try:
        return json.loads(data, parse_constant=_no_constant, parse_float=_finite_float, parse_int=_short_int)
    except RecursionError:
        raise ValueError(f"{source} is nested too deeply: not a file the toolkit wrote") from None
    except ValueError as err:
        raise ValueError(f"{source} is not readable JSON ({err})") from None


def _depth(data: bytes) -> int:
    """The deepest nesting of brackets outside strings, counted without parsing."""
    codes = np.frombuffer(_STRING.sub(b'""', data), dtype=np.uint8)
    if codes.size == 0:
        return 0
    step = np.isin(codes, (0x5B, 0x7B)).astype(np.int64) - np.isin(codes, (0x5D, 0x7D))
    return int(np.cumsum(step).max(initial=0))


def _no_constant(name):
    raise ValueError(f"{name} is not a finite number")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is not a finite number")
    return value


def _short_int(text):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def read_json(path, what: str, schema: dict | None = None):
    """The JSON record in the file at ``path`` (a ``what``), within ``load_json``'s limits and ``schema``.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "r.json")
    >>> _ = open(path, "w").write('{"seed": "0"}')
    >>> read_json(path, "record", {"seed": Field("int")})
    Traceback (most recent call last):
    ...
    ValueError: ...r.json: field seed is a string, not an integer
    """
    path = os.fspath(path)
    _check_file(path, what)
    with open(path, "rb") as handle:
        data = handle.read(MAX_JSON_BYTES + 1)
    record = load_json(data, path)
    return record if schema is None else check_record(record, schema, path)


def _check_file(path: str, what: str) -> None:
    if not os.path.exists(path):
        raise ValueError(f"no {what} file at {path}")
    if os.path.islink(path) or not os.path.isfile(path):
        raise ValueError(f"{path} is not a regular file: give a {what} file")


# -- npz archives -----------------------------------------------------------------------------------------
def checksum(arrays: dict) -> str:
    """``"sha256:"`` and the digest of every array but ``checksum`` (name, dtype, shape, bytes; sorted by name).

    Examples
    --------
    >>> checksum({"a": np.arange(3)}) == checksum({"a": np.arange(3), "checksum": np.array("x")})
    True
    >>> checksum({"a": np.arange(3)}) == checksum({"a": np.arange(3) * 1000})
    False
    """
    digest = hashlib.sha256()
    for name in sorted(arrays):
        if name == "checksum":
            continue
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}\0{array.dtype.str}\0{array.shape}\0".encode())
        digest.update(array.reshape(-1).view(np.uint8))
    return "sha256:" + digest.hexdigest()


def read_npz(path, fmt: str, what: str, meta: dict | None = None, names=None) -> tuple[dict, dict]:
    """The arrays and the JSON meta record of an npz file in format ``fmt`` written by ``atomic_savez``.

    Before any array is loaded, its ``.npy`` header must declare a number or text dtype and the total must fit in
    memory; ``names`` (array names, or prefixes ending in ``/``) whitelists the arrays besides ``meta`` and
    ``checksum``; the meta record must fit ``meta`` (a schema, ``Field``) besides its ``format`` and ``version``;
    float arrays must be finite and the checksum must match. ``ValueError`` naming the file otherwise.

    Examples
    --------
    >>> import os, tempfile
    >>> from cgbase.files import atomic_savez
    >>> path = os.path.join(tempfile.mkdtemp(), "t.npz")
    >>> atomic_savez(path, {"meta": np.array('{"format": "demo/1"}'), "x": np.arange(4)})
    >>> read_npz(path, "demo/1", "demo", {}, ["x"])[0]["x"].tolist()
    [0, 1, 2, 3]
    """
    path = os.fspath(path)
    _check_file(path, what)
    try:
        with zipfile.ZipFile(path) as archive:
            members = _members(archive, path, what, names)
            arrays = {name: _load(archive, info) for name, info in members.items()}
    except (OSError, EOFError, ValueError, KeyError, TypeError, zipfile.BadZipFile, zipfile.LargeZipFile,
            NotImplementedError, zlib.error, struct.error) as err:
        reason = str(err) if str(err).startswith(path) else f"{path} is not a readable {what} file ({err})"
        raise ValueError(reason) from None
    record = _meta(arrays, path, fmt, what, meta)
    stored = arrays.pop("checksum", None)
    if stored is None:
        raise ValueError(f"{path} has no checksum (it was written before files carried one): re-create the {what} file")
    if stored.shape != () or str(stored) != checksum(arrays):
        raise ValueError(f"{path} is corrupt: its checksum does not match its contents (changed after it was "
                         f"written): re-create the {what} file")
    del arrays["meta"]
    for name, array in arrays.items():
        if array.dtype.kind in "fc" and not np.isfinite(array).all():
            raise ValueError(f"{path} is corrupt: array {name} holds NaN or infinite numbers")
    return arrays, record


def _members(archive: zipfile.ZipFile, path: str, what: str, names) -> dict:
    """Each array's zip entry by name, after its header was checked; the total size is checked too."""
    infos = archive.infolist()
    if len(infos) > MAX_ARRAYS:
        raise ValueError(f"{path} holds {len(infos):,} entries, more than {MAX_ARRAYS:,}: not a {what} file")
    members, total = {}, 0
    for info in infos:
        name = info.filename[:-4] if info.filename.endswith(".npy") else None
        if name is None or name in members or not _allowed(name, names):
            raise ValueError(f"{path}: unknown array {info.filename!r} in a {what} file")
        with archive.open(info) as stream:
            version = np.lib.format.read_magic(stream)
            reader = (np.lib.format.read_array_header_1_0 if version == (1, 0) else
                      np.lib.format.read_array_header_2_0)
            shape, _, dtype = reader(stream)
        if dtype.hasobject or dtype.kind not in _DTYPES or dtype.names is not None:
            raise ValueError(f"{path}: array {name} holds {'Python objects' if dtype.hasobject else dtype}, "
                             f"not numbers: not a {what} file")
        total += math.prod(shape) * dtype.itemsize
        members[name] = info
    if total > memory_limit():
        raise ValueError(f"{path}: its arrays declare {_human(total)}, more than the {_human(memory_limit())} "
                         f"allowed on this machine")
    return members


def _allowed(name: str, names) -> bool:
    if name in ("meta", "checksum") or names is None:
        return True
    return any(name == n or (n.endswith("/") and name.startswith(n)) for n in names)


def _load(archive: zipfile.ZipFile, info) -> np.ndarray:
    with archive.open(info) as stream:
        return np.lib.format.read_array(stream, allow_pickle=False)


_FORMAT = {"format": Field("str"), "version": Field("str", required=False)}


def _meta(arrays: dict, path: str, fmt: str, what: str, schema: dict | None) -> dict:
    text = arrays.get("meta")
    if text is None or text.shape != () or text.dtype.kind != "U":
        raise ValueError(f"{path} is not a readable {what} file (no meta record)")
    record = load_json(str(text), f"{path}: the meta record of this {what} file")
    if not isinstance(record, dict) or record.get("format") != fmt:
        found = record.get("format") if isinstance(record, dict) else record
        raise ValueError(f"{path} is not a readable {what} file (format {found!r}, not {fmt!r})")
    if schema is not None:
        check_record(record, {**_FORMAT, **schema}, path)
    return record
