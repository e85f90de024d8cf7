"""Result files: compressed numpy archives with a JSON meta record, written atomically.

A file is written to a temporary name in its folder and renamed, so a reader never sees a
half-written file; reading never unpickles.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile

import numpy as np

from games import make_game

__all__ = ["atomic_savez", "read_npz", "game_from_spec"]


def atomic_savez(path, arrays: dict) -> None:
    """``numpy.savez_compressed`` to a temporary file in the target folder, then renamed."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"cannot write {path}: the folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp.npz")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez_compressed(handle, **arrays)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def read_npz(path, fmt: str, what: str) -> tuple[dict, dict]:
    """The arrays and the JSON meta record of a file in format ``fmt`` (a ``ValueError`` otherwise)."""
    path = os.fspath(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        meta = json.loads(str(arrays["meta"]))
        if not isinstance(meta, dict) or meta.get("format") != fmt:
            raise ValueError(f"format {meta.get('format') if isinstance(meta, dict) else meta!r}")
    except FileNotFoundError:
        raise ValueError(f"no {what} file at {path}") from None
    except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path} is not a readable {what} file ({err})") from None
    return arrays, meta


def game_from_spec(spec: dict, game, path):
    """The game a file records, checked against ``game`` when one is given."""
    if game is None:
        if spec.get("custom"):
            raise ValueError(f"{path} holds the custom game {spec['name']!r}: pass game=... to load it")
        return make_game(spec["name"], **{k: tuple(v) if isinstance(v, list) else v for k, v in spec["params"].items()})
    if game.spec() != spec:
        raise ValueError(f"{path} holds {spec['name']} {spec['params']}, not {game!r}")
    return game
