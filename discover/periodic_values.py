"""Eventually periodic values stated compactly: one period of values and the exceptions before it.

A take-and-break game's Grundy sequence can have a period of 149,459 values from n = 105,351
(octal game 0.16). ``PeriodicValues`` holds such a sequence as arrays, the form the literature
prints: ``values[r]`` is G(n) for every n >= n0 with n mod p = r, and the *exceptions* are the
heaps n < n0 whose value differs from that pattern (every other heap below n0 follows it, so
Kayles needs 12 values and 14 exceptions). Evaluation is one vectorised lookup, exact for every
heap size; the JSON record is plain integer lists, read back against a whitelist.  The heaps
below n0 are written as the exceptions, pairs [n, G(n)], when few break the pattern (0.16: 3,634
of 105,351), and as the list G(0), ..., G(n0 - 1) (field ``prefix``) when that holds fewer
integers (0.354: 7.9 million of its 10 million heaps are exceptions).  ``periodic_text`` and ``periodic_latex``
write a sequence out when it is short (Kayles: twelve values by n mod 12 and fourteen exceptions) and name it by
its period otherwise: the other form a rule takes besides an expression.

Examples
--------
>>> kayles_like = PeriodicValues.from_values([0, 1, 2, 3, 1, 2, 3, 1, 2, 3], preperiod=1, period=3)
>>> kayles_like.values.tolist(), kayles_like.exceptions.tolist()
([3, 1, 2], [[0, 0]])
>>> kayles_like([0, 1, 2, 3, 10**12]).tolist()
[0, 1, 2, 3, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PeriodicValues", "MAX_PERIOD", "periodic_text", "periodic_latex", "SHORT_PERIODIC"]

MAX_PERIOD = 10**8  # the longest period a record may hold (800 MB of int64 values)
_KEYS = ("preperiod", "period", "values")


@dataclass(frozen=True, eq=False)
class PeriodicValues:
    """G(n) for every n >= 0: period ``period`` from ``preperiod``, with the exceptions below it.

    Parameters
    ----------
    preperiod : int
        n0 >= 0: G(n + p) = G(n) for every n >= n0.
    period : int
        p >= 1.
    values : array of int
        ``values[r]`` = G(n) for n >= n0 with n mod p = r (length p, each >= 0).
    exceptions : array of int, shape (k, 2)
        Rows (n, G(n)) for the heaps n < n0 whose value is not ``values[n mod p]``, n ascending.

    Examples
    --------
    >>> PeriodicValues(2, 2, [0, 1], [[1, 5]])(np.arange(6)).tolist()
    [0, 5, 0, 1, 0, 1]
    """

    preperiod: int
    period: int
    values: np.ndarray
    exceptions: np.ndarray

    def __post_init__(self):
        preperiod, period = _count(self.preperiod, "preperiod", 0), _count(self.period, "period", 1)
        if period > MAX_PERIOD:
            raise ValueError(f"period {period:,} is longer than the {MAX_PERIOD:,} values a rule may hold")
        values = _integers(self.values, "values").reshape(-1)
        exceptions = _integers(self.exceptions, "exceptions").reshape(-1, 2)
        if values.size != period:
            raise ValueError(f"values must hold one period ({period:,} values), got {values.size:,}")
        if (values < 0).any() or (exceptions[:, 1] < 0).any():
            raise ValueError("Grundy values must be >= 0")
        heaps = exceptions[:, 0]
        if heaps.size and (heaps[0] < 0 or heaps[-1] >= preperiod or (np.diff(heaps) <= 0).any()):
            raise ValueError(f"exception heaps must be distinct, ascending and in [0, {preperiod}) (below the "
                             f"pre-period)")
        if (exceptions[:, 1] == values[heaps % period]).any():
            n = int(heaps[exceptions[:, 1] == values[heaps % period]][0])
            raise ValueError(f"heap {n} is listed as an exception but its value follows the period")
        object.__setattr__(self, "preperiod", preperiod)
        object.__setattr__(self, "period", period)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "exceptions", exceptions)

    @classmethod
    def from_values(cls, values, preperiod: int, period: int) -> "PeriodicValues":
        """The periodic form of G(0), G(1), ... given at least up to n0 + p - 1.

        Raises ``ValueError`` when the given values beyond n0 do not repeat with period p.

        Examples
        --------
        >>> PeriodicValues.from_values([5, 0, 1, 0, 1, 0], 1, 2).exceptions.tolist()
        [[0, 5]]
        """
        values = _integers(values, "values").reshape(-1)
        preperiod, period = _count(preperiod, "preperiod", 0), _count(period, "period", 1)
        if values.size < preperiod + period:
            raise ValueError(f"need the values up to n = {preperiod + period - 1} to read one period, "
                             f"got {values.size}")
        tail = values[preperiod:]
        wrong = np.flatnonzero(tail[period:] != tail[:-period])
        if wrong.size:
            n = preperiod + period + int(wrong[0])
            raise ValueError(f"G({n}) != G({n - period}): the values do not have period {period} from "
                             f"n = {preperiod}")
        residues = np.empty(period, dtype=np.int64)
        n = np.arange(preperiod, preperiod + period)
        residues[n % period] = values[n]
        early = np.arange(preperiod)
        odd = early[values[:preperiod] != residues[early % period]]
        return cls(preperiod, period, residues, np.stack([odd, values[odd]], axis=1))

    def __call__(self, heaps) -> np.ndarray:
        """G(n) for an array of heap sizes n >= 0 (int64)."""
        n = np.asarray(heaps, dtype=np.int64)
        if (n < 0).any():
            raise ValueError(f"heap sizes must be >= 0, got {int(n[n < 0].flat[0])}")
        out = self.values[n % self.period]
        listed = self.exceptions[:, 0]
        if listed.size:
            at = np.minimum(np.searchsorted(listed, n), listed.size - 1)
            hit = listed[at] == n
            out = np.where(hit, self.exceptions[at, 1], out)
        return out

    @property
    def largest(self) -> int:
        """The largest value of the sequence."""
        return int(max(self.values.max(), self.exceptions[:, 1].max(initial=0)))

    def __eq__(self, other) -> bool:
        if not isinstance(other, PeriodicValues):
            return NotImplemented
        return (self.preperiod, self.period) == (other.preperiod, other.period) and \
            np.array_equal(self.values, other.values) and np.array_equal(self.exceptions, other.exceptions)

    __hash__ = None

    def to_record(self) -> dict:
        """The JSON fields ``preperiod``, ``period``, ``values`` and either ``exceptions`` (pairs [n, G(n)])
        or ``prefix`` (G(0), ..., G(n0 - 1)), whichever holds fewer integers; lists of integers."""
        record = {"preperiod": self.preperiod, "period": self.period, "values": self.values.tolist()}
        if self.exceptions.size <= self.preperiod:
            return {**record, "exceptions": self.exceptions.tolist()}
        return {**record, "prefix": self(np.arange(self.preperiod)).tolist()}

    @classmethod
    def from_record(cls, record: dict) -> "PeriodicValues":
        """Read the fields ``to_record`` writes; anything but integers where integers belong is a ValueError.

        Examples
        --------
        >>> PeriodicValues.from_record({"preperiod": 1, "period": 1, "values": [0], "prefix": [1]}).exceptions.tolist()
        [[0, 1]]
        >>> PeriodicValues.from_record({"preperiod": 0, "period": 1, "values": ["0"], "exceptions": []})
        Traceback (most recent call last):
        ...
        ValueError: values must be a list of integers, got '0'
        """
        missing = [key for key in _KEYS if key not in record]
        if missing or ("exceptions" in record) == ("prefix" in record):
            raise ValueError(f"a periodic rule has the fields {', '.join(_KEYS)} and one of exceptions or prefix; "
                             f"got {', '.join(sorted(record)) or 'none'}")
        base = cls(record["preperiod"], record["period"], _integer_list(record["values"], "values"), [])
        if "prefix" in record:
            prefix = np.asarray(_integer_list(record["prefix"], "prefix"), dtype=np.int64)
            if prefix.size != base.preperiod:
                raise ValueError(f"prefix must hold G(n) for every n below the pre-period ({base.preperiod:,} "
                                 f"values), got {prefix.size:,}")
            if (prefix < 0).any():
                raise ValueError("Grundy values must be >= 0")
            odd = np.flatnonzero(prefix != base(np.arange(base.preperiod)))
            return cls(base.preperiod, base.period, base.values, np.stack([odd, prefix[odd]], axis=1))
        pairs = record["exceptions"]
        if not isinstance(pairs, list) or not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
            raise ValueError("exceptions must be a list of [n, G(n)] pairs")
        return cls(base.preperiod, base.period, base.values,
                   _integer_list([v for pair in pairs for v in pair], "exceptions"))


def _integer_list(items, name: str) -> list:
    if not isinstance(items, list) or not all(type(v) is int for v in items):
        wrong = items if not isinstance(items, list) else next(v for v in items if type(v) is not int)
        raise ValueError(f"{name} must be a list of integers, got {wrong!r}")
    return items


def _count(value, name: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
    return int(value)


def _integers(values, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integers, got an array of {array.dtype}")
    return array.astype(np.int64)


SHORT_PERIODIC = 36  # a period and an exception list of at most this many values are written out


def _is_short(sequence) -> bool:
    return sequence.period <= SHORT_PERIODIC and len(sequence.exceptions) <= SHORT_PERIODIC


def _exception_groups(sequence) -> list[tuple[int, list[int]]]:
    """(value, heaps) for the exceptions, in the order of their first heap."""
    groups: dict[int, list[int]] = {}
    for n, value in sequence.exceptions.tolist():
        groups.setdefault(value, []).append(n)
    return list(groups.items())


def periodic_text(sequence) -> str:
    """Plain text of a periodic Grundy sequence (``discover.periodic_values.PeriodicValues``).

    Examples
    --------
    >>> periodic_text(PeriodicValues(2, 3, [0, 1, 2], [[0, 5], [1, 5]]))
    'G(n) = v[n mod 3], v = (0, 1, 2), period 3 from n = 2; except G(n) = 5 for n ∈ {0, 1}'
    >>> periodic_text(PeriodicValues(105_351, 149_459, [0] * 149_459, []))
    'period 149,459 from n = 105,351 (values in the report)'
    """
    p, n0 = sequence.period, sequence.preperiod
    if not _is_short(sequence):
        return f"period {p:,} from n = {n0:,} (values in the report)"
    values = ", ".join(str(v) for v in sequence.values.tolist())
    text = f"G(n) = v[n mod {p}], v = ({values}), period {p} from n = {n0}"
    groups = [f"{value} for n {_in(heaps)}" for value, heaps in _exception_groups(sequence)]
    return text + (f"; except G(n) = {'; '.join(groups)}" if groups else "")


def _in(heaps: list[int]) -> str:
    return f"= {heaps[0]}" if len(heaps) == 1 else "∈ {" + ", ".join(map(str, heaps)) + "}"


def periodic_latex(sequence) -> str:
    """LaTeX of a periodic Grundy sequence: its cases when short, its period otherwise.

    Examples
    --------
    >>> print(periodic_latex(PeriodicValues(105_351, 149_459, [0] * 149_459, [])))
    \\mathcal{G}(n + 149459) = \\mathcal{G}(n) \\text{ for every } n \\ge 105351
    """
    p, n0 = sequence.period, sequence.preperiod
    if not _is_short(sequence):
        return rf"\mathcal{{G}}(n + {p}) = \mathcal{{G}}(n) \text{{ for every }} n \ge {n0}"
    rows = [rf"{value} & n \in \{{{', '.join(map(str, heaps))}\}}" for value, heaps in _exception_groups(sequence)]
    rows.append(rf"v_{{n \bmod {p}}} & \text{{otherwise}}")
    cases = r" \\ ".join(rows)
    values = ", ".join(str(v) for v in sequence.values.tolist())
    return (rf"\mathcal{{G}}(n) = \begin{{cases}} {cases} \end{{cases}},\quad v = ({values}),"
            rf"\ \text{{period {p} from }} n = {n0}")
