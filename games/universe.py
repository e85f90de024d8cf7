"""Bounded universes: finite sets of positions closed under moves, with a dense index.

Every stage (solvers, learners, discovery) addresses positions by the same integer id.
A position is encoded by the mixed-radix key ``sum(p[i] * stride[i])`` with
``stride[i] = prod(limits[:i] + 1)``.  A box universe is every position with
``0 <= p[i] <= limits[i]`` and its id is the key itself; a subset universe keeps a
sorted array of keys and its id is the rank of the key.
"""

from __future__ import annotations

import math
import os

import numpy as np

#: most coordinates a universe's positions may have: their keys are products of (limit + 1) below 2^62
MAX_DIMS = 62

__all__ = ["Universe", "check_memory", "memory_limit", "MAX_DIMS"]

#: most coordinates a position may have: a universe's keys are products of (limit + 1), each at least 2, below 2^62
MAX_DIMS = 62


def memory_limit() -> int:
    """Bytes a single request may allocate: half the machine's physical memory."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 << 30


def _human(nbytes) -> str:
    """A size in words: ``1.5 GB``, or ``about 10^400 bytes`` for sizes beyond floats.

    >>> _human(3 * 2**30), _human(10**400)
    ('3.0 GB', 'about 10^400 bytes')
    """
    if nbytes >= 10**300:
        return f"about 10^{int(int(nbytes).bit_length() * math.log10(2))} bytes"
    nbytes = float(nbytes)
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if nbytes < 1024 or unit == "PB":
            return f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError  # pragma: no cover


def check_memory(nbytes, what: str) -> None:
    """Refuse, before allocating, a request of ``nbytes`` (a float, or an int of any size) that would not fit.

    Examples
    --------
    >>> check_memory(1024, "a small table")
    """
    limit = memory_limit()
    if nbytes > limit:
        raise ValueError(
            f"{what} needs about {_human(nbytes)}, more than the {_human(limit)} allowed "
            f"on this machine; use a smaller bound"
        )


def _limits_text(limits) -> str:
    """Limits for a message: ``[7, 7, 7]``, or ``[1] * 70`` when every coordinate has the same limit."""
    values = [int(x) for x in limits]
    if len(values) > 8 and len(set(values)) == 1:
        return f"[{values[0]}] * {len(values)}"
    return str(values)


def _count_text(count: int) -> str:
    return f"{count:.3g}" if count < 10**300 else f"10^{int(count.bit_length() * math.log10(2))}"


class Universe:
    """A finite set of integer positions with a dense id for each.

    Parameters
    ----------
    limits : sequence of int
        Largest value of each coordinate (the radix of coordinate i is ``limits[i] + 1``).
    keys : array of int64, optional
        Sorted keys of the positions for a subset universe; ``None`` means the whole box.
    bound : int, optional
        The bound the universe was made from, recorded for provenance.

    Examples
    --------
    >>> u = Universe([3, 3])
    >>> u.size, u.index(np.array([[1, 2]])).tolist()
    (16, [9])
    """

    def __init__(self, limits, keys=None, bound=None):
        self.limits = np.asarray(limits, dtype=np.int64).reshape(-1)
        if self.limits.size == 0 or (self.limits < 0).any():
            raise ValueError(f"universe limits must be non-negative, got {self.limits.tolist()}")
        count = math.prod(int(x) + 1 for x in self.limits)
        if count >= 2**62:
            raise ValueError(
                f"a universe with limits {_limits_text(self.limits)} has about {_count_text(count)} positions, "
                f"more than 2^62; use a smaller bound"
            )
        self.strides = np.cumprod(np.concatenate([[1], self.limits[:-1] + 1])).astype(np.int64)
        self.keys = None if keys is None else np.asarray(keys, dtype=np.int64)
        self.bound = bound

    @classmethod
    def box(cls, dims: int, bound: int) -> "Universe":
        """Every position with coordinates in ``[0, bound]``."""
        return cls([bound] * dims, bound=bound)

    @classmethod
    def from_positions(cls, positions, bound=None) -> "Universe":
        """The subset universe holding exactly ``positions`` (an (n, dims) int array)."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or len(positions) == 0:
            raise ValueError("a universe needs a non-empty (n, dims) array of positions")
        if (positions < 0).any():
            raise ValueError("positions must have non-negative coordinates")
        universe = cls(positions.max(axis=0), bound=bound)
        universe.keys = np.unique(positions @ universe.strides)
        return universe

    @property
    def dims(self) -> int:
        return int(self.limits.size)

    @property
    def is_box(self) -> bool:
        return self.keys is None

    @property
    def size(self) -> int:
        if self.keys is not None:
            return int(self.keys.size)
        return int(np.prod(self.limits + 1))

    def __len__(self) -> int:
        return self.size

    def key_of(self, positions) -> np.ndarray:
        """Keys of an (n, dims) array; -1 where a position lies outside the limits."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or positions.shape[1] != self.dims:
            raise ValueError(
                f"positions must have shape (n, {self.dims}), got {positions.shape}"
            )
        inside = ((positions >= 0) & (positions <= self.limits)).all(axis=1)
        return np.where(inside, positions @ self.strides, -1)

    def index(self, positions, strict: bool = True) -> np.ndarray:
        """Ids of positions; outside the universe: ``ValueError`` naming one, or -1."""
        keys = self.key_of(positions)
        if self.keys is None:
            ids = keys
        else:
            rank = np.searchsorted(self.keys, keys).clip(0, max(self.keys.size - 1, 0))
            ids = np.where((keys >= 0) & (self.keys[rank] == keys), rank, -1)
        if strict and (ids < 0).any():
            bad = np.asarray(positions)[np.argmax(ids < 0)]
            raise ValueError(f"position {tuple(int(x) for x in bad)} is outside the universe")
        return ids

    def contains(self, positions) -> np.ndarray:
        """Boolean mask: which positions belong to the universe."""
        return self.index(positions, strict=False) >= 0

    def decode(self, keys) -> np.ndarray:
        """Positions of the given keys, an (n, dims) int64 array."""
        keys = np.asarray(keys, dtype=np.int64)
        return (keys[:, None] // self.strides) % (self.limits + 1)

    def positions(self, ids=None) -> np.ndarray:
        """Positions of the given ids (all of them by default), in id order."""
        if ids is None:
            check_memory(self.size * self.dims * 8.0, f"the positions of a {self.size}-position universe")
            ids = np.arange(self.size, dtype=np.int64)
        ids = np.asarray(ids, dtype=np.int64)
        return self.decode(ids if self.keys is None else self.keys[ids])

    def describe(self) -> dict:
        """A JSON-friendly record of the universe's shape."""
        return {
            "limits": self.limits.tolist(),
            "box": self.is_box,
            "size": self.size,
            "bound": self.bound,
        }

    def __eq__(self, other) -> bool:
        if not isinstance(other, Universe):
            return NotImplemented
        same_keys = (self.keys is None and other.keys is None) or (
            self.keys is not None and other.keys is not None and np.array_equal(self.keys, other.keys)
        )
        return np.array_equal(self.limits, other.limits) and same_keys

    def __repr__(self) -> str:
        kind = "box" if self.is_box else "subset"
        return f"Universe({kind}, limits={self.limits.tolist()}, size={self.size})"
