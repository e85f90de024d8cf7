"""Lists of Python integer tuples read into one int64 array: what a game's Python ``moves`` returns, converted
for its graph.

``int_rows(lists, width)`` takes a list of lists of options (tuples or lists of ``width`` plain ``int``) and
gives them as a (total, width) int64 array, or None when any option is not of that common shape (a ``bool``, a
``float``, a numpy integer, an ``int`` subclass, a wrong length, anything else): the caller then checks the
options one at a time, with its own errors.  Nothing is converted with a different meaning: the array holds
exactly the integers of the options, or the answer is None.

On CPython 3.11 (64-bit, the standard build) the lists are read in one numba pass over the interpreter's own
objects (10 to 30 ns an option of three coordinates in the graph builder's cache-sized batches, where the portable
passes below take about 200 ns and a custom Nim's ``moves`` itself about 230 ns): the pass follows a list's items,
checks each option's type (exactly ``tuple`` or ``list``) and length, each coordinate's type (exactly ``int``) and
reads its value from its 30-bit digits (up to two of them, ``|x| < 2^60``; a larger one sends the lists to the
portable passes). It runs only after ``_layout_ok`` has read known objects through ``ctypes`` and found them laid
out as this pass expects (object header, sizes, items, digits), so that a Python built differently (a debug build,
another version's integers) takes the portable path instead. The objects are only read, with the interpreter's lock
held throughout (no other Python code runs while the pass reads them); every count is read from the objects at that
moment and checked against the array's rows, so lists that another thread changed after they were counted are
refused (portable path), never written past the array. Elsewhere: C passes over the options (types, lengths) and
their coordinates (types) and one ``np.fromiter``.
"""

from __future__ import annotations

import ctypes
import sys
from itertools import chain

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

__all__ = ["int_rows", "COMPILED"]

DIGIT_BITS = 30  # CPython's digit of a Python int


@intrinsic
def _word(typingctx, address):
    """The 8 bytes at ``address``, as an int64."""
    def codegen(context, builder, signature, args):
        return builder.load(builder.inttoptr(args[0], ir.IntType(64).as_pointer()))
    return types.int64(types.int64), codegen


@intrinsic
def _digit(typingctx, address):
    """The 4 bytes at ``address``, as an unsigned number in an int64."""
    def codegen(context, builder, signature, args):
        value = builder.load(builder.inttoptr(args[0], ir.IntType(32).as_pointer()))
        return builder.zext(value, ir.IntType(64))
    return types.int64(types.int64), codegen


# offsets in bytes of CPython 3.11's objects (64-bit, standard build): every object's type, a sized object's
# size (a tuple's or list's length; an int's count of digits, negative for a negative int), a tuple's items
# (in place), a list's items (a pointer to them), an int's digits (4 bytes each)
TYPE, SIZE, ITEMS = 8, 16, 24


@nb.njit(cache=True)  # holding the interpreter's lock: nothing changes the objects it reads
def _read(lists, width, out, tuple_type, list_type, int_type):
    """Fill ``out`` from the lists of options of the list at address ``lists``; returns the options read, ``m``,
    complete when every option had the common shape (else the first other one is option ``m``), or -1 when a row
    is not a list or the options outnumber ``out``'s rows (the lists changed since they were counted: another
    thread's work). Every count is read from the objects themselves and every write stays inside ``out``."""
    m = 0
    rows = _word(lists + ITEMS)
    for r in range(_word(lists + SIZE)):
        row = _word(rows + 8 * r)
        if _word(row + TYPE) != list_type:
            return -1
        items = _word(row + ITEMS)
        for j in range(_word(row + SIZE)):
            if m == out.shape[0]:
                return -1
            option = _word(items + 8 * j)
            kind = _word(option + TYPE)
            if kind == tuple_type:
                coords = option + ITEMS
            elif kind == list_type:
                coords = _word(option + ITEMS)
            else:
                return m
            if _word(option + SIZE) != width:
                return m
            for q in range(width):
                x = _word(coords + 8 * q)
                if _word(x + TYPE) != int_type:
                    return m
                size = _word(x + SIZE)
                digits = abs(size)
                if digits > 2:
                    return m
                value = 0
                if digits >= 1:
                    value = _digit(x + ITEMS)
                if digits == 2:
                    value |= _digit(x + ITEMS + 4) << DIGIT_BITS
                out[m, q] = -value if size < 0 else value
            m += 1
    return m


def _layout_ok() -> bool:
    """Whether this interpreter lays out tuples, lists and ints as ``_read`` reads them: known objects read
    through ``ctypes``, each read inside the object whatever its layout."""
    if sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11) or ctypes.sizeof(ctypes.c_void_p) != 8 \
            or sys.int_info.bits_per_digit != DIGIT_BITS or hasattr(sys, "gettotalrefcount"):
        return False

    def word(obj, offset):
        return ctypes.c_int64.from_address(id(obj) + offset).value

    pair, row, big, small = (5, 6), [7, 8], 2**DIGIT_BITS + 5, -9
    if word(pair, TYPE) != id(tuple) or word(pair, SIZE) != 2 or word(pair, ITEMS) != id(5):
        return False
    if word(row, TYPE) != id(list) or word(row, SIZE) != 2:
        return False
    if ctypes.c_int64.from_address(word(row, ITEMS)).value != id(row[0]):
        return False
    if word(big, TYPE) != id(int) or word(big, SIZE) != 2 or word(small, SIZE) != -1:
        return False
    digit = ctypes.c_uint32.from_address
    return (digit(id(big) + ITEMS).value, digit(id(big) + ITEMS + 4).value, digit(id(small) + ITEMS).value) == (5, 1, 9)


COMPILED = _layout_ok()  # the compiled pass reads the options here; else the portable passes


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
    if COMPILED:
        out = np.empty((sum(map(len, lists)), width), dtype=np.int64)
        if _read(id(lists), width, out, id(tuple), id(list), id(int)) == len(out):
            return out
    return _portable(lists, width)  # a coordinate of 2^60 or more is read there; other shapes refused


def _portable(lists: list, width: int) -> np.ndarray | None:
    """``int_rows`` in C passes over the options (types, lengths), their coordinates (types) and one
    ``np.fromiter``."""
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
