"""cgbase.int_rows: the compiled pass over Python's objects reads exactly what the portable passes read."""

import enum
import sys

import numpy as np
import pytest

import cgbase.int_rows as int_rows_module
from cgbase.int_rows import int_rows


@pytest.fixture(params=["compiled", "portable"])
def path(request, monkeypatch):
    if request.param == "compiled" and not int_rows_module.COMPILED:
        pytest.skip("this interpreter takes the portable path")
    monkeypatch.setattr(int_rows_module, "COMPILED", request.param == "compiled")
    return request.param


def random_lists(rng, width, rows=60):
    """Lists of options (tuples or lists) of ints of every digit count up to 64 bits, both signs."""
    magnitudes = np.array([0, 1, 255, 2**30 - 1, 2**30, 2**31, 2**59, 2**60 - 1, 2**60, 2**62, 2**63 - 1])
    lists = []
    for _ in range(rows):
        row = []
        for _ in range(int(rng.integers(0, 5))):
            coords = [int(rng.choice(magnitudes)) - int(rng.integers(0, 2)) for _ in range(width)]
            coords = [-x if rng.integers(0, 2) else x for x in coords]
            row.append(tuple(coords) if rng.integers(0, 3) else coords)
        lists.append(row)
    return lists


@pytest.mark.parametrize("width", [1, 3])
def test_every_int_is_read_as_it_is(path, width):
    rng = np.random.default_rng(7)
    for _ in range(20):
        lists = random_lists(rng, width)
        expected = [list(option) for row in lists for option in row]
        got = int_rows(lists, width)
        assert got.dtype == np.int64 and got.shape == (len(expected), width)
        assert got.tolist() == expected


class Heap(enum.IntEnum):
    ONE = 1


@pytest.mark.parametrize("bad", [True, False, 2.0, np.int64(2), np.uint8(2), Heap.ONE, 2**63, -2**63 - 1, 2**64,
                                 "2", None])
def test_an_option_not_of_plain_ints_within_64_bits_gives_none(path, bad):
    good = [(4, 5)] * 10
    assert int_rows([good, good[:3] + [(1, bad)] + good], 2) is None
    assert int_rows([[(bad, 1)]], 2) is None


@pytest.mark.parametrize("option", [(1,), (1, 2, 3), "ab", {1: 0, 2: 0}, 12, b"ab", range(2), frozenset((1, 2))])
def test_an_option_of_another_shape_gives_none(path, option):
    assert int_rows([[(0, 0), option]], 2) is None


def test_no_options(path):
    assert int_rows([], 2).shape == (0, 2)
    assert int_rows([[], []], 3).shape == (0, 3)


def test_only_a_list_of_lists_is_read():
    with pytest.raises(TypeError, match="list of lists"):
        int_rows([((1, 2),)], 2)
    with pytest.raises(TypeError, match="list of lists"):
        int_rows(([(1, 2)],), 2)


@pytest.mark.skipif(sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11)
                    or hasattr(sys, "gettotalrefcount"), reason="the compiled pass reads CPython 3.11's objects")
def test_cpython_311_takes_the_compiled_pass():
    assert int_rows_module.COMPILED
