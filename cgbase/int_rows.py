"""Lists of Python integer tuples read into one int64 array: what a game's Python ``moves`` returns, converted
for its graph.

``int_rows(lists, width)`` takes a list of lists of options (tuples or lists of ``width`` plain ``int``) and
gives them as a (total, width) int64 array, or None when any option is not of that common shape (a ``bool``, a
``float``, a numpy integer, an ``int`` subclass, a wrong length, anything else): the caller then checks the
options one at a time, with its own errors.  Nothing is converted with a different meaning: the array holds
exactly the integers of the options, or the answer is None.

Portable: C passes over the options (types, lengths) and their coordinates (types) and one ``np.fromiter``, about
220 ns an option of three coordinates (a compiled reader of CPython's object layout took 10 to 30 ns, and was
dropped: a mistake there is a crash of the user's process, not an exception).
"""

from __future__ import annotations

from itertools import chain

import numpy as np

__all__ = ["int_rows"]

def int_rows(lists: list, width: int) -> np.ndarray | None:
    """The options in ``lists`` (a list of lists of options, each a tuple or list of ``width`` ints) as one
    (total, width) int64 array, in order; None when any option is not of that shape or a coordinate is not
    a plain ``int`` within 64 bits (``bool``, ``float``, numpy integers included: check those one at a time).

    Examples
    --------
    >>> int_rows([[(1, 2), [3, -4]], [], [(5, 6)]], 2).tolist()
    [[1, 2], [3, -4], [5, 6]]
    >>> int_rows([[(1, True)]], 2) is None, int_rows([[(1, 2.0)]], 2) is None, int_rows([[(1,)]], 2) is None
    (True, True, True)
    """
    if type(lists) is not list or not set(map(type, lists)) <= {list}:
        raise TypeError("int_rows takes a list of lists of options")
    if type(width) is not int or width < 1:
        raise ValueError(f"width must be a positive int (the coordinates of an option), got {width!r}")
    flat = list(chain.from_iterable(lists))
    total = len(flat)
    if not total:
        return np.zeros((0, width), dtype=np.int64)
    if not set(map(type, flat)) <= {tuple, list} or set(map(len, flat)) != {width}:
        return None
    coords = list(chain.from_iterable(flat))
    if set(map(type, coords)) != {int}:  # no bool, float or numpy integer
        return None
    try:
        return np.fromiter(coords, dtype=np.int64, count=len(coords)).reshape(total, width)
    except OverflowError:  # a coordinate beyond 64 bits
        return None
