"""Checks of the numbers every stage takes: counts, bounds, probabilities, seeds.

Each returns the value as a plain Python number or raises a ``ValueError`` that names the value
and what it must be. Booleans are not numbers here (``True`` is no bound).
"""

from __future__ import annotations

import math
import numbers
import re

__all__ = ["positive_int", "nonnegative_int", "number_in", "seed", "at_most", "flag", "text", "integer_text",
           "number_text", "INT64_MAX"]

#: the largest integer any stage takes: counts, bounds and seeds go into numpy and compiled kernels as int64
INT64_MAX = 2**63 - 1

_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: no '٣', no '1_000', no '0x10'
_NUMBER_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and type(value).__name__ != "bool_"


def positive_int(value, name: str) -> int:
    """``value`` as an int >= 1.

    Examples
    --------
    >>> positive_int(3, "bound")
    3
    >>> positive_int(0, "bound")
    Traceback (most recent call last):
    ...
    ValueError: bound must be a positive integer, got 0
    """
    if not _is_int(value) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return _int64(value, name)


def nonnegative_int(value, name: str) -> int:
    """``value`` as an int >= 0.

    Examples
    --------
    >>> nonnegative_int(0, "random_openings")
    0
    """
    if not _is_int(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return _int64(value, name)


def _int64(value, name: str) -> int:
    if value > INT64_MAX:
        raise ValueError(f"{name}={value} is too large: use at most {INT64_MAX:,} (2^63 - 1)")
    return int(value)


def integer_text(text: str, name: str, low: int | None = None, high: int = INT64_MAX) -> int:
    """The integer written in ``text`` (ASCII digits, an optional sign), from ``low`` to ``high``; else a
    ``ValueError`` naming ``name``, the text and the range.

    Examples
    --------
    >>> integer_text("12", "--bound", 1)
    12
    >>> integer_text("٣", "--bound", 1)
    Traceback (most recent call last):
    ...
    ValueError: --bound must be an integer from 1 to 9223372036854775807 written in digits 0-9, got '٣'
    """
    stripped = str(text).strip()
    value = int(stripped) if _INTEGER_TEXT.fullmatch(stripped) and len(stripped) <= 40 else None
    if value is None or (low is not None and value < low) or value > high:
        where = f"from {low} to {high}" if low is not None else f"at most {high}"
        raise ValueError(f"{name} must be an integer {where} written in digits 0-9, got {text!r}")
    return value


def number_text(text: str, name: str, low: float = -math.inf, high: float = math.inf, *, low_open: bool = False,
                high_open: bool = False) -> float:
    """The finite number written in ``text`` (ASCII digits, a point, an exponent) in the interval from ``low`` to
    ``high`` (see ``number_in``); no 'nan', no 'inf'.

    Examples
    --------
    >>> number_text("0.25", "--confidence", 0, 1)
    0.25
    >>> number_text("nan", "--confidence", 0, 1)
    Traceback (most recent call last):
    ...
    ValueError: --confidence must be a number in [0, 1], got 'nan'
    """
    stripped = str(text).strip()
    value = float(stripped) if _NUMBER_TEXT.fullmatch(stripped) and len(stripped) <= 40 else math.nan
    if not math.isfinite(value):
        value = math.nan
    try:
        return number_in(value, name, low, high, low_open=low_open, high_open=high_open)
    except ValueError:
        left, right = "(" if low_open else "[", ")" if high_open else "]"
        raise ValueError(f"{name} must be a number in {left}{_fmt(low)}, {_fmt(high)}{right}, got {text!r}") from None


def number_in(value, name: str, low: float = -math.inf, high: float = math.inf, *, low_open: bool = False,
              high_open: bool = False) -> float:
    """``value`` as a float in the interval from ``low`` to ``high`` (ends included unless open).

    Examples
    --------
    >>> number_in(0.5, "epsilon", 0, 1)
    0.5
    >>> number_in(0.0, "alpha", 0, 1, low_open=True)
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a number in (0, 1], got 0.0
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and not math.isnan(value)
    if ok:
        ok = (value > low if low_open else value >= low) and (value < high if high_open else value <= high)
    if not ok:
        left, right = "(" if low_open else "[", ")" if high_open else "]"
        raise ValueError(f"{name} must be a number in {left}{_fmt(low)}, {_fmt(high)}{right}, got {value!r}")
    return float(value)


def seed(value, name: str = "random_state") -> int:
    """A seed: a non-negative int (None is refused: the same seed must give the same result).

    Examples
    --------
    >>> seed(7)
    7
    """
    if value is None:
        raise ValueError(f"{name} must be an int seed, not None: the same seed gives the same result")
    return nonnegative_int(value, name)


def flag(value, name: str) -> bool:
    """``value`` as a bool: only True or False (not the text "false", not 0 or 1).

    Examples
    --------
    >>> flag(False, "misere")
    False
    >>> flag("false", "misere")
    Traceback (most recent call last):
    ...
    ValueError: misere must be True or False, got 'false'
    """
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def text(value, name: str, example: str) -> str:
    """``value`` when it is a string; else a ``ValueError`` with an example of one.

    >>> text(0.16, "code", "'0.16'")
    Traceback (most recent call last):
    ...
    ValueError: code must be text such as '0.16', got 0.16 (a float)
    >>> text(" ", "name", "'take-or-halve'")
    Traceback (most recent call last):
    ...
    ValueError: name must be non-empty text such as 'take-or-halve', got ' '
    """
    if not isinstance(value, str):
        raise ValueError(f"{name} must be text such as {example}, got {value!r} (a {type(value).__name__})")
    if not value.strip():
        raise ValueError(f"{name} must be non-empty text such as {example}, got {value!r}")
    return value


def at_most(value: int, name: str, limit: int, why: str) -> int:
    """``value`` when it is at most ``limit``; else a ``ValueError`` saying why the limit is there.

    Examples
    --------
    >>> at_most(40, "heaps", 16, "wythoff_nd lists its 2^heaps - 1 move directions")
    Traceback (most recent call last):
    ...
    ValueError: heaps=40 is too large: wythoff_nd lists its 2^heaps - 1 move directions; use heaps <= 16
    """
    if value > limit:
        raise ValueError(f"{name}={value} is too large: {why}; use {name} <= {limit}")
    return value


def _fmt(bound: float) -> str:
    if math.isinf(bound):
        return "inf" if bound > 0 else "-inf"
    return str(int(bound)) if float(bound).is_integer() else str(bound)
